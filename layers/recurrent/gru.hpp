#pragma once
// GRU: RNN(GRUCell) with Keras's flat arguments, gates z, r, h; reset_after true (tf2's default) or false.
#include "layers/recurrent/gru_cell.hpp"
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

struct GRUOptions {
  std::string activation = "tanh";
  std::string recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  bool reset_after = true;
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
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
