#include "keras/kernels/pooling.hpp"

#include "keras/errors.hpp"
#include <algorithm>

#include "keras/kernels/conv_descs.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dims = dnnl::memory::dims;
using conv_detail::channels_last_md;
using conv_detail::unbound;

dnnl::memory::desc src_md(const PoolArgs& a) { return channels_last_md(a.n, a.c, a.in, a.rank); }
dnnl::memory::desc dst_md(const PoolArgs& a) { return channels_last_md(a.n, a.c, a.out, a.rank); }
dims spatial(const std::array<std::int64_t, 3>& v, std::int64_t rank) { return dims(v.begin(), v.begin() + rank); }

dnnl::algorithm algorithm(Pooling kind) {
  return kind == Pooling::max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
}

std::int64_t work(const PoolArgs& a) {
  std::int64_t w = a.n * a.c;
  for (std::int64_t i = 0; i < a.rank; ++i) w *= a.out[i] * a.k[i];
  return w;
}
std::int64_t elements(std::int64_t n, std::int64_t c, const std::array<std::int64_t, 3>& sp, std::int64_t rank) {
  for (std::int64_t i = 0; i < rank; ++i) n *= sp[i];
  return n * c;
}

struct Forward {
  dnnl::pooling_forward::primitive_desc pd;
  dnnl::pooling_forward prim;
  dnnl::memory x, y, ws;
};

Forward& forward_entry(Pooling kind, const PoolArgs& a, bool training) {
  auto& cache = primitive_cache<Forward>();
  auto key = cache_key(kind, a, training);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  dnnl::pooling_forward::desc d(prop, algorithm(kind), src_md(a), dst_md(a), spatial(a.stride, a.rank),
                                spatial(a.k, a.rank), spatial(a.pad_l, a.rank), spatial(a.pad_r, a.rank));
  dnnl::pooling_forward::primitive_desc pd(d, engine());
  const bool has_ws = training && kind == Pooling::max;
  Forward e{pd, dnnl::pooling_forward(pd), unbound(src_md(a)), unbound(dst_md(a)),
            has_ws ? unbound(pd.workspace_desc()) : dnnl::memory()};
  return cache.emplace(key, std::move(e)).first->second;
}

struct Backward {
  dnnl::pooling_backward prim;
  dnnl::memory dy, dx, ws;
};


// Training max pooling whose windows tile the input (2-D, strides = pool size, no padding: Keras's
// MaxPooling2D default) runs as our own loops below the AVX-512 level: there oneDNN's forward_training +
// backward_data pair with its workspace took 3.3 + 2.6 ms per call for the seed CNN's poolings at batch
// 128 on 2 threads, 23% of a training step (ONEDNN_VERBOSE, AVX2 AMD EPYC), for an op that reads and
// writes each value once. The workspace holds, per output value, its maximum's position in the window
// (one byte; the first maximum in row-major window order wins ties, as in oneDNN's). Inference (no
// workspace) takes the same loops without positions: oneDNN's AVX2 forward_inference took 0.59 ms for the
// seed CNN's first pooling at batch 32 on one thread.
bool tiled_max_pool(Pooling kind, const PoolArgs& a) {
  return kind == Pooling::max && a.rank == 2 && a.stride[0] == a.k[0] && a.stride[1] == a.k[1] && a.pad_l[0] == 0 &&
         a.pad_l[1] == 0 && a.pad_r[0] == 0 && a.pad_r[1] == 0 && a.k[0] * a.k[1] <= 256 &&
         own_kernels() && cpu_level() != CpuLevel::avx512;
}

void tiled_max_pool_forward(const float* x, float* y, std::uint8_t* where, const PoolArgs& a) {
  const std::int64_t C = a.c, H = a.in[0], W = a.in[1], OH = a.out[0], OW = a.out[1], KH = a.k[0], KW = a.k[1];
  parallel_rows(a.n * OH, OW * C * KH * KW, [&](std::int64_t row) {
    const std::int64_t n = row / OH, oh = row % OH;
    with_best_cpu([&] {
      for (std::int64_t ow = 0; ow < OW; ++ow) {
        float* __restrict yp = y + (row * OW + ow) * C;
        const float* x0 = x + ((n * H + oh * KH) * W + ow * KW) * C;
        std::copy(x0, x0 + C, yp);
        if (!where) {  // inference: the maxima only
          for (std::int64_t i = 0; i < KH; ++i)
            for (std::int64_t j = i == 0 ? 1 : 0; j < KW; ++j) {
              const float* __restrict xp = x0 + (i * W + j) * C;
#pragma omp simd
              for (std::int64_t c = 0; c < C; ++c) yp[c] = xp[c] > yp[c] ? xp[c] : yp[c];
            }
          continue;
        }
        std::uint8_t* __restrict wp = where + (row * OW + ow) * C;
        std::fill(wp, wp + C, std::uint8_t{0});
        for (std::int64_t i = 0; i < KH; ++i)
          for (std::int64_t j = i == 0 ? 1 : 0; j < KW; ++j) {
            const float* __restrict xp = x0 + (i * W + j) * C;
            const auto pos = static_cast<std::uint8_t>(i * KW + j);
#pragma omp simd
            for (std::int64_t c = 0; c < C; ++c) {
              const bool more = xp[c] > yp[c];
              yp[c] = more ? xp[c] : yp[c];
              wp[c] = more ? pos : wp[c];
            }
          }
      }
    });
  });
}

void tiled_max_pool_backward(const float* dy, float* dx, const std::uint8_t* where, const PoolArgs& a) {
  const std::int64_t C = a.c, H = a.in[0], W = a.in[1], OH = a.out[0], OW = a.out[1], KH = a.k[0], KW = a.k[1];
  // One input row at a time: each value is its window's gradient where it was the maximum, else 0 (rows
  // and columns past the last window, under valid padding, get 0).
  parallel_rows(a.n * H, W * C, [&](std::int64_t in_row) {
    const std::int64_t n = in_row / H, h = in_row % H, oh = h / KH, i = h % KH;
    float* __restrict dxr = dx + in_row * W * C;
    if (oh >= OH) {
      std::fill(dxr, dxr + W * C, 0.f);
      return;
    }
    with_best_cpu([&] {
      for (std::int64_t ow = 0; ow < OW; ++ow) {
        const float* __restrict g = dy + ((n * OH + oh) * OW + ow) * C;
        const std::uint8_t* __restrict wp = where + ((n * OH + oh) * OW + ow) * C;
        for (std::int64_t j = 0; j < KW; ++j) {
          float* __restrict d = dxr + (ow * KW + j) * C;
          const auto pos = static_cast<std::uint8_t>(i * KW + j);
#pragma omp simd
          for (std::int64_t c = 0; c < C; ++c) d[c] = wp[c] == pos ? g[c] : 0.f;
        }
      }
    });
    std::fill(dxr + OW * KW * C, dxr + W * C, 0.f);
  });
}

}  // namespace

std::size_t pool_workspace_bytes(Pooling kind, const PoolArgs& a) {
  if (kind != Pooling::max || elements(a.n, a.c, a.out, a.rank) == 0) return 0;
  if (tiled_max_pool(kind, a)) return static_cast<std::size_t>(elements(a.n, a.c, a.out, a.rank));
  return forward_entry(kind, a, true).pd.workspace_desc().get_size();
}

void pool_forward(Pooling kind, const float* x, float* y, void* workspace, const PoolArgs& a) {
  if (elements(a.n, a.c, a.out, a.rank) == 0) return;
  SmallWorkScope serial_if_small(work(a));
  const bool training = kind == Pooling::max && workspace != nullptr;
  if (tiled_max_pool(kind, a)) return tiled_max_pool_forward(x, y, static_cast<std::uint8_t*>(workspace), a);
  Forward& e = forward_entry(kind, a, training);
  e.x.set_data_handle(const_cast<float*>(x));
  e.y.set_data_handle(y);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x}, {DNNL_ARG_DST, e.y}};
  if (training) {
    e.ws.set_data_handle(workspace);
    margs.emplace(DNNL_ARG_WORKSPACE, e.ws);
  }
  execute(e.prim, margs);
  stream().wait();
}

void pool_backward(Pooling kind, const float* dy, float* dx, const void* workspace, const PoolArgs& a) {
  if (elements(a.n, a.c, a.in, a.rank) == 0) return;
  if (kind == Pooling::max && workspace == nullptr)
    throw ValueError("max pooling backward needs the workspace of its forward pass");
  if (tiled_max_pool(kind, a)) return tiled_max_pool_backward(dy, dx, static_cast<const std::uint8_t*>(workspace), a);
  SmallWorkScope serial_if_small(work(a));
  auto& cache = primitive_cache<Backward>();
  auto key = cache_key(kind, a);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& hint = forward_entry(kind, a, true);
    dnnl::pooling_backward::desc d(algorithm(kind), src_md(a), dst_md(a), spatial(a.stride, a.rank),
                                   spatial(a.k, a.rank), spatial(a.pad_l, a.rank), spatial(a.pad_r, a.rank));
    dnnl::pooling_backward::primitive_desc pd(d, engine(), hint.pd);
    Backward e{dnnl::pooling_backward(pd), unbound(dst_md(a)), unbound(src_md(a)),
               kind == Pooling::max ? unbound(pd.workspace_desc()) : dnnl::memory()};
    it = cache.emplace(key, std::move(e)).first;
  }
  Backward& e = it->second;
  e.dy.set_data_handle(const_cast<float*>(dy));
  e.dx.set_data_handle(dx);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_DIFF_DST, e.dy}, {DNNL_ARG_DIFF_SRC, e.dx}};
  if (kind == Pooling::max) {
    e.ws.set_data_handle(const_cast<void*>(workspace));
    margs.emplace(DNNL_ARG_WORKSPACE, e.ws);
  }
  execute(e.prim, margs);
  stream().wait();
}

}  // namespace keras::kernels
