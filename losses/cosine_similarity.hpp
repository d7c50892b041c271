#pragma once
// keras.losses.CosineSimilarity: the negative cosine similarity between targets and predictions.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample -sum(l2_normalize(y_true) * l2_normalize(y_pred)) over `axis`: -1 for vectors pointing the
/// same way, 1 for opposite ones, 0 when either is zero (keras.losses.cosine_similarity). l2_normalize
/// divides by sqrt(max(sum(x^2), 1e-12)), as tf.math.l2_normalize does.
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);

struct CosineSimilarityOptions {
  int axis = -1;
  KERAS_LOSS_OPTIONS("cosine_similarity")
};

class CosineSimilarity : public Loss {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {})
      : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return cosine_similarity(y_true, y_pred, options_.axis);
  }
  std::string class_name() const override { return "CosineSimilarity"; }
  /// {"reduction", "name", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const CosineSimilarityOptions& options() const { return options_; }

 private:
  CosineSimilarityOptions options_;
};

}  // namespace keras::losses
