#pragma once
// Reading a model from outside data: a JSON value of the wrong shape deep inside a config (a missing key,
// a string where a number belongs) surfaces as a keras::ValueError that names the file, never as a
// nlohmann::json exception.
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "keras/errors.hpp"

namespace keras::saving {

/// Runs fn() and turns nlohmann::json errors inside it into a keras::ValueError naming `source`.
template <class F>
auto reading_config(const std::string& source, F&& fn) -> decltype(fn()) {
  try {
    return std::forward<F>(fn)();
  } catch (const nlohmann::json::exception& e) {
    throw ValueError(fmt::format("{}: the model description is malformed ({}); was it written by Keras?", source, e.what()));
  }
}

}  // namespace keras::saving
