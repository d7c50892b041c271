#include "keras/registry.hpp"

#include "keras/json.hpp"

namespace keras {

namespace registry_detail {

const json& config_or_empty(const json& config) {
  static const json empty = json::object();
  return config.is_null() ? empty : config;
}

void throw_unknown(const std::string& family, const std::string& name, const std::vector<std::string>& valid) {
  std::string list;
  for (const auto& n : valid) list += (list.empty() ? "" : ", ") + n;
  throw ValueError("Unknown " + family + ": '" + name + "'. Valid " + family + " identifiers are: " + list +
                   ". A custom class must be registered by name first.");
}

}  // namespace registry_detail

json serialize_object(const std::string& class_name, const json& config) {
  return json{{"class_name", class_name}, {"config", config}};
}

}  // namespace keras
