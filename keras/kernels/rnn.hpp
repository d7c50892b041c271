#pragma once
// Recurrent layers on oneDNN's RNN primitives (vanilla RNN, LSTM, GRU, linear-before-reset GRU),
// forward (inference or training with a workspace) and backward, one layer, one direction.
// Data stay in Keras's batch-major layout ([batch, time, features], oneDNN's `ntc`); weights are
// Keras's [in, gates * units] matrices, which are oneDNN's `ldigo` when the gate orders agree. An LSTM's
// training passes run on our own loops instead where lstm_training_fits (keras/kernels/lstm_training.hpp).
#include <cstddef>
#include <cstdint>

namespace keras::kernels {

enum class RnnCell : std::int32_t { vanilla_tanh, vanilla_relu, vanilla_sigmoid, lstm, gru, lbr_gru };

/// Gates in the kernels (1, 4, 3, 3) and in the bias (lbr_gru has a fourth: the recurrent candidate bias).
int rnn_gates(RnnCell cell);
int rnn_bias_gates(RnnCell cell);

struct RnnArgs {
  std::int64_t batch = 0, time = 0, input = 0, units = 0;
  RnnCell cell = RnnCell::lstm;
};

/// Bytes of the workspace a training forward pass keeps for the backward pass.
std::size_t rnn_workspace_bytes(const RnnArgs& a);

/// x [batch, time, input]; h0, c0 [batch, units] (nullptr: zeros; c0 for LSTM only); w [input, G*units],
/// r [units, G*units], b [BG*units] in oneDNN's gate order (LSTM i,f,c,o; GRU u,r,o; lbr_gru bias
/// u,r,o,o'). Writes y [batch, time, units], h [batch, units] and c [batch, units] (LSTM). A non-null
/// `workspace` selects training mode and receives rnn_workspace_bytes(a) bytes.
void rnn_forward(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w, const float* r,
                 const float* b, float* y, float* h, float* c, void* workspace);

struct RnnBackwardArgs {
  const float *x, *h0, *c0, *w, *r, *b;     // forward inputs (h0, c0 may be null)
  const float *y, *h, *c;                   // forward outputs
  const float *dy, *dh, *dc;                // gradients of the outputs (dh, dc may be null)
  const void* workspace;
  float *dx, *dh0, *dc0, *dw, *dr, *db;     // results (dh0, dc0 may be null); all overwritten
};

void rnn_backward(const RnnArgs& a, const RnnBackwardArgs& g);

/// Keras's GRU(reset_after=True) bias [2, 3*units] (input z,r,h; recurrent z,r,h) into oneDNN's lbr_gru
/// bias [4*units]: u = b_in_z + b_rec_z, r = b_in_r + b_rec_r, o = b_in_h, o' = b_rec_h.
void lbr_gru_bias_from_keras(std::int64_t units, const float* keras, float* dnnl);
/// The gradient of oneDNN's lbr_gru bias as the gradient of Keras's [2, 3*units] bias.
void lbr_gru_bias_grad_to_keras(std::int64_t units, const float* d_dnnl, float* d_keras);

}  // namespace keras::kernels
