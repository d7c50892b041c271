#include "keras/ops/conv_checks.hpp"

#include <fmt/format.h>

#include <algorithm>

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

kernels::ConvArgs conv_args(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Sizes& strides0,
                            const std::string& padding0, const Sizes& dilation0, std::int64_t groups) {
  const char* op = "conv";
  const auto rank = spatial_rank(x, op);
  const Sizes strides = per_axis(strides0, rank, "strides", op);
  const Sizes dilation = per_axis(dilation0, rank, "dilation_rate", op);
  const auto c = x.dim(-1);
  if (groups <= 0 || c % groups != 0)
    throw ValueError(fmt::format("conv: the number of input channels ({}) must be a multiple of groups ({})", c, groups));
  if (kernel.ndim() != rank + 2 || kernel.dim(rank) * groups != c || kernel.dim(rank + 1) % groups != 0)
    throw ValueError(fmt::format(
        "conv: kernel of shape {} does not fit input of shape {} with groups={}; the kernel must be [k..., "
        "in_channels / groups = {}, filters] with filters a multiple of groups",
        shape_str(kernel.shape()), shape_str(x.shape()), groups, c / groups));
  if (bias.defined() && (bias.ndim() != 1 || bias.dim(0) != kernel.dim(rank + 1)))
    throw ValueError("conv: bias of shape " + shape_str(bias.shape()) + " does not match kernel " +
                     shape_str(kernel.shape()));
  const bool strided = std::any_of(strides.begin(), strides.end(), [](auto s) { return s > 1; });
  const bool dilated = std::any_of(dilation.begin(), dilation.end(), [](auto d) { return d > 1; });
  if (strided && dilated)
    throw ValueError("conv: `strides` > 1 not supported in conjunction with `dilation_rate` > 1. Received: strides=" +
                     sizes_str(strides) + " and dilation_rate=" + sizes_str(dilation));
  const std::string padding = normalize_padding(padding0, op, rank == 1);
  kernels::ConvArgs a{.rank = rank, .n = x.dim(0), .c = c, .oc = kernel.dim(rank + 1), .groups = groups};
  for (std::int64_t i = 0; i < rank; ++i) {
    a.in[i] = x.dim(i + 1);
    a.k[i] = kernel.dim(i);
    a.stride[i] = strides[i];
    a.dilation[i] = dilation[i];
    const auto p = conv_padding(a.in[i], a.k[i], strides[i], padding, dilation[i]);
    a.pad_l[i] = p.before;
    a.pad_r[i] = p.after;
    a.out[i] = output_length(a.in[i], a.k[i], strides[i], padding, dilation[i], op, x.shape());
  }
  return a;
}

}  // namespace keras::ops::conv_checks
