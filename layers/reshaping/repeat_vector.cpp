#include "layers/reshaping/repeat_vector.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"

namespace keras::layers {

KERAS_FIELDS(RepeatVectorOptions)  // the base fields only; n is positional

RepeatVector::RepeatVector(std::int64_t n, RepeatVectorOptions options)
    : Layer(options, "repeat_vector"), n_(n) {
  if (n < 1)
    throw ValueError(fmt::format("RepeatVector: `n` must be a positive integer, received n={}", n));
}

Shape RepeatVector::compute_output_shape(const Shape& s) const {
  if (s.size() != 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" (RepeatVector) is incompatible with the layer: expected "
                                 "ndim=2 (batch, features), found shape {}",
                                 name(), shape_str(s)));
  return {s[0], n_, s[1]};
}

Tensor RepeatVector::call(const Tensor& x, bool) {
  compute_output_shape(x.shape());
  return ops::repeat(ops::expand_dims(x, 1), n_, 1);
}

json RepeatVector::get_config() const {
  json c = Layer::get_config();
  c["n"] = n_;
  return c;
}

std::shared_ptr<Layer> RepeatVector::from_config(const json& c) {
  return make_from_config<RepeatVector, RepeatVectorOptions>(c, config::required<std::int64_t>(c, "n"));
}

KERAS_REGISTER_LAYER(RepeatVector)

}  // namespace keras::layers
