#include "layers/normalization/unit_normalization.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

// No fields beyond the base layer's; axis, a constructor argument, is written by hand (an int or a list).
KERAS_FIELDS(UnitNormalizationOptions)

UnitNormalization::UnitNormalization(std::vector<int> axis, UnitNormalizationOptions options)
    : Layer(options, "unit_normalization"), axis_(std::move(axis)), axis_as_int_(axis_.size() == 1) {
  if (axis_.empty()) throw ValueError("UnitNormalization: `axis` must name at least one axis");
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
  return make_from_config<UnitNormalization, UnitNormalizationOptions>(c, axis);
}

KERAS_REGISTER_LAYER(UnitNormalization)

}  // namespace keras::layers
