// What one OpenMP parallel region and one barrier cost on this machine, with 2 threads, on whichever OpenMP
// runtime serves GCC's GOMP_ entry points in this process (bench/openmp_runtimes.sh runs it on GCC's and on
// LLVM's), and what a futex system call that wakes no thread costs (GCC's runtime makes one whenever the last
// thread reaches a barrier). Medians over 20,000 of each, in microseconds.
#include <linux/futex.h>
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 20000;

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double us(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }

}  // namespace

int main() {
  volatile int sink = 0;
  std::vector<double> region, barrier, wake;
  for (int r = 0; r < kRepeats; ++r) {  // a region with nothing in it, a little serial work between regions
    const auto t0 = Clock::now();
#pragma omp parallel num_threads(2)
    sink = sink + omp_get_thread_num();
    region.push_back(us(t0, Clock::now()));
    for (int i = 0; i < 1000; ++i) sink = sink + i;
  }
#pragma omp parallel num_threads(2)
  for (int r = 0; r < kRepeats; ++r) {
    const auto t0 = Clock::now();
#pragma omp barrier
    if (omp_get_thread_num() == 0) barrier.push_back(us(t0, Clock::now()));
  }
  int word = 0;
  for (int r = 0; r < kRepeats; ++r) {
    const auto t0 = Clock::now();
    syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    wake.push_back(us(t0, Clock::now()));
  }
  std::printf("parallel_region_us: %.2f\nbarrier_us: %.2f\nfutex_wake_us: %.2f\n", median(region), median(barrier),
              median(wake));
}
