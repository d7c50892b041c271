#include "layers/reshaping/up_sampling.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/data_format.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/nn.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::layers {
namespace {

// The [in, out] matrix of linear interpolation with half-pixel centres (tf.image.resize bilinear).
Tensor interpolation_matrix(std::int64_t in, std::int64_t out) {
  Tensor m = Tensor::zeros({in, out});
  float* p = m.data<float>();
  const double scale = double(in) / double(out);
  for (std::int64_t o = 0; o < out; ++o) {
    const double src = std::max((double(o) + 0.5) * scale - 0.5, 0.0);
    const auto lo = std::min(static_cast<std::int64_t>(std::floor(src)), in - 1);
    const auto hi = std::min(lo + 1, in - 1);
    const double frac = src - double(lo);
    p[lo * out + o] += static_cast<float>(1.0 - frac);
    p[hi * out + o] += static_cast<float>(frac);
  }
  return m;
}

// Resizes axis `axis` of x to `out` by linear interpolation: the axis moves last, is multiplied by the
// interpolation matrix, and moves back.
Tensor interpolate_axis(const Tensor& x, int axis, std::int64_t out) {
  std::vector<int> perm(x.ndim());
  for (int a = 0; a < x.ndim(); ++a) perm[a] = a;
  std::swap(perm[axis], perm.back());
  Tensor moved = ops::transpose(x, perm);
  return ops::transpose(ops::matmul(moved, interpolation_matrix(x.dim(axis), out)), perm);
}

}  // namespace

KERAS_FIELDS(UpSamplingOptions, data_format)  // size is positional
KERAS_FIELDS(UpSampling2DOptions, interpolation, data_format)

UpSampling::UpSampling(std::vector<std::int64_t> size, std::string interpolation, const UpSamplingOptions& options,
                       const std::string& prefix)
    : Layer(options, prefix), size_(std::move(size)), interpolation_(std::move(interpolation)),
      first_axis_(is_channels_first(options.data_format, prefix) && size_.size() > 1 ? 2 : 1) {
  for (auto s : size_)
    if (s < 1) throw ValueError(fmt::format("{}: `size` values must be >= 1, got {}", prefix, s));
  if (interpolation_ != "nearest" && interpolation_ != "bilinear")
    throw ValueError(fmt::format("`interpolation` argument should be one of: \"nearest\" or \"bilinear\". Received: "
                                 "\"{}\"",
                                 interpolation_));
}

Shape UpSampling::compute_output_shape(const Shape& s) const {
  check_spatial_rank(s, static_cast<int>(size_.size()), class_name(), name());
  Shape out = s;
  for (std::size_t i = 0; i < size_.size(); ++i)
    if (s[i + first_axis_] >= 0) out[i + first_axis_] = s[i + first_axis_] * size_[i];
  return out;
}

Tensor UpSampling::call(const Tensor& x, bool) {
  compute_output_shape(x.shape());
  Tensor out = x;
  for (std::size_t i = 0; i < size_.size(); ++i) {
    if (size_[i] == 1) continue;
    const int axis = static_cast<int>(i + first_axis_);
    out = interpolation_ == "bilinear" ? interpolate_axis(out, axis, out.dim(axis) * size_[i])
                                       : ops::repeat(out, size_[i], axis);
  }
  return out;
}

std::vector<std::int64_t> UpSampling::read_size(const json& c, int rank, const std::vector<std::int64_t>& fallback,
                                                const std::string& owner) {
  if (!c.contains("size") || c["size"].is_null()) return fallback;
  const json& s = c["size"];
  if (s.is_number()) return std::vector<std::int64_t>(rank, s.get<std::int64_t>());
  auto v = s.get<std::vector<std::int64_t>>();
  if (static_cast<int>(v.size()) != rank)
    throw ValueError(fmt::format("{}: `size` needs {} values, got {}", owner, rank, s.dump()));
  return v;
}

json UpSampling::size_json() const { return size_.size() == 1 ? json(size_[0]) : json(size_); }

json UpSampling1D::get_config() const {
  json c = Layer::get_config();
  c["size"] = size_json();
  return c;
}

std::shared_ptr<Layer> UpSampling1D::from_config(const json& c) {
  return make_from_config<UpSampling1D, UpSamplingOptions>(c, read_size(c, 1, {2}, "UpSampling1D")[0]);
}

UpSampling2D::UpSampling2D(std::array<std::int64_t, 2> size, UpSampling2DOptions options)
    : UpSampling({size[0], size[1]}, options.interpolation,
                 UpSamplingOptions{.data_format = options.data_format, .input_shape = options.input_shape,
                                   .name = options.name, .trainable = options.trainable},
                 "up_sampling2d") {}

json UpSampling2D::get_config() const {
  json c = layer_config(*this, UpSampling2DOptions{.interpolation = interpolation(), .data_format = data_format()});
  c["size"] = size_json();
  return c;
}

std::shared_ptr<Layer> UpSampling2D::from_config(const json& c) {
  const auto s = read_size(c, 2, {2, 2}, "UpSampling2D");
  return make_from_config<UpSampling2D, UpSampling2DOptions>(c, std::array<std::int64_t, 2>{s[0], s[1]});
}

json UpSampling3D::get_config() const {
  json c = Layer::get_config();
  c["size"] = size_json();
  c["data_format"] = data_format();
  return c;
}

std::shared_ptr<Layer> UpSampling3D::from_config(const json& c) {
  const auto s = read_size(c, 3, {2, 2, 2}, "UpSampling3D");
  return make_from_config<UpSampling3D, UpSamplingOptions>(c, std::array<std::int64_t, 3>{s[0], s[1], s[2]});
}

KERAS_REGISTER_LAYER(UpSampling1D)
KERAS_REGISTER_LAYER(UpSampling2D)
KERAS_REGISTER_LAYER(UpSampling3D)

}  // namespace keras::layers
