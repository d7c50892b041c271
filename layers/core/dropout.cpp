#include "layers/core/dropout.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

// noise_shape is written by hand: None entries are null in Keras's JSON.
KERAS_FIELDS(DropoutOptions, seed)

Dropout::Dropout(double rate, DropoutOptions options)
    : Layer(options, "dropout"), rate_(rate), options_(std::move(options)), seed_generator_(options_.seed) {
  if (!(rate >= 0.0 && rate < 1.0))
    throw ValueError("Invalid value received for argument `rate`: expected a float in [0, 1), received rate=" +
                     std::to_string(rate));
  if (options_.noise_shape)
    for (auto d : *options_.noise_shape)
      if (d == 0 || d < -1)
        throw ValueError(fmt::format("Dropout: `noise_shape` sizes must be positive or None, received "
                                     "noise_shape={}", shape_str(*options_.noise_shape)));
}

Shape Dropout::mask_shape(const Shape& shape) const {
  if (!options_.noise_shape) return shape;
  const Shape& ns = *options_.noise_shape;
  if (ns.size() != shape.size())
    throw ValueError(fmt::format("Layer \"{}\" (Dropout): `noise_shape` {} must have one size per input axis; the "
                                 "input has shape {}", name(), shape_str(ns), shape_str(shape)));
  Shape out(shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out[i] = ns[i] < 0 ? shape[i] : ns[i];
    if (out[i] != 1 && out[i] != shape[i])
      throw ValueError(fmt::format("Layer \"{}\" (Dropout): `noise_shape` {} does not broadcast to the input shape "
                                   "{}: each size must be 1, None or the input's size", name(), shape_str(ns),
                                   shape_str(shape)));
  }
  return out;
}

Tensor Dropout::call(const Tensor& inputs, bool training) {
  if (!training || rate_ == 0.0) return inputs;
  // The mask holds 0 or 1 / (1 - rate); multiplying by it gives the gradient for free.
  Tensor mask = Tensor::empty(mask_shape(inputs.shape()));
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate_,
                           utils::engine(seed_generator_));
  if (jit::tracing())  // a compiled function draws a new mask at each replay, from the same generator
    jit::capture("dropout mask", {}, {mask}, [mask, rate = rate_, generator = &seed_generator_] {
      utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate, utils::engine(*generator));
    });
  return ops::multiply(inputs, mask);
}

json Dropout::get_config() const {
  json c = layer_config(*this, options_);
  c["rate"] = rate_;
  json ns = nullptr;
  if (options_.noise_shape) {
    ns = json::array();
    for (auto d : *options_.noise_shape) ns.push_back(d < 0 ? json(nullptr) : json(d));
  }
  c["noise_shape"] = ns;
  return c;
}

std::shared_ptr<Layer> Dropout::from_config(const json& c) {
  auto o = options_from_config<DropoutOptions>(c);
  if (auto it = c.find("noise_shape"); it != c.end() && !it->is_null()) {
    if (!it->is_array())
      throw ValueError("Dropout \"" + o.name + "\": `noise_shape` must be null or a list of sizes, got " + it->dump());
    Shape ns;
    for (const auto& d : *it) {
      if (!d.is_null() && !d.is_number_integer())
        throw ValueError("Dropout \"" + o.name + "\": `noise_shape` must hold integers or null, got " + it->dump());
      ns.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
    }
    o.noise_shape = ns;
  }
  auto layer = std::make_shared<Dropout>(config::required<double>(c, "rate"), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Dropout)

}  // namespace keras::layers
