#pragma once
// UnitNormalization: scales each sample to unit L2 norm over `axis` (x / sqrt(max(sum x², 1e-12))).
#include <vector>

#include "keras/layer.hpp"

namespace keras::layers {

struct UnitNormalizationOptions {
  KERAS_LAYER_OPTIONS
};

class UnitNormalization : public Layer {
 public:
  explicit UnitNormalization(std::vector<int> axis = {-1}, UnitNormalizationOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::vector<int> axis_;
  bool axis_as_int_;

  KERAS_LAYER(UnitNormalization)
};

}  // namespace keras::layers
