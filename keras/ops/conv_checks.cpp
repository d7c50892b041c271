#include "keras/ops/conv_checks.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::ops::conv_checks {

Tensor as_float(const Tensor& t, const char* op) {
  if (!t.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

std::int64_t spatial_rank(const Tensor& x, const char* op) {
  if (x.ndim() < 3 || x.ndim() > 5)
    throw ValueError(fmt::format("{} expects a 3-D, 4-D or 5-D channels_last input (batch, spatial..., channels), "
                                 "got shape {}", op, shape_str(x.shape())));
  return static_cast<std::int64_t>(x.ndim()) - 2;
}

Sizes per_axis(const Sizes& v, std::int64_t rank, const char* what, const char* op) {
  Sizes out = v.empty() ? Sizes(rank, 1) : v.size() == 1 ? Sizes(rank, v[0]) : v;
  if (static_cast<std::int64_t>(out.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` needs {} values for a {}-D input, got {}", op, what, rank, rank,
                                 sizes_str(v)));
  for (auto s : out)
    if (s <= 0) throw ValueError(fmt::format("{}: `{}` must be positive integers, got {}", op, what, sizes_str(v)));
  return out;
}

std::int64_t output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                           std::int64_t dilation, const char* op, const Shape& shape) {
  const auto out = conv_output_length(in, k, stride, padding, dilation);
  if (out <= 0)
    throw ValueError(fmt::format("{}: the window of {} (dilation included) is larger than the input dimension {} of "
                                 "shape {} under \"valid\" padding; use padding=\"same\" or a smaller window",
                                 op, (k - 1) * dilation + 1, in, shape_str(shape)));
  return out;
}

}  // namespace keras::ops::conv_checks
