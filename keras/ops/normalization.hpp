#pragma once
// Differentiable normalization ops: batch normalization (training with this batch's statistics,
// inference with given statistics) and layer normalization, each one fused op with its own backward.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// The output of batch_norm_train plus the per-channel statistics of the batch.
struct BatchNormTrainResult {
  Tensor output;
  Tensor mean;      ///< [channels], mean over every axis but `axis`
  Tensor variance;  ///< [channels], biased (divided by n), as used for normalization
  std::int64_t count = 0;  ///< n: elements reduced per channel
};

/// What batch_norm_train may run in the same pass after normalizing (the training form of
/// keras/epilogue.hpp, for a BatchNormalization followed by a residual Add and a ReLU):
/// output = relu(normalized + residual).
struct BatchNormEpilogue {
  Tensor residual;    ///< x's shape, or undefined: nothing added
  bool relu = false;  ///< max(., 0) last
};

/// gamma * (x - mean) / sqrt(var + epsilon) + beta with mean and biased variance of x over every axis
/// but `axis`, then `epilogue`. `gamma` and `beta` are [channels] or undefined (scale 1, offset 0).
/// Gradients flow to x, gamma, beta (through the batch statistics) and the residual; the returned
/// statistics are not differentiable.
BatchNormTrainResult batch_norm_train(const Tensor& x, const Tensor& gamma, const Tensor& beta, int axis,
                                      float epsilon, const BatchNormEpilogue& epilogue = {});

/// gamma * (x - mean) / sqrt(variance + epsilon) + beta with fixed per-channel statistics
/// (gradients flow to x, gamma and beta, not to the statistics).
Tensor batch_norm_inference(const Tensor& x, const Tensor& mean, const Tensor& variance, const Tensor& gamma,
                            const Tensor& beta, int axis, float epsilon);

/// The per-channel affine form of batch_norm_inference: y = x * scale + shift (channels = mean's size).
void batch_norm_scale_shift(const Tensor& mean, const Tensor& variance, const Tensor& gamma, const Tensor& beta,
                            float epsilon, std::vector<float>& scale, std::vector<float>& shift);

/// Normalizes x over `axes` (contiguous, negative counting from the end) with the biased variance,
/// then scales by gamma and shifts by beta, both shaped like those axes (or undefined).
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, std::vector<int> axes, float epsilon);

}  // namespace keras::ops
