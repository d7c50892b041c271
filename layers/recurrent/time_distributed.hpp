#pragma once
// TimeDistributed(layer): applies `layer` to every time step of [batch, time, ...] (as one call on
// [batch * time, ...]), giving [batch, time, ...layer output].
#include "keras/layer.hpp"

namespace keras::layers {

struct TimeDistributedOptions {
  KERAS_LAYER_OPTIONS
};

class TimeDistributed : public Layer {
 public:
  explicit TimeDistributed(const LayerRef& layer, TimeDistributedOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  std::vector<std::shared_ptr<Layer>> sublayers() const override { return {layer_}; }
  const LayerPtr& layer() const { return layer_; }

 private:
  LayerPtr layer_;

  KERAS_LAYER(TimeDistributed)
};

}  // namespace keras::layers
