#pragma once
// Keras recurrent layers as ONNX's RNN, LSTM and GRU ops: which op, the gate order, and the weights of one
// direction converted (Keras's kernel [in, gates * units] → ONNX's W [gates * units, in], gates reordered).
#include <string>
#include <vector>

#include "keras/export/onnx/graph_builder.hpp"
#include "keras/json_fwd.hpp"
#include "keras/tensor.hpp"

namespace keras {
class Layer;
}

namespace keras::onnx {

/// What a Keras recurrent layer (SimpleRNN, LSTM, GRU, or RNN of one such cell) becomes in ONNX.
struct RecurrentSpec {
  std::string op;                 // "RNN", "LSTM" or "GRU"
  std::vector<int> keras_gate;    // for each ONNX gate, the index of that gate in Keras's order
  std::int64_t units = 0;
  bool linear_before_reset = false;  // GRU with reset_after
  std::vector<std::string> activations;  // Keras names, in ONNX's order (LSTM: f, g, h; GRU: f, g; RNN: f)
  json config;                    // the layer's config (flags: return_sequences, go_backwards, ...)
};

/// The spec of a recurrent layer; a ValueError (not exportable) for other layers, stateful ones and stacked cells.
RecurrentSpec recurrent_spec(const Layer& layer);

/// One direction's weights in ONNX's layout: W [gates * units, in], R [gates * units, units], B [2 * gates * units].
struct DirectionWeights {
  Tensor w, r, b;
};
DirectionWeights direction_weights(const Layer& layer, const RecurrentSpec& spec);

/// The ONNX op's attributes for `directions` (1 or 2) ("activations" with alphas/betas where needed,
/// hidden_size, direction, linear_before_reset).
std::vector<Attribute> recurrent_attributes(const Layer& layer, const RecurrentSpec& spec, const std::string& direction);

}  // namespace keras::onnx
