#pragma once
// Memory descriptors and parameters shared by the convolution and deconvolution kernels: Keras's
// channels_last tensors and kernel layouts, described to oneDNN by their strides (kernels only).
#include <algorithm>

#include "keras/kernels/convolution.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
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
/// A convolution's epilogue after its bias: + residual (a binary add of a tensor shaped like dst, when
/// `residual` is not null; or, `residual_in_dst`, oneDNN's sum post-op over what dst holds before the run;
/// inference only), then the activation f.
dnnl::primitive_attr post_op_attr(Eltwise f, const dnnl::memory::desc* residual = nullptr,
                                  bool residual_in_dst = false);

}  // namespace keras::kernels::conv_detail

namespace keras::kernels::conv_detail {

/// An argument of a oneDNN primitive whose caller's buffer is in Keras's layout (`user`) while the
/// primitive may have chosen another (`inner`, e.g. blocked weights): then a reorder on every run.
struct Staged {
  dnnl::memory user, inner;
  dnnl::reorder reorder;
  bool reorders = false;

  /// `input`: the primitive reads the argument (user → inner before the run), else it writes it
  /// (inner → user after the run).
  static Staged make(const dnnl::memory::desc& user_md, const dnnl::memory::desc& chosen, bool input) {
    Staged s;
    s.user = unbound(user_md);
    s.reorders = chosen != user_md;
    if (!s.reorders) return s;
    s.inner = dnnl::memory(chosen, engine());
    s.reorder = input ? dnnl::reorder(s.user, s.inner) : dnnl::reorder(s.inner, s.user);
    return s;
  }
  /// The memory to hand to the primitive for the caller's buffer `p`; reorders inputs.
  dnnl::memory bind_input(const void* p) {
    user.set_data_handle(const_cast<void*>(p));
    if (!reorders) return user;
    execute(reorder, {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, inner}});
    return inner;
  }
  dnnl::memory bind_output(void* p) {
    user.set_data_handle(p);
    return reorders ? inner : user;
  }
  /// After the run: writes an output back into the caller's layout.
  void finish_output() {
    if (reorders) execute(reorder, {{DNNL_ARG_FROM, inner}, {DNNL_ARG_TO, user}});
  }
};

/// An inference primitive's weights `k` bound to the caller's kernel: reordered into the primitive's layout
/// once per (kernel, version) and kept per thread while the version stays (at most 256 MiB of copies per
/// thread; past that the copies are dropped). Version 0 (unknown) reorders on every call, as bind_input.
dnnl::memory kept_weights(Staged& k, const float* kernel, std::uint64_t version);

/// The same dims in a layout the primitive chooses.
inline dnnl::memory::desc any_md(const dnnl::memory::desc& md) {
  return {md.dims(), dnnl::memory::data_type::f32, dnnl::memory::format_tag::any};
}

/// Forward, backward-data and backward-weights runs of one oneDNN convolution family: P names
/// the primitives (convolution_* or deconvolution_*), whose descriptors take the same arguments.
/// The weights are in the layout the primitive chooses (blocked, reordered from Keras's on every
/// training run, which costs little next to the convolution, and kept between inference runs): with
/// Keras's strided layout oneDNN falls back to its im2col + gemm implementation, several times slower
/// than its direct ones.
template <class P>
struct Family {
  using Fwd = typename P::Fwd;
  using BwdData = typename P::BwdData;
  using BwdWeights = typename P::BwdWeights;

  struct Forward {
    typename Fwd::primitive_desc pd;
    Fwd prim;
    Staged x, k, y;
    dnnl::memory b;
  };
  struct BackwardData {
    BwdData prim;
    Staged dy, k, dx;
  };
  struct BackwardWeights {
    BwdWeights prim;
    Staged x, dy, dk;
    dnnl::memory db;
  };

  /// The forward descriptor, weights in the layout the primitive chooses.
  static typename Fwd::desc forward_desc(dnnl::prop_kind prop, const ConvArgs& a, bool has_bias) {
    const auto wmd = any_md(P::weights_md(a));
    return has_bias ? typename Fwd::desc(prop, P::algorithm, src_md(a), wmd, bias_md(a), dst_md(a), strides(a),
                                         dilates(a), pad_l(a), pad_r(a))
                    : typename Fwd::desc(prop, P::algorithm, src_md(a), wmd, dst_md(a), strides(a), dilates(a),
                                         pad_l(a), pad_r(a));
  }

  static Forward& forward_entry(const ConvArgs& a, bool has_bias, Eltwise act) {
    auto& cache = primitive_cache<Forward>();
    auto key = cache_key(a, has_bias, act);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const auto wmd = P::weights_md(a);
    typename Fwd::primitive_desc pd(forward_desc(dnnl::prop_kind::forward_training, a, has_bias), post_op_attr(act),
                                    engine());
    Forward e{pd, Fwd(pd), Staged::make(src_md(a), pd.src_desc(), true), Staged::make(wmd, pd.weights_desc(), true),
              Staged::make(dst_md(a), pd.dst_desc(), false), has_bias ? unbound(bias_md(a)) : dnnl::memory()};
    return cache.emplace(key, std::move(e)).first->second;
  }

  static void forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a,
                      Eltwise act) {
    if (a.n * a.oc == 0) return;
    SmallWorkScope serial_if_small(work(a));
    Forward& e = forward_entry(a, bias != nullptr, act);
    std::unordered_map<int, dnnl::memory> margs{
        {DNNL_ARG_SRC, e.x.bind_input(x)}, {DNNL_ARG_WEIGHTS, e.k.bind_input(kernel)}, {DNNL_ARG_DST, e.y.bind_output(y)}};
    if (bias) {
      e.b.set_data_handle(const_cast<float*>(bias));
      margs.emplace(DNNL_ARG_BIAS, e.b);
    }
    execute(e.prim, margs);
    e.y.finish_output();
    stream().wait();
  }

  struct Inference {
    Fwd prim;
    Staged x, k, y;
    dnnl::memory b, residual;
    bool residual_in_dst = false;
  };

  /// forward_inference with the residual add as a post-op; no workspace, no backward hint. On AVX-512 the
  /// residual is copied into y and added by oneDNN's sum post-op: its brgconv kernels take that one but not
  /// a binary add, for which oneDNN falls back to its older jit kernels (ResNet-20's 3 x 3 layers at batch
  /// 32, one thread of a Zen 5 EPYC: 1.17-1.3x slower, far more than the copy). Below AVX-512 both post-ops
  /// run in the same kernels at the same speed, and the binary add saves the copy.
  static void inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                        const float* residual, float* y, const ConvArgs& a, Eltwise act) {
    if (a.n * a.oc == 0) return;
    SmallWorkScope serial_if_small(work(a));
    auto& cache = primitive_cache<Inference>();
    auto key = cache_key(a, bias != nullptr, residual != nullptr, act);
    auto it = cache.find(key);
    if (it == cache.end()) {
      const auto wmd = P::weights_md(a);
      const auto rmd = dst_md(a);
      const bool in_dst = residual && cpu_level() == CpuLevel::avx512;
      typename Fwd::primitive_desc pd(forward_desc(dnnl::prop_kind::forward_inference, a, bias != nullptr),
                                      post_op_attr(act, residual ? &rmd : nullptr, in_dst), engine());
      Inference e{Fwd(pd), Staged::make(src_md(a), pd.src_desc(), true), Staged::make(wmd, pd.weights_desc(), true),
                  Staged::make(dst_md(a), pd.dst_desc(), false), bias ? unbound(bias_md(a)) : dnnl::memory(),
                  residual && !in_dst ? unbound(rmd) : dnnl::memory(), in_dst};
      it = cache.emplace(key, std::move(e)).first;
    }
    Inference& e = it->second;
    if (e.residual_in_dst && residual != y) {  // dst is Keras's own layout (never reordered): the residual goes straight in
      const std::int64_t per_image = a.oc * a.out[0] * a.out[1] * a.out[2];
      parallel_rows(a.n, per_image, [&](std::int64_t i) {
        std::copy_n(residual + i * per_image, per_image, y + i * per_image);
      });
    }
    std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x.bind_input(x)},
                                                {DNNL_ARG_WEIGHTS, kept_weights(e.k, kernel, version)},
                                                {DNNL_ARG_DST, e.y.bind_output(y)}};
    if (bias) {
      e.b.set_data_handle(const_cast<float*>(bias));
      margs.emplace(DNNL_ARG_BIAS, e.b);
    }
    if (residual && !e.residual_in_dst) {
      e.residual.set_data_handle(const_cast<float*>(residual));
      margs.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, e.residual);
    }
    execute(e.prim, margs);
    e.y.finish_output();
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
      typename BwdData::desc d(P::algorithm, src_md(a), any_md(wmd), dst_md(a), strides(a),
                               dilates(a), pad_l(a), pad_r(a));
      typename BwdData::primitive_desc pd(d, engine(), hint.pd);
      BackwardData e{BwdData(pd), Staged::make(dst_md(a), pd.diff_dst_desc(), true),
                     Staged::make(wmd, pd.weights_desc(), true), Staged::make(src_md(a), pd.diff_src_desc(), false)};
      it = cache.emplace(key, std::move(e)).first;
    }
    BackwardData& e = it->second;
    execute(e.prim, {{DNNL_ARG_DIFF_DST, e.dy.bind_input(dy)},
                              {DNNL_ARG_WEIGHTS, e.k.bind_input(kernel)},
                              {DNNL_ARG_DIFF_SRC, e.dx.bind_output(dx)}});
    e.dx.finish_output();
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
      auto d = has_bias ? typename BwdWeights::desc(P::algorithm, src_md(a), any_md(wmd), bias_md(a),
                                                    dst_md(a), strides(a), dilates(a), pad_l(a), pad_r(a))
                        : typename BwdWeights::desc(P::algorithm, src_md(a), any_md(wmd), dst_md(a),
                                                    strides(a), dilates(a), pad_l(a), pad_r(a));
      typename BwdWeights::primitive_desc pd(d, engine(), hint.pd);
      BackwardWeights e{BwdWeights(pd), Staged::make(src_md(a), pd.src_desc(), true),
                        Staged::make(dst_md(a), pd.diff_dst_desc(), true),
                        Staged::make(wmd, pd.diff_weights_desc(), false),
                        has_bias ? unbound(bias_md(a)) : dnnl::memory()};
      it = cache.emplace(key, std::move(e)).first;
    }
    BackwardWeights& e = it->second;
    std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.x.bind_input(x)},
                                                {DNNL_ARG_DIFF_DST, e.dy.bind_input(dy)},
                                                {DNNL_ARG_DIFF_WEIGHTS, e.dk.bind_output(dkernel)}};
    if (has_bias) {
      e.db.set_data_handle(dbias);
      margs.emplace(DNNL_ARG_DIFF_BIAS, e.db);
    }
    execute(e.prim, margs);
    e.dk.finish_output();
    stream().wait();
  }
};

}  // namespace keras::kernels::conv_detail
