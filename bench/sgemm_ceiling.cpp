// The machine's single-precision matrix-product ceiling, as kerascpp reaches it (keras::ops::matmul, oneDNN's
// sgemm): GFLOP/s of C = A B at a large square shape and at the MLP's and the seed CNN's dense shapes, best of
// 20 repetitions each. bench/run.sh takes the best of this and the libtorch twin (OpenBLAS) as the ceiling
// the training workloads are measured against.
//   build/bin/sgemm_ceiling --threads 2
// Prints "sgemm_gflops: X" (the best shape) and one "gflops_MxKxN: X" line per shape.
#include <algorithm>
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_timing.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  const std::int64_t shapes[][3] = {{1024, 1024, 1024}, {128, 784, 512}, {128, 1600, 1024}};
  double best = 0;
  for (const auto& s : shapes) {
    const k::Tensor a = k::random::uniform({s[0], s[1]}, -1, 1, k::DType::float32, 1);
    const k::Tensor b = k::random::uniform({s[1], s[2]}, -1, 1, k::DType::float32, 2);
    k::ops::matmul(a, b);  // warm-up: the primitive is created once
    const double fastest = fastest_us(20, [&] { k::ops::matmul(a, b); });
    const double gflops = 2.0 * double(s[0] * s[1] * s[2]) / (fastest * 1e3);
    std::printf("gflops_%ldx%ldx%ld: %.1f\n", long(s[0]), long(s[1]), long(s[2]), gflops);
    best = std::max(best, gflops);
  }
  std::printf("threads: %d\nsgemm_gflops: %.1f\n", args.threads, best);
} catch (const std::exception& e) {
  std::fprintf(stderr, "sgemm_ceiling: %s\n", e.what());
  return 1;
}
