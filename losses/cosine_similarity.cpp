#include "losses/cosine_similarity.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {
namespace {

// tf.math.l2_normalize: x / sqrt(max(sum(x^2, axis), 1e-12)).
Tensor l2_normalize(const Tensor& x, int axis) {
  Tensor square_sum = ops::sum(ops::square(x), {axis}, true);
  return x / ops::sqrt(ops::maximum(square_sum, Tensor::scalar(1e-12f)));
}

}  // namespace

Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis) {
  if (axis < -y_pred.ndim() || axis >= y_pred.ndim())
    throw ValueError("cosine_similarity: axis " + std::to_string(axis) + " is out of range for y_pred of shape " +
                     shape_str(y_pred.shape()));
  Tensor t = ops::cast(match_target(y_true, y_pred, "cosine_similarity"), DType::float32);
  return -ops::sum(l2_normalize(t, axis) * l2_normalize(y_pred, axis), {axis});
}

KERAS_FIELDS(CosineSimilarityOptions, axis)

json CosineSimilarity::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> CosineSimilarity::from_config(const json& config) {
  return loss_from_config<CosineSimilarity, CosineSimilarityOptions>(config);
}

namespace {
const bool registered = register_class<Loss, CosineSimilarity>("CosineSimilarity", {"cosine_similarity"});
}

}  // namespace keras::losses
