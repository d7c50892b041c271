#include "layers/recurrent/conv_lstm.hpp"

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"
#include "keras/ops/shape.hpp"
#include "layers/recurrent/step_masks.hpp"

namespace keras::layers {

template <class Options, class Visit>
  requires std::is_same_v<std::remove_const_t<Options>, ConvLSTMSpec>
void for_each_field(Options& options, Visit&& visit) {
  for_each_conv_lstm_field(visit, options);
}

namespace {

using detail::dropout_mask;
using detail::select;

}  // namespace

ConvLSTM::ConvLSTM(std::int64_t rank, std::int64_t filters, Sizes kernel_size, ConvLSTMSpec spec,
                   const std::string& cls, const std::string& prefix)
    : Layer(spec, prefix),
      rank_(rank),
      filters_(filters),
      kernel_size_(std::move(kernel_size)),
      spec_(std::move(spec)),
      cls_(cls),
      activation_(activations::resolve(spec_.activation)),
      recurrent_activation_(activations::resolve(spec_.recurrent_activation)) {
  if (filters <= 0) throw ValueError(fmt::format("{}: `filters` must be positive, received {}", cls_, filters));
  if (spec_.strides.empty()) spec_.strides.assign(static_cast<std::size_t>(rank), 1);
  if (spec_.dilation_rate.empty()) spec_.dilation_rate.assign(static_cast<std::size_t>(rank), 1);
  const auto n = static_cast<std::size_t>(rank);
  if (kernel_size_.size() != n || spec_.strides.size() != n || spec_.dilation_rate.size() != n)
    throw ValueError(fmt::format("{}: kernel_size, strides and dilation_rate need {} values each (one per spatial "
                                 "axis), got {}, {}, {}",
                                 cls_, rank, ops::sizes_str(kernel_size_), ops::sizes_str(spec_.strides),
                                 ops::sizes_str(spec_.dilation_rate)));
  for (const Sizes* s : {&kernel_size_, &spec_.strides, &spec_.dilation_rate})
    for (auto v : *s)
      if (v <= 0)
        throw ValueError(fmt::format("{}: kernel_size, strides and dilation_rate must be positive, got {}, {}, {}",
                                     cls_, ops::sizes_str(kernel_size_), ops::sizes_str(spec_.strides),
                                     ops::sizes_str(spec_.dilation_rate)));
  spec_.padding = ops::normalize_padding(spec_.padding, cls_);
  if (spec_.padding != "valid" && spec_.padding != "same")
    throw ValueError(fmt::format("{}: padding must be \"valid\" or \"same\", got \"{}\"", cls_, spec_.padding));
  if (!(spec_.dropout >= 0.f && spec_.dropout < 1.f && spec_.recurrent_dropout >= 0.f &&
        spec_.recurrent_dropout < 1.f))
    throw ValueError(cls_ + ": dropout and recurrent_dropout must be in [0, 1)");
  set_activity_regularizer(spec_.activity_regularizer);
  supports_masking_ = true;
}

std::string ConvLSTM::describe() const { return "Layer \"" + name() + "\" (" + cls_ + ")"; }

Shape ConvLSTM::state_shape(const Shape& s) const {
  if (static_cast<std::int64_t>(s.size()) != rank_ + 3) {
    std::string axes = rank_ == 1 ? "steps" : rank_ == 2 ? "rows, cols" : "depth, rows, cols";
    throw ValueError(fmt::format("Input 0 of {} should have rank {} [batch, time, {}, channels], got shape {}",
                                 describe(), rank_ + 3, axes, shape_str(s)));
  }
  Shape out{s[0]};
  for (std::int64_t a = 0; a < rank_; ++a)
    out.push_back(ops::conv_output_length(s[2 + a], kernel_size_[a], spec_.strides[a], spec_.padding,
                                          spec_.dilation_rate[a]));
  out.push_back(filters_);
  return out;
}

void ConvLSTM::build(const Shape& input_shape) {
  const Shape sshape = state_shape(input_shape);
  const std::int64_t in = input_shape.back();
  if (in <= 0)
    throw ValueError(fmt::format("{} needs a known channel dimension, got {}", describe(), shape_str(input_shape)));
  const auto& o = spec_;
  // tf.keras 2.x names the cell explicitly ("conv_lstm_cell"), so its weights are "<layer>/conv_lstm_cell/kernel:0".
  const std::string p = "conv_lstm_cell/";
  Shape k = kernel_size_, rk = kernel_size_;
  k.insert(k.end(), {in, 4 * filters_});
  rk.insert(rk.end(), {filters_, 4 * filters_});
  kernel_ = add_weight(p + "kernel", k, o.kernel_initializer, true, o.kernel_regularizer, o.kernel_constraint);
  recurrent_kernel_ =
      add_weight(p + "recurrent_kernel", rk, o.recurrent_initializer, true, o.recurrent_regularizer, o.recurrent_constraint);
  if (o.use_bias) {
    bias_ = add_weight(p + "bias", {4 * filters_}, o.bias_initializer, true, o.bias_regularizer, o.bias_constraint);
    if (o.unit_forget_bias) {  // Keras's unit_forget_bias: the forget gate's bias starts at 1
      autodiff::NoGradScope no_grad;
      Tensor b = bias_->numpy();
      for (std::int64_t i = filters_; i < 2 * filters_; ++i) b.data<float>()[i] = 1.f;
      bias_->assign(b);
    }
  }
  if (o.stateful) states_.build(describe(), {sshape, sshape});
}

void ConvLSTM::reset_states() {
  if (!spec_.stateful) throw ValueError(describe() + " is not stateful: reset_states() needs stateful=true");
  states_.reset();
}

void ConvLSTM::reset_states(const std::vector<Tensor>& states) {
  if (!spec_.stateful) throw ValueError(describe() + " is not stateful: reset_states(states) needs stateful=true");
  states_.reset(states);
}

Shape ConvLSTM::compute_output_shape(const Shape& input_shape) const {
  Shape s = state_shape(input_shape);
  if (spec_.return_sequences) s.insert(s.begin() + 1, input_shape[1]);
  return s;
}

std::vector<Shape> ConvLSTM::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  std::vector<Shape> out{compute_output_shape(input_shapes.at(0))};
  if (spec_.return_state) out.insert(out.end(), 2, state_shape(input_shapes.at(0)));
  return out;
}

Tensor ConvLSTM::compute_mask(const Tensor&, const Tensor& mask) const {
  return spec_.return_sequences ? mask : Tensor();
}

std::vector<Tensor> ConvLSTM::compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const {
  return {compute_mask(inputs.at(0), masks.empty() ? Tensor() : masks[0])};
}

std::vector<Tensor> ConvLSTM::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  std::vector<Tensor> out =
      call_with_state(inputs.at(0), {inputs.begin() + 1, inputs.end()}, context.mask(0), context.training);
  if (!spec_.return_state) out.resize(1);
  return out;
}

// The input convolution of every time step at once: [batch, time, spatial'..., 4 * filters].
Tensor ConvLSTM::input_gates(const Tensor& x, bool training) const {
  const std::int64_t B = x.dim(0), T = x.dim(1);
  Tensor in = x;
  if (training && spec_.dropout > 0.f) {
    Shape m = x.shape();
    m[1] = 1;  // one mask for every time step, as Keras
    in = ops::multiply(in, dropout_mask(m, spec_.dropout));
  }
  Shape folded{B * T};
  folded.insert(folded.end(), x.shape().begin() + 2, x.shape().end());
  in = ops::reshape(in, folded);
  const Tensor bias = bias_ ? bias_->value() : Tensor();
  Tensor z = ops::conv(in, kernel_->value(), bias, spec_.strides, spec_.padding, spec_.dilation_rate);
  Shape unfolded{B, T};
  unfolded.insert(unfolded.end(), z.shape().begin() + 1, z.shape().end());
  return ops::reshape(z, unfolded);
}

std::vector<Tensor> ConvLSTM::call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state,
                                              const Tensor& mask, bool training) {
  if (!inputs.defined()) throw ValueError(describe() + " was called on an undefined tensor");
  ensure_built(inputs.shape());
  const Shape sshape = state_shape(inputs.shape());
  const auto in_axis = static_cast<std::size_t>(rank_);
  if (inputs.dim(-1) != kernel_->shape()[in_axis])
    throw ValueError(fmt::format("Input 0 of {} has {} channels, the layer was built for {}", describe(),
                                 inputs.dim(-1), kernel_->shape()[in_axis]));
  const std::int64_t B = inputs.dim(0), T = inputs.dim(1);
  if (T == 0) throw ValueError(describe() + " needs at least one time step");
  if (!initial_state.empty() && initial_state.size() != 2)
    throw ValueError(fmt::format("{}: initial_state must be {{h, c}}, got {} tensors", describe(), initial_state.size()));
  for (const auto& s : initial_state)
    if (s.shape() != sshape)
      throw ValueError(fmt::format("{}: initial states must have shape {}, got {}", describe(), shape_str(sshape),
                                   shape_str(s.shape())));
  if (mask.defined() && mask.shape() != Shape{B, T})
    throw ValueError(fmt::format("{}: mask must have shape {}, got {}", describe(), shape_str({B, T}),
                                 shape_str(mask.shape())));
  // Keras: an explicit initial_state wins; otherwise a stateful layer starts from its carried states.
  const std::vector<Tensor>& start =
      initial_state.empty() && spec_.stateful ? states_.current(B) : initial_state;

  Tensor x = inputs.dtype() == DType::float32 ? inputs : inputs.astype(DType::float32);
  if (spec_.go_backwards) x = ops::reverse_time(x);
  Tensor m = mask.defined() ? mask.astype(DType::float32) : Tensor();
  if (m.defined() && spec_.go_backwards) m = ops::reverse_time(m);
  const std::vector<Tensor> xs = ops::unstack_time(input_gates(x, training));
  std::vector<Tensor> ms;
  if (m.defined()) {
    Shape mshape{B, T};
    mshape.insert(mshape.end(), static_cast<std::size_t>(rank_ + 1), 1);
    ms = ops::unstack_time(ops::reshape(m, mshape));
  }
  Tensor h = start.empty() ? Tensor::zeros(sshape) : start[0];
  Tensor c = start.empty() ? Tensor::zeros(sshape) : start[1];
  const Tensor rmask = training && spec_.recurrent_dropout > 0.f ? dropout_mask(sshape, spec_.recurrent_dropout) : Tensor();
  const Tensor rk = recurrent_kernel_->value();
  const Sizes ones(static_cast<std::size_t>(rank_), 1);
  const std::int64_t F = filters_;
  std::vector<Tensor> outputs;
  for (std::int64_t t = 0; t < T; ++t) {
    const Tensor h_in = rmask.defined() ? ops::multiply(h, rmask) : h;
    const Tensor z = ops::add(xs[t], ops::conv(h_in, rk, Tensor(), ones, "same", ones));
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
    if (spec_.return_sequences) outputs.push_back(h);
  }
  if (spec_.stateful) states_.update({h, c});
  Tensor out = spec_.return_sequences ? ops::stack_time(outputs) : h;
  return {out, h, c};
}

json ConvLSTM::get_config() const {
  json c = layer_config(*this, spec_);
  c["filters"] = filters_;
  c["kernel_size"] = config::encode(kernel_size_);
  c["activation"] = activation_.name;  // the canonical names of aliases
  c["recurrent_activation"] = recurrent_activation_.name;
  c["time_major"] = false;
  c["data_format"] = "channels_last";
  return c;
}

ConvLSTMSpec ConvLSTM::read_spec(const json& config, std::int64_t rank, const std::string& cls, std::int64_t& filters,
                                 Sizes& kernel_size) {
  if (config.contains("data_format") && !config["data_format"].is_null() && config["data_format"] != "channels_last")
    throw ValueError(cls + ": only data_format=\"channels_last\" is supported, got " + config["data_format"].dump());
  if (!config.contains("filters") || !config.contains("kernel_size"))
    throw ValueError(cls + ": the config needs `filters` and `kernel_size`");
  json c = config;
  for (const char* key : {"kernel_size", "strides", "dilation_rate"})  // one integer stands for every axis
    if (c.contains(key) && c[key].is_number_integer()) c[key] = json(Sizes(static_cast<std::size_t>(rank), c[key].get<std::int64_t>()));
  filters = c.at("filters").get<std::int64_t>();
  config::decode(c.at("kernel_size"), kernel_size);
  return options_from_config<ConvLSTMSpec>(c);
}

}  // namespace keras::layers
