#include "losses/mean_squared_error.hpp"

#include <algorithm>

#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::losses {
namespace {

// Keras's squeeze_or_expand_dimensions: (N,) against (N, 1) is reshaped; other shapes must broadcast.
Tensor match_target(const Tensor& y_true, const Tensor& y_pred, const char* fn) {
  if (y_pred.ndim() > 0 && y_true.ndim() + 1 == y_pred.ndim() && y_pred.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  if (y_true.ndim() > 0 && y_true.ndim() == y_pred.ndim() + 1 && y_true.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  const auto& a = y_true.shape();
  const auto& b = y_pred.shape();
  for (std::size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const auto da = a[a.size() - i], db = b[b.size() - i];
    if (da != db && da != 1 && db != 1)
      throw ValueError(std::string(fn) + ": y_true of shape " + shape_str(a) + " and y_pred of shape " +
                       shape_str(b) + " are incompatible; give targets of the same shape as the predictions");
  }
  return y_true;
}

}  // namespace

Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = match_target(y_true, y_pred, "mean_squared_error");
  return ops::mean(ops::square(ops::subtract(y_pred, t)), {-1});
}

std::shared_ptr<Loss> MeanSquaredError::from_config(const json& config) {
  return std::make_shared<MeanSquaredError>(MeanSquaredErrorOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "mean_squared_error")});
}

namespace {
const bool registered =
    register_class<Loss, MeanSquaredError>("MeanSquaredError", {"mean_squared_error", "mse", "MSE"});
}

}  // namespace keras::losses
