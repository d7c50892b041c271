#include "layers/normalization/unit_normalization.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

UnitNormalization::UnitNormalization(std::vector<int> axis, UnitNormalizationOptions options)
    : Layer(options.name, "unit_normalization", options.trainable), axis_(std::move(axis)), axis_as_int_(axis_.size() == 1) {
  if (axis_.empty()) throw ValueError("UnitNormalization: `axis` must name at least one axis");
  set_input_shape(options.input_shape);
}

Tensor UnitNormalization::call(const Tensor& x, bool) {
  for (int a : axis_)
    if (a < -x.ndim() || a >= x.ndim() || (a + x.ndim()) % x.ndim() == 0)
      throw ValueError(fmt::format("UnitNormalization \"{}\": invalid axis {} for input shape {}", name(), a,
                                   shape_str(x.shape())));
  const Tensor sum_sq = ops::sum(ops::square(x), axis_, true);
  return x / ops::sqrt(ops::maximum(sum_sq, Tensor::scalar(1e-12f)));
}

json UnitNormalization::get_config() const {
  json c = Layer::get_config();
  c["axis"] = axis_as_int_ ? json(axis_[0]) : json(axis_);
  return c;
}

std::shared_ptr<Layer> UnitNormalization::from_config(const json& c) {
  std::vector<int> axis{-1};
  if (c.contains("axis")) axis = c["axis"].is_array() ? c["axis"].get<std::vector<int>>() : std::vector<int>{c["axis"].get<int>()};
  auto layer = std::make_shared<UnitNormalization>(axis, UnitNormalizationOptions{.name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(UnitNormalization)

}  // namespace keras::layers
