#include "metrics/thresholds.hpp"

#include "keras/json.hpp"

namespace keras::metrics {

json encode(const Thresholds& thresholds) {
  if (thresholds.empty()) return nullptr;
  if (thresholds.size() == 1) return thresholds[0];
  return json(static_cast<const std::vector<double>&>(thresholds));
}

void decode(const json& j, Thresholds& thresholds) {
  if (j.is_null()) thresholds.clear();
  else if (j.is_number()) thresholds = {j.get<double>()};
  else thresholds = j.get<std::vector<double>>();
}

}  // namespace keras::metrics
