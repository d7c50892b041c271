#include "keras/kernels/convolution.hpp"

#include "keras/errors.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;
using dims = dnnl::memory::dims;

dnnl::memory::desc src_md(const Conv2DArgs& a) { return {{a.n, a.c, a.h, a.w}, dt::f32, tag::nhwc}; }
dnnl::memory::desc dst_md(const Conv2DArgs& a) { return {{a.n, a.oc, a.oh, a.ow}, dt::f32, tag::nhwc}; }
dnnl::memory::desc weights_md(const Conv2DArgs& a) { return {{a.oc, a.c, a.kh, a.kw}, dt::f32, tag::hwio}; }
dnnl::memory::desc bias_md(const Conv2DArgs& a) { return {{a.oc}, dt::f32, tag::x}; }
dims strides(const Conv2DArgs& a) { return {a.stride_h, a.stride_w}; }
dims dilates(const Conv2DArgs& a) { return {a.dilation_h - 1, a.dilation_w - 1}; }
dims pad_l(const Conv2DArgs& a) { return {a.pad_top, a.pad_left}; }
dims pad_r(const Conv2DArgs& a) { return {a.pad_bottom, a.pad_right}; }

std::int64_t work(const Conv2DArgs& a) { return a.n * a.oh * a.ow * a.oc * a.kh * a.kw * a.c; }

dnnl::memory unbound(const dnnl::memory::desc& md) { return dnnl::memory(md, engine(), DNNL_MEMORY_NONE); }

dnnl::algorithm post_op_algorithm(Eltwise f) {
  switch (f) {
    case Eltwise::relu: return dnnl::algorithm::eltwise_relu;
    case Eltwise::logistic: return dnnl::algorithm::eltwise_logistic;
    case Eltwise::tanh: return dnnl::algorithm::eltwise_tanh;
    default: throw ValueError("conv2d: only relu, sigmoid and tanh fuse into a convolution");
  }
}

struct Forward {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
  dnnl::memory x, k, b, y;
};

Forward& forward_entry(const Conv2DArgs& a, bool has_bias, Eltwise act) {
  auto& cache = primitive_cache<Forward>();
  auto key = cache_key(a, has_bias, act);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto alg = dnnl::algorithm::convolution_direct;
  const auto prop = dnnl::prop_kind::forward_training;
  auto d = has_bias ? dnnl::convolution_forward::desc(prop, alg, src_md(a), weights_md(a), bias_md(a), dst_md(a),
                                                      strides(a), dilates(a), pad_l(a), pad_r(a))
                    : dnnl::convolution_forward::desc(prop, alg, src_md(a), weights_md(a), dst_md(a), strides(a),
                                                      dilates(a), pad_l(a), pad_r(a));
  dnnl::post_ops ops;
  if (act != Eltwise::linear) ops.append_eltwise(1.f, post_op_algorithm(act), 0.f, 0.f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  dnnl::convolution_forward::primitive_desc pd(d, attr, engine());
  Forward e{pd, dnnl::convolution_forward(pd), unbound(src_md(a)), unbound(weights_md(a)),
            has_bias ? unbound(bias_md(a)) : dnnl::memory(), unbound(dst_md(a))};
  return cache.emplace(key, std::move(e)).first->second;
}

struct BackwardData {
  dnnl::convolution_backward_data prim;
  dnnl::memory dy, k, dx;
};

struct BackwardWeights {
  dnnl::convolution_backward_weights prim;
  dnnl::memory x, dy, dk, db;
};

}  // namespace

void conv2d_forward(const float* x, const float* kernel, const float* bias, float* y, const Conv2DArgs& a,
                    Eltwise act) {
  if (a.n * a.oh * a.ow * a.oc == 0) return;
  SmallWorkScope serial_if_small(work(a));
  Forward& e = forward_entry(a, bias != nullptr, act);
  e.x.set_data_handle(const_cast<float*>(x));
  e.k.set_data_handle(const_cast<float*>(kernel));
  e.y.set_data_handle(y);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x}, {DNNL_ARG_WEIGHTS, e.k}, {DNNL_ARG_DST, e.y}};
  if (bias) {
    e.b.set_data_handle(const_cast<float*>(bias));
    margs.emplace(DNNL_ARG_BIAS, e.b);
  }
  e.prim.execute(stream(), margs);
  stream().wait();
}

void conv2d_backward_data(const float* dy, const float* kernel, float* dx, const Conv2DArgs& a) {
  if (a.n * a.h * a.w * a.c == 0) return;
  SmallWorkScope serial_if_small(work(a));
  auto& cache = primitive_cache<BackwardData>();
  auto key = cache_key(a);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& hint = forward_entry(a, false, Eltwise::linear);
    dnnl::convolution_backward_data::desc d(dnnl::algorithm::convolution_direct, src_md(a), weights_md(a), dst_md(a),
                                            strides(a), dilates(a), pad_l(a), pad_r(a));
    dnnl::convolution_backward_data::primitive_desc pd(d, engine(), hint.pd);
    BackwardData e{dnnl::convolution_backward_data(pd), unbound(dst_md(a)), unbound(weights_md(a)),
                   unbound(src_md(a))};
    it = cache.emplace(key, std::move(e)).first;
  }
  BackwardData& e = it->second;
  e.dy.set_data_handle(const_cast<float*>(dy));
  e.k.set_data_handle(const_cast<float*>(kernel));
  e.dx.set_data_handle(dx);
  e.prim.execute(stream(), {{DNNL_ARG_DIFF_DST, e.dy}, {DNNL_ARG_WEIGHTS, e.k}, {DNNL_ARG_DIFF_SRC, e.dx}});
  stream().wait();
}

void conv2d_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const Conv2DArgs& a) {
  if (a.kh * a.kw * a.c * a.oc == 0) return;
  SmallWorkScope serial_if_small(work(a));
  const bool has_bias = dbias != nullptr;
  auto& cache = primitive_cache<BackwardWeights>();
  auto key = cache_key(a, has_bias);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Forward& hint = forward_entry(a, has_bias, Eltwise::linear);
    const auto alg = dnnl::algorithm::convolution_direct;
    auto d = has_bias ? dnnl::convolution_backward_weights::desc(alg, src_md(a), weights_md(a), bias_md(a), dst_md(a),
                                                                 strides(a), dilates(a), pad_l(a), pad_r(a))
                      : dnnl::convolution_backward_weights::desc(alg, src_md(a), weights_md(a), dst_md(a), strides(a),
                                                                 dilates(a), pad_l(a), pad_r(a));
    dnnl::convolution_backward_weights::primitive_desc pd(d, engine(), hint.pd);
    BackwardWeights e{dnnl::convolution_backward_weights(pd), unbound(src_md(a)), unbound(dst_md(a)),
                      unbound(weights_md(a)), has_bias ? unbound(bias_md(a)) : dnnl::memory()};
    it = cache.emplace(key, std::move(e)).first;
  }
  BackwardWeights& e = it->second;
  e.x.set_data_handle(const_cast<float*>(x));
  e.dy.set_data_handle(const_cast<float*>(dy));
  e.dk.set_data_handle(dkernel);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x}, {DNNL_ARG_DIFF_DST, e.dy},
                                              {DNNL_ARG_DIFF_WEIGHTS, e.dk}};
  if (has_bias) {
    e.db.set_data_handle(dbias);
    margs.emplace(DNNL_ARG_DIFF_BIAS, e.db);
  }
  e.prim.execute(stream(), margs);
  stream().wait();
}

}  // namespace keras::kernels
