#include "layers/reshaping/cropping.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "layers/data_format.hpp"

namespace keras::layers {

KERAS_FIELDS(CroppingOptions, data_format)  // the padding or cropping is positional

Cropping::Cropping(SpatialPairs cropping, const CroppingOptions& options, const std::string& prefix)
    : Layer(options, prefix), cropping_(std::move(cropping)),
      first_axis_(is_channels_first(options.data_format, prefix) && cropping_.size() > 1 ? 2 : 1) {
  for (const auto& p : cropping_)
    if (p[0] < 0 || p[1] < 0) throw ValueError(fmt::format("{}: cropping values must be >= 0", prefix));
}

Shape Cropping::compute_output_shape(const Shape& s) const {
  const int rank = static_cast<int>(cropping_.size());
  check_spatial_rank(s, rank, class_name(), name());
  Shape out = s;
  for (std::size_t i = 0; i < static_cast<std::size_t>(rank); ++i) {
    if (s[i + first_axis_] < 0) continue;
    out[i + first_axis_] = s[i + first_axis_] - cropping_[i][0] - cropping_[i][1];
    if (out[i + first_axis_] <= 0)
      throw ValueError(fmt::format("`cropping` parameter of `{}` layer \"{}\" must be smaller than the input shape. "
                                   "Received: inputs.shape={}, and cropping={}",
                                   class_name(), name(), shape_str(s), spatial_pairs_json(cropping_).dump()));
  }
  return out;
}

Tensor Cropping::call(const Tensor& x, bool) {
  const Shape out = compute_output_shape(x.shape());
  Shape begin(x.ndim(), 0);
  for (std::size_t i = 0; i < cropping_.size(); ++i) begin[i + first_axis_] = cropping_[i][0];
  return ops::slice(x, begin, out);
}

json Cropping::get_config() const {
  json c = Layer::get_config();
  c["cropping"] = spatial_pairs_json(cropping_);
  if (cropping_.size() > 1) c["data_format"] = first_axis_ == 2 ? "channels_first" : "channels_last";
  return c;
}

std::shared_ptr<Layer> Cropping1D::from_config(const json& c) {
  const auto cropping = spatial_pairs_from_config(c, "cropping", 1, {{1, 1}}, "Cropping1D");
  return make_from_config<Cropping1D, CroppingOptions>(c, cropping);
}

std::shared_ptr<Layer> Cropping2D::from_config(const json& c) {
  const auto cropping = spatial_pairs_from_config(c, "cropping", 2, {{0, 0}, {0, 0}}, "Cropping2D");
  return make_from_config<Cropping2D, CroppingOptions>(c, cropping);
}

std::shared_ptr<Layer> Cropping3D::from_config(const json& c) {
  const auto cropping = spatial_pairs_from_config(c, "cropping", 3, {{1, 1}, {1, 1}, {1, 1}}, "Cropping3D");
  return make_from_config<Cropping3D, CroppingOptions>(c, cropping);
}

KERAS_REGISTER_LAYER(Cropping1D)
KERAS_REGISTER_LAYER(Cropping2D)
KERAS_REGISTER_LAYER(Cropping3D)

}  // namespace keras::layers
