#pragma once
// MaxPooling2D: max over pool_size windows of channels_last images (batch, height, width, channels).
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::layers {

struct MaxPooling2DOptions {
  Size2 strides = {0, 0};  // {0, 0}: the pool size, as Keras's strides=None
  std::string padding = "valid";  // "valid" or "same"
  Shape input_shape{};  // optional, batch dimension excluded
  std::string name{};
};

class MaxPooling2D : public Layer {
 public:
  explicit MaxPooling2D(Size2 pool_size = {2, 2}, MaxPooling2DOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::string class_name() const override { return "MaxPooling2D"; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  Size2 pool_size() const { return pool_size_; }
  Size2 strides() const { return options_.strides; }

 private:
  void check_rank(const Shape& shape) const;

  Size2 pool_size_;
  MaxPooling2DOptions options_;
};

}  // namespace keras::layers
