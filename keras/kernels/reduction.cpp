#include "keras/kernels/reduction.hpp"

#include "keras/kernels/dnnl_context.hpp"

namespace keras::kernels {
namespace {

struct Entry {
  dnnl::reduction prim;
  dnnl::memory src, dst;
};

dnnl::memory::desc plain(const std::vector<std::int64_t>& dims) {
  dnnl::memory::dims d(dims.begin(), dims.end()), strides(dims.size());
  std::int64_t stride = 1;
  for (std::size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, strides);
}

dnnl::algorithm algorithm(Reduce kind) {
  switch (kind) {
    case Reduce::sum: return dnnl::algorithm::reduction_sum;
    case Reduce::max: return dnnl::algorithm::reduction_max;
    case Reduce::min: return dnnl::algorithm::reduction_min;
    case Reduce::mean: return dnnl::algorithm::reduction_mean;
  }
  return dnnl::algorithm::reduction_sum;
}

}  // namespace

bool reduce(Reduce kind, const float* src, const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& out,
            float* dst) {
  if (in.empty() || in.size() != out.size() || in.size() > DNNL_MAX_NDIMS) return false;
  for (auto d : in)
    if (d <= 0) return false;
  std::string key = cache_key(kind);
  for (std::size_t i = 0; i < in.size(); ++i) key += cache_key(in[i], out[i]);
  auto& cache = primitive_cache<Entry>();
  auto it = cache.find(key);
  if (it == cache.end()) {
    const auto src_md = plain(in), dst_md = plain(out);
    dnnl::reduction::desc d(algorithm(kind), src_md, dst_md, 0.f, 0.f);
    dnnl::reduction::primitive_desc pd(d, engine());
    Entry e{dnnl::reduction(pd), dnnl::memory(src_md, engine(), DNNL_MEMORY_NONE),
            dnnl::memory(dst_md, engine(), DNNL_MEMORY_NONE)};
    it = cache.emplace(std::move(key), std::move(e)).first;
  }
  Entry& e = it->second;
  e.src.set_data_handle(const_cast<float*>(src));
  e.dst.set_data_handle(dst);
  execute(e.prim, {{DNNL_ARG_SRC, e.src}, {DNNL_ARG_DST, e.dst}});
  stream().wait();
  return true;
}

}  // namespace keras::kernels
