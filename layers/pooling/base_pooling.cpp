#include "layers/pooling/base_pooling.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/data_format.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::layers {

KERAS_FIELDS(PoolingSpec, pool_size, strides, padding, data_format)

BasePooling::BasePooling(Kind kind, const std::string& class_name, PoolingSpec spec)
    : Layer(spec, to_snake_case(class_name)), kind_(kind), cls_(class_name), spec_(std::move(spec)) {
  if (spec_.strides.empty()) spec_.strides = spec_.pool_size;
  const auto bad = [&](const Sizes& s) {
    if (static_cast<std::int64_t>(s.size()) != spec_.rank) return true;
    for (auto v : s)
      if (v <= 0) return true;
    return false;
  };
  if (bad(spec_.pool_size) || bad(spec_.strides))
    throw ValueError(fmt::format("{}: `pool_size` and `strides` must be {} positive integers. Received: pool_size={}, "
                                 "strides={}", cls_, spec_.rank, ops::sizes_str(spec_.pool_size),
                                 ops::sizes_str(spec_.strides)));
  spec_.padding = ops::normalize_padding(spec_.padding, cls_);
  channels_first_ = is_channels_first(spec_.data_format, cls_);
  spec_.data_format = channels_first_ ? "channels_first" : "channels_last";
}

void BasePooling::check_rank(const Shape& shape) const {
  if (static_cast<std::int64_t>(shape.size()) != spec_.rank + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={} "
                                 "(batch, {}channels), found ndim={}. Full shape received: {}", name(), cls_,
                                 spec_.rank + 2, spec_.rank == 1 ? "steps, " : spec_.rank == 2 ? "height, width, "
                                 : "depth, height, width, ", shape.size(), shape_str(shape)));
}

Tensor BasePooling::call(const Tensor& given, bool) {
  check_rank(given.shape());
  const Tensor inputs = channels_first_ ? to_channels_last(given) : given;
  Tensor y = kind_ == Kind::max ? ops::max_pool(inputs, spec_.pool_size, spec_.strides, spec_.padding)
                                : ops::avg_pool(inputs, spec_.pool_size, spec_.strides, spec_.padding);
  return channels_first_ ? to_channels_first(y) : y;
}

bool BasePooling::max_pools_2x2() const {
  const Sizes two{2, 2};
  return kind_ == Kind::max && spec_.rank == 2 && !channels_first_ && spec_.pool_size == two && spec_.strides == two &&
         spec_.padding == "valid";
}

Shape BasePooling::compute_output_shape(const Shape& given) const {
  check_rank(given);
  if (channels_first_) return to_channels_first(output_shape_last(to_channels_last(given)));
  return output_shape_last(given);
}

Shape BasePooling::output_shape_last(const Shape& s) const {
  Shape out = s;
  for (std::int64_t i = 0; i < spec_.rank; ++i) {
    out[i + 1] = ops::conv_output_length(s[i + 1], spec_.pool_size[i], spec_.strides[i], spec_.padding);
    if (out[i + 1] == 0)
      throw ValueError(fmt::format("Layer \"{}\" ({}): the pool size {} does not fit input of shape {} under "
                                   "\"valid\" padding", name(), cls_, ops::sizes_str(spec_.pool_size), shape_str(s)));
  }
  return out;
}

json BasePooling::get_config() const {
  return layer_config(*this, spec_);
}

PoolingSpec BasePooling::read_config(const json& c, std::int64_t rank, const std::string& cls) {
  PoolingSpec s{.rank = rank, .pool_size = Sizes(rank, 2), .name = config::value_or(c, "name", std::string())};
  config::read_fields(with_shorthands_spelled_out(c, static_cast<int>(rank), {"pool_size", "strides"}, cls), s);
  return s;
}

}  // namespace keras::layers
