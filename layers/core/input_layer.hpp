#pragma once
// InputLayer and Input(): declare a model's input shape (batch dimension excluded).
#include "keras/layer.hpp"

namespace keras::layers {

struct InputLayerOptions {
  std::string name{};
  std::int64_t batch_size = -1;  // -1: unknown
  std::string dtype = "float32";
};

class InputLayer : public Layer {
 public:
  explicit InputLayer(const Shape& shape, InputLayerOptions options = {});
  Tensor call(const Tensor& inputs, bool /*training*/) override { return inputs; }
  /// The dtype the input declares ("float32" unless given: "int64", "string", ...).
  DType input_dtype() const { return dtype_; }
  bool accepts_strings() const override { return true; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(InputLayer)

 private:
  DType dtype_ = DType::float32;
};

/// keras.layers.Input is keras.Input: a symbolic input (batch dimension excluded). As the first
/// entry of a Sequential model it fixes the input shape.
using keras::Input;

}  // namespace keras::layers
