#pragma once
// Inference's LSTM on the packed products (keras/kernels/packed_weights.hpp, packed_tiles.hpp). A short batch:
// the input projection of every step as one product, then per step one product of the state by the recurrent
// kernel and the gates in AVX2 or AVX-512 registers. A large batch (past 2 MiB of projections): runs of
// sequences, each step one product of [x_t h] by the stacked [W; R] and then the gates. oneDNN 2.6's RNN
// primitive ran a 128-unit LSTM at about 14 us per step for one sequence and reordered both weight matrices
// on every call.
#include <cstdint>

#include "keras/kernels/rnn.hpp"

namespace keras::kernels {

/// Whether lstm_inference serves an LSTM of these sizes: packed products on this CPU, units a multiple of 8.
bool lstm_inference_fits(const RnnArgs& a);

/// As rnn_forward(a, x, h0, c0, w, r, b, y, h, c, nullptr) for an LSTM (gates i, f, c, o; sigmoid and tanh),
/// w and r multiplied by their packed copies kept under (w, w_version) and (r, r_version). h and c are
/// required.
void lstm_inference(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w,
                    std::uint64_t w_version, const float* r, std::uint64_t r_version, const float* b, float* y,
                    float* h, float* c);

/// The time loop of lstm_inference from the input projections gx [batch, time, 4 units] (x w + b, gates i,
/// f, c, o) made beforehand; h and c hold the initial states and receive the final ones, y [batch, time,
/// units] the sequence.
void lstm_recurrence(const RnnArgs& a, const float* gx, const float* r, std::uint64_t r_version, float* y, float* h,
                     float* c);

}  // namespace keras::kernels
