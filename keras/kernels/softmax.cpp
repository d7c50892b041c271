#include "keras/kernels/softmax.hpp"

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

dnnl::memory::desc matrix(std::int64_t rows, std::int64_t cols) {
  return dnnl::memory::desc({rows, cols}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
}

dnnl::algorithm algorithm(bool log) {
  return log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
}

struct Forward {
  dnnl::softmax_v2_forward::primitive_desc pd;
  dnnl::softmax_v2_forward prim;
  dnnl::memory src, dst;
};

Forward& forward_entry(std::int64_t rows, std::int64_t cols, bool log) {
  auto& cache = primitive_cache<Forward>();
  auto key = cache_key(rows, cols, log);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto md = matrix(rows, cols);
  dnnl::softmax_v2_forward::desc d(dnnl::prop_kind::forward_training, algorithm(log), md, md, 1);
  dnnl::softmax_v2_forward::primitive_desc pd(d, engine());
  Forward e{pd, dnnl::softmax_v2_forward(pd), dnnl::memory(md, engine(), DNNL_MEMORY_NONE),
            dnnl::memory(md, engine(), DNNL_MEMORY_NONE)};
  return cache.emplace(key, std::move(e)).first->second;
}

struct Backward {
  dnnl::softmax_v2_backward prim;
  dnnl::memory dst, diff_dst, diff_src;
};

}  // namespace

void softmax_forward(const float* src, float* dst, std::int64_t rows, std::int64_t cols, bool log) {
  if (rows == 0 || cols == 0) return;
  SmallWorkScope serial_if_small(rows * cols);
  Forward& e = forward_entry(rows, cols, log);
  e.src.set_data_handle(const_cast<float*>(src));
  e.dst.set_data_handle(dst);
  execute(e.prim, {{DNNL_ARG_SRC, e.src}, {DNNL_ARG_DST, e.dst}});
  stream().wait();
}

void softmax_backward(const float* dst, const float* diff_dst, float* diff_src, std::int64_t rows,
                      std::int64_t cols, bool log) {
  if (rows == 0 || cols == 0) return;
  if (!log) {  // dx = y (dy - sum(dy y)): oneDNN 2.6 has only its reference kernel below AVX-512
    parallel_rows(rows, cols, [&](std::int64_t r) {
      with_best_cpu([&] {
        const float* __restrict y = dst + r * cols;
        const float* __restrict dy = diff_dst + r * cols;
        float* __restrict dx = diff_src + r * cols;
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
        for (std::int64_t c = 0; c < cols; ++c) dot += dy[c] * y[c];
#pragma omp simd
        for (std::int64_t c = 0; c < cols; ++c) dx[c] = y[c] * (dy[c] - dot);
      });
    });
    return;
  }
  SmallWorkScope serial_if_small(rows * cols);
  auto& cache = primitive_cache<Backward>();
  auto key = cache_key(rows, cols, log);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& fwd = forward_entry(rows, cols, log);
    auto md = matrix(rows, cols);
    dnnl::softmax_v2_backward::desc d(algorithm(log), md, md, md, 1);
    dnnl::softmax_v2_backward::primitive_desc pd(d, engine(), fwd.pd);
    Backward e{dnnl::softmax_v2_backward(pd), dnnl::memory(md, engine(), DNNL_MEMORY_NONE),
               dnnl::memory(md, engine(), DNNL_MEMORY_NONE), dnnl::memory(md, engine(), DNNL_MEMORY_NONE)};
    it = cache.emplace(key, std::move(e)).first;
  }
  Backward& e = it->second;
  e.dst.set_data_handle(const_cast<float*>(dst));
  e.diff_dst.set_data_handle(const_cast<float*>(diff_dst));
  e.diff_src.set_data_handle(diff_src);
  execute(e.prim, {{DNNL_ARG_DST, e.dst}, {DNNL_ARG_DIFF_DST, e.diff_dst}, {DNNL_ARG_DIFF_SRC, e.diff_src}});
  stream().wait();
}

}  // namespace keras::kernels
