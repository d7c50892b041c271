#include "keras/kernels/batch_matmul.hpp"

#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;

// A logical [batch, rows, cols] stack stored row-major, or with each matrix stored transposed.
dnnl::memory::desc stack_desc(std::int64_t batch, std::int64_t rows, std::int64_t cols, bool transposed) {
  dnnl::memory::dims strides = transposed ? dnnl::memory::dims{rows * cols, 1, rows}
                                          : dnnl::memory::dims{rows * cols, cols, 1};
  return dnnl::memory::desc({batch, rows, cols}, dt::f32, strides);
}

struct Entry {
  dnnl::matmul prim;
  dnnl::memory a, b, c;
};

}  // namespace

void batch_matmul(const float* a, const float* b, float* c, const BatchMatmulArgs& args) {
  if (args.batch == 0 || args.m == 0 || args.n == 0) return;
  SmallWorkScope serial_if_small(args.batch * args.m * args.n * args.k);
  auto& cache = primitive_cache<Entry>();
  auto key = cache_key(args.batch, args.m, args.n, args.k, args.trans_a, args.trans_b);
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto a_md = stack_desc(args.batch, args.m, args.k, args.trans_a);
    auto b_md = stack_desc(args.batch, args.k, args.n, args.trans_b);
    auto c_md = stack_desc(args.batch, args.m, args.n, false);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), engine());
    Entry e{dnnl::matmul(pd), dnnl::memory(a_md, engine(), DNNL_MEMORY_NONE),
            dnnl::memory(b_md, engine(), DNNL_MEMORY_NONE), dnnl::memory(c_md, engine(), DNNL_MEMORY_NONE)};
    it = cache.emplace(key, std::move(e)).first;
  }
  Entry& e = it->second;
  e.a.set_data_handle(const_cast<float*>(a));
  e.b.set_data_handle(const_cast<float*>(b));
  e.c.set_data_handle(c);
  execute(e.prim, {{DNNL_ARG_SRC, e.a}, {DNNL_ARG_WEIGHTS, e.b}, {DNNL_ARG_DST, e.c}});
  stream().wait();
}

}  // namespace keras::kernels
