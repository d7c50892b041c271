#pragma once
// Softmax layer: softmax over `axis` (the last by default).
#include "keras/layer.hpp"

namespace keras::layers {

struct SoftmaxOptions {
  KERAS_LAYER_OPTIONS
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
