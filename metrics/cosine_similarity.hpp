#pragma once
// keras.metrics.CosineSimilarity: the running mean of the cosine similarity of targets and predictions.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// sum(l2_normalize(y_true) * l2_normalize(y_pred)) along `axis`, where l2_normalize(x) is
/// x / sqrt(max(sum(x^2), 1e-12)) (keras.metrics.cosine_similarity). One value per sample.
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);

struct CosineSimilarityOptions {
  std::string name = "cosine_similarity";
  int axis = -1;
};

/// Averages cosine_similarity over samples. Registered as "cosine_similarity" and "cosine_proximity".
class CosineSimilarity : public MeanMetricWrapper {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  /// {"name", "dtype", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
  int axis() const { return options_.axis; }

 private:
  CosineSimilarityOptions options_;
};

}  // namespace keras::metrics
