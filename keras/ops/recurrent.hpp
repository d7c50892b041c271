#pragma once
// A whole recurrent layer (vanilla RNN, LSTM, GRU) over a sequence as one differentiable op on
// oneDNN's RNN primitives: forward in training mode keeps oneDNN's workspace, backward runs
// oneDNN's backward primitive.
#include "keras/kernels/rnn.hpp"
#include "keras/tensor.hpp"

namespace keras::ops {

struct RnnOutputs {
  Tensor sequence;  ///< [batch, time, units], in processing order (reversed input when go_backwards)
  Tensor h;         ///< [batch, units], the last output
  Tensor c;         ///< [batch, units], LSTM only
};

/// x [batch, time, input]; h0, c0 [batch, units] or undefined (zeros); kernel [input, G*units] and
/// recurrent_kernel [units, G*units] in Keras's layout and gate order (LSTM i,f,c,o; GRU z,r,h);
/// bias in Keras's layout ([G*units]; [2, 3*units] for lbr_gru, input bias then recurrent bias) or
/// undefined. Every output is differentiable with respect to every input.
RnnOutputs rnn(const Tensor& x, const Tensor& h0, const Tensor& c0, const Tensor& kernel,
               const Tensor& recurrent_kernel, const Tensor& bias, kernels::RnnCell cell, bool go_backwards = false);

}  // namespace keras::ops
