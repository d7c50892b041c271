#pragma once
// Concatenate: joins a list of inputs along `axis`; every other dimension must match.
#include "keras/layer.hpp"

namespace keras::layers {

struct ConcatenateOptions {
  KERAS_LAYER_OPTIONS
};

class Concatenate : public Layer {
 public:
  explicit Concatenate(int axis = -1, ConcatenateOptions options = {});
  void build(const std::vector<Shape>& input_shapes) override;
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  /// Joining features (the last axis): a step is masked out when any input masks it. Along another
  /// axis the masks are not combined (no mask).
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  int axis() const { return axis_; }

 private:
  int axis_;

  KERAS_LAYER(Concatenate)
};

/// Functional shortcut: Concatenate(axis) applied to the inputs.
Tensor concatenate(const std::vector<Tensor>& inputs, int axis = -1);
KerasTensor concatenate(const std::vector<KerasTensor>& inputs, int axis = -1);

}  // namespace keras::layers
