#pragma once
// SimpleRNN: RNN(SimpleRNNCell) with Keras's flat arguments.
#include "layers/recurrent/simple_rnn_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

struct SimpleRNNOptions {
  std::string activation = "tanh";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
  KERAS_LAYER_OPTIONS
};

class SimpleRNN : public RNN {
 public:
  explicit SimpleRNN(std::int64_t units, SimpleRNNOptions options = {});
  /// The cell's arguments and the sequence's apart (as from_config reads them).
  SimpleRNN(std::int64_t units, const SimpleRNNCellOptions& cell_options, RNNOptions options);
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const SimpleRNNCell& cell() const { return static_cast<const SimpleRNNCell&>(*cells().front()); }

  KERAS_LAYER(SimpleRNN)
};

}  // namespace keras::layers
