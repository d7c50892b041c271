#pragma once
// LSTM: RNN(LSTMCell) with Keras's flat arguments, gates i, f, c, o; states (h, c).
#include "layers/recurrent/lstm_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

struct LSTMOptions {
  std::string activation = "tanh";
  std::string recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  bool unit_forget_bias = true;
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
  KERAS_LAYER_OPTIONS
};

class LSTM : public RNN {
 public:
  explicit LSTM(std::int64_t units, LSTMOptions options = {});
  /// The cell's arguments and the sequence's apart (as from_config reads them).
  LSTM(std::int64_t units, const LSTMCellOptions& cell_options, RNNOptions options);
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const LSTMCell& cell() const { return static_cast<const LSTMCell&>(*cells().front()); }

  KERAS_LAYER(LSTM)
};

}  // namespace keras::layers
