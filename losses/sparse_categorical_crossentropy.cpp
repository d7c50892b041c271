#include "losses/sparse_categorical_crossentropy.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits) {
  if (y_pred.ndim() == 0)
    throw ValueError("sparse_categorical_crossentropy: y_pred must have a class axis, got a scalar");
  const Shape row_shape(y_pred.shape().begin(), y_pred.shape().end() - 1);
  const bool row_shaped = y_true.shape() == row_shape;
  const bool column_shaped = y_true.ndim() == y_pred.ndim() && y_true.dim(-1) == 1 && y_true.size() == shape_size(row_shape);
  const bool flat = y_true.ndim() == 1 && y_true.size() == shape_size(row_shape);  // Keras flattens other ranks
  if (!row_shaped && !column_shaped && !flat)
    throw ValueError("sparse_categorical_crossentropy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) + "; expected one integer class id "
                     "per prediction row, shaped " + shape_str(row_shape) + ". For one-hot targets use "
                     "categorical_crossentropy");
  if (y_true.dtype() == DType::float32) {
    const float* p = y_true.data<float>();
    for (std::int64_t i = 0; i < y_true.size(); ++i)
      if (!(p[i] == std::floor(p[i])))
        throw ValueError("sparse_categorical_crossentropy: y_true holds " + std::to_string(p[i]) +
                         ", which is not a class id; labels must be whole numbers in [0, " +
                         std::to_string(y_pred.dim(-1)) + ")");
  }
  Tensor labels = y_true.astype(DType::int64).reshape(row_shape);
  // Keras 2 turns probabilities into logits with log(clip(p)); the softmax then renormalizes them.
  constexpr float eps = 1e-7f;
  Tensor logits = from_logits ? y_pred : ops::log(ops::clip(y_pred, eps, 1.f - eps));
  return ops::sparse_softmax_cross_entropy(labels, logits);
}

KERAS_FIELDS(SparseCategoricalCrossentropyOptions, from_logits)

json SparseCategoricalCrossentropy::get_config() const {
  json config = loss_config(*this, options_);
  config["ignore_class"] = nullptr;  // not supported (see from_config); Keras writes it
  return config;
}

std::shared_ptr<Loss> SparseCategoricalCrossentropy::from_config(const json& config) {
  if (config.contains("ignore_class") && !config["ignore_class"].is_null())
    throw ValueError("SparseCategoricalCrossentropy: ignore_class is not supported; mask those samples with "
                     "sample_weight = 0 instead");
  return loss_from_config<SparseCategoricalCrossentropy, SparseCategoricalCrossentropyOptions>(config);
}

namespace {
const bool registered = register_class<Loss, SparseCategoricalCrossentropy>("SparseCategoricalCrossentropy",
                                                                          {"sparse_categorical_crossentropy"});
}

}  // namespace keras::losses
