#pragma once
// BasePooling: what the max and average pooling layers of every rank share (Keras's Pooling1D/2D/3D
// bases): pool_size windows over channels_last inputs (batch, spatial..., channels), strides,
// "valid"/"same" padding.
#include "keras/layer.hpp"
#include "keras/ops/pooling.hpp"

namespace keras::layers {

/// The rank-generic arguments of a pooling layer.
struct PoolingSpec {
  std::int64_t rank = 2;
  Sizes pool_size;
  Sizes strides;  // empty: the pool size, as Keras's strides=None
  std::string padding = "valid";
  std::string data_format = "channels_last";  // or "channels_first": transposed at the layer's edges
  KERAS_LAYER_OPTIONS
};

class BasePooling : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  bool commutes_with_relu() const override { return kind_ == Kind::max; }
  bool max_pools_2x2() const override;

  const Sizes& pool_size() const { return spec_.pool_size; }
  const Sizes& strides() const { return spec_.strides; }
  const std::string& padding() const { return spec_.padding; }

 protected:
  enum class Kind { max, average };
  BasePooling(Kind kind, const std::string& class_name, PoolingSpec spec);
  /// A new L from Keras's config of a rank-`rank` pooling layer.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, std::int64_t rank, const std::string& class_name) {
    auto layer = std::make_shared<L>(read_config(config, rank, class_name));
    layer->read_base_config(config);
    return layer;
  }

 private:
  static PoolingSpec read_config(const json& config, std::int64_t rank, const std::string& class_name);
  void check_rank(const Shape& shape) const;
  Shape output_shape_last(const Shape& channels_last_shape) const;

  Kind kind_;
  std::string cls_;
  PoolingSpec spec_;
  bool channels_first_ = false;
};

}  // namespace keras::layers
