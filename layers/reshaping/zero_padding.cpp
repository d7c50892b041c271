#include "layers/reshaping/zero_padding.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "layers/data_format.hpp"

namespace keras::layers {

KERAS_FIELDS(ZeroPaddingOptions, data_format)  // the padding or cropping is positional

ZeroPadding::ZeroPadding(SpatialPairs padding, const ZeroPaddingOptions& options, const std::string& prefix)
    : Layer(options, prefix), padding_(std::move(padding)),
      first_axis_(is_channels_first(options.data_format, prefix) && padding_.size() > 1 ? 2 : 1) {
  for (const auto& p : padding_)
    if (p[0] < 0 || p[1] < 0) throw ValueError(fmt::format("{}: padding values must be >= 0", prefix));
}

Shape ZeroPadding::compute_output_shape(const Shape& s) const {
  check_spatial_rank(s, static_cast<int>(padding_.size()), class_name(), name());
  Shape out = s;
  for (std::size_t i = 0; i < padding_.size(); ++i)
    if (s[i + first_axis_] >= 0) out[i + first_axis_] = s[i + first_axis_] + padding_[i][0] + padding_[i][1];
  return out;
}

Tensor ZeroPadding::call(const Tensor& x, bool) {
  compute_output_shape(x.shape());
  Shape before(x.ndim(), 0), after(x.ndim(), 0);
  for (std::size_t i = 0; i < padding_.size(); ++i) {
    before[i + first_axis_] = padding_[i][0];
    after[i + first_axis_] = padding_[i][1];
  }
  return ops::pad(x, before, after);
}

json ZeroPadding::get_config() const {
  json c = Layer::get_config();
  c["padding"] = spatial_pairs_json(padding_);
  if (padding_.size() > 1) c["data_format"] = first_axis_ == 2 ? "channels_first" : "channels_last";
  return c;
}

std::shared_ptr<Layer> ZeroPadding1D::from_config(const json& c) {
  const auto padding = spatial_pairs_from_config(c, "padding", 1, {{1, 1}}, "ZeroPadding1D");
  return make_from_config<ZeroPadding1D, ZeroPaddingOptions>(c, padding);
}

std::shared_ptr<Layer> ZeroPadding2D::from_config(const json& c) {
  const auto padding = spatial_pairs_from_config(c, "padding", 2, {{1, 1}, {1, 1}}, "ZeroPadding2D");
  return make_from_config<ZeroPadding2D, ZeroPaddingOptions>(c, padding);
}

std::shared_ptr<Layer> ZeroPadding3D::from_config(const json& c) {
  const auto padding = spatial_pairs_from_config(c, "padding", 3, {{1, 1}, {1, 1}, {1, 1}}, "ZeroPadding3D");
  return make_from_config<ZeroPadding3D, ZeroPaddingOptions>(c, padding);
}

KERAS_REGISTER_LAYER(ZeroPadding1D)
KERAS_REGISTER_LAYER(ZeroPadding2D)
KERAS_REGISTER_LAYER(ZeroPadding3D)

}  // namespace keras::layers
