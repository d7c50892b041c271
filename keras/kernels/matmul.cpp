#include "keras/kernels/matmul.hpp"

#include "keras/errors.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;

dnnl::memory::desc matrix_desc(std::int64_t rows, std::int64_t cols, bool transposed) {
  // A logical [rows, cols] matrix stored row-major, or stored as its transpose [cols, rows].
  dnnl::memory::dims strides = transposed ? dnnl::memory::dims{1, rows} : dnnl::memory::dims{cols, 1};
  return dnnl::memory::desc({rows, cols}, dt::f32, strides);
}

struct Entry {
  dnnl::matmul prim;
  dnnl::memory a, b, bias, c;
};

dnnl::algorithm post_op_algorithm(Eltwise f);

}  // namespace

void matmul(const float* a, const float* b, float* c, const MatmulArgs& args) {
  if (args.m == 0 || args.n == 0) return;
  SmallWorkScope serial_if_small(args.m * args.n * args.k);
  auto& cache = primitive_cache<Entry>();
  const bool has_bias = args.bias != nullptr;
  auto key = cache_key(args.m, args.n, args.k, args.trans_a, args.trans_b, has_bias, args.activation, args.accumulate);
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto a_md = matrix_desc(args.m, args.k, args.trans_a);
    auto b_md = matrix_desc(args.k, args.n, args.trans_b);
    auto c_md = matrix_desc(args.m, args.n, false);
    auto bias_md = has_bias ? matrix_desc(1, args.n, false) : dnnl::memory::desc();
    dnnl::post_ops ops;
    if (args.accumulate) ops.append_sum(1.f);
    if (args.activation != Eltwise::linear) ops.append_eltwise(1.f, post_op_algorithm(args.activation), 0.f, 0.f);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    dnnl::matmul::desc d = has_bias ? dnnl::matmul::desc(a_md, b_md, bias_md, c_md) : dnnl::matmul::desc(a_md, b_md, c_md);
    dnnl::matmul::primitive_desc pd(d, attr, engine());
    Entry e{dnnl::matmul(pd), dnnl::memory(a_md, engine(), DNNL_MEMORY_NONE),
            dnnl::memory(b_md, engine(), DNNL_MEMORY_NONE),
            has_bias ? dnnl::memory(bias_md, engine(), DNNL_MEMORY_NONE) : dnnl::memory(),
            dnnl::memory(c_md, engine(), DNNL_MEMORY_NONE)};
    it = cache.emplace(key, std::move(e)).first;
  }
  Entry& e = it->second;
  e.a.set_data_handle(const_cast<float*>(a));
  e.b.set_data_handle(const_cast<float*>(b));
  e.c.set_data_handle(c);
  std::unordered_map<int, dnnl::memory> margs{{DNNL_ARG_SRC, e.a}, {DNNL_ARG_WEIGHTS, e.b}, {DNNL_ARG_DST, e.c}};
  if (has_bias) {
    e.bias.set_data_handle(const_cast<float*>(args.bias));
    margs.emplace(DNNL_ARG_BIAS, e.bias);
  }
  execute(e.prim, margs);
  stream().wait();
}

namespace {
dnnl::algorithm post_op_algorithm(Eltwise f) {
  switch (f) {
    case Eltwise::relu: return dnnl::algorithm::eltwise_relu;
    case Eltwise::logistic: return dnnl::algorithm::eltwise_logistic;
    case Eltwise::tanh: return dnnl::algorithm::eltwise_tanh;
    default: throw ValueError("matmul: only relu, sigmoid and tanh fuse into a matrix product");
  }
}
}  // namespace

}  // namespace keras::kernels
