#pragma once
// Matrix products on oneDNN: C = act(op(A) * op(B) + bias), optionally accumulated into C.
#include <cstdint>

#include "keras/kernels/eltwise.hpp"

namespace keras::kernels {

struct MatmulArgs {
  std::int64_t m, n, k;        // C is [m, n]; op(A) is [m, k]; op(B) is [k, n]
  bool trans_a = false;        // A stored as [k, m]
  bool trans_b = false;        // B stored as [n, k]
  const float* bias = nullptr; // [n], broadcast over rows
  Eltwise activation = Eltwise::linear;  // fused post-op (alpha/beta 0)
  bool accumulate = false;     // C += result instead of C = result
};

void matmul(const float* a, const float* b, float* c, const MatmulArgs& args);

/// oneDNN's product as it is, the stored rows of A and B `lda` and `ldb` floats apart (0: one after the
/// other), without matmul's row padding (bench/matmul_row_padding compares layouts with it).
void onednn_matmul(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                   const MatmulArgs& args);

}  // namespace keras::kernels
