#pragma once
// UpSampling1D/2D/3D: repeats each step / row / column / plane `size` times (nearest neighbour) along the
// spatial axes of channels_last inputs; UpSampling2D also interpolates bilinearly (as tf.image.resize,
// half-pixel centres).
#include "keras/layer.hpp"

namespace keras::layers {

struct UpSamplingOptions {
  std::string data_format = "channels_last";  // or "channels_first" (2D and 3D): the spatial axes from axis 2
  KERAS_LAYER_OPTIONS
};

/// The shared implementation; use UpSampling1D, UpSampling2D or UpSampling3D.
class UpSampling : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  const std::vector<std::int64_t>& size() const { return size_; }
  const std::string& interpolation() const { return interpolation_; }

 protected:
  UpSampling(std::vector<std::int64_t> size, std::string interpolation, const UpSamplingOptions& options,
             const std::string& prefix);
  /// The size as an int (1-D) or a list, read from a config.
  static std::vector<std::int64_t> read_size(const json& c, int rank, const std::vector<std::int64_t>& fallback,
                                             const std::string& owner);
  json size_json() const;

 private:
  std::vector<std::int64_t> size_;
  std::string interpolation_;

 protected:
  std::size_t first_axis_ = 1;  // of the spatial axes: 2 with channels_first
  const char* data_format() const { return first_axis_ == 2 ? "channels_first" : "channels_last"; }
};

class UpSampling1D : public UpSampling {
 public:
  explicit UpSampling1D(std::int64_t size = 2, UpSamplingOptions options = {})
      : UpSampling({size}, "nearest", options, "up_sampling1d") {}
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(UpSampling1D)
};

struct UpSampling2DOptions {
  std::string interpolation = "nearest";  // "nearest" or "bilinear"
  std::string data_format = "channels_last";
  KERAS_LAYER_OPTIONS
};

class UpSampling2D : public UpSampling {
 public:
  explicit UpSampling2D(std::array<std::int64_t, 2> size = {2, 2}, UpSampling2DOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(UpSampling2D)
};

class UpSampling3D : public UpSampling {
 public:
  explicit UpSampling3D(std::array<std::int64_t, 3> size = {2, 2, 2}, UpSamplingOptions options = {})
      : UpSampling({size[0], size[1], size[2]}, "nearest", options, "up_sampling3d") {}
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(UpSampling3D)
};

}  // namespace keras::layers
