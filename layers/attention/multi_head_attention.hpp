#pragma once
// MultiHeadAttention (tf.keras.layers.MultiHeadAttention): query, key and value projected per head by
// kernels [dim, num_heads, key_dim] (biases [num_heads, key_dim]), scaled dot-product attention over
// `attention_axes` (default: every axis between batch and features), heads joined by the
// attention_output kernel [num_heads, value_dim, output_shape...]. Batched products run on oneDNN.
#include "keras/layer.hpp"

namespace keras::layers {

struct MultiHeadAttentionOptions {
  std::int64_t value_dim = -1;   // -1: None, key_dim
  double dropout = 0.0;          // on the attention probabilities, in training
  bool use_bias = true;
  Shape output_shape{};          // empty: None, the query's last dimension
  std::vector<int> attention_axes{};  // empty: None
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

/// Keras's call arguments of MultiHeadAttention beyond query, value and key.
struct MultiHeadAttentionCallArgs {
  /// 0/1 [batch, T, S] (for rank-3 inputs any axis may be 1 and broadcast): which keys each query sees.
  Tensor attention_mask{};
  /// Keras masks of the inputs ([batch, T] / [batch, S]; rank-3 inputs), combined as tf.keras 2.x does.
  Tensor query_mask{}, value_mask{}, key_mask{};
  bool return_attention_scores = false;
  bool use_causal_mask = false;
  bool training = false;
};

class MultiHeadAttention : public Layer {
 public:
  MultiHeadAttention(std::int64_t num_heads, std::int64_t key_dim, MultiHeadAttentionOptions options = {});
  void build(const std::vector<Shape>& input_shapes) override;
  /// {query, value} or {query, value, key} under their Keras masks (from Embedding(mask_zero) or Masking).
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Keras's full call: {output} or, with return_attention_scores, {output, scores [batch, heads, T, S]}
  /// (probabilities before dropout, as tf.keras returns them).
  std::vector<Tensor> call_with_args(const std::vector<Tensor>& inputs, const MultiHeadAttentionCallArgs& args = {});
  /// The output keeps the query's mask.
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override {
    return {masks.empty() ? Tensor() : masks[0]};
  }
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  std::int64_t num_heads() const { return num_heads_; }
  std::int64_t key_dim() const { return key_dim_; }
  std::int64_t value_dim() const { return value_dim_; }

 private:
  void check_shapes(const std::vector<Shape>& shapes) const;
  std::vector<int> attention_axes_for(int rank) const;
  Tensor project(const Tensor& x, const std::shared_ptr<Variable>& kernel, const std::shared_ptr<Variable>& bias,
                 std::int64_t size) const;

  std::int64_t num_heads_, key_dim_, value_dim_;
  MultiHeadAttentionOptions options_;
  std::vector<Shape> built_shapes_;  // query, value, key (written as query_shape, ... in the config)
  std::shared_ptr<Variable> query_kernel_, query_bias_, key_kernel_, key_bias_, value_kernel_, value_bias_,
      output_kernel_, output_bias_;

  KERAS_LAYER(MultiHeadAttention)
};

}  // namespace keras::layers
