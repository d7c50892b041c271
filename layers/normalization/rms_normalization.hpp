#pragma once
// RMSNormalization (Keras 3): x / sqrt(mean(x², axis) + epsilon) * scale, the mean per sample over `axis`
// (the last by default); one trainable weight, `scale`, shaped like those axes and initialized to ones.
#include <vector>

#include "keras/layer.hpp"

namespace keras::layers {

struct RMSNormalizationOptions {
  std::vector<int> axis = {-1};
  double epsilon = 1e-6;
  KERAS_LAYER_OPTIONS
};

class RMSNormalization : public Layer {
 public:
  explicit RMSNormalization(RMSNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const std::shared_ptr<Variable>& scale() const { return scale_; }

 private:
  /// The axes as non-negative, sorted indices into a rank-`rank` shape (checked).
  std::vector<int> resolve_axes(int rank, const Shape& shape) const;

  RMSNormalizationOptions options_;
  bool axis_as_int_ = true;  // as Keras, an int axis is written as an int until the layer is built
  std::vector<int> built_axes_;
  Shape scale_broadcast_;  // the scale's shape with ones on the other axes (batch included)
  std::shared_ptr<Variable> scale_;

  KERAS_LAYER(RMSNormalization)
};

}  // namespace keras::layers
