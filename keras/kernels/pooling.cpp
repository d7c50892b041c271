#include "keras/kernels/pooling.hpp"

#include "keras/errors.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;
using dims = dnnl::memory::dims;

dnnl::memory::desc src_md(const Pool2DArgs& a) { return {{a.n, a.c, a.h, a.w}, dt::f32, tag::nhwc}; }
dnnl::memory::desc dst_md(const Pool2DArgs& a) { return {{a.n, a.c, a.oh, a.ow}, dt::f32, tag::nhwc}; }

dnnl::algorithm algorithm(Pooling kind) {
  return kind == Pooling::max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
}

dnnl::memory unbound(const dnnl::memory::desc& md) { return dnnl::memory(md, engine(), DNNL_MEMORY_NONE); }

struct Forward {
  dnnl::pooling_forward::primitive_desc pd;
  dnnl::pooling_forward prim;
  dnnl::memory x, y, ws;
};

Forward& forward_entry(Pooling kind, const Pool2DArgs& a, bool training) {
  auto& cache = primitive_cache<Forward>();
  auto key = cache_key(kind, a, training);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  dnnl::pooling_forward::desc d(prop, algorithm(kind), src_md(a), dst_md(a), {a.stride_h, a.stride_w},
                                {a.kh, a.kw}, {a.pad_top, a.pad_left}, {a.pad_bottom, a.pad_right});
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

std::size_t pool2d_workspace_bytes(Pooling kind, const Pool2DArgs& a) {
  if (kind != Pooling::max || a.n * a.oh * a.ow * a.c == 0) return 0;
  return forward_entry(kind, a, true).pd.workspace_desc().get_size();
}

void pool2d_forward(Pooling kind, const float* x, float* y, void* workspace, const Pool2DArgs& a) {
  if (a.n * a.oh * a.ow * a.c == 0) return;
  SmallWorkScope serial_if_small(a.n * a.oh * a.ow * a.c * a.kh * a.kw);
  const bool training = kind == Pooling::max && workspace != nullptr;
  Forward& e = forward_entry(kind, a, training);
  e.x.set_data_handle(const_cast<float*>(x));
  e.y.set_data_handle(y);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x}, {DNNL_ARG_DST, e.y}};
  if (training) {
    e.ws.set_data_handle(workspace);
    margs.emplace(DNNL_ARG_WORKSPACE, e.ws);
  }
  e.prim.execute(stream(), margs);
  stream().wait();
}

void pool2d_backward(Pooling kind, const float* dy, float* dx, const void* workspace, const Pool2DArgs& a) {
  if (a.n * a.h * a.w * a.c == 0) return;
  if (kind == Pooling::max && workspace == nullptr)
    throw ValueError("max pooling backward needs the workspace of its forward pass");
  SmallWorkScope serial_if_small(a.n * a.oh * a.ow * a.c * a.kh * a.kw);
  auto& cache = primitive_cache<Backward>();
  auto key = cache_key(kind, a);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& hint = forward_entry(kind, a, true);
    dnnl::pooling_backward::desc d(algorithm(kind), src_md(a), dst_md(a), {a.stride_h, a.stride_w}, {a.kh, a.kw},
                                   {a.pad_top, a.pad_left}, {a.pad_bottom, a.pad_right});
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
  e.prim.execute(stream(), margs);
  stream().wait();
}

}  // namespace keras::kernels
