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

/// Predicting an LSTM whose input is an embedding table's rows: the sequence [batch, time, units] (or,
/// return_sequences false, the last output [batch, units]) of rnn(gather(table, ids), zeros, zeros, kernel,
/// recurrent_kernel, bias, lstm) from ids [batch, time], each token's input projection made once and kept
/// (keras/kernels/lstm_tokens.hpp). An undefined Tensor where it does not serve: under a tape or a trace,
/// weights that are not float32 variables, ids that are not whole numbers in [0, vocabulary), sizes the
/// kernels do not take; the caller then runs the two layers.
Tensor lstm_over_tokens(const Tensor& ids, const Tensor& table, const Tensor& kernel, const Tensor& recurrent_kernel,
                        const Tensor& bias, bool return_sequences);

}  // namespace keras::ops
