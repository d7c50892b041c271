#include "layers/recurrent/time_distributed.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

// No fields beyond the base layer's; the wrapped layer is written as a nested config.
KERAS_FIELDS(TimeDistributedOptions)

namespace {

Shape step_shape(const Shape& s) {
  Shape out{s.size() >= 2 && s[0] >= 0 && s[1] >= 0 ? s[0] * s[1] : -1};
  out.insert(out.end(), s.begin() + 2, s.end());
  return out;
}

}  // namespace

TimeDistributed::TimeDistributed(const LayerRef& layer, TimeDistributedOptions options)
    : Layer(options, "time_distributed"), layer_(layer.ptr()) {
  if (!layer_) throw ValueError("TimeDistributed received a null layer");
  supports_masking_ = true;
}

void TimeDistributed::build(const Shape& input_shape) {
  if (input_shape.size() < 3)
    throw ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, received: " +
                     shape_str(input_shape));
  layer_->ensure_built(step_shape(input_shape));
}

Tensor TimeDistributed::call(const Tensor& inputs, bool training) {
  if (inputs.ndim() < 3)
    throw ValueError("Layer \"" + name() + "\" (TimeDistributed) expects inputs [batch, time, ...], got " +
                     shape_str(inputs.shape()));
  const auto N = inputs.dim(0), T = inputs.dim(1);
  Tensor y = (*layer_)(ops::reshape(inputs, step_shape(inputs.shape())), training);
  Shape out{N, T};
  out.insert(out.end(), y.shape().begin() + 1, y.shape().end());
  return ops::reshape(y, out);
}

Shape TimeDistributed::compute_output_shape(const Shape& input_shape) const {
  Shape inner = layer_->compute_output_shape(step_shape(input_shape));
  Shape out{input_shape[0], input_shape[1]};
  out.insert(out.end(), inner.begin() + 1, inner.end());
  return out;
}

json TimeDistributed::get_config() const {
  json c = Layer::get_config();
  c["layer"] = serialize_object(layer_->class_name(), layer_->get_config());
  return c;
}

std::shared_ptr<Layer> TimeDistributed::from_config(const json& c) {
  return make_from_config<TimeDistributed, TimeDistributedOptions>(c, Layer::deserialize(c.at("layer")));
}

KERAS_REGISTER_LAYER(TimeDistributed)

}  // namespace keras::layers
