#include "keras/kernels/matmul.hpp"

#include <algorithm>
#include <cstdint>

#include "keras/errors.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;

dnnl::memory::desc matrix_desc(std::int64_t rows, std::int64_t cols, bool transposed, std::int64_t ld = 0) {
  // A logical [rows, cols] matrix stored row-major, or stored as its transpose [cols, rows]; its stored rows
  // ld floats apart (0: packed one after the other).
  const std::int64_t step = ld > 0 ? ld : transposed ? rows : cols;
  dnnl::memory::dims strides = transposed ? dnnl::memory::dims{1, step} : dnnl::memory::dims{step, 1};
  return dnnl::memory::desc({rows, cols}, dt::f32, strides);
}

struct Entry {
  dnnl::matmul prim;
  dnnl::memory a, b, bias, c;
};

dnnl::algorithm post_op_algorithm(Eltwise f);

// oneDNN 2.6's AVX2 gemm runs 1.3-2.3x slower when an operand's stored rows are a multiple of 512 floats
// (2 KiB) in two cases, measured with a standalone oneDNN program over M, K, N from 32 to 4096, 2 threads:
// - B not transposed, when C has few rows (M <= 512): 128 x 1600 x 1024 (the seed CNN's Dense forward at
//   batch 128) 71 -> 162 GFLOP/s with B's rows 1,040 floats apart instead of 1,024; 128 x 784 x 512 98 ->
//   136; the weight gradient 256 x 4096 x 1024 30-35 -> 20 ms. With M >= 1024 the rows cost nothing.
// - A transposed (a weight gradient x^T dy, A's rows as long as C's), when C has few columns (N <= 256):
//   1024 x 1024 x 256 56 -> 102 GFLOP/s, 2048 x 128 x 64 65 -> 132, 512 x 128 x 256 91 -> 124.
// A transposed B and a plain A showed no such effect. Such an operand is copied with its rows 16 floats
// longer, unless the copy would cost about what it saves (M < 64 for B, N < 32 for A: the product then
// does too little work per float of the operand).
constexpr std::int64_t kRowPadding = 16;

bool slow_rows(std::int64_t row_floats) { return row_floats % 512 == 0; }

// `rows` rows of `cols` floats copied into `buffer` with their rows cols + kRowPadding floats apart.
const float* padded_rows(const float* src, std::int64_t rows, std::int64_t cols, Scratch& buffer) {
  float* dst = buffer.floats(rows * (cols + kRowPadding));
  parallel_rows(rows, cols, [&](std::int64_t r) {
    std::copy(src + r * cols, src + (r + 1) * cols, dst + r * (cols + kRowPadding));
  });
  return dst;
}

}  // namespace

void matmul(const float* a, const float* b, float* c, const MatmulArgs& args) {
  if (args.m == 0 || args.n == 0) return;
  if (cpu_level() == CpuLevel::avx2) {
    const bool pad_a = args.trans_a && args.n >= 32 && args.n <= 256 && slow_rows(args.m);  // A stored [k, m]
    const bool pad_b = !args.trans_b && args.m >= 64 && args.m <= 512 && slow_rows(args.n);  // B stored [k, n]
    if (pad_a || pad_b) {
      thread_local Scratch a_rows, b_rows;
      onednn_matmul(pad_a ? padded_rows(a, args.k, args.m, a_rows) : a, pad_a ? args.m + kRowPadding : 0,
                    pad_b ? padded_rows(b, args.k, args.n, b_rows) : b, pad_b ? args.n + kRowPadding : 0, c, args);
      a_rows.release();
      b_rows.release();
      return;
    }
  }
  onednn_matmul(a, 0, b, 0, c, args);
}

void onednn_matmul(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                   const MatmulArgs& args) {
  SmallWorkScope serial_if_small(args.m * args.n * args.k);
  auto& cache = primitive_cache<Entry>();
  const bool has_bias = args.bias != nullptr;
  auto key = cache_key(args.m, args.n, args.k, args.trans_a, args.trans_b, has_bias, args.activation, args.accumulate,
                       lda, ldb);
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto a_md = matrix_desc(args.m, args.k, args.trans_a, lda);
    auto b_md = matrix_desc(args.k, args.n, args.trans_b, ldb);
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
