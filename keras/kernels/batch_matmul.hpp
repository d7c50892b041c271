#pragma once
// Batched matrix products on oneDNN: C[b] = op(A[b]) * op(B[b]) for b in [0, batch), each matrix
// row-major and the batch contiguous (A is [batch, m, k], or [batch, k, m] when transposed).
#include <cstdint>

namespace keras::kernels {

struct BatchMatmulArgs {
  std::int64_t batch, m, n, k;  // C is [batch, m, n]; op(A) is [batch, m, k]; op(B) is [batch, k, n]
  bool trans_a = false;         // A stored as [batch, k, m]
  bool trans_b = false;         // B stored as [batch, n, k]
};

void batch_matmul(const float* a, const float* b, float* c, const BatchMatmulArgs& args);

}  // namespace keras::kernels
