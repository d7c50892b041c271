#pragma once
// Identity: passes its input through unchanged (and its mask with it); a placeholder layer.
#include "keras/layer.hpp"

namespace keras::layers {

struct IdentityOptions {
  KERAS_LAYER_OPTIONS
};

class Identity : public Layer {
 public:
  explicit Identity(IdentityOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Identity)
};

}  // namespace keras::layers
