#pragma once
// Softmax layer: softmax over `axis` (the last by default).
#include "keras/layer.hpp"

namespace keras::layers {

struct SoftmaxOptions {
  Shape input_shape{};
  std::string name{};
  bool trainable = true;
};

class Softmax : public Layer {
 public:
  explicit Softmax(int axis = -1, SoftmaxOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  int axis_;

  KERAS_LAYER(Softmax)
};

}  // namespace keras::layers
