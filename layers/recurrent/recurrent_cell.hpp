#pragma once
// The base of SimpleRNNCell, LSTMCell and GRUCell: one time step as ops (autodiff gives the
// backward), and, when the configuration is one of oneDNN's cells, the whole sequence on oneDNN.
#include <optional>
#include <vector>

#include "keras/activations.hpp"
#include "keras/kernels/rnn.hpp"
#include "keras/layer.hpp"
#include "keras/ops/recurrent.hpp"

namespace keras::layers {

/// The weight arguments every cell takes (Keras's names and defaults), declared once: each cell's field
/// group (KERAS_LSTM_CELL_FIELDS, ...) has them after its activations.
#define KERAS_RECURRENT_CELL_WEIGHT_FIELDS                                     \
  bool use_bias = true;                                                        \
  ::keras::initializers::InitializerRef kernel_initializer = "glorot_uniform"; \
  ::keras::initializers::InitializerRef recurrent_initializer = "orthogonal";  \
  ::keras::initializers::InitializerRef bias_initializer = "zeros";

/// The dropout arguments every cell takes, declared once: each cell's field group ends with them.
#define KERAS_RECURRENT_CELL_DROPOUT_FIELDS \
  float dropout = 0.f;                      \
  float recurrent_dropout = 0.f;

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) for each, on one
/// options struct (to write or read a config) or on two (to copy one into the other).
template <class Visit, class... Options>
void for_each_cell_weight_field(Visit&& visit, Options&... options) {
  visit("use_bias", options.use_bias...);
  visit("kernel_initializer", options.kernel_initializer...);
  visit("recurrent_initializer", options.recurrent_initializer...);
  visit("bias_initializer", options.bias_initializer...);
}

template <class Visit, class... Options>
void for_each_cell_dropout_field(Visit&& visit, Options&... options) {
  visit("dropout", options.dropout...);
  visit("recurrent_dropout", options.recurrent_dropout...);
}

class RecurrentCell : public Layer {
 public:
  using Layer::Layer;
  /// Cells are run by a recurrent layer (RNN, LSTM, GRU, SimpleRNN), step by step or fused.
  Tensor call(const Tensor& inputs, bool training) override;
  /// Creates kernel, recurrent_kernel and bias for step inputs [batch, input_dim].
  void build(const Shape& input_shape) override;

  virtual std::int64_t units() const = 0;
  /// 1 (h), or 2 for LSTM (h, c).
  virtual int state_count() const { return 1; }
  /// One step: x [batch, input] and the states → the new states (the first one is the output).
  /// `recurrent_mask` (or undefined) scales the previous output where it enters the recurrent kernel.
  virtual std::vector<Tensor> step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& recurrent_mask) = 0;
  /// oneDNN's cell for this configuration, when there is one (default activations).
  virtual std::optional<kernels::RnnCell> fused_cell() const = 0;
  /// The whole sequence x [batch, time, input] through oneDNN: {sequence, states...}.
  std::vector<Tensor> run_fused(const Tensor& x, const std::vector<Tensor>& states, bool go_backwards);

  float dropout() const { return dropout_; }
  float recurrent_dropout() const { return recurrent_dropout_; }
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& recurrent_kernel() const { return recurrent_kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 protected:
  /// What build() needs from each cell: gates and bias shape, initializers.
  struct WeightSpec {
    int gates = 1;
    Shape bias_shape;
    bool use_bias = true;
    initializers::InitializerRef kernel_initializer, recurrent_initializer, bias_initializer;
    bool unit_forget_bias = false;
  };
  virtual WeightSpec weight_spec() const = 0;
  /// Adds what every cell's config has beside its listed fields: units, and null for the regularizers
  /// and constraints that Keras writes and cells do not take.
  void add_cell_fields(json& config) const;

  float dropout_ = 0.f, recurrent_dropout_ = 0.f;
  std::shared_ptr<Variable> kernel_, recurrent_kernel_, bias_;
};

using CellPtr = std::shared_ptr<RecurrentCell>;

namespace detail {
Tensor value_or_none(const std::shared_ptr<Variable>& v);
}  // namespace detail

}  // namespace keras::layers
