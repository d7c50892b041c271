#include "layers/regularization/spatial_dropout.hpp"

#include <fmt/format.h>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

SpatialDropout::SpatialDropout(double rate, int spatial_rank, const NoiseOptions& options, const std::string& prefix)
    : NoiseLayer(options, prefix), rate_(rate), spatial_rank_(spatial_rank) {
  check_rate(rate, prefix);
}

Tensor SpatialDropout::call(const Tensor& x, bool training) {
  if (x.ndim() != spatial_rank_ + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={}, "
                                 "found shape {}",
                                 name(), class_name(), spatial_rank_ + 2, shape_str(x.shape())));
  if (!training || rate_ == 0.0) return x;
  Shape noise(x.ndim(), 1);
  noise.front() = x.dim(0);
  noise.back() = x.dim(-1);
  Tensor mask = Tensor::empty(noise);
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate_, utils::engine(generator()));
  return ops::multiply(x, mask);
}

json SpatialDropout::get_config() const {
  json c = NoiseLayer::get_config();
  c["rate"] = rate_;
  c["noise_shape"] = nullptr;
  if (spatial_rank_ > 1) c["data_format"] = "channels_last";
  return c;
}

template <class L>
std::shared_ptr<Layer> SpatialDropout::make_from_config(const json& c) {
  if (c.contains("data_format") && !c["data_format"].is_null() && c["data_format"] != "channels_last")
    throw ValueError(L::kClassName + std::string(": only data_format=\"channels_last\" is supported"));
  auto layer = std::make_shared<L>(config::required<double>(c, "rate"), options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

std::shared_ptr<Layer> SpatialDropout1D::from_config(const json& c) { return make_from_config<SpatialDropout1D>(c); }
std::shared_ptr<Layer> SpatialDropout2D::from_config(const json& c) { return make_from_config<SpatialDropout2D>(c); }
std::shared_ptr<Layer> SpatialDropout3D::from_config(const json& c) { return make_from_config<SpatialDropout3D>(c); }

KERAS_REGISTER_LAYER(SpatialDropout1D)
KERAS_REGISTER_LAYER(SpatialDropout2D)
KERAS_REGISTER_LAYER(SpatialDropout3D)

}  // namespace keras::layers
