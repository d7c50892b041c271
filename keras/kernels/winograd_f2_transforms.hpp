#pragma once
// Winograd F(2 x 2, 3 x 3)'s transforms for winograd.cpp (internal to the kernels floor), at the points 0, 1,
// -1 and infinity: per 2 x 2 block of outputs y = Aᵀ [(G k Gᵀ) ⊙ (Bᵀ d B)] A, d the 4 x 4 inputs under the
// block. Its transformed kernel holds 16 / 9 of the kernel's floats where F(4 x 4, 3 x 3)'s holds 4 times
// them: for one small image, whose products stream the transformed kernel for few blocks, that is the
// bandwidth that counts (winograd.cpp picks). Laid out as winograd_transforms.hpp's, with 16 elements.
#include <cstdint>

#include "keras/kernels/winograd_transforms.hpp"

namespace keras::kernels::winograd_detail {

constexpr int kF2Elements = 16;  // 4 x 4 transformed values per block and channel

// v[e * stride + c] = element e (4 i + j) of Bᵀ d B, d the 4 x 4 inputs of block `id` of the plane (its
// blocks 2 x 2 outputs: p.side == 2); zeros, tmp as input_transform's.
void f2_input_transform(const float* x, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* v,
                        std::int64_t stride);

// Block `id`'s 2 x 2 outputs = Aᵀ m A + bias (+ the residual when `with_residual`), then relu; the rest as
// output_transform's.
template <bool with_residual>
void f2_output_transform(const float* m, std::int64_t stride, const Plane& p, std::int64_t id, const float* bias,
                         const float* residual, const float* zeros, bool relu, float* tmp, float* y);

// G k Gᵀ of the kernel k [3][3][ic][oc] as 16 packed B matrices [ic, oc], as kernel_transform lays out its 36.
void f2_kernel_transform(const float* k, std::int64_t ic, std::int64_t oc, float* panels);

}  // namespace keras::kernels::winograd_detail
