#pragma once
// Timing helpers shared by the benchmark programs: a stopwatch in microseconds and percentiles.
#include <algorithm>
#include <chrono>
#include <vector>

inline double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The p-th percentile (0..100) of the samples, by the nearest-rank method.
inline double percentile(std::vector<double> samples, double p) {
  std::sort(samples.begin(), samples.end());
  const auto rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(samples.size() - 1) + 0.5);
  return samples[std::min(rank, samples.size() - 1)];
}

/// The fastest of `repetitions` calls of fn, in microseconds.
template <class Fn>
inline double fastest_us(int repetitions, Fn&& fn) {
  double fastest = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const double t0 = now_us();
    fn();
    fastest = std::min(fastest, now_us() - t0);
  }
  return fastest;
}
