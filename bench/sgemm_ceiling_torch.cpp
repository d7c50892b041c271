// The libtorch twin of sgemm_ceiling: the same products with torch::mm (OpenBLAS through libtorch).
#include <algorithm>
#include <cstdio>

#include <torch/torch.h>

#include "bench_args.hpp"
#include "bench_timing.hpp"

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  const int64_t shapes[][3] = {{1024, 1024, 1024}, {128, 784, 512}, {128, 1600, 1024}};
  double best = 0;
  for (const auto& s : shapes) {
    const auto a = torch::rand({s[0], s[1]}), b = torch::rand({s[1], s[2]});
    torch::mm(a, b);
    const double fastest = fastest_us(20, [&] { torch::mm(a, b); });
    const double gflops = 2.0 * double(s[0] * s[1] * s[2]) / (fastest * 1e3);
    std::printf("gflops_%ldx%ldx%ld: %.1f\n", long(s[0]), long(s[1]), long(s[2]), gflops);
    best = std::max(best, gflops);
  }
  std::printf("threads: %d\nsgemm_gflops: %.1f\n", args.threads, best);
} catch (const std::exception& e) {
  std::fprintf(stderr, "sgemm_ceiling_torch: %s\n", e.what());
  return 1;
}
