#include "keras/kernels/winograd_f2_transforms.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"

namespace keras::kernels::winograd_detail {

void f2_input_transform(const float* x, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* v,
                        std::int64_t stride) {
  with_best_cpu([&] {
    const BlockAt at = block_at(p, id);
    const std::int64_t C = p.ic;
    for (int i = 0; i < 4; ++i) {  // along each row: tmp[i][j'] = (d B)[i][j']
      const float* in[4];
      window_row(x, p, at, i, 4, zeros, in);
      float* r = tmp + i * 4 * C;
#pragma omp simd
      for (std::int64_t c = 0; c < C; ++c) {
        const float d0 = in[0][c], d1 = in[1][c], d2 = in[2][c], d3 = in[3][c];
        r[c] = d0 - d2;
        r[C + c] = d1 + d2;
        r[2 * C + c] = d2 - d1;
        r[3 * C + c] = d1 - d3;
      }
    }
    for (int j = 0; j < 4; ++j) {  // down each column: Bᵀ (d B)
#pragma omp simd
      for (std::int64_t c = 0; c < C; ++c) {
        const float* s = tmp + j * C + c;
        const float d0 = s[0], d1 = s[4 * C], d2 = s[8 * C], d3 = s[12 * C];
        v[j * stride + c] = d0 - d2;
        v[(4 + j) * stride + c] = d1 + d2;
        v[(8 + j) * stride + c] = d2 - d1;
        v[(12 + j) * stride + c] = d1 - d3;
      }
    }
  });
}

template <bool with_residual>
void f2_output_transform(const float* m, std::int64_t stride, const Plane& p, std::int64_t id, const float* bias,
                         const float* residual, const float* zeros, bool relu, float* tmp, float* y) {
  with_best_cpu([&] {
    const BlockAt at = block_at(p, id);
    const std::int64_t O = p.oc;
    for (int i = 0; i < 4; ++i) {  // along each row: tmp[i][j] = (m A)[i][j], j < 2
      float* r = tmp + i * 2 * O;
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float* s = m + i * 4 * stride + o;
        const float m1 = s[stride], m2 = s[2 * stride];
        r[o] = s[0] + m1 + m2;
        r[O + o] = m1 - m2 - s[3 * stride];
      }
    }
    const float low = relu ? 0.0f : -__builtin_inff();
    for (int j = 0; j < 2 && at.x + j < p.ow; ++j) {  // down each column: Aᵀ (m A)
      float* out[2];
      const float* add[2];
      output_column<with_residual>(y, residual, p, at, j, tmp + 8 * O, zeros, out, add);
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float* s = tmp + j * O + o;
        const float t1 = s[2 * O], t2 = s[4 * O];
        float r0 = s[0] + t1 + t2 + bias[o], r1 = t1 - t2 - s[6 * O] + bias[o];
        if constexpr (with_residual) {
          r0 += add[0][o];
          r1 += add[1][o];
        }
        out[0][o] = std::max(r0, low);
        out[1][o] = std::max(r1, low);
      }
    }
  });
}

void f2_kernel_transform(const float* k, std::int64_t ic, std::int64_t oc, float* panels) {
  with_best_cpu([&] {
    const std::int64_t P = padded(oc), stride = ic * P;
    std::vector<float> kc(static_cast<std::size_t>(9 * P), 0.0f);  // kc[t][o] of input channel c, t = 3 i + j
    for (std::int64_t c = 0; c < ic; ++c) {
      for (int t = 0; t < 9; ++t)
        for (std::int64_t o = 0; o < oc; ++o) kc[t * P + o] = k[(t * ic + c) * oc + o];
      for (std::int64_t o0 = 0; o0 < P; o0 += kPanel) {
        float* out = panels + o0 * ic + c * kPanel;  // element e's run at out + e * stride
        const float* kt = kc.data() + o0;
#pragma omp simd
        for (std::int64_t o = 0; o < kPanel; ++o) {
          float g[4][3];
          for (int j = 0; j < 3; ++j) {  // G k, down each column
            const float k0 = kt[j * P + o], k1 = kt[(3 + j) * P + o], k2 = kt[(6 + j) * P + o];
            g[0][j] = k0;
            g[1][j] = (k0 + k1 + k2) / 2;
            g[2][j] = (k0 - k1 + k2) / 2;
            g[3][j] = k2;
          }
          for (int i = 0; i < 4; ++i) {  // (G k) Gᵀ, along each row
            const float k0 = g[i][0], k1 = g[i][1], k2 = g[i][2];
            float* e = out + i * 4 * stride + o;
            e[0] = k0;
            e[stride] = (k0 + k1 + k2) / 2;
            e[2 * stride] = (k0 - k1 + k2) / 2;
            e[3 * stride] = k2;
          }
        }
      }
    }
  });
}

template void f2_output_transform<true>(const float*, std::int64_t, const Plane&, std::int64_t, const float*,
                                        const float*, const float*, bool, float*, float*);
template void f2_output_transform<false>(const float*, std::int64_t, const Plane&, std::int64_t, const float*,
                                         const float*, const float*, bool, float*, float*);

}  // namespace keras::kernels::winograd_detail
