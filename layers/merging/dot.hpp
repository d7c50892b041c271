#pragma once
// Dot: the batch-wise dot product of two inputs along `axes` (one axis for both, or one per input);
// with `normalize`, the inputs are L2-normalized along those axes first (cosine proximity).
#include <array>

#include "keras/layer.hpp"

namespace keras::layers {

struct DotOptions {
  bool normalize = false;
  KERAS_LAYER_OPTIONS
};

class Dot : public Layer {
 public:
  /// The same axis for both inputs.
  explicit Dot(int axes, DotOptions options = {});
  /// One axis per input.
  Dot(std::array<int, 2> axes, DotOptions options = {});
  void build(const std::vector<Shape>& input_shapes) override;
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  /// The two axes, made non-negative, after checking the shapes.
  std::array<int, 2> resolve(const std::vector<Shape>& shapes) const;

  std::array<int, 2> axes_;
  bool single_axis_;
  DotOptions options_;

  KERAS_LAYER(Dot)
};

/// Functional shortcut: Dot(axes, {.normalize}) applied to two inputs.
Tensor dot(const std::vector<Tensor>& inputs, int axes, bool normalize = false);
KerasTensor dot(const std::vector<KerasTensor>& inputs, int axes, bool normalize = false);

}  // namespace keras::layers
