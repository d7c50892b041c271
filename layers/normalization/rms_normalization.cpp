#include "layers/normalization/rms_normalization.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

// axis is written by hand: an int or a list, as Keras has it.
KERAS_FIELDS(RMSNormalizationOptions, epsilon)

RMSNormalization::RMSNormalization(RMSNormalizationOptions options)
    : Layer(options, "rms_normalization"), options_(std::move(options)) {
  if (options_.axis.empty()) throw ValueError("RMSNormalization: `axis` must name at least one axis");
  if (!(options_.epsilon >= 0))
    throw ValueError(fmt::format("RMSNormalization: epsilon must be >= 0, got {}", options_.epsilon));
  axis_as_int_ = options_.axis.size() == 1;
  supports_masking_ = true;
}

std::vector<int> RMSNormalization::resolve_axes(int rank, const Shape& shape) const {
  std::vector<int> axes;
  for (int a : options_.axis) {
    const int p = a < 0 ? a + rank : a;
    if (p < 0 || p >= rank)
      throw ValueError(fmt::format("Layer \"{}\" (RMSNormalization): axis {} is out of bounds for input shape {}. "
                                   "Received: axis={}", name(), a, shape_str(shape), json(options_.axis).dump()));
    if (std::find(axes.begin(), axes.end(), p) != axes.end())
      throw ValueError(fmt::format("Layer \"{}\" (RMSNormalization): axis {} is repeated", name(), a));
    axes.push_back(p);
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

void RMSNormalization::build(const Shape& input_shape) {
  const int rank = static_cast<int>(input_shape.size());
  built_axes_ = resolve_axes(rank, input_shape);
  Shape shape;
  scale_broadcast_ = Shape(rank, 1);
  for (int a : built_axes_) {
    if (input_shape[a] <= 0)
      throw ValueError(fmt::format("Layer \"{}\" (RMSNormalization): axis {} of input shape {} must have a known "
                                   "size", name(), a, shape_str(input_shape)));
    shape.push_back(input_shape[a]);
    scale_broadcast_[a] = input_shape[a];
  }
  scale_ = add_weight("scale", shape, "ones");
}

Tensor RMSNormalization::call(const Tensor& x, bool) {
  bool ok = x.ndim() == static_cast<int>(scale_broadcast_.size());
  for (int a : built_axes_) ok = ok && x.dim(a) == scale_broadcast_[a];
  if (!ok)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" (RMSNormalization) is incompatible with the layer: it was "
                                 "built for input shape {}, but received input with shape {}", name(),
                                 shape_str(*built_input_shape()), shape_str(x.shape())));
  const Tensor ms = ops::mean(ops::square(x), built_axes_, true);
  const Tensor rms = ops::sqrt(ops::add(ms, Tensor::scalar(static_cast<float>(options_.epsilon))));
  return ops::multiply(ops::divide(x, rms), ops::reshape(scale_->value(), scale_broadcast_));
}

Shape RMSNormalization::compute_output_shape(const Shape& input_shape) const {
  resolve_axes(static_cast<int>(input_shape.size()), input_shape);
  return input_shape;
}

json RMSNormalization::get_config() const {
  json c = layer_config(*this, options_);
  // Keras's build turns the axis into a sorted list.
  std::vector<int> sorted = options_.axis;
  std::sort(sorted.begin(), sorted.end());
  if (axis_as_int_ && !built()) c["axis"] = options_.axis[0];
  else c["axis"] = built() ? sorted : options_.axis;
  return c;
}

std::shared_ptr<Layer> RMSNormalization::from_config(const json& c) {
  auto o = options_from_config<RMSNormalizationOptions>(c);
  bool as_int = true;
  if (auto it = c.find("axis"); it != c.end() && !it->is_null()) {
    if (it->is_array()) {
      o.axis = it->get<std::vector<int>>();
      as_int = false;
    } else {
      o.axis = {it->get<int>()};
    }
  }
  auto layer = std::make_shared<RMSNormalization>(o);
  layer->axis_as_int_ = as_int;
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(RMSNormalization)

}  // namespace keras::layers
