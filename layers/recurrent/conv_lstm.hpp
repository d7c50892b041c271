#pragma once
// ConvLSTM: the LSTM whose input and recurrent transformations are convolutions, over
// [batch, time, spatial..., channels] with 1, 2 or 3 spatial axes — one core for ConvLSTM1D, ConvLSTM2D
// and ConvLSTM3D (Keras's ConvLSTM base). Gates i, f, c, o as Keras: kernel [k..., in, 4 * filters],
// recurrent_kernel [k..., filters, 4 * filters] (stride 1, "same" padding), bias [4 * filters]; weights
// named "conv_lstm_cell/..." as tf.keras 2.x names its cell. The input convolution runs once over all
// time steps, the recurrent one step by step, on oneDNN convolutions.
#include <type_traits>

#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"
#include "layers/recurrent/rnn.hpp"
#include "layers/recurrent/stateful_states.hpp"

namespace keras::layers {

namespace detail {
/// 1 along every axis of a per-rank size (std::int64_t, Size2, Size3); empty Sizes (filled in to the rank).
template <class Size>
Size ones() {
  if constexpr (std::is_same_v<Size, std::int64_t>) return 1;
  else if constexpr (std::is_same_v<Size, Sizes>) return {};
  else {
    Size s{};
    s.fill(1);
    return s;
  }
}
}  // namespace detail

/// ConvLSTM1D/2D/3D's arguments (Keras's names and defaults; tf.keras 2.x's hard_sigmoid recurrent activation).
/// `Size` is the type of strides and dilation_rate: std::int64_t (1D), Size2 (2D), Size3 (3D), or Sizes for
/// the rank-generic form the layers keep (ConvLSTMSpec).
template <class Size>
struct ConvLSTMOptions {
  Size strides = detail::ones<Size>();
  std::string padding = "valid";  // "valid" or "same"
  Size dilation_rate = detail::ones<Size>();
  activations::ActivationRef activation = "tanh";
  activations::ActivationRef recurrent_activation = "hard_sigmoid";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  bool unit_forget_bias = true;
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef recurrent_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef recurrent_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_RNN_SEQUENCE_FIELDS  // return_sequences, return_state, go_backwards, stateful, unroll
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  KERAS_LAYER_OPTIONS  // input_shape: {time, spatial..., channels}
};

/// The rank-generic arguments a ConvLSTM keeps and writes.
using ConvLSTMSpec = ConvLSTMOptions<Sizes>;

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) on one options struct
/// (a config) or on two (a per-rank struct copied into a ConvLSTMSpec).
template <class Visit, class... Options>
void for_each_conv_lstm_field(Visit&& visit, Options&... o) {
  visit("strides", o.strides...);
  visit("padding", o.padding...);
  visit("dilation_rate", o.dilation_rate...);
  visit("activation", o.activation...);
  visit("recurrent_activation", o.recurrent_activation...);
  visit("use_bias", o.use_bias...);
  visit("kernel_initializer", o.kernel_initializer...);
  visit("recurrent_initializer", o.recurrent_initializer...);
  visit("bias_initializer", o.bias_initializer...);
  visit("unit_forget_bias", o.unit_forget_bias...);
  visit("kernel_regularizer", o.kernel_regularizer...);
  visit("recurrent_regularizer", o.recurrent_regularizer...);
  visit("bias_regularizer", o.bias_regularizer...);
  visit("activity_regularizer", o.activity_regularizer...);
  visit("kernel_constraint", o.kernel_constraint...);
  visit("recurrent_constraint", o.recurrent_constraint...);
  visit("bias_constraint", o.bias_constraint...);
  for_each_rnn_sequence_field(visit, o...);
  visit("dropout", o.dropout...);
  visit("recurrent_dropout", o.recurrent_dropout...);
}

namespace detail {
inline void assign_size(Sizes& to, std::int64_t from) { to = {from}; }
template <std::size_t N>
void assign_size(Sizes& to, const std::array<std::int64_t, N>& from) {
  to.assign(from.begin(), from.end());
}
template <class To, class From>
void assign_size(To& to, const From& from) {
  to = from;
}
}  // namespace detail

/// A per-rank options struct as the rank-generic spec.
template <class Size>
ConvLSTMSpec conv_lstm_spec(const ConvLSTMOptions<Size>& o) {
  ConvLSTMSpec s{.input_shape = o.input_shape, .name = o.name, .trainable = o.trainable};
  for_each_conv_lstm_field([](const char*, auto& to, const auto& from) { detail::assign_size(to, from); }, s, o);
  return s;
}

class ConvLSTM : public Layer {
 public:
  void build(const Shape& input_shape) override;
  /// Built for the sequence, the first of {sequence, initial states...}.
  void build(const std::vector<Shape>& input_shapes) override { build(input_shapes.at(0)); }
  /// Called on {sequence} or {sequence, h, c} (Keras's initial_state as extra inputs) under the sequence's
  /// mask: the last output [batch, spatial'..., filters], or all of them [batch, time, ...] with
  /// return_sequences; then h and c with return_state.
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Keras's return_state form, as RNN::call_with_state: {output, h, c}, from `initial_state` ({h, c}, or empty
  /// for zeros or, when stateful, the carried states) under a time-step `mask` [batch, time] (or undefined).
  std::vector<Tensor> call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state = {},
                                      const Tensor& mask = Tensor(), bool training = false);
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  json get_config() const override;

  bool stateful() const override { return spec_.stateful; }
  /// h and c back to zero (a ValueError unless stateful).
  void reset_states() override;
  /// h and c set to `states` ({h, c}).
  void reset_states(const std::vector<Tensor>& states);
  /// The carried {h, c} of a stateful layer (Keras's layer.states), empty before it is built.
  const std::vector<Tensor>& states() const { return states_.states(); }

  std::int64_t rank() const { return rank_; }
  std::int64_t filters() const { return filters_; }
  const Sizes& kernel_size() const { return kernel_size_; }
  const ConvLSTMSpec& spec() const { return spec_; }
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& recurrent_kernel() const { return recurrent_kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 protected:
  /// `cls` is the class name ("ConvLSTM2D") for messages, `prefix` the default name ("conv_lstm2d").
  ConvLSTM(std::int64_t rank, std::int64_t filters, Sizes kernel_size, ConvLSTMSpec spec, const std::string& cls,
           const std::string& prefix);
  /// A new L(spec, filters, kernel_size) from Keras's config of a rank-`rank` ConvLSTM.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, std::int64_t rank, const std::string& cls);

 private:
  static ConvLSTMSpec read_spec(const json& config, std::int64_t rank, const std::string& cls, std::int64_t& filters,
                                Sizes& kernel_size);
  Shape state_shape(const Shape& input_shape) const;
  Tensor input_gates(const Tensor& x, bool training) const;
  std::string describe() const;

  std::int64_t rank_;
  std::int64_t filters_;
  Sizes kernel_size_;
  ConvLSTMSpec spec_;
  std::string cls_;
  activations::Activation activation_, recurrent_activation_;
  std::shared_ptr<Variable> kernel_, recurrent_kernel_, bias_;
  StatefulStates states_;  // with stateful=true
};

template <class L>
std::shared_ptr<Layer> ConvLSTM::from_config_as(const json& config, std::int64_t rank, const std::string& cls) {
  std::int64_t filters = 0;
  Sizes kernel_size;
  ConvLSTMSpec spec = read_spec(config, rank, cls, filters, kernel_size);
  auto layer = std::make_shared<L>(std::move(spec), filters, std::move(kernel_size));
  layer->read_base_config(config);
  return layer;
}

}  // namespace keras::layers
