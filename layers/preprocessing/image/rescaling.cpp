#include "layers/preprocessing/image/rescaling.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

KERAS_FIELDS(RescalingOptions, offset)

Rescaling::Rescaling(double scale, RescalingOptions options)
    : Layer(options, "rescaling"), scale_(scale), options_(options) {}

Tensor Rescaling::call(const Tensor& inputs, bool /*training*/) {
  const Tensor x = inputs.dtype() == DType::float32 ? inputs : ops::cast(inputs, DType::float32);
  return ops::add(ops::multiply(x, Tensor::scalar(static_cast<float>(scale_))),
                  Tensor::scalar(static_cast<float>(options_.offset)));
}

json Rescaling::get_config() const {
  json c = layer_config(*this, options_);
  c["scale"] = scale_;
  return c;
}

std::shared_ptr<Layer> Rescaling::from_config(const json& c) {
  return make_from_config<Rescaling, RescalingOptions>(c, config::required<double>(c, "scale"));
}

KERAS_REGISTER_LAYER(Rescaling)

}  // namespace keras::layers
