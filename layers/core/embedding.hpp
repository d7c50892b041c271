#pragma once
// Embedding: integer ids [batch, ...] → rows of `embeddings` [input_dim, output_dim]; with mask_zero,
// id 0 is padding and the output carries a mask (ids != 0) to the layers that follow.
#include <optional>

#include "keras/layer.hpp"

namespace keras::layers {

struct EmbeddingOptions {
  initializers::InitializerRef embeddings_initializer = "uniform";
  regularizers::RegularizerRef embeddings_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef embeddings_constraint{};
  bool mask_zero = false;
  std::optional<std::int64_t> input_length{};  // the sequence length, for the input shape
  KERAS_LAYER_OPTIONS
};

class Embedding : public Layer {
 public:
  Embedding(std::int64_t input_dim, std::int64_t output_dim, EmbeddingOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const std::shared_ptr<Variable>& embeddings() const { return embeddings_; }
  std::shared_ptr<Variable> token_table() const override { return options_.mask_zero ? nullptr : embeddings_; }

 private:
  std::int64_t input_dim_, output_dim_;
  EmbeddingOptions options_;
  std::shared_ptr<Variable> embeddings_;

  KERAS_LAYER(Embedding)
};

}  // namespace keras::layers
