#include "keras/utils/progbar.hpp"

#include <chrono>
#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <unistd.h>

namespace keras::utils {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Progbar::Progbar(std::optional<std::int64_t> target, ProgbarOptions options)
    : target_(target),
      options_(std::move(options)),
      out_(options_.out ? *options_.out : std::cout),
      dynamic_(options_.dynamic_display.value_or(options_.out == nullptr && isatty(STDOUT_FILENO))),
      start_(steady_seconds()) {}

double Progbar::seconds_since_start() const {
  return steady_seconds() - start_;
}

double Progbar::time_per_unit(std::int64_t current, double now) const {
  // The first step includes warm-up (primitive creation), so later steps are timed from its end.
  // (A bar first updated when finished, as verbose 2 is, has no such later steps: it divides the whole time.)
  if (after_first_step_ && current > first_step_count_) {
    const double since_first = steady_seconds() - *after_first_step_;
    return since_first / double(current - first_step_count_);
  }
  return current > 0 ? now / double(current) : 0.0;
}

std::string Progbar::format_time_per_unit(double t, const std::string& unit) {
  if (t >= 1 || t == 0) return fmt::format("{:.0f}s/{}", t, unit);
  if (t >= 1e-3) return fmt::format("{:.0f}ms/{}", t * 1e3, unit);
  return fmt::format("{:.0f}us/{}", t * 1e6, unit);
}

std::string Progbar::format_values(const Logs& values) {
  std::string info;
  for (const auto& [k, v] : values)
    info += std::abs(v) > 1e-3 ? fmt::format(" - {}: {:.4f}", k, v) : fmt::format(" - {}: {:.4e}", k, v);
  return info;
}

void Progbar::update(std::int64_t current, const Logs& values, bool finalize) {
  const double now = seconds_since_start();
  if (current >= 1 && !after_first_step_) {
    after_first_step_ = steady_seconds();
    first_step_count_ = current;
  }
  if (target_ && current >= *target_) finalize = true;
  const int digits = target_ ? int(std::log10(double(std::max<std::int64_t>(*target_, 1)))) + 1 : 7;

  if (options_.verbose == 2) {
    if (!finalize) return;
    std::string line = target_ ? fmt::format("{:>{}}/{}", current, digits, *target_) : fmt::format("{}", current);
    line += fmt::format(" - {:.0f}s", now) + format_values(values);
    line += fmt::format(" - {:.0f}s/epoch - {}", now, format_time_per_unit(time_per_unit(current, now), options_.unit_name));
    out_ << line << '\n' << std::flush;
    return;
  }
  if (options_.verbose != 1) return;
  if (!finalize && (now - last_update_ < options_.interval || !dynamic_)) return;
  last_update_ = now;

  std::string bar;
  if (target_) {
    bar = fmt::format("{:>{}}/{} [", current, digits, *target_);
    const double progress = *target_ > 0 ? double(current) / double(*target_) : 1.0;
    const int filled = int(options_.width * progress);
    if (filled > 0) bar += std::string(filled - 1, '=') + (current < *target_ ? ">" : "=");
    bar += std::string(std::max(0, options_.width - filled), '.') + "]";
  } else {
    bar = fmt::format("{:>7}/Unknown", current);
  }
  std::string info;
  const double tpu = time_per_unit(current, now);
  if (!target_ || finalize) {
    info = fmt::format(" - {:.0f}s {}", now, format_time_per_unit(tpu, options_.unit_name));
  } else {
    const double eta = tpu * double(*target_ - current);
    if (eta > 3600) info = fmt::format(" - ETA: {}:{:02d}:{:02d}", int(eta) / 3600, (int(eta) % 3600) / 60, int(eta) % 60);
    else if (eta > 60) info = fmt::format(" - ETA: {}:{:02d}", int(eta) / 60, int(eta) % 60);
    else info = fmt::format(" - ETA: {}s", int(eta));
  }
  info += format_values(values);
  const std::size_t width = bar.size() + info.size();
  if (width < total_width_) info += std::string(total_width_ - width, ' ');  // erase the previous, longer line
  total_width_ = width;
  if (dynamic_) out_ << '\r';
  out_ << bar << info;
  if (finalize) {
    out_ << '\n';
    total_width_ = 0;
  }
  out_ << std::flush;
}

}  // namespace keras::utils
