#pragma once
// SpectralNormalization(layer) (Keras 3, tf.keras 2.13+): in training, divides the wrapped layer's kernel
// (or an Embedding's embeddings) by its largest singular value, estimated by `power_iterations` steps of
// the power method from the non-trainable vector `vector_u` [1, kernel.shape[-1]], and writes both back
// before calling the layer; in inference, calls the layer as it is. Weights in files: the wrapped layer's,
// then vector_u.
#include "keras/layer.hpp"

namespace keras::layers {

struct SpectralNormalizationOptions {
  std::int64_t power_iterations = 1;
  KERAS_LAYER_OPTIONS
};

class SpectralNormalization : public Layer {
 public:
  explicit SpectralNormalization(const LayerRef& layer, SpectralNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  std::vector<std::shared_ptr<Layer>> sublayers() const override { return {layer_}; }

  const LayerPtr& layer() const { return layer_; }
  const std::shared_ptr<Variable>& vector_u() const { return vector_u_; }
  /// Runs the power iterations: updates vector_u and divides the kernel by its spectral norm (what a
  /// training call does first). A kernel of zeros is left as it is.
  void normalize_weights();

 private:
  LayerPtr layer_;
  SpectralNormalizationOptions options_;
  std::shared_ptr<Variable> kernel_, vector_u_;

  KERAS_LAYER(SpectralNormalization)
};

}  // namespace keras::layers
