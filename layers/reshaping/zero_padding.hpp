#pragma once
// ZeroPadding1D/2D/3D: adds (before, after) zeros along each spatial axis of channels_last inputs.
#include "keras/layer.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::layers {

struct ZeroPaddingOptions {
  std::string data_format = "channels_last";  // or "channels_first" (2D and 3D): the spatial axes from axis 2
  KERAS_LAYER_OPTIONS
};

/// The shared implementation; use ZeroPadding1D, ZeroPadding2D or ZeroPadding3D.
class ZeroPadding : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  const SpatialPairs& padding() const { return padding_; }

 protected:
  ZeroPadding(SpatialPairs padding, const ZeroPaddingOptions& options, const std::string& prefix);

 private:
  SpatialPairs padding_;
  std::size_t first_axis_ = 1;  // of the spatial axes: 2 with channels_first
};

class ZeroPadding1D : public ZeroPadding {
 public:
  explicit ZeroPadding1D(std::int64_t padding = 1, ZeroPaddingOptions options = {})
      : ZeroPadding({{padding, padding}}, options, "zero_padding1d") {}
  ZeroPadding1D(std::array<std::int64_t, 2> padding, ZeroPaddingOptions options = {})
      : ZeroPadding({padding}, options, "zero_padding1d") {}
  ZeroPadding1D(const SpatialPairs& padding, ZeroPaddingOptions options) : ZeroPadding(padding, options, "zero_padding1d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(ZeroPadding1D)
};

class ZeroPadding2D : public ZeroPadding {
 public:
  /// ((top, bottom), (left, right)).
  explicit ZeroPadding2D(const SpatialPairs& padding = {{1, 1}, {1, 1}}, ZeroPaddingOptions options = {})
      : ZeroPadding(padding, options, "zero_padding2d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(ZeroPadding2D)
};

class ZeroPadding3D : public ZeroPadding {
 public:
  explicit ZeroPadding3D(const SpatialPairs& padding = {{1, 1}, {1, 1}, {1, 1}}, ZeroPaddingOptions options = {})
      : ZeroPadding(padding, options, "zero_padding3d") {}
  static std::shared_ptr<Layer> from_config(const json& c);

  KERAS_LAYER(ZeroPadding3D)
};

}  // namespace keras::layers
