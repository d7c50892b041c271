#include "keras/kernels/winograd_transforms.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"

namespace keras::kernels::winograd_detail {

void input_transform(const float* x, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* v,
                     std::int64_t stride) {
  with_best_cpu([&] {
    const BlockAt at = block_at(p, id);
    const std::int64_t C = p.ic;
    for (int i = 0; i < 6; ++i) {  // along each row: tmp[i][j'] = (d B)[i][j']
      const float* in[6];
      window_row(x, p, at, i, 6, zeros, in);
      float* r = tmp + i * 6 * C;
#pragma omp simd
      for (std::int64_t c = 0; c < C; ++c) {
        const float d0 = in[0][c], d1 = in[1][c], d2 = in[2][c], d3 = in[3][c], d4 = in[4][c], d5 = in[5][c];
        r[c] = 4 * d0 - 5 * d2 + d4;
        r[C + c] = -4 * (d1 + d2) + d3 + d4;
        r[2 * C + c] = 4 * (d1 - d2) - d3 + d4;
        r[3 * C + c] = 2 * (d3 - d1) - d2 + d4;
        r[4 * C + c] = 2 * (d1 - d3) - d2 + d4;
        r[5 * C + c] = 4 * d1 - 5 * d3 + d5;
      }
    }
    for (int j = 0; j < 6; ++j) {  // down each column: Bᵀ (d B)
#pragma omp simd
      for (std::int64_t c = 0; c < C; ++c) {
        const float* s = tmp + j * C + c;
        const float d0 = s[0], d1 = s[6 * C], d2 = s[12 * C], d3 = s[18 * C], d4 = s[24 * C], d5 = s[30 * C];
        v[j * stride + c] = 4 * d0 - 5 * d2 + d4;
        v[(6 + j) * stride + c] = -4 * (d1 + d2) + d3 + d4;
        v[(12 + j) * stride + c] = 4 * (d1 - d2) - d3 + d4;
        v[(18 + j) * stride + c] = 2 * (d3 - d1) - d2 + d4;
        v[(24 + j) * stride + c] = 2 * (d1 - d3) - d2 + d4;
        v[(30 + j) * stride + c] = 4 * d1 - 5 * d3 + d5;
      }
    }
  });
}

template <bool with_residual>
void output_transform(const float* m, std::int64_t stride, const Plane& p, std::int64_t id, const float* bias,
                      const float* residual, const float* zeros, bool relu, float* tmp, float* y) {
  with_best_cpu([&] {
    const BlockAt at = block_at(p, id);
    const std::int64_t O = p.oc;
    for (int i = 0; i < 6; ++i) {  // along each row: tmp[i][j] = (m A)[i][j], j < 4
      float* r = tmp + i * 4 * O;
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float* s = m + i * 6 * stride + o;
        const float m1 = s[stride], m2 = s[2 * stride], m3 = s[3 * stride], m4 = s[4 * stride];
        const float a = m1 + m2, b = m1 - m2, c = m3 + m4, d = m3 - m4;
        r[o] = s[0] + a + c;
        r[O + o] = b + 2 * d;
        r[2 * O + o] = a + 4 * c;
        r[3 * O + o] = b + 8 * d + s[5 * stride];
      }
    }
    const float zero = 0.0f, low = relu ? zero : -__builtin_inff();
    for (int j = 0; j < 4 && at.x + j < p.ow; ++j) {  // down each column: Aᵀ (m A)
      float* out[4];
      const float* add[4];
      output_column<with_residual>(y, residual, p, at, j, tmp + 24 * O, zeros, out, add);
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float* s = tmp + j * O + o;
        const float m1 = s[4 * O], m2 = s[8 * O], m3 = s[12 * O], m4 = s[16 * O];
        const float a = m1 + m2, b = m1 - m2, c = m3 + m4, d = m3 - m4, shift = bias[o];
        float r0 = s[0] + a + c + shift, r1 = b + 2 * d + shift, r2 = a + 4 * c + shift, r3 = b + 8 * d + s[20 * O] + shift;
        if constexpr (with_residual) {
          r0 += add[0][o];
          r1 += add[1][o];
          r2 += add[2][o];
          r3 += add[3][o];
        }
        out[0][o] = std::max(r0, low);
        out[1][o] = std::max(r1, low);
        out[2][o] = std::max(r2, low);
        out[3][o] = std::max(r3, low);
      }
    }
  });
}

void gradient_transform(const float* dy, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* g,
                        std::int64_t stride, float* db) {
  with_best_cpu([&] {
    const BlockAt at = block_at(p, id);
    const std::int64_t O = p.oc;
    for (int i = 0; i < 4; ++i) {  // along each row: tmp[i][j'] = (g Aᵀ)[i][j'], j' < 6
      const bool row = at.y + i < p.oh;
      const float* in[4];
      for (int j = 0; j < 4; ++j)
        in[j] = row && at.x + j < p.ow ? dy + ((at.image * p.oh + at.y + i) * p.ow + at.x + j) * O : zeros;
      float* r = tmp + i * 6 * O;
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float d0 = in[0][o], d1 = in[1][o], d2 = in[2][o], d3 = in[3][o];
        r[o] = d0;
        r[O + o] = d0 + d1 + d2 + d3;
        r[2 * O + o] = d0 - d1 + d2 - d3;
        r[3 * O + o] = d0 + 2 * d1 + 4 * d2 + 8 * d3;
        r[4 * O + o] = d0 - 2 * d1 + 4 * d2 - 8 * d3;
        r[5 * O + o] = d3;
        db[o] += d0 + d1 + d2 + d3;
      }
    }
    for (int j = 0; j < 6; ++j) {  // down each column: A (g Aᵀ)
#pragma omp simd
      for (std::int64_t o = 0; o < O; ++o) {
        const float* s = tmp + j * O + o;
        const float d0 = s[0], d1 = s[6 * O], d2 = s[12 * O], d3 = s[18 * O];
        g[j * stride + o] = d0;
        g[(6 + j) * stride + o] = d0 + d1 + d2 + d3;
        g[(12 + j) * stride + o] = d0 - d1 + d2 - d3;
        g[(18 + j) * stride + o] = d0 + 2 * d1 + 4 * d2 + 8 * d3;
        g[(24 + j) * stride + o] = d0 - 2 * d1 + 4 * d2 - 8 * d3;
        g[(30 + j) * stride + o] = d3;
      }
    }
  });
}

__attribute__((target("avx2,fma"))) void kernel_transform(const float* w, std::int64_t ic, std::int64_t oc, bool turned,
                                                          float* panels) {
  const std::int64_t P = padded(oc), stride = ic * P;
  // Input channels split over the threads when there is enough work (512 -> 512 channels: 38 MB written).
  const int threads = static_cast<int>(std::clamp<std::int64_t>(ic * P / (std::int64_t{1} << 14), 1, omp_get_max_threads()));
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> k(static_cast<std::size_t>(9 * P), 0.0f);  // k[t][o] of input channel c, t = 3 i + j
#pragma omp for schedule(static)
    for (std::int64_t c = 0; c < ic; ++c) {
      for (int t = 0; t < 9; ++t)
        for (std::int64_t o = 0; o < oc; ++o) k[t * P + o] = turned ? w[((8 - t) * oc + o) * ic + c] : w[(t * ic + c) * oc + o];
      for (std::int64_t o0 = 0; o0 < P; o0 += kPanel) {
        float* out = panels + o0 * ic + c * kPanel;  // element e's run at out + e * stride
        const float* kt = k.data() + o0;
#pragma omp simd
        for (std::int64_t o = 0; o < kPanel; ++o) {
          float g[6][3];
          for (int j = 0; j < 3; ++j) {  // G k, down each column
            const float k0 = kt[j * P + o], k1 = kt[(3 + j) * P + o], k2 = kt[(6 + j) * P + o];
            g[0][j] = k0 / 4;
            g[1][j] = -(k0 + k1 + k2) / 6;
            g[2][j] = -(k0 - k1 + k2) / 6;
            g[3][j] = k0 / 24 + k1 / 12 + k2 / 6;
            g[4][j] = k0 / 24 - k1 / 12 + k2 / 6;
            g[5][j] = k2;
          }
          for (int i = 0; i < 6; ++i) {  // (G k) Gᵀ, along each row
            const float k0 = g[i][0], k1 = g[i][1], k2 = g[i][2];
            float* e = out + i * 6 * stride + o;
            e[0] = k0 / 4;
            e[stride] = -(k0 + k1 + k2) / 6;
            e[2 * stride] = -(k0 - k1 + k2) / 6;
            e[3 * stride] = k0 / 24 + k1 / 12 + k2 / 6;
            e[4 * stride] = k0 / 24 - k1 / 12 + k2 / 6;
            e[5 * stride] = k2;
          }
        }
      }
    }
  }
}

__attribute__((target("avx2,fma"))) void kernel_gradient_transform(const float* du, std::int64_t ic, std::int64_t oc,
                                                                   float* dkernel) {
  const std::int64_t size = ic * oc;
#pragma omp simd
  for (std::int64_t q = 0; q < size; ++q) {
    float h[6][3];
    for (int i = 0; i < 6; ++i) {  // u G, along each row
      const float* u = du + i * 6 * size + q;
      const float u1 = u[size], u2 = u[2 * size], u3 = u[3 * size], u4 = u[4 * size];
      h[i][0] = u[0] / 4 - (u1 + u2) / 6 + (u3 + u4) / 24;
      h[i][1] = (u2 - u1) / 6 + (u3 - u4) / 12;
      h[i][2] = (u3 + u4 - u1 - u2) / 6 + u[5 * size];
    }
    for (int j = 0; j < 3; ++j) {  // Gᵀ (u G), down each column
      const float u1 = h[1][j], u2 = h[2][j], u3 = h[3][j], u4 = h[4][j];
      dkernel[j * size + q] = h[0][j] / 4 - (u1 + u2) / 6 + (u3 + u4) / 24;
      dkernel[(3 + j) * size + q] = (u2 - u1) / 6 + (u3 - u4) / 12;
      dkernel[(6 + j) * size + q] = (u3 + u4 - u1 - u2) / 6 + h[5][j];
    }
  }
}

template void output_transform<true>(const float*, std::int64_t, const Plane&, std::int64_t, const float*, const float*,
                                     const float*, bool, float*, float*);
template void output_transform<false>(const float*, std::int64_t, const Plane&, std::int64_t, const float*, const float*,
                                      const float*, bool, float*, float*);

}  // namespace keras::kernels::winograd_detail
