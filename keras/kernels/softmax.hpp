#pragma once
// Softmax and log-softmax over the last axis of a [rows, cols] matrix, on oneDNN's softmax_v2 (softmax's
// gradient on our own loop: oneDNN 2.6's AVX2 build has only its scalar reference kernel for it).
#include <cstdint>

namespace keras::kernels {

void softmax_forward(const float* src, float* dst, std::int64_t rows, std::int64_t cols, bool log);
/// diff_src from the forward result dst and diff_dst.
void softmax_backward(const float* dst, const float* diff_dst, float* diff_src, std::int64_t rows,
                      std::int64_t cols, bool log);

}  // namespace keras::kernels
