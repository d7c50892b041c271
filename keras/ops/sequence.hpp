#pragma once
// Differentiable ops over the time axis (axis 1 of [batch, time, ...]) and over slices of the last
// axis, used by recurrent layers that step through time, and the row gather behind Embedding.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// x[:, t] of x [batch, time, ...].
Tensor time_step(const Tensor& x, std::int64_t t);
/// Every time step of x [batch, time, ...]: time_step(x, t) for t in [0, time).
std::vector<Tensor> unstack_time(const Tensor& x);
/// Stacks [batch, ...] tensors into [batch, time, ...].
Tensor stack_time(const std::vector<Tensor>& steps);
/// x with its time axis reversed.
Tensor reverse_time(const Tensor& x);
/// x[..., begin:begin+size].
Tensor slice_last(const Tensor& x, std::int64_t begin, std::int64_t size);
/// Joins tensors along the last axis (same leading shape).
Tensor concat_last(const std::vector<Tensor>& parts);
/// params [rows, ...] gathered at integer `indices` of any shape: indices.shape + params.shape[1:].
/// The backward scatters (adds) the gradient into the gathered rows.
Tensor gather(const Tensor& params, const Tensor& indices);

}  // namespace keras::ops
