#pragma once
// Argument checks shared by the convolution and pooling ops (ops only).
#include <string>

#include "keras/kernels/convolution.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::ops::conv_checks {

/// t as float32; throws for an undefined tensor.
Tensor as_float(const Tensor& t, const char* op);
/// The number of spatial axes of a channels_last x (1, 2 or 3), or ValueError.
std::int64_t spatial_rank(const Tensor& x, const char* op);
/// One positive value per spatial axis: empty → all 1, one value → repeated.
Sizes per_axis(const Sizes& v, std::int64_t rank, const char* what, const char* op);
/// conv_output_length, rejecting windows larger than a "valid" input.
std::int64_t output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                           std::int64_t dilation, const char* op, const Shape& shape);
/// The checked shapes of conv(x, kernel, bias, strides, padding, dilation, groups), x, kernel and bias
/// already float (bias may be undefined); ValueError naming what does not fit.
kernels::ConvArgs conv_args(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Sizes& strides,
                            const std::string& padding, const Sizes& dilation, std::int64_t groups);

}  // namespace keras::ops::conv_checks
