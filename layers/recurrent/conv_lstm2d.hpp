#pragma once
// ConvLSTM2D: an LSTM whose input and recurrent transformations are 2-D convolutions, over
// [batch, time, rows, cols, channels]. Gates i, f, c, o as Keras: kernel [kh, kw, in, 4 * filters],
// recurrent_kernel [kh, kw, filters, 4 * filters] (stride 1, "same" padding), bias [4 * filters]; weights
// named "conv_lstm_cell/..." as tf.keras 2.x names its cell. The input convolution runs once over all
// time steps; the recurrent one step by step on oneDNN convolutions.
#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::layers {

struct ConvLSTM2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";  // "valid" or "same"
  Size2 dilation_rate = {1, 1};
  std::string activation = "tanh";
  std::string recurrent_activation = "hard_sigmoid";
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
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;  // not supported: true raises an error
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  KERAS_LAYER_OPTIONS  // input_shape: {time, rows, cols, channels}
};

class ConvLSTM2D : public Layer {
 public:
  ConvLSTM2D(std::int64_t filters, Size2 kernel_size, ConvLSTM2DOptions options = {});
  void build(const Shape& input_shape) override;
  /// The last output [batch, rows', cols', filters], or all of them [batch, time, ...] with return_sequences,
  /// under the input's mask.
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Keras's return_state form, as RNN::call_with_state: {output, h, c}, from `initial_state` ({h, c} or
  /// empty for zeros) under a time-step `mask` [batch, time] (or undefined).
  std::vector<Tensor> call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state = {},
                                      const Tensor& mask = Tensor(), bool training = false);
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& recurrent_kernel() const { return recurrent_kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 private:
  Shape state_shape(const Shape& input_shape) const;
  Tensor input_gates(const Tensor& x, bool training) const;

  std::int64_t filters_;
  Size2 kernel_size_;
  ConvLSTM2DOptions options_;
  activations::Activation activation_, recurrent_activation_;
  std::shared_ptr<Variable> kernel_, recurrent_kernel_, bias_;

  KERAS_LAYER(ConvLSTM2D)
};

}  // namespace keras::layers
