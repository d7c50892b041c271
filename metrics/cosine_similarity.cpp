#include "metrics/cosine_similarity.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {
namespace {

Tensor l2_normalize(const Tensor& x, int axis) {
  const Tensor norm = ops::sqrt(ops::maximum(ops::sum(ops::square(x), {axis}, true), Tensor::scalar(1e-12f)));
  return ops::divide(x, norm);
}

}  // namespace

Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis) {
  const Tensor t = losses::match_target(y_true, y_pred, "cosine_similarity");
  return ops::sum(ops::multiply(l2_normalize(t, axis), l2_normalize(y_pred, axis)), {axis});
}

CosineSimilarity::CosineSimilarity(CosineSimilarityOptions options)
    : MeanMetricWrapper([axis = options.axis](const Tensor& t, const Tensor& p) { return cosine_similarity(t, p, axis); },
                        options.name, "CosineSimilarity"),
      options_(std::move(options)) {}

KERAS_FIELDS(CosineSimilarityOptions, axis)

json CosineSimilarity::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> CosineSimilarity::from_config(const json& config) {
  return metric_from_config<CosineSimilarity, CosineSimilarityOptions>(config);
}

namespace {
const bool registered =
    register_class<Metric, CosineSimilarity>("CosineSimilarity", {"cosine_similarity", "cosine_proximity"});
}

}  // namespace keras::metrics
