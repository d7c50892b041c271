#pragma once
// Flatten: (batch, d1, d2, ...) → (batch, d1 * d2 * ...). With data_format "channels_first", as in Keras,
// the channel axis 1 is moved last before flattening, so a Dense after it keeps its weights' order
// whichever format the layers before it use.
#include "keras/layer.hpp"

namespace keras::layers {

struct FlattenOptions {
  std::string data_format = "channels_last";
  KERAS_LAYER_OPTIONS
};

class Flatten : public Layer {
 public:
  explicit Flatten(FlattenOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Flatten)

 private:
  bool channels_first_ = false;
  std::string data_format_;
};

}  // namespace keras::layers
