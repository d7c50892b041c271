#include "keras/kernels/pooling.hpp"

#include "keras/errors.hpp"
#include "keras/kernels/conv_descs.hpp"
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

}  // namespace

std::size_t pool_workspace_bytes(Pooling kind, const PoolArgs& a) {
  if (kind != Pooling::max || elements(a.n, a.c, a.out, a.rank) == 0) return 0;
  return forward_entry(kind, a, true).pd.workspace_desc().get_size();
}

void pool_forward(Pooling kind, const float* x, float* y, void* workspace, const PoolArgs& a) {
  if (elements(a.n, a.c, a.out, a.rank) == 0) return;
  SmallWorkScope serial_if_small(work(a));
  const bool training = kind == Pooling::max && workspace != nullptr;
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
