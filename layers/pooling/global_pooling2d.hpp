#pragma once
// GlobalAveragePooling2D and GlobalMaxPooling2D: the mean / max over height and width of
// channels_last images, (batch, h, w, c) → (batch, c), or (batch, 1, 1, c) with keepdims.
#include "keras/layer.hpp"

namespace keras::layers {

struct GlobalPooling2DOptions {
  bool keepdims = false;
  Shape input_shape{};  // optional, batch dimension excluded
  std::string name{};
};

class GlobalAveragePooling2D : public Layer {
 public:
  explicit GlobalAveragePooling2D(GlobalPooling2DOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::string class_name() const override { return "GlobalAveragePooling2D"; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  bool keepdims_;
};

class GlobalMaxPooling2D : public Layer {
 public:
  explicit GlobalMaxPooling2D(GlobalPooling2DOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::string class_name() const override { return "GlobalMaxPooling2D"; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  bool keepdims_;
};

}  // namespace keras::layers
