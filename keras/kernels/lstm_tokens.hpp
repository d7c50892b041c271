#pragma once
// Inference's LSTM over token ids looked up in an embedding table (an Embedding layer followed by the LSTM):
// the input projection of token v is row v of table w + b, the same for every occurrence, so each token's
// row is multiplied once and kept, and a call only gathers them and runs the time loop
// (lstm_inference.hpp's lstm_recurrence). The kept rows follow the table, w and b by their version stamps
// (Tensor::version), as packed weights do; a table of vocabulary x 4 units floats is kept for the last few
// LSTMs, up to kMaxTokenProjectionBytes each.
#include <cstdint>

#include "keras/kernels/rnn.hpp"

namespace keras::kernels {

/// The largest projection table kept (vocabulary x 4 units floats); past it, lstm_over_tokens declines.
constexpr std::int64_t kMaxTokenProjectionBytes = std::int64_t{64} << 20;

/// A float32 array and its version stamp.
struct Versioned {
  const float* data = nullptr;
  std::uint64_t version = 0;
};

/// y, h, c as lstm_inference(a, x, nullptr, nullptr, ...) with x[n, t] = table[ids[n * a.time + t]]
/// (table [vocabulary, a.input], every id in [0, vocabulary), w [a.input, 4 units], b [4 units] or null).
/// Returns false, computing nothing, where the kept projections would pass kMaxTokenProjectionBytes or
/// lstm_inference does not serve the sizes.
bool lstm_over_tokens(const RnnArgs& a, const std::int64_t* ids, Versioned table, std::int64_t vocabulary,
                      Versioned w, Versioned r, Versioned b, float* y, float* h, float* c);

}  // namespace keras::kernels
