#include "layers/reshaping/zero_padding.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/manipulation.hpp"

namespace keras::layers {

ZeroPadding::ZeroPadding(SpatialPairs padding, const ZeroPaddingOptions& options, const std::string& prefix)
    : Layer(options.name, prefix, options.trainable), padding_(std::move(padding)) {
  for (const auto& p : padding_)
    if (p[0] < 0 || p[1] < 0) throw ValueError(fmt::format("{}: padding values must be >= 0", prefix));
  set_input_shape(options.input_shape);
}

Shape ZeroPadding::compute_output_shape(const Shape& s) const {
  check_spatial_rank(s, static_cast<int>(padding_.size()), class_name(), name());
  Shape out = s;
  for (std::size_t i = 0; i < padding_.size(); ++i)
    if (s[i + 1] >= 0) out[i + 1] = s[i + 1] + padding_[i][0] + padding_[i][1];
  return out;
}

Tensor ZeroPadding::call(const Tensor& x, bool) {
  compute_output_shape(x.shape());
  Shape before(x.ndim(), 0), after(x.ndim(), 0);
  for (std::size_t i = 0; i < padding_.size(); ++i) {
    before[i + 1] = padding_[i][0];
    after[i + 1] = padding_[i][1];
  }
  return ops::pad(x, before, after);
}

json ZeroPadding::get_config() const {
  json c = Layer::get_config();
  c["padding"] = spatial_pairs_json(padding_);
  if (padding_.size() > 1) c["data_format"] = "channels_last";
  return c;
}

template <class L>
std::shared_ptr<Layer> ZeroPadding::make_from_config(const json& c, int rank, const SpatialPairs& fallback) {
  require_channels_last(c, L::kClassName);
  const auto pairs = c.contains("padding") ? read_spatial_pairs(c["padding"], rank, L::kClassName, "padding") : fallback;
  auto layer = std::make_shared<L>(pairs, ZeroPaddingOptions{.name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

std::shared_ptr<Layer> ZeroPadding1D::from_config(const json& c) { return make_from_config<ZeroPadding1D>(c, 1, {{1, 1}}); }

std::shared_ptr<Layer> ZeroPadding2D::from_config(const json& c) { return make_from_config<ZeroPadding2D>(c, 2, {{1, 1}, {1, 1}}); }

std::shared_ptr<Layer> ZeroPadding3D::from_config(const json& c) { return make_from_config<ZeroPadding3D>(c, 3, {{1, 1}, {1, 1}, {1, 1}}); }

KERAS_REGISTER_LAYER(ZeroPadding1D)
KERAS_REGISTER_LAYER(ZeroPadding2D)
KERAS_REGISTER_LAYER(ZeroPadding3D)

}  // namespace keras::layers
