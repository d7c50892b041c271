#pragma once
// SpatialDropout1D/2D/3D: in training, drops whole channels (feature maps) of channels_last inputs: the
// mask has shape (batch, 1, ..., 1, channels); kept channels are scaled by 1 / (1 - rate).
#include "layers/regularization/noise_layer.hpp"

namespace keras::layers {

/// The shared implementation; use SpatialDropout1D, SpatialDropout2D or SpatialDropout3D.
class SpatialDropout : public NoiseLayer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  double rate() const { return rate_; }

 protected:
  SpatialDropout(double rate, int spatial_rank, const NoiseOptions& options, const std::string& prefix);
  template <class L>
  static std::shared_ptr<Layer> make_from_config(const json& c);

 private:
  double rate_;
  int spatial_rank_;
};

#define KERAS_SPATIAL_DROPOUT(Class, rank, prefix)                                                   \
  class Class : public SpatialDropout {                                                              \
   public:                                                                                           \
    static constexpr const char* kClassName = #Class;                                                \
    explicit Class(double rate, NoiseOptions options = {}) : SpatialDropout(rate, rank, options, prefix) {} \
    static std::shared_ptr<Layer> from_config(const json& c);                                        \
    KERAS_LAYER(Class)                                                                               \
  };

KERAS_SPATIAL_DROPOUT(SpatialDropout1D, 1, "spatial_dropout1d")
KERAS_SPATIAL_DROPOUT(SpatialDropout2D, 2, "spatial_dropout2d")
KERAS_SPATIAL_DROPOUT(SpatialDropout3D, 3, "spatial_dropout3d")
#undef KERAS_SPATIAL_DROPOUT

}  // namespace keras::layers
