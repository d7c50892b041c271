#include "layers/core/flatten.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/shape.hpp"
#include "layers/data_format.hpp"

namespace keras::layers {

KERAS_FIELDS(FlattenOptions, data_format)

Flatten::Flatten(FlattenOptions options)
    : Layer(options, "flatten"), channels_first_(is_channels_first(options.data_format, "Flatten")) {
  data_format_ = channels_first_ ? "channels_first" : "channels_last";
}

Tensor Flatten::call(const Tensor& inputs, bool) {
  if (inputs.ndim() < 1) throw ValueError("Flatten \"" + name() + "\" needs an input with a batch axis, got a scalar");
  const auto batch = inputs.dim(0);
  const Tensor x = channels_first_ ? to_channels_last(inputs) : inputs;
  return ops::reshape(x, {batch, batch == 0 ? 0 : x.size() / batch});
}

Shape Flatten::compute_output_shape(const Shape& s) const {
  if (s.empty()) throw ValueError("Flatten \"" + name() + "\" needs an input with a batch axis");
  std::int64_t n = 1;
  for (std::size_t i = 1; i < s.size(); ++i) n = (n < 0 || s[i] < 0) ? -1 : n * s[i];
  return {s[0], n};
}

json Flatten::get_config() const {
  json c = Layer::get_config();
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> Flatten::from_config(const json& c) {
  return make_from_config<Flatten, FlattenOptions>(c);
}

KERAS_REGISTER_LAYER(Flatten)

}  // namespace keras::layers
