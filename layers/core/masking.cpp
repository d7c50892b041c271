#include "layers/core/masking.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

KERAS_FIELDS(MaskingOptions)  // the base fields only; mask_value is positional

Masking::Masking(float mask_value, MaskingOptions options) : Layer(options, "masking"), mask_value_(mask_value) {
  supports_masking_ = true;
}

Tensor Masking::compute_mask(const Tensor& inputs, const Tensor&) const {
  if (inputs.ndim() < 2)
    throw ValueError("Layer \"" + name() + "\" (Masking) expects inputs of rank >= 2, got shape " + shape_str(inputs.shape()));
  // A step is kept when any feature differs from mask_value.
  Tensor differs = ops::greater(ops::abs(ops::subtract(inputs, Tensor::scalar(mask_value_))), Tensor::scalar(0.f));
  return ops::max(differs, {-1});
}

Tensor Masking::call(const Tensor& inputs, bool) {
  Tensor keep = compute_mask(inputs, Tensor());
  Shape s = keep.shape();
  s.push_back(1);
  return ops::multiply(inputs, keep.reshape(s));
}

json Masking::get_config() const {
  json c = Layer::get_config();
  c["mask_value"] = mask_value_;
  return c;
}

std::shared_ptr<Layer> Masking::from_config(const json& c) {
  return make_from_config<Masking, MaskingOptions>(c, config::value_or(c, "mask_value", 0.f));
}

KERAS_REGISTER_LAYER(Masking)

}  // namespace keras::layers
