#pragma once
// The base of Attention and AdditiveAttention (tf.keras 2.x's BaseDenseAttention): inputs
// {query [batch, Tq, dim], value [batch, Tv, dim]} or {query, value, key}; scores [batch, Tq, Tv] from
// a subclass, softmax over Tv (masked positions pushed down by 1e9), dropout, then scores @ value.
#include "keras/layer.hpp"

namespace keras::layers {

/// Keras's call arguments of the attention layers beyond the inputs.
struct AttentionCallArgs {
  /// {query_mask [batch, Tq], value_mask [batch, Tv]} (0/1; either may be undefined, or the list empty).
  std::vector<Tensor> mask{};
  bool return_attention_scores = false;
  /// Position i of the query attends only to positions j <= i of the value.
  bool use_causal_mask = false;
  bool training = false;
};

class BaseDenseAttention : public Layer {
 public:
  /// From a subclass's options: the base layer's fields, dropout and causal.
  template <class Options>
  BaseDenseAttention(const Options& options, const std::string& prefix)
      : Layer(options, prefix), dropout_(options.dropout), causal_(options.causal) {
    check_dropout(prefix);
    supports_masking_ = true;
  }
  /// {query, value} or {query, value, key} under the Keras masks of query and value (from
  /// Embedding(mask_zero) or Masking): the output [batch, Tq, dim].
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Keras's full call: {output [batch, Tq, dim]} or, with return_attention_scores, {output, scores
  /// [batch, Tq, Tv]} (the probabilities after dropout, as tf.keras 2.x returns them).
  std::vector<Tensor> call_with_args(const std::vector<Tensor>& inputs, const AttentionCallArgs& args = {});
  /// The output keeps the query's mask, as in Keras.
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override {
    return {masks.empty() ? Tensor() : masks[0]};
  }
  void build(const std::vector<Shape>& input_shapes) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;

  double dropout() const { return dropout_; }

 protected:
  /// Scores [batch, Tq, Tv] for query [batch, Tq, dim] and key [batch, Tv, dim].
  virtual Tensor calculate_scores(const Tensor& query, const Tensor& key) const = 0;
  /// Weights of the subclass for the checked input shapes.
  virtual void build_scores(const std::vector<Shape>& input_shapes) = 0;
  /// Reads dropout and the deprecated `causal` field.

 private:
  void check_shapes(const std::vector<Shape>& shapes) const;
  void check_dropout(const std::string& owner) const;
  double dropout_;
  bool causal_;  // tf.keras ≤ 2.10's constructor argument, the stored form of use_causal_mask
};

}  // namespace keras::layers
