#pragma once
// LSTM: RNN(LSTMCell) with Keras's flat arguments, gates i, f, c, o; states (h, c).
#include "layers/recurrent/lstm_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

/// LSTM's arguments, flat as Keras takes them: its cell's, then the sequence's.
struct LSTMOptions {
  KERAS_LSTM_CELL_FIELDS
  KERAS_RNN_SEQUENCE_FIELDS
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
  /// Predicting on an Embedding's rows (Layer::call_on_tokens): each token's input projection made once and
  /// kept (ops::lstm_over_tokens), where the layer runs its fused cell forward from zero states and returns
  /// one output.
  Tensor call_on_tokens(const Tensor& ids, const Tensor& table) override;

  KERAS_LAYER(LSTM)
};

}  // namespace keras::layers
