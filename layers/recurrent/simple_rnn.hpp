#pragma once
// SimpleRNN: RNN(SimpleRNNCell) with Keras's flat arguments.
#include "layers/recurrent/simple_rnn_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

/// SimpleRNN's arguments, flat as Keras takes them: its cell's, then the sequence's.
struct SimpleRNNOptions {
  KERAS_SIMPLE_RNN_CELL_FIELDS
  KERAS_RNN_SEQUENCE_FIELDS
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
