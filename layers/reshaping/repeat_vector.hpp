#pragma once
// RepeatVector: (batch, features) → (batch, n, features).
#include "keras/layer.hpp"

namespace keras::layers {

struct RepeatVectorOptions {
  KERAS_LAYER_OPTIONS
};

class RepeatVector : public Layer {
 public:
  explicit RepeatVector(std::int64_t n, RepeatVectorOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t n_;

  KERAS_LAYER(RepeatVector)
};

}  // namespace keras::layers
