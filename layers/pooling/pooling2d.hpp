#pragma once
// Pooling2D: what MaxPooling2D and AveragePooling2D share (Keras's Pooling2D base): pool_size windows
// over channels_last images (batch, height, width, channels), strides, "valid"/"same" padding.
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::layers {

struct Pooling2DOptions {
  Size2 strides = {0, 0};  // {0, 0}: the pool size, as Keras's strides=None
  std::string padding = "valid";  // "valid" or "same"
  Shape input_shape{};  // optional, batch dimension excluded
  std::string name{};
};

class Pooling2D : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;

  Size2 pool_size() const { return pool_size_; }
  Size2 strides() const { return options_.strides; }

 protected:
  enum class Kind { max, average };
  Pooling2D(Kind kind, const std::string& class_name, Size2 pool_size, Pooling2DOptions options);
  /// Reads Keras's config (pool_size, strides, padding, data_format) into a new L.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, const std::string& class_name) {
    auto [pool_size, options] = read_config(config, class_name);
    auto layer = std::make_shared<L>(pool_size, options);
    layer->read_base_config(config);
    return layer;
  }

 private:
  static std::pair<Size2, Pooling2DOptions> read_config(const json& config, const std::string& class_name);
  void check_rank(const Shape& shape) const;

  Kind kind_;
  Size2 pool_size_;
  Pooling2DOptions options_;
};

}  // namespace keras::layers
