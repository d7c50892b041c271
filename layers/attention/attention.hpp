#pragma once
// Attention: dot-product (Luong-style) attention, tf.keras.layers.Attention. score_mode "dot":
// scores = query @ key^T (times the scalar `scale` with use_scale); "concat": scores =
// concat_score_weight * sum(tanh(query + key)) over dim (tanh(scale * (query + key)) with use_scale).
#include "layers/attention/base_dense_attention.hpp"

namespace keras::layers {

struct AttentionOptions {
  bool use_scale = false;
  std::string score_mode = "dot";
  double dropout = 0.0;
  /// tf.keras ≤ 2.10's `causal`: always apply the causal mask (use_causal_mask in calls).
  bool causal = false;
  KERAS_LAYER_OPTIONS
};

class Attention : public BaseDenseAttention {
 public:
  explicit Attention(AttentionOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor calculate_scores(const Tensor& query, const Tensor& key) const override;
  void build_scores(const std::vector<Shape>& input_shapes) override;

 private:
  AttentionOptions options_;
  std::shared_ptr<Variable> scale_, concat_score_weight_;

  KERAS_LAYER(Attention)
};

}  // namespace keras::layers
