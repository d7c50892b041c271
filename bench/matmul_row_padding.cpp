// Where oneDNN 2.6's matmul slows down on operands whose stored rows are a multiple of 512 floats, the
// measurement behind kernels::matmul's row padding (keras/kernels/matmul.cpp): for each shape and transpose
// form, the median time of C = op(A) op(B) on 64-byte-aligned buffers with the operands' rows as they are,
// with B's rows 16 floats longer, and with A's rows 16 floats longer, through kernels::onednn_matmul (oneDNN's
// product as it is: the padding kernels::matmul applies does not enter the comparison).
//   build/bin/matmul_row_padding --threads 2      (cmake --build build --target matmul_row_padding)
// Prints one line per case: "ta tb M K N: plain G GFLOP/s, padded B xR, padded A xR" (R: plain time / padded).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <keras/keras.hpp>
#include <keras/kernels/matmul.hpp>

#include "bench_args.hpp"

namespace {

struct Free {
  void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float, Free>;

Buffer aligned_floats(std::size_t n) {
  auto* p = static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64));
  if (!p) throw std::bad_alloc();
  for (std::size_t i = 0; i < n; ++i) p[i] = 0.001f * static_cast<float>(i % 97);
  return Buffer(p);
}

// Median milliseconds of C [m, n] = op(A) op(B), A stored with rows `pad_a` floats longer, B `pad_b`.
double median_ms(std::int64_t m, std::int64_t k, std::int64_t n, bool ta, bool tb, std::int64_t pad_a,
                 std::int64_t pad_b) {
  const std::int64_t lda = (ta ? m : k) + pad_a, ldb = (tb ? k : n) + pad_b;
  Buffer a = aligned_floats(static_cast<std::size_t>((ta ? k : m) * lda));
  Buffer b = aligned_floats(static_cast<std::size_t>((tb ? n : k) * ldb));
  Buffer c = aligned_floats(static_cast<std::size_t>(m * n));
  const keras::kernels::MatmulArgs args{.m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb};
  std::vector<double> ms;
  for (int i = 0; i < 12; ++i) {
    const auto start = std::chrono::steady_clock::now();
    keras::kernels::onednn_matmul(a.get(), lda, b.get(), ldb, c.get(), args);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  keras::utils::set_num_threads(args.threads);
  // {trans_a, trans_b, M, K, N}: the MLP's and the seed CNN's Dense products at batch 32 and 128, the
  // Transformer's feed-forward weight gradients, and the edges of the two conditions.
  const std::int64_t cases[][5] = {
      {0, 0, 32, 1600, 1024}, {0, 0, 64, 1024, 1024}, {0, 0, 128, 784, 512}, {0, 0, 128, 1600, 1024},
      {0, 0, 512, 1024, 512}, {0, 0, 1024, 1024, 1024}, {0, 1, 128, 1024, 1600}, {1, 0, 512, 128, 256},
      {1, 0, 2048, 128, 64},  {1, 0, 1024, 4096, 256}, {1, 0, 256, 4096, 1024}, {1, 0, 1024, 1024, 512}};
  for (const auto& s : cases) {
    const bool ta = s[0] != 0, tb = s[1] != 0;
    const std::int64_t m = s[2], k = s[3], n = s[4];
    median_ms(m, k, n, ta, tb, 0, 0);  // warm-up
    const double plain = median_ms(m, k, n, ta, tb, 0, 0), padded_b = median_ms(m, k, n, ta, tb, 0, 16);
    const double padded_a = median_ms(m, k, n, ta, tb, 16, 0);
    std::printf("ta %d tb %d %ld %ld %ld: plain %.1f GFLOP/s, padded B x%.2f, padded A x%.2f\n", int(ta), int(tb),
                long(m), long(k), long(n), 2.0 * double(m * k * n) / (plain * 1e6), plain / padded_b,
                plain / padded_a);
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "matmul_row_padding: %s\n", e.what());
  return 1;
}
