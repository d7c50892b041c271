#include "layers/convolutional/conv_transpose.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"

namespace keras::layers {
namespace {

template <class A>
Sizes sizes(const A& a) {
  return Sizes(a.begin(), a.end());
}

template <class O>
ConvSpec spec_of(std::int64_t rank, std::int64_t filters, Sizes kernel_size, Sizes strides, Sizes dilation,
                 Sizes output_padding, const O& o) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
  return with_penalties({.rank = rank, .filters = filters, .kernel_size = std::move(kernel_size), .strides = std::move(strides),
          .dilation_rate = std::move(dilation), .padding = o.padding, .activation = o.activation,
          .use_bias = o.use_bias, .kernel_initializer = o.kernel_initializer,
          .bias_initializer = o.bias_initializer, .output_padding = std::move(output_padding),
          .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable}, o);
}

}  // namespace

BaseConvTranspose::BaseConvTranspose(const std::string& class_name, ConvSpec spec)
    : BaseConv(class_name, std::move(spec)) {
  if (spec_.groups != 1) throw ValueError(cls_ + ": grouped transposed convolutions (groups > 1) are not supported");
  const auto& op = spec_.output_padding;
  if (op.empty()) return;
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
                                   spec_.output_padding.empty() ? -1 : spec_.output_padding[i],
                                   spec_.dilation_rate[i]);
}

Tensor BaseConvTranspose::convolve(const Tensor& x, kernels::Eltwise fused) {
  return ops::conv_transpose(x, kernel_->value(), bias_ ? bias_->value() : Tensor(), spec_.strides, spec_.padding,
                             spec_.output_padding, spec_.dilation_rate, fused);
}

json BaseConvTranspose::get_config() const {
  json c = BaseConv::get_config();
  c["output_padding"] = spec_.output_padding.empty() ? json(nullptr) : json(spec_.output_padding);
  return c;
}

Conv1DTranspose::Conv1DTranspose(std::int64_t filters, std::int64_t kernel_size, Conv1DTransposeOptions o)
    : BaseConvTranspose("Conv1DTranspose",
                        spec_of(1, filters, {kernel_size}, {o.strides}, {o.dilation_rate},
                                o.output_padding < 0 ? Sizes{} : Sizes{o.output_padding}, o)) {}

Conv2DTranspose::Conv2DTranspose(std::int64_t filters, Size2 kernel_size, Conv2DTransposeOptions o)
    : BaseConvTranspose("Conv2DTranspose",
                        spec_of(2, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate),
                                o.output_padding ? sizes(*o.output_padding) : Sizes{}, o)) {}

Conv3DTranspose::Conv3DTranspose(std::int64_t filters, Size3 kernel_size, Conv3DTransposeOptions o)
    : BaseConvTranspose("Conv3DTranspose",
                        spec_of(3, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate),
                                o.output_padding ? sizes(*o.output_padding) : Sizes{}, o)) {}

std::shared_ptr<Layer> Conv1DTranspose::from_config(const json& c) { return from_config_as<Conv1DTranspose>(c, 1, "Conv1DTranspose"); }
std::shared_ptr<Layer> Conv2DTranspose::from_config(const json& c) { return from_config_as<Conv2DTranspose>(c, 2, "Conv2DTranspose"); }
std::shared_ptr<Layer> Conv3DTranspose::from_config(const json& c) { return from_config_as<Conv3DTranspose>(c, 3, "Conv3DTranspose"); }

KERAS_REGISTER_LAYER(Conv1DTranspose, "Convolution1DTranspose")
KERAS_REGISTER_LAYER(Conv2DTranspose, "Convolution2DTranspose")
KERAS_REGISTER_LAYER(Conv3DTranspose, "Convolution3DTranspose")

}  // namespace keras::layers
