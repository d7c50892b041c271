#include "callbacks/monitor.hpp"

#include <cmath>
#include <iostream>

#include <fmt/format.h>

namespace keras::callbacks {

std::string checked_mode(const std::string& mode, const std::string& owner) {
  if (mode == "auto" || mode == "min" || mode == "max") return mode;
  std::cerr << "WARNING: " << owner << " mode " << mode << " is unknown, fallback to auto mode.\n";
  return "auto";
}

std::optional<double> monitored_value(const Logs& logs, const std::string& monitor, const std::string& owner) {
  if (logs.contains(monitor)) return logs.at(monitor);
  std::cerr << "WARNING: " << owner << " conditioned on metric `" << monitor
            << "` which is not available. Available metrics are: " << logs.keys_str() << "\n";
  return std::nullopt;
}

std::string python_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", value);  // shortest round-trip digits, as Python's repr
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace keras::callbacks
