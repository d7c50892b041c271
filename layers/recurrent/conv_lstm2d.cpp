#include "layers/recurrent/conv_lstm2d.hpp"

#include <random>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"
#include "keras/ops/shape.hpp"
#include "keras/utils/random.hpp"
#include "layers/recurrent/step_masks.hpp"

namespace keras::layers {

KERAS_FIELDS(ConvLSTM2DOptions, strides, padding, dilation_rate, activation, recurrent_activation, use_bias,
             kernel_initializer, recurrent_initializer, bias_initializer, unit_forget_bias, kernel_regularizer,
             recurrent_regularizer, bias_regularizer, activity_regularizer, kernel_constraint, recurrent_constraint,
             bias_constraint, return_sequences, return_state, go_backwards, stateful, dropout, recurrent_dropout)

namespace {

using detail::dropout_mask;
using detail::select;

}  // namespace

ConvLSTM2D::ConvLSTM2D(std::int64_t filters, Size2 kernel_size, ConvLSTM2DOptions options)
    : Layer(options, "conv_lstm2d"),
      filters_(filters),
      kernel_size_(kernel_size),
      options_(std::move(options)),
      activation_(activations::get(options_.activation)),
      recurrent_activation_(activations::get(options_.recurrent_activation)) {
  if (filters <= 0) throw ValueError(fmt::format("ConvLSTM2D: `filters` must be positive, received {}", filters));
  for (auto v : {kernel_size[0], kernel_size[1], options_.strides[0], options_.strides[1], options_.dilation_rate[0],
                 options_.dilation_rate[1]})
    if (v <= 0)
      throw ValueError(fmt::format("ConvLSTM2D: kernel_size, strides and dilation_rate must be positive, got {}, {}, {}",
                                   ops::size2_str(kernel_size), ops::size2_str(options_.strides),
                                   ops::size2_str(options_.dilation_rate)));
  options_.padding = ops::normalize_padding(options_.padding, "ConvLSTM2D");
  if (options_.stateful) throw ValueError("ConvLSTM2D: stateful=True is not supported");
  if (!(options_.dropout >= 0.f && options_.dropout < 1.f && options_.recurrent_dropout >= 0.f &&
        options_.recurrent_dropout < 1.f))
    throw ValueError("ConvLSTM2D: dropout and recurrent_dropout must be in [0, 1)");
  set_activity_regularizer(options_.activity_regularizer);
  supports_masking_ = true;
}

Shape ConvLSTM2D::state_shape(const Shape& s) const {
  if (s.size() != 5)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" (ConvLSTM2D) should have rank 5 [batch, time, rows, cols, "
                                 "channels], got shape {}",
                                 name(), shape_str(s)));
  Shape out{s[0]};
  for (int a = 0; a < 2; ++a)
    out.push_back(ops::conv_output_length(s[2 + a], kernel_size_[a], options_.strides[a], options_.padding,
                                          options_.dilation_rate[a]));
  out.push_back(filters_);
  return out;
}

void ConvLSTM2D::build(const Shape& input_shape) {
  state_shape(input_shape);
  const std::int64_t in = input_shape.back();
  if (in <= 0) throw ValueError(fmt::format("ConvLSTM2D \"{}\" needs a known channel dimension, got {}", name(), shape_str(input_shape)));
  const auto& o = options_;
  // tf.keras 2.x names the cell explicitly ("conv_lstm_cell"), so its weights are "<layer>/conv_lstm_cell/kernel:0".
  const std::string p = "conv_lstm_cell/";
  kernel_ = add_weight(p + "kernel", {kernel_size_[0], kernel_size_[1], in, 4 * filters_}, o.kernel_initializer, true,
                       o.kernel_regularizer, o.kernel_constraint);
  recurrent_kernel_ = add_weight(p + "recurrent_kernel", {kernel_size_[0], kernel_size_[1], filters_, 4 * filters_},
                                 o.recurrent_initializer, true, o.recurrent_regularizer, o.recurrent_constraint);
  if (!o.use_bias) return;
  bias_ = add_weight(p + "bias", {4 * filters_}, o.bias_initializer, true, o.bias_regularizer, o.bias_constraint);
  if (o.unit_forget_bias) {  // Keras's unit_forget_bias: the forget gate's bias starts at 1
    autodiff::NoGradScope no_grad;
    Tensor b = bias_->numpy();
    for (std::int64_t i = filters_; i < 2 * filters_; ++i) b.data<float>()[i] = 1.f;
    bias_->assign(b);
  }
}

Shape ConvLSTM2D::compute_output_shape(const Shape& input_shape) const {
  Shape s = state_shape(input_shape);
  if (options_.return_sequences) s.insert(s.begin() + 1, input_shape[1]);
  return s;
}

Tensor ConvLSTM2D::compute_mask(const Tensor&, const Tensor& mask) const {
  return options_.return_sequences ? mask : Tensor();
}

std::vector<Tensor> ConvLSTM2D::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (inputs.size() != 1) return Layer::call(inputs, context);  // its error
  return {call_with_state(inputs[0], {}, context.mask(0), context.training)[0]};
}

// The input convolution of every time step at once: [batch, time, rows', cols', 4 * filters].
Tensor ConvLSTM2D::input_gates(const Tensor& x, bool training) const {
  const std::int64_t B = x.dim(0), T = x.dim(1);
  Tensor in = x;
  if (training && options_.dropout > 0.f)
    in = ops::multiply(in, dropout_mask({B, 1, x.dim(2), x.dim(3), x.dim(4)}, options_.dropout));
  in = ops::reshape(in, {B * T, x.dim(2), x.dim(3), x.dim(4)});
  const Tensor bias = bias_ ? bias_->value() : Tensor();
  Tensor z = ops::conv(in, kernel_->value(), bias, {options_.strides[0], options_.strides[1]}, options_.padding,
                       {options_.dilation_rate[0], options_.dilation_rate[1]});
  return ops::reshape(z, {B, T, z.dim(1), z.dim(2), z.dim(3)});
}

std::vector<Tensor> ConvLSTM2D::call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state,
                                                const Tensor& mask, bool training) {
  if (!inputs.defined()) throw ValueError("ConvLSTM2D \"" + name() + "\" was called on an undefined tensor");
  ensure_built(inputs.shape());
  Shape sshape = state_shape(inputs.shape());
  if (inputs.dim(-1) != kernel_->shape()[2])
    throw ValueError(fmt::format("Input 0 of layer \"{}\" (ConvLSTM2D) has {} channels, the layer was built for {}",
                                 name(), inputs.dim(-1), kernel_->shape()[2]));
  const std::int64_t B = inputs.dim(0), T = inputs.dim(1);
  if (T == 0) throw ValueError("ConvLSTM2D \"" + name() + "\" needs at least one time step");
  if (!initial_state.empty() && initial_state.size() != 2)
    throw ValueError(fmt::format("ConvLSTM2D \"{}\": initial_state must be {{h, c}}, got {} tensors", name(),
                                 initial_state.size()));
  for (const auto& s : initial_state)
    if (s.shape() != sshape)
      throw ValueError(fmt::format("ConvLSTM2D \"{}\": initial states must have shape {}, got {}", name(),
                                   shape_str(sshape), shape_str(s.shape())));
  if (mask.defined() && mask.shape() != Shape{B, T})
    throw ValueError(fmt::format("ConvLSTM2D \"{}\": mask must have shape {}, got {}", name(), shape_str({B, T}),
                                 shape_str(mask.shape())));

  Tensor x = options_.go_backwards ? ops::reverse_time(inputs) : inputs;
  Tensor m = mask.defined() ? (options_.go_backwards ? ops::reverse_time(mask.astype(DType::float32))
                                                     : mask.astype(DType::float32))
                            : Tensor();
  const std::vector<Tensor> xs = ops::unstack_time(input_gates(x, training));
  const std::vector<Tensor> ms = m.defined() ? ops::unstack_time(ops::reshape(m, {B, T, 1, 1, 1})) : std::vector<Tensor>{};
  Tensor h = initial_state.empty() ? Tensor::zeros(sshape) : initial_state[0];
  Tensor c = initial_state.empty() ? Tensor::zeros(sshape) : initial_state[1];
  const Tensor rmask =
      training && options_.recurrent_dropout > 0.f ? dropout_mask(sshape, options_.recurrent_dropout) : Tensor();
  const Tensor rk = recurrent_kernel_->value();
  const std::int64_t F = filters_;
  std::vector<Tensor> outputs;
  for (std::int64_t t = 0; t < T; ++t) {
    const Tensor h_in = rmask.defined() ? ops::multiply(h, rmask) : h;
    const Tensor z = ops::add(xs[t], ops::conv(h_in, rk, Tensor(), {1, 1}, "same"));
    const Tensor i = recurrent_activation_(ops::slice_last(z, 0, F));
    const Tensor f = recurrent_activation_(ops::slice_last(z, F, F));
    const Tensor g = activation_(ops::slice_last(z, 2 * F, F));
    const Tensor o = recurrent_activation_(ops::slice_last(z, 3 * F, F));
    Tensor c_new = ops::add(ops::multiply(f, c), ops::multiply(i, g));
    Tensor h_new = ops::multiply(o, activation_(c_new));
    if (!ms.empty()) {  // a masked step keeps the states and repeats the previous output
      c_new = select(ms[t], c_new, c);
      h_new = select(ms[t], h_new, h);
    }
    h = h_new;
    c = c_new;
    if (options_.return_sequences) outputs.push_back(h);
  }
  Tensor out = options_.return_sequences ? ops::stack_time(outputs) : h;
  return {out, h, c};
}

json ConvLSTM2D::get_config() const {
  json c = layer_config(*this, options_);
  c["filters"] = filters_;
  c["kernel_size"] = config::encode(kernel_size_);
  c["activation"] = activation_.name;  // the canonical names of aliases
  c["recurrent_activation"] = recurrent_activation_.name;
  c["unroll"] = false;
  c["time_major"] = false;
  c["data_format"] = "channels_last";
  return c;
}

std::shared_ptr<Layer> ConvLSTM2D::from_config(const json& c) {
  if (c.contains("data_format") && !c["data_format"].is_null() && c["data_format"] != "channels_last")
    throw ValueError("ConvLSTM2D: only data_format=\"channels_last\" is supported, got " + c["data_format"].dump());
  Size2 kernel_size{};
  config::decode(c.at("kernel_size"), kernel_size);
  return make_from_config<ConvLSTM2D, ConvLSTM2DOptions>(c, config::required<std::int64_t>(c, "filters"), kernel_size);
}

KERAS_REGISTER_LAYER(ConvLSTM2D)

}  // namespace keras::layers
