#include "keras/ops/patches.hpp"

#include <array>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::ops {
namespace {

// The geometry padded to three spatial axes (missing leading ones have size 1).
struct Geometry {
  std::int64_t batch, channels;
  std::array<std::int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, out{1, 1, 1};
  std::int64_t windows() const { return out[0] * out[1] * out[2]; }
  std::int64_t window_size() const { return k[0] * k[1] * k[2] * channels; }
};

Geometry geometry(const Tensor& x, const Sizes& kernel, const Sizes& strides) {
  const int rank = x.ndim() - 2;
  if (rank < 1 || rank > 3 || static_cast<int>(kernel.size()) != rank || static_cast<int>(strides.size()) != rank)
    throw ValueError(fmt::format("extract_patches: input {} needs 1 to 3 spatial axes and one kernel size and stride "
                                 "per axis, got kernel {} and strides {}",
                                 shape_str(x.shape()), sizes_str(kernel), sizes_str(strides)));
  Geometry g{x.dim(0), x.dim(-1)};
  const int offset = 3 - rank;
  for (int a = 0; a < rank; ++a) {
    g.in[offset + a] = x.dim(a + 1);
    g.k[offset + a] = kernel[a];
    g.s[offset + a] = strides[a];
    if (kernel[a] <= 0 || strides[a] <= 0 || kernel[a] > x.dim(a + 1))
      throw ValueError(fmt::format("extract_patches: kernel {} with strides {} does not fit input {}",
                                   sizes_str(kernel), sizes_str(strides), shape_str(x.shape())));
    g.out[offset + a] = (x.dim(a + 1) - kernel[a]) / strides[a] + 1;
  }
  return g;
}

// Calls fn(window_offset, input_offset, channels) for every kernel row of every window of sample b.
template <class Fn>
void for_each_row(const Geometry& g, std::int64_t b, Fn&& fn) {
  const std::int64_t C = g.channels;
  std::int64_t w = 0;
  for (std::int64_t o0 = 0; o0 < g.out[0]; ++o0)
    for (std::int64_t o1 = 0; o1 < g.out[1]; ++o1)
      for (std::int64_t o2 = 0; o2 < g.out[2]; ++o2, ++w) {
        std::int64_t p = 0;
        for (std::int64_t k0 = 0; k0 < g.k[0]; ++k0)
          for (std::int64_t k1 = 0; k1 < g.k[1]; ++k1) {
            const std::int64_t i0 = o0 * g.s[0] + k0, i1 = o1 * g.s[1] + k1, i2 = o2 * g.s[2];
            const std::int64_t in = (((b * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2) * C;
            fn((b * g.windows() + w) * g.window_size() + p, in, g.k[2] * C);
            p += g.k[2] * C;
          }
      }
}

}  // namespace

Tensor extract_patches(const Tensor& x0, const Sizes& kernel, const Sizes& strides) {
  const Tensor x = x0.dtype() == DType::float32 ? x0 : x0.astype(DType::float32);
  const Geometry g = geometry(x, kernel, strides);
  Tensor y = Tensor::empty({g.batch, g.windows(), g.window_size()});
  const float* src = x.data<float>();
  float* dst = y.data<float>();
  // Each kernel row (the last spatial axis) is k2 * C contiguous input values.
  kernels::parallel_rows(g.batch, g.windows() * g.window_size(), [&](std::int64_t b) {
    for_each_row(g, b, [&](std::int64_t out, std::int64_t in, std::int64_t n) {
      for (std::int64_t i = 0; i < n; ++i) dst[out + i] = src[in + i];
    });
  });
  if (autodiff::recording())
    autodiff::record(y, {x}, [g, shape = x.shape()](const Tensor& grad, const std::vector<bool>&) {
      Tensor dx = Tensor::zeros(shape);
      const float* gy = grad.data<float>();
      float* gx = dx.data<float>();
      kernels::parallel_rows(g.batch, g.windows() * g.window_size(), [&](std::int64_t b) {
        for_each_row(g, b, [&](std::int64_t out, std::int64_t in, std::int64_t n) {
          for (std::int64_t i = 0; i < n; ++i) gx[in + i] += gy[out + i];
        });
      });
      return std::vector<Tensor>{dx};
    }, {.name = "extract_patches"});
  return y;
}

}  // namespace keras::ops
