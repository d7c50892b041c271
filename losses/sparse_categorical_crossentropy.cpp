#include "losses/sparse_categorical_crossentropy.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

namespace {
// 1 where the label is not `ignore_class`, 0 where it is; shaped like y_pred without its class axis.
Tensor ignore_mask(const Tensor& labels, std::int64_t ignore_class) {
  Tensor mask = Tensor::empty(labels.shape());
  const std::int64_t* l = labels.data<std::int64_t>();
  float* m = mask.data<float>();
  for (std::int64_t i = 0; i < labels.size(); ++i) m[i] = l[i] == ignore_class ? 0.f : 1.f;
  return mask;
}
}  // namespace

Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                                       std::optional<std::int64_t> ignore_class) {
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
  // The labels as int64 class ids (float labels checked to be whole numbers); a compiled function replays it.
  auto to_ids = [](const Tensor& y_true, const Tensor& labels, std::int64_t classes) {
    if (y_true.dtype() == DType::float32) {
      const float* p = y_true.data<float>();
      for (std::int64_t i = 0; i < y_true.size(); ++i)
        if (!(p[i] == std::floor(p[i])))
          throw ValueError("sparse_categorical_crossentropy: y_true holds " + std::to_string(p[i]) +
                           ", which is not a class id; labels must be whole numbers in [0, " +
                           std::to_string(classes) + ")");
    }
    if (labels.raw_data() != y_true.raw_data()) Tensor(labels).assign(y_true);
  };
  if (y_true.dtype() == DType::string) y_true.astype(DType::int64);  // throws the conversion's error
  Tensor labels = y_true.dtype() == DType::int64 ? y_true.reshape(row_shape) : Tensor::empty(row_shape, DType::int64);
  to_ids(y_true, labels, y_pred.dim(-1));
  if (jit::tracing())
    jit::capture("sparse_categorical_crossentropy labels", {y_true}, {labels},
                 [=, classes = y_pred.dim(-1)] { to_ids(y_true, labels, classes); });
  Tensor mask;
  if (ignore_class) {  // ignored rows are computed with class 0, then zeroed
    mask = ignore_mask(labels, *ignore_class);
    labels = labels.clone();
    std::int64_t* l = labels.data<std::int64_t>();
    for (std::int64_t i = 0; i < labels.size(); ++i)
      if (l[i] == *ignore_class) l[i] = 0;
  }
  // Keras 2 turns probabilities into logits with log(clip(p)); the softmax then renormalizes them.
  constexpr float eps = 1e-7f;
  Tensor logits = from_logits ? y_pred : ops::log(ops::clip(y_pred, eps, 1.f - eps));
  Tensor out = ops::sparse_softmax_cross_entropy(labels, logits);
  return mask.defined() ? ops::multiply(out, mask) : out;
}

Tensor SparseCategoricalCrossentropy::valid_mask(const Tensor& y_true, const Tensor& y_pred) const {
  if (!options_.ignore_class) return Tensor();
  const Shape row_shape(y_pred.shape().begin(), y_pred.shape().end() - 1);
  return ignore_mask(y_true.astype(DType::int64).reshape(row_shape), *options_.ignore_class);
}

KERAS_FIELDS(SparseCategoricalCrossentropyOptions, from_logits, ignore_class)

json SparseCategoricalCrossentropy::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> SparseCategoricalCrossentropy::from_config(const json& config) {
  return loss_from_config<SparseCategoricalCrossentropy, SparseCategoricalCrossentropyOptions>(config);
}

namespace {
const bool registered = register_class<Loss, SparseCategoricalCrossentropy>("SparseCategoricalCrossentropy",
                                                                          {"sparse_categorical_crossentropy"});
}

}  // namespace keras::losses
