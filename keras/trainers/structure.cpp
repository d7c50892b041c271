#include "keras/trainers/structure.hpp"

#include <fmt/format.h>

namespace keras {

std::string structure_detail::join_names(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

void structure_detail::throw_mismatch(Mismatch problem, const std::string& model, const std::string& what,
                                      const std::vector<std::string>& names, std::size_t given, const std::string& key) {
  const char* role = what == "x" ? "input" : "output";
  switch (problem) {
    case Mismatch::none_given:
      throw ValueError(fmt::format("Model '{}' expects {} {} (for {}), but none was given", model, names.size(), what,
                                   join_names(names)));
    case Mismatch::single_given:
      throw ValueError(fmt::format("Model '{}' has {} {}s: {}; but a single {} was given. Pass a list in this order "
                                   "or a map by name",
                                   model, names.size(), role, join_names(names), what));
    case Mismatch::list_length:
      throw ValueError(fmt::format("Model '{}' expects {} {} (one per {}: {}), but a list of {} was given", model,
                                   names.size(), what, role, join_names(names), given));
    case Mismatch::unknown_key:
      throw ValueError(fmt::format("Model '{}': the {} map names '{}', which is not one of the model's {}s: {}", model,
                                   what, key, role, join_names(names)));
    case Mismatch::missing_key:
      throw ValueError(fmt::format("Model '{}': the {} map has no entry for '{}'; it needs one for each of {}", model,
                                   what, key, join_names(names)));
  }
  throw ValueError("Model '" + model + "': " + what + " does not fit the model");
}

}  // namespace keras
