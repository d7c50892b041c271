#include "layers/convolutional/conv_transpose.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"

namespace keras::layers {
namespace {

template <class O>
ConvSpec spec_of(std::int64_t rank, std::int64_t filters, Sizes kernel_size, Sizes strides, Sizes dilation,
                 std::optional<Sizes> output_padding, const O& o) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
  ConvSpec s = conv_spec(rank, filters, std::move(kernel_size), std::move(strides), std::move(dilation), o);
  s.output_padding = std::move(output_padding);
  return s;
}

}  // namespace

BaseConvTranspose::BaseConvTranspose(const std::string& class_name, ConvSpec spec)
    : BaseConv(class_name, std::move(spec)) {
  if (!spec_.output_padding) return;
  const auto& op = *spec_.output_padding;
  if (static_cast<std::int64_t>(op.size()) != spec_.rank)
    throw ValueError(fmt::format("{}: `output_padding` must have {} values, got {}", cls_, spec_.rank,
                                 ops::sizes_str(op)));
  for (std::int64_t i = 0; i < spec_.rank; ++i)
    if (op[i] < 0 || op[i] >= spec_.strides[i])
      throw ValueError(fmt::format("{}: strides {} must be greater than output padding {}", cls_,
                                   ops::sizes_str(spec_.strides), ops::sizes_str(op)));
}

void BaseConvTranspose::build(const Shape& input_shape) {
  check_input(input_shape, false);
  Shape k(spec_.kernel_size.begin(), spec_.kernel_size.end());
  k.push_back(spec_.filters);
  k.push_back(input_shape.back());
  kernel_ = add_weight("kernel", k, spec_.kernel_initializer, true, spec_.kernel_regularizer, spec_.kernel_constraint);
  if (spec_.use_bias)
    bias_ = add_weight("bias", {spec_.filters}, spec_.bias_initializer, true, spec_.bias_regularizer, spec_.bias_constraint);
}

std::int64_t BaseConvTranspose::output_length(std::size_t i, std::int64_t in) const {
  return ops::deconv_output_length(in, spec_.kernel_size[i], spec_.strides[i], spec_.padding,
                                   spec_.output_padding ? (*spec_.output_padding)[i] : -1,
                                   spec_.dilation_rate[i]);
}

Tensor BaseConvTranspose::convolve(const Tensor& x, kernels::Eltwise fused) {
  return ops::conv_transpose(x, kernel_->value(), bias_ ? bias_->value() : Tensor(), spec_.strides, spec_.padding,
                             spec_.output_padding.value_or(Sizes{}), spec_.dilation_rate, fused);
}

json BaseConvTranspose::get_config() const {
  json c = conv_config({.transpose = true});
  // Keras 3 refuses a `groups` key in a transposed convolution's config: written only when it says something.
  if (spec_.groups == 1) c.erase("groups");
  return c;
}

Conv1DTranspose::Conv1DTranspose(std::int64_t filters, std::int64_t kernel_size, Conv1DTransposeOptions o)
    : BaseConvTranspose("Conv1DTranspose",
                        spec_of(1, filters, {kernel_size}, {o.strides}, {o.dilation_rate},
                                o.output_padding < 0 ? std::nullopt : std::optional(Sizes{o.output_padding}), o)) {}

Conv2DTranspose::Conv2DTranspose(std::int64_t filters, Size2 kernel_size, Conv2DTransposeOptions o)
    : BaseConvTranspose("Conv2DTranspose",
                        spec_of(2, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate),
                                o.output_padding ? std::optional(sizes(*o.output_padding)) : std::nullopt, o)) {}

Conv3DTranspose::Conv3DTranspose(std::int64_t filters, Size3 kernel_size, Conv3DTransposeOptions o)
    : BaseConvTranspose("Conv3DTranspose",
                        spec_of(3, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate),
                                o.output_padding ? std::optional(sizes(*o.output_padding)) : std::nullopt, o)) {}

std::shared_ptr<Layer> Conv1DTranspose::from_config(const json& c) { return from_config_as<Conv1DTranspose>(c, 1, "Conv1DTranspose"); }
std::shared_ptr<Layer> Conv2DTranspose::from_config(const json& c) { return from_config_as<Conv2DTranspose>(c, 2, "Conv2DTranspose"); }
std::shared_ptr<Layer> Conv3DTranspose::from_config(const json& c) { return from_config_as<Conv3DTranspose>(c, 3, "Conv3DTranspose"); }

KERAS_REGISTER_LAYER(Conv1DTranspose, "Convolution1DTranspose")
KERAS_REGISTER_LAYER(Conv2DTranspose, "Convolution2DTranspose")
KERAS_REGISTER_LAYER(Conv3DTranspose, "Convolution3DTranspose")

}  // namespace keras::layers
