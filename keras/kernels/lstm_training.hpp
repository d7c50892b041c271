#pragma once
// Training's LSTM on our own loops: oneDNN 2.6 runs an LSTM's training passes on its reference RNN driver
// (`rnn,ref`), 77 GFLOP/s on 2 AVX2 threads for LSTM(128) over 100 steps at batch 64. Here the products
// over every step (the input projection forward; dx, dkernel and drecurrent backward) are single matrix
// products, and each thread runs the whole time loop for its share of the sequences, which need no
// barrier between steps: per step one product of the state by the recurrent kernel packed on our register
// tiles (forward: R; backward: Rᵀ), and the gates in AVX2 registers. Gate order i, f, c, o, as rnn.hpp.
#include <cstddef>

#include "keras/kernels/rnn.hpp"

namespace keras::kernels {

/// Whether lstm_training serves this LSTM: our own kernels on an AVX2 (or AVX-512) CPU, units a multiple
/// of 8. rnn_forward (with a workspace), rnn_workspace_bytes and rnn_backward then come here.
bool lstm_training_fits(const RnnArgs& a);

/// Bytes of its workspace: every step's gates (after their activations) and cell state.
std::size_t lstm_training_workspace_bytes(const RnnArgs& a);

/// As rnn_forward in training mode (h0, c0 may be null: zeros).
void lstm_training_forward(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w,
                           const float* r, const float* b, float* y, float* h, float* c, void* workspace);

/// As rnn_backward, from lstm_training_forward's workspace.
void lstm_training_backward(const RnnArgs& a, const RnnBackwardArgs& g);

}  // namespace keras::kernels
