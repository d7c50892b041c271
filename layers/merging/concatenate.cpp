#include "layers/merging/concatenate.hpp"

#include <set>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "layers/merging/merge.hpp"

namespace keras::layers {

// No fields beyond the base layer's; axis, a constructor argument, is written by hand.
KERAS_FIELDS(ConcatenateOptions)

Concatenate::Concatenate(int axis, ConcatenateOptions options) : Layer(options, "concatenate"), axis_(axis) {}

std::vector<Shape> Concatenate::compute_output_shape(const std::vector<Shape>& shapes) const {
  std::string listed;
  for (const auto& s : shapes) listed += (listed.empty() ? "" : ", ") + shape_str(s);
  const std::string err = fmt::format(
      "A `Concatenate` layer (\"{}\") requires inputs with matching shapes except for the concatenation axis {}. "
      "Received: input_shape=[{}]",
      name(), axis_, listed);
  if (shapes.empty()) throw ValueError(fmt::format("A `Concatenate` layer (\"{}\") needs at least 1 input", name()));
  const int rank = static_cast<int>(shapes[0].size());
  if (axis_ < -rank || axis_ >= rank)
    throw ValueError(fmt::format("Concatenate \"{}\": axis {} is out of bounds for inputs of rank {} ([{}])", name(),
                                 axis_, rank, listed));
  const int axis = axis_ < 0 ? axis_ + rank : axis_;
  Shape out = shapes[0];
  for (std::size_t k = 1; k < shapes.size(); ++k) {
    const Shape& s = shapes[k];
    if (static_cast<int>(s.size()) != rank) throw ValueError(err);
    for (int a = 0; a < rank; ++a) {
      if (a == axis) {
        out[a] = out[a] < 0 || s[a] < 0 ? -1 : out[a] + s[a];
      } else if (out[a] >= 0 && s[a] >= 0 && out[a] != s[a]) {
        throw ValueError(err);
      } else if (out[a] < 0) {
        out[a] = s[a];
      }
    }
  }
  return {out};
}

void Concatenate::build(const std::vector<Shape>& input_shapes) { compute_output_shape(input_shapes); }

std::vector<Tensor> Concatenate::call(const std::vector<Tensor>& inputs, const CallContext&) {
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  compute_output_shape(shapes);
  return {inputs.size() == 1 ? inputs[0] : ops::concatenate(inputs, axis_)};
}

json Concatenate::get_config() const {
  json c = Layer::get_config();
  c["axis"] = axis_;
  return c;
}

std::shared_ptr<Layer> Concatenate::from_config(const json& c) {
  return make_from_config<Concatenate, ConcatenateOptions>(c, config::value_or(c, "axis", -1));
}

Tensor concatenate(const std::vector<Tensor>& inputs, int axis) { return Concatenate(axis)(inputs); }
KerasTensor concatenate(const std::vector<KerasTensor>& inputs, int axis) {
  return std::make_shared<Concatenate>(axis)->operator()(inputs);
}

KERAS_REGISTER_LAYER(Concatenate)

std::vector<Tensor> Concatenate::compute_mask(const std::vector<Tensor>& inputs,
                                              const std::vector<Tensor>& masks) const {
  const bool last_axis = !inputs.empty() && (axis_ == -1 || axis_ == static_cast<int>(inputs[0].ndim()) - 1);
  return {last_axis ? merged_masks(masks) : Tensor()};
}

}  // namespace keras::layers
