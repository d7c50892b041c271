#include "losses/loss.hpp"

#include <algorithm>

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

std::string reduction_name(Reduction r) {
  switch (r) {
    case Reduction::sum_over_batch_size: return "sum_over_batch_size";
    case Reduction::sum: return "sum";
    case Reduction::none: return "none";
  }
  return "sum_over_batch_size";
}

Reduction reduction_from_name(const std::string& s) {
  if (s == "sum_over_batch_size" || s == "auto") return Reduction::sum_over_batch_size;
  if (s == "sum") return Reduction::sum;
  if (s == "none") return Reduction::none;
  throw ValueError("Unknown loss reduction '" + s + "'; expected one of auto, sum_over_batch_size, sum, none");
}

json encode(Reduction reduction) { return reduction_name(reduction); }
// Keras 3 writes None (null) for "no reduction".
void decode(const json& value, Reduction& reduction) {
  reduction = value.is_null() ? Reduction::none : reduction_from_name(value.get<std::string>());
}

Tensor Loss::operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) const {
  Tensor losses = call(y_true, y_pred);
  if (sample_weight.defined()) {
    Tensor w = sample_weight.astype(DType::float32);
    // A weight per sample broadcasts over the remaining loss axes.
    Shape ws = w.shape();
    while (ws.size() < losses.shape().size()) ws.push_back(1);
    while (ws.size() > losses.shape().size() && ws.back() == 1) ws.pop_back();
    losses = ops::multiply(losses, w.reshape(ws));
  }
  const Tensor mask = valid_mask(y_true, y_pred);
  if (mask.defined()) losses = ops::multiply(losses, mask);
  switch (common_.reduction) {
    case Reduction::none: return losses;
    case Reduction::sum: return ops::sum(losses);
    case Reduction::sum_over_batch_size: {
      if (!mask.defined()) return ops::mean(losses);
      // The mean over the counted values (0 when none counts, rather than Keras's 0/0).
      const double valid = ops::sum(mask).item();
      return ops::divide(ops::sum(losses), Tensor::scalar(valid > 0.0 ? static_cast<float>(valid) : 1.f));
    }
  }
  return losses;
}

json Loss::get_config() const {
  json c = json::object();
  config::write_fields(c, config::BaseFields<const CommonOptions>{common_});
  return c;
}

std::shared_ptr<Loss> Loss::get(const std::string& identifier) {
  return Registry<Loss>::instance().get(identifier, "loss");
}

std::shared_ptr<Loss> Loss::deserialize(const json& config) {
  return Registry<Loss>::instance().deserialize(config, "loss");
}

json serialize(const Loss& loss) { return serialize_object(loss.class_name(), loss.get_config()); }

Tensor match_target(const Tensor& y_true, const Tensor& y_pred, const std::string& loss_name) {
  if (y_pred.ndim() > 0 && y_true.ndim() + 1 == y_pred.ndim() && y_pred.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  if (y_true.ndim() > 0 && y_true.ndim() == y_pred.ndim() + 1 && y_true.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  const auto& a = y_true.shape();
  const auto& b = y_pred.shape();
  for (std::size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const auto da = a[a.size() - i], db = b[b.size() - i];
    if (da != db && da != 1 && db != 1)
      throw ValueError(loss_name + ": y_true of shape " + shape_str(a) + " and y_pred of shape " + shape_str(b) +
                       " are incompatible; give targets of the same shape as the predictions");
  }
  return y_true;
}

}  // namespace keras::losses
