#pragma once
// AdditiveAttention: Bahdanau-style attention, tf.keras.layers.AdditiveAttention: scores =
// sum(scale * tanh(query + key)) over dim, with `scale` [dim] (glorot_uniform) when use_scale.
#include "layers/attention/base_dense_attention.hpp"

namespace keras::layers {

struct AdditiveAttentionOptions {
  bool use_scale = true;
  double dropout = 0.0;
  /// tf.keras ≤ 2.10's `causal`: always apply the causal mask (use_causal_mask in calls).
  bool causal = false;
  KERAS_LAYER_OPTIONS
};

class AdditiveAttention : public BaseDenseAttention {
 public:
  explicit AdditiveAttention(AdditiveAttentionOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor calculate_scores(const Tensor& query, const Tensor& key) const override;
  void build_scores(const std::vector<Shape>& input_shapes) override;

 private:
  AdditiveAttentionOptions options_;
  std::shared_ptr<Variable> scale_;

  KERAS_LAYER(AdditiveAttention)
};

}  // namespace keras::layers
