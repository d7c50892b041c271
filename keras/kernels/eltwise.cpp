#include "keras/kernels/eltwise.hpp"

#include <algorithm>
#include <type_traits>

#include <omp.h>

#include "keras/errors.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

dnnl::algorithm to_dnnl(Eltwise f) {
  using a = dnnl::algorithm;
  switch (f) {
    case Eltwise::linear: return a::eltwise_linear;
    case Eltwise::relu: return a::eltwise_relu;
    case Eltwise::clip: return a::eltwise_clip;
    case Eltwise::elu: return a::eltwise_elu;
    case Eltwise::logistic: return a::eltwise_logistic;
    case Eltwise::tanh: return a::eltwise_tanh;
    case Eltwise::gelu_erf: return a::eltwise_gelu_erf;
    case Eltwise::gelu_tanh: return a::eltwise_gelu_tanh;
    case Eltwise::swish: return a::eltwise_swish;
    case Eltwise::soft_relu: return a::eltwise_soft_relu;
    case Eltwise::exp: return a::eltwise_exp;
    case Eltwise::log: return a::eltwise_log;
    case Eltwise::sqrt: return a::eltwise_sqrt;
    case Eltwise::square: return a::eltwise_square;
    case Eltwise::abs: return a::eltwise_abs;
  }
  return a::eltwise_linear;
}

dnnl::memory::desc flat_desc(std::int64_t n) {
  return dnnl::memory::desc({n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
}

struct Forward {
  dnnl::eltwise_forward::primitive_desc pd;
  dnnl::eltwise_forward prim;
  dnnl::memory src, dst;
};

Forward& forward_entry(Eltwise f, float alpha, float beta, std::int64_t n) {
  auto& cache = primitive_cache<Forward>();
  auto key = cache_key(f, alpha, beta, n);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto md = flat_desc(n);
  dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_training, to_dnnl(f), md, alpha, beta);
  dnnl::eltwise_forward::primitive_desc pd(d, engine());
  Forward e{pd, dnnl::eltwise_forward(pd), dnnl::memory(md, engine(), DNNL_MEMORY_NONE),
            dnnl::memory(md, engine(), DNNL_MEMORY_NONE)};
  return cache.emplace(key, std::move(e)).first->second;
}

struct Backward {
  dnnl::eltwise_backward prim;
  dnnl::memory src, diff_dst, diff_src;
};

}  // namespace

void eltwise_forward(Eltwise f, float alpha, float beta, const float* src, float* dst, std::int64_t n) {
  if (n == 0) return;
  SmallWorkScope serial_if_small(n);
  Forward& e = forward_entry(f, alpha, beta, n);
  e.src.set_data_handle(const_cast<float*>(src));
  e.dst.set_data_handle(dst);
  execute(e.prim, {{DNNL_ARG_SRC, e.src}, {DNNL_ARG_DST, e.dst}});
  stream().wait();
}

void eltwise_backward(Eltwise f, float alpha, float beta, const float* src, const float* diff_dst, float* diff_src,
                      std::int64_t n) {
  if (n == 0) return;
  SmallWorkScope serial_if_small(n);
  auto& cache = primitive_cache<Backward>();
  auto key = cache_key(f, alpha, beta, n);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& fwd = forward_entry(f, alpha, beta, n);
    auto md = flat_desc(n);
    dnnl::eltwise_backward::desc d(to_dnnl(f), md, md, alpha, beta);
    dnnl::eltwise_backward::primitive_desc pd(d, engine(), fwd.pd);
    Backward e{dnnl::eltwise_backward(pd), dnnl::memory(md, engine(), DNNL_MEMORY_NONE),
               dnnl::memory(md, engine(), DNNL_MEMORY_NONE), dnnl::memory(md, engine(), DNNL_MEMORY_NONE)};
    it = cache.emplace(key, std::move(e)).first;
  }
  Backward& e = it->second;
  e.src.set_data_handle(const_cast<float*>(src));
  e.diff_dst.set_data_handle(const_cast<float*>(diff_dst));
  e.diff_src.set_data_handle(diff_src);
  execute(e.prim, {{DNNL_ARG_SRC, e.src}, {DNNL_ARG_DIFF_DST, e.diff_dst}, {DNNL_ARG_DIFF_SRC, e.diff_src}});
  stream().wait();
}

namespace {
// A linear activation's gradient: g itself (a named type, so that a loop can skip storing it).
struct LinearGradient {
  float operator()(float, float g) const { return g; }
};

// Calls body(grad) with grad(y, g) = g * f'(z), from the output y of an activation f fused as a post-op: the
// activation is chosen once, outside the caller's loops.

template <class Body>
inline void with_fused_activation_gradient(Eltwise f, const Body& body) {
  switch (f) {
    case Eltwise::linear: body(LinearGradient{}); break;
    case Eltwise::relu: body([](float y, float g) { return y > 0.f ? g : 0.f; }); break;
    case Eltwise::logistic: body([](float y, float g) { return g * y * (1.f - y); }); break;
    case Eltwise::tanh: body([](float y, float g) { return g * (1.f - y * y); }); break;
    default: throw ValueError("Only linear, relu, sigmoid and tanh fuse into a matrix product or convolution");
  }
}
}  // namespace

void fused_activation_backward(Eltwise f, const float* y0, const float* g0, float* d0, std::int64_t n) {
  with_fused_activation_gradient(f, [=](auto grad) {
    parallel_ranges(n, [=](std::int64_t begin, std::int64_t end) {
      with_best_cpu([=] {  // cpu_dispatch.hpp
        const float* __restrict y = y0;
        const float* __restrict g = g0;
        float* __restrict d = d0;
        for (auto i = begin; i < end; ++i) d[i] = grad(y[i], g[i]);
      });
    });
  });
}

void fused_activation_backward_with_column_sums(Eltwise f, const float* y0, const float* g0, float* d0, float* sums0,
                                                std::int64_t rows, std::int64_t cols) {
  // Columns [begin, end) of every row; the sums stay in L1 while the rows stream by.
  auto columns = [=](std::int64_t begin, std::int64_t end) {
    with_fused_activation_gradient(f, [=](auto grad) {
      with_best_cpu([=] {  // cpu_dispatch.hpp
        const float* __restrict y = y0;
        const float* __restrict g = g0;
        float* __restrict d = d0;
        float* __restrict sums = sums0;
        std::fill(sums + begin, sums + end, 0.f);
        for (std::int64_t r = 0; r < rows; ++r) {
          const std::int64_t row = r * cols;
          for (auto c = begin; c < end; ++c) {
            const float v = grad(y[row + c], g[row + c]);
            if constexpr (!std::is_same_v<decltype(grad), LinearGradient>) d[row + c] = v;  // else d is g
            sums[c] += v;
          }
        }
      });
    });
  };
  // Pieces of whole 16-column vectors, one per thread, when there are enough of them.
  const std::int64_t vectors = (cols + 15) / 16;
  if (rows * cols < kParallelGrain || vectors < 2 || omp_get_max_threads() == 1) {
    columns(0, cols);
    return;
  }
#pragma omp parallel
  {
    const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    const std::int64_t begin = std::min(cols, vectors * t / threads * 16),
                       end = std::min(cols, vectors * (t + 1) / threads * 16);
    if (begin < end) columns(begin, end);
  }
}

}  // namespace keras::kernels
