#pragma once
// Memory descriptors and parameters shared by the convolution and deconvolution kernels: Keras's
// channels_last tensors and kernel layouts, described to oneDNN by their strides (kernels only).
#include "keras/kernels/convolution.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels::conv_detail {

using dims = dnnl::memory::dims;

/// A channels_last tensor [n, spatial..., c] as oneDNN's {n, c, spatial...}.
dnnl::memory::desc channels_last_md(std::int64_t n, std::int64_t c, const std::array<std::int64_t, 3>& spatial,
                                    std::int64_t rank);
inline dnnl::memory::desc src_md(const ConvArgs& a) { return channels_last_md(a.n, a.c, a.in, a.rank); }
inline dnnl::memory::desc dst_md(const ConvArgs& a) { return channels_last_md(a.n, a.oc, a.out, a.rank); }
/// Convolution weights: Keras's [k..., c / g, oc] as {oc, c, k...} or, grouped, {g, oc / g, c / g, k...}.
dnnl::memory::desc conv_weights_md(const ConvArgs& a);
/// Deconvolution weights: Keras's [k..., oc, c] as {oc, c, k...}.
dnnl::memory::desc deconv_weights_md(const ConvArgs& a);
inline dnnl::memory::desc bias_md(const ConvArgs& a) {
  return {{a.oc}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::x};
}
dims strides(const ConvArgs& a);
dims dilates(const ConvArgs& a);  // oneDNN counts dilation from 0
dims pad_l(const ConvArgs& a);
dims pad_r(const ConvArgs& a);
/// Multiply-adds of the convolution, to decide whether it is worth the thread pool.
std::int64_t work(const ConvArgs& a);
inline dnnl::memory unbound(const dnnl::memory::desc& md) { return dnnl::memory(md, engine(), DNNL_MEMORY_NONE); }
/// oneDNN's post-op for a fusable activation (relu, logistic, tanh).
dnnl::algorithm post_op_algorithm(Eltwise f);
dnnl::primitive_attr post_op_attr(Eltwise f);

}  // namespace keras::kernels::conv_detail

namespace keras::kernels::conv_detail {

/// Forward, backward-data and backward-weights runs of one oneDNN convolution family: P names
/// the primitives (convolution_* or deconvolution_*), whose descriptors take the same arguments.
template <class P>
struct Family {
  using Fwd = typename P::Fwd;
  using BwdData = typename P::BwdData;
  using BwdWeights = typename P::BwdWeights;

  struct Forward {
    typename Fwd::primitive_desc pd;
    Fwd prim;
    dnnl::memory x, k, b, y;
  };
  struct BackwardData {
    BwdData prim;
    dnnl::memory dy, k, dx;
  };
  struct BackwardWeights {
    BwdWeights prim;
    dnnl::memory x, dy, dk, db;
  };

  static Forward& forward_entry(const ConvArgs& a, bool has_bias, Eltwise act) {
    auto& cache = primitive_cache<Forward>();
    auto key = cache_key(a, has_bias, act);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const auto prop = dnnl::prop_kind::forward_training;
    const auto wmd = P::weights_md(a);
    auto d = has_bias ? typename Fwd::desc(prop, P::algorithm, src_md(a), wmd, bias_md(a), dst_md(a), strides(a),
                                           dilates(a), pad_l(a), pad_r(a))
                      : typename Fwd::desc(prop, P::algorithm, src_md(a), wmd, dst_md(a), strides(a), dilates(a),
                                           pad_l(a), pad_r(a));
    typename Fwd::primitive_desc pd(d, post_op_attr(act), engine());
    Forward e{pd, Fwd(pd), unbound(src_md(a)), unbound(wmd), has_bias ? unbound(bias_md(a)) : dnnl::memory(),
              unbound(dst_md(a))};
    return cache.emplace(key, std::move(e)).first->second;
  }

  static void forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a,
                      Eltwise act) {
    if (a.n * a.oc == 0) return;
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

  static void backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
    if (a.n * a.c == 0) return;
    SmallWorkScope serial_if_small(work(a));
    auto& cache = primitive_cache<BackwardData>();
    auto key = cache_key(a);
    auto it = cache.find(key);
    if (it == cache.end()) {
      Forward& hint = forward_entry(a, false, Eltwise::linear);
      const auto wmd = P::weights_md(a);
      typename BwdData::desc d(P::algorithm, src_md(a), wmd, dst_md(a), strides(a), dilates(a), pad_l(a), pad_r(a));
      typename BwdData::primitive_desc pd(d, engine(), hint.pd);
      BackwardData e{BwdData(pd), unbound(dst_md(a)), unbound(wmd), unbound(src_md(a))};
      it = cache.emplace(key, std::move(e)).first;
    }
    BackwardData& e = it->second;
    e.dy.set_data_handle(const_cast<float*>(dy));
    e.k.set_data_handle(const_cast<float*>(kernel));
    e.dx.set_data_handle(dx);
    e.prim.execute(stream(), {{DNNL_ARG_DIFF_DST, e.dy}, {DNNL_ARG_WEIGHTS, e.k}, {DNNL_ARG_DIFF_SRC, e.dx}});
    stream().wait();
  }

  static void backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
    if (a.c * a.oc == 0) return;
    SmallWorkScope serial_if_small(work(a));
    const bool has_bias = dbias != nullptr;
    auto& cache = primitive_cache<BackwardWeights>();
    auto key = cache_key(a, has_bias);
    auto it = cache.find(key);
    if (it == cache.end()) {
      Forward& hint = forward_entry(a, has_bias, Eltwise::linear);
      const auto wmd = P::weights_md(a);
      auto d = has_bias ? typename BwdWeights::desc(P::algorithm, src_md(a), wmd, bias_md(a), dst_md(a), strides(a),
                                                    dilates(a), pad_l(a), pad_r(a))
                        : typename BwdWeights::desc(P::algorithm, src_md(a), wmd, dst_md(a), strides(a), dilates(a),
                                                    pad_l(a), pad_r(a));
      typename BwdWeights::primitive_desc pd(d, engine(), hint.pd);
      BackwardWeights e{BwdWeights(pd), unbound(src_md(a)), unbound(dst_md(a)), unbound(wmd),
                        has_bias ? unbound(bias_md(a)) : dnnl::memory()};
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
};

}  // namespace keras::kernels::conv_detail
