#include "callbacks/format_path.hpp"

#include <regex>

#include <fmt/format.h>

#include "callbacks/monitor.hpp"

namespace keras::callbacks {
namespace {

// Python's format-spec subset that fmt reads the same way: [[fill]align][sign][0][width][.precision][type].
const std::regex kSpec(R"(((?:[^{}]?[<>^])?)([+\- ]?)(0?)(\d*)(?:\.(\d+))?([dfeEgGs]?))");

std::string format_one(const std::string& name, const std::string& spec, const std::string& pattern,
                       const std::map<std::string, std::int64_t>& ints, const Logs& floats) {
  std::smatch m;
  if (!std::regex_match(spec, m, kSpec))
    throw ValueError("Invalid format specifier '" + spec + "' for '" + name + "' in the file path '" + pattern +
                     "'; use e.g. {epoch:02d} or {val_loss:.3f}");
  const std::string type = m[6];
  if (auto it = ints.find(name); it != ints.end()) {
    if (type == "s" || (m[5].matched && (type.empty() || type == "d")))
      throw ValueError("Format specifier '" + spec + "' does not fit the integer '" + name + "' in '" + pattern + "'");
    if (!type.empty() && type != "d")  // Python formats an int with f/e/g as a float
      return fmt::format(fmt::runtime("{:" + spec + "}"), static_cast<double>(it->second));
    return fmt::format(fmt::runtime("{:" + spec + "}"), it->second);
  }
  if (!floats.contains(name)) {
    std::string names;
    for (const auto& [k, v] : ints) names += k + ", ";
    throw ValueError("The file path '" + pattern + "' names '{" + name + "}', which is not a log key; available: " +
                     names + floats.keys_str());
  }
  const double v = floats.at(name);
  if (type == "d" || type == "s")
    throw ValueError("Unknown format code '" + type + "' for the float '" + name + "' in the file path '" + pattern +
                     "'; use f, e or g");
  if (spec.empty()) return python_float(v);
  if (type.empty() && !m[5].matched) {  // no precision: Python pads the repr (numbers align right)
    const std::string align = m[1].length() ? std::string(m[1]) : std::string(">");
    return fmt::format(fmt::runtime("{:" + align + std::string(m[4]) + "}"), python_float(v));
  }
  // Python's empty type with a precision behaves as "g" that keeps at least one decimal; "g" is close enough.
  return fmt::format(fmt::runtime("{:" + spec + (type.empty() ? "g" : "") + "}"), v);
}

}  // namespace

std::string format_path(const std::string& pattern, const std::map<std::string, std::int64_t>& ints, const Logs& floats) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '}') {
      if (i + 1 < pattern.size() && pattern[i + 1] == '}') ++i;
      else throw ValueError("Single '}' encountered in the file path '" + pattern + "'; write '}}' for a brace");
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    const auto close = pattern.find('}', i);
    if (close == std::string::npos)
      throw ValueError("Single '{' encountered in the file path '" + pattern + "'; write '{{' for a brace");
    const std::string field = pattern.substr(i + 1, close - i - 1);
    const auto colon = field.find(':');
    const std::string name = field.substr(0, colon);
    const std::string spec = colon == std::string::npos ? "" : field.substr(colon + 1);
    out += format_one(name, spec, pattern, ints, floats);
    i = close;
  }
  return out;
}

}  // namespace keras::callbacks
