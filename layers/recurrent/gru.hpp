#pragma once
// GRU: RNN(GRUCell) with Keras's flat arguments, gates z, r, h; reset_after true (tf2's default) or false.
#include "layers/recurrent/gru_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

/// GRU's arguments, flat as Keras takes them: its cell's, then the sequence's.
struct GRUOptions {
  KERAS_GRU_CELL_FIELDS
  KERAS_RNN_SEQUENCE_FIELDS
  KERAS_LAYER_OPTIONS
};

class GRU : public RNN {
 public:
  explicit GRU(std::int64_t units, GRUOptions options = {});
  /// The cell's arguments and the sequence's apart (as from_config reads them).
  GRU(std::int64_t units, const GRUCellOptions& cell_options, RNNOptions options);
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const GRUCell& cell() const { return static_cast<const GRUCell&>(*cells().front()); }

  KERAS_LAYER(GRU)
};

}  // namespace keras::layers
