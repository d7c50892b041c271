#pragma once
// Progbar: Keras's progress bar ("422/422 [======] - 3s 6ms/step - loss: 0.4123").
// On a terminal it redraws in place; otherwise it prints only finished lines.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "keras/utils/logs.hpp"

namespace keras::utils {

struct ProgbarOptions {
  int width = 30;
  int verbose = 1;          // 1: live bar; 2: one line when finished
  double interval = 0.05;   // minimum seconds between redraws
  std::string unit_name = "step";
  std::ostream* out = nullptr;  // std::cout when null
  std::optional<bool> dynamic_display{};  // default: whether the output is a terminal
};

class Progbar {
 public:
  /// target: the number of steps, or nullopt when unknown.
  explicit Progbar(std::optional<std::int64_t> target, ProgbarOptions options = {});
  /// Shows progress at `current` steps with the given values (shown as they are, e.g. running means).
  void update(std::int64_t current, const Logs& values = {}, bool finalize = false);

  /// "3s/step", "6ms/step", "120us/step" as Keras formats a duration per unit.
  static std::string format_time_per_unit(double seconds, const std::string& unit_name);
  /// " - loss: 0.4123 - accuracy: 0.8512" (values below 1e-3 in %.4e).
  static std::string format_values(const Logs& values);

 private:
  std::optional<std::int64_t> target_{};
  ProgbarOptions options_;
  std::ostream& out_;
  bool dynamic_;
  double start_;  // seconds on the steady clock
  std::optional<double> after_first_step_{};  // seconds on the steady clock
  std::int64_t first_step_count_ = 0;  // the step count at the first update
  double last_update_ = -1.0;
  std::size_t total_width_ = 0;
  double seconds_since_start() const;
  double time_per_unit(std::int64_t current, double now) const;
};

}  // namespace keras::utils
