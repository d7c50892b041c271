#include "keras/kernels/conv_descs.hpp"

#include "keras/errors.hpp"
#include "keras/kernels/kept_copies.hpp"

namespace keras::kernels::conv_detail {
namespace {

using dt = dnnl::memory::data_type;

dims spatial(const std::array<std::int64_t, 3>& v, std::int64_t rank, std::int64_t offset = 0) {
  dims d;
  for (std::int64_t i = 0; i < rank; ++i) d.push_back(v[i] + offset);
  return d;
}

// Row-major strides of the Keras kernel [k..., inner...]: returns the stride of each k axis and sets
// `inner` to the element count after them.
dims kernel_strides(const ConvArgs& a, std::int64_t inner) {
  dims s(a.rank);
  for (auto i = a.rank - 1; i >= 0; --i) {
    s[i] = inner;
    inner *= a.k[i];
  }
  return s;
}

constexpr std::size_t kKeptWeightsLimit = std::size_t{256} << 20;

struct KeptWeights {
  std::uint64_t version = 0;
  dnnl::memory memory;  // in the layout of the primitive that made it
};

}  // namespace

dnnl::memory kept_weights(Staged& k, const float* kernel, std::uint64_t version) {
  if (!k.reorders || version == 0) return k.bind_input(kernel);
  thread_local KeptCopies<KeptWeights> kept(kKeptWeightsLimit);
  const dnnl::memory::desc& chosen = k.inner.get_desc();
  return kept
      .get(
          kernel, [&](const KeptWeights& e) { return e.version == version && e.memory.get_desc() == chosen; },
          chosen.get_size(),
          [&] {
            KeptWeights e{version, dnnl::memory(chosen, engine())};
            k.user.set_data_handle(const_cast<float*>(kernel));
            execute(k.reorder, {{DNNL_ARG_FROM, k.user}, {DNNL_ARG_TO, e.memory}});
            return e;
          })
      .memory;
}

dnnl::memory::desc channels_last_md(std::int64_t n, std::int64_t c, const std::array<std::int64_t, 3>& sp,
                                    std::int64_t rank) {
  dims d{n, c}, s{0, 1};
  auto inner = c;
  dims sps(rank);
  for (auto i = rank - 1; i >= 0; --i) {
    sps[i] = inner;
    inner *= sp[i];
  }
  s[0] = inner;
  for (std::int64_t i = 0; i < rank; ++i) {
    d.push_back(sp[i]);
    s.push_back(sps[i]);
  }
  return {d, dt::f32, s};
}

dnnl::memory::desc conv_weights_md(const ConvArgs& a) {
  const auto g = a.groups, icg = a.c / a.groups, ocg = a.oc / a.groups;
  const dims ks = kernel_strides(a, icg * a.oc);
  dims d, s;
  if (g == 1) {
    d = {a.oc, a.c};
    s = {1, a.oc};
  } else {
    d = {g, ocg, icg};
    s = {ocg, 1, a.oc};
  }
  for (std::int64_t i = 0; i < a.rank; ++i) {
    d.push_back(a.k[i]);
    s.push_back(ks[i]);
  }
  return {d, dt::f32, s};
}

dnnl::memory::desc deconv_weights_md(const ConvArgs& a) {
  const dims ks = kernel_strides(a, a.oc * a.c);
  dims d{a.oc, a.c}, s{a.c, 1};
  for (std::int64_t i = 0; i < a.rank; ++i) {
    d.push_back(a.k[i]);
    s.push_back(ks[i]);
  }
  return {d, dt::f32, s};
}

dims strides(const ConvArgs& a) { return spatial(a.stride, a.rank); }
dims dilates(const ConvArgs& a) { return spatial(a.dilation, a.rank, -1); }
dims pad_l(const ConvArgs& a) { return spatial(a.pad_l, a.rank); }
dims pad_r(const ConvArgs& a) { return spatial(a.pad_r, a.rank); }

std::int64_t work(const ConvArgs& a) {
  std::int64_t w = a.n * a.oc * (a.c / a.groups);
  for (std::int64_t i = 0; i < a.rank; ++i) w *= std::max(a.out[i], a.in[i]) * a.k[i];
  return w;
}

dnnl::algorithm post_op_algorithm(Eltwise f) {
  switch (f) {
    case Eltwise::relu: return dnnl::algorithm::eltwise_relu;
    case Eltwise::logistic: return dnnl::algorithm::eltwise_logistic;
    case Eltwise::tanh: return dnnl::algorithm::eltwise_tanh;
    default: throw ValueError("convolution: only relu, sigmoid and tanh fuse into a convolution");
  }
}

dnnl::primitive_attr post_op_attr(Eltwise f, const dnnl::memory::desc* residual, bool residual_in_dst) {
  dnnl::post_ops ops;
  if (residual_in_dst) ops.append_sum(1.f);
  else if (residual) ops.append_binary(dnnl::algorithm::binary_add, *residual);
  if (f != Eltwise::linear) ops.append_eltwise(1.f, post_op_algorithm(f), 0.f, 0.f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

}  // namespace keras::kernels::conv_detail
