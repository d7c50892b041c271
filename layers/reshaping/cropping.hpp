#pragma once
// Cropping1D/2D/3D: removes (before, after) elements along each spatial axis of channels_last inputs.
#include "keras/layer.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::layers {

struct CroppingOptions {
  std::string data_format = "channels_last";  // or "channels_first" (2D and 3D): the spatial axes from axis 2
  KERAS_LAYER_OPTIONS
};

/// The shared implementation; use Cropping1D, Cropping2D or Cropping3D.
class Cropping : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  const SpatialPairs& cropping() const { return cropping_; }

 protected:
  Cropping(SpatialPairs cropping, const CroppingOptions& options, const std::string& prefix);

 private:
  SpatialPairs cropping_;
  std::size_t first_axis_ = 1;  // of the spatial axes: 2 with channels_first
};

class Cropping1D : public Cropping {
 public:
  explicit Cropping1D(std::array<std::int64_t, 2> cropping = {1, 1}, CroppingOptions options = {})
      : Cropping({cropping}, options, "cropping1d") {}
  Cropping1D(const SpatialPairs& cropping, CroppingOptions options) : Cropping(cropping, options, "cropping1d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(Cropping1D)
};

class Cropping2D : public Cropping {
 public:
  /// ((top, bottom), (left, right)).
  explicit Cropping2D(const SpatialPairs& cropping = {{0, 0}, {0, 0}}, CroppingOptions options = {})
      : Cropping(cropping, options, "cropping2d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(Cropping2D)
};

class Cropping3D : public Cropping {
 public:
  explicit Cropping3D(const SpatialPairs& cropping = {{1, 1}, {1, 1}, {1, 1}}, CroppingOptions options = {})
      : Cropping(cropping, options, "cropping3d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(Cropping3D)
};

}  // namespace keras::layers
