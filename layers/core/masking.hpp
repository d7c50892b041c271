#pragma once
// Masking: time steps whose features all equal `mask_value` are masked (zeroed here, and skipped by
// the recurrent layers that follow, which receive the mask).
#include "keras/layer.hpp"

namespace keras::layers {

struct MaskingOptions {
  KERAS_LAYER_OPTIONS
};

class Masking : public Layer {
 public:
  explicit Masking(float mask_value = 0.f, MaskingOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  float mask_value() const { return mask_value_; }

 private:
  float mask_value_;

  KERAS_LAYER(Masking)
};

}  // namespace keras::layers
