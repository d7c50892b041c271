#include "layers/core/reshape.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

KERAS_FIELDS(ReshapeOptions)  // the base fields only; target_shape is positional

Reshape::Reshape(const Shape& target_shape, ReshapeOptions options)
    : Layer(options, "reshape"), target_shape_(target_shape) {
  int unknown = 0;
  for (auto d : target_shape_) {
    if (d == -1) ++unknown;
    else if (d <= 0) throw ValueError("Reshape target_shape " + shape_str(target_shape) + " has a non-positive dimension");
  }
  if (unknown > 1) throw ValueError("Reshape target_shape " + shape_str(target_shape) + " may hold at most one -1");
}

Shape Reshape::compute_output_shape(const Shape& s) const {
  Shape out{s.empty() ? -1 : s[0]};
  std::int64_t in = 1, known = 1;
  for (std::size_t i = 1; i < s.size(); ++i) in = (in < 0 || s[i] < 0) ? -1 : in * s[i];
  for (auto d : target_shape_) if (d > 0) known *= d;
  for (auto d : target_shape_) {
    if (d != -1) { out.push_back(d); continue; }
    out.push_back(in < 0 ? -1 : in / known);
  }
  if (in >= 0 && (in % known != 0 || shape_size(Shape(out.begin() + 1, out.end())) != in))
    throw ValueError("Reshape \"" + name() + "\": total size of the new array must be unchanged, input_shape = " +
                     shape_str(Shape(s.begin() + 1, s.end())) + ", output_shape = " + shape_str(target_shape_));
  return out;
}

Tensor Reshape::call(const Tensor& inputs, bool) {
  Shape in_shape = inputs.shape();
  Shape out = compute_output_shape(in_shape);
  out[0] = inputs.dim(0);
  return ops::reshape(inputs, out);
}

json Reshape::get_config() const {
  json c = Layer::get_config();
  c["target_shape"] = target_shape_;
  return c;
}

std::shared_ptr<Layer> Reshape::from_config(const json& c) {
  return make_from_config<Reshape, ReshapeOptions>(c, config::required<Shape>(c, "target_shape"));
}

KERAS_REGISTER_LAYER(Reshape)

}  // namespace keras::layers
