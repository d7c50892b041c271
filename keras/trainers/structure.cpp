#include "keras/trainers/structure.hpp"

namespace keras {

std::string structure_detail::join_names(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

}  // namespace keras
