#pragma once
// Peak resident memory for the memory workload (issue 8, workload 6). The training programs reset
// the peak once their data is in memory, so that `peak_rss_mb` measures training alone (the data
// included) and not how each program made its data: kerascpp decodes Fashion-MNIST's files, the
// libtorch twins draw random tensors of the same shape.
#include <sys/resource.h>

#include <fstream>
#include <string>

/// Starts a new peak: the kernel's high-water mark VmHWM falls back to the current resident size.
/// Returns false where /proc/self/clear_refs cannot be written (the peak then covers the process).
inline bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  return static_cast<bool>(f << "5" << std::flush);
}

/// The resident peak since the last reset_peak_rss() (VmHWM of /proc/self/status), in MiB.
inline double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return -1;
}

/// The process's peak so far (getrusage's ru_maxrss, KiB on Linux; reset_peak_rss resets it too), in MiB.
inline double process_peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}
