#include "layers/reshaping/zero_padding.hpp"

#include <fmt/format.h>

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

namespace {
const bool registered = register_class<Layer, ZeroPadding1D>("ZeroPadding1D") &&
                        register_class<Layer, ZeroPadding2D>("ZeroPadding2D") &&
                        register_class<Layer, ZeroPadding3D>("ZeroPadding3D");
}

}  // namespace keras::layers
