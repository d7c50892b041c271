#pragma once
// The `thresholds` argument of TruePositives..., Precision and Recall: a list of doubles that Keras's
// configs hold as given, null (the default), one number or a list. Its own type so that
// config::write_fields/read_fields find this encoding by argument-dependent lookup.
#include <utility>
#include <vector>

#include "keras/json_fwd.hpp"

namespace keras::metrics {

struct Thresholds : std::vector<double> {
  using std::vector<double>::vector;
  Thresholds() = default;
  // Implicit: a std::vector<double> is assigned to options.thresholds as before.
  Thresholds(std::vector<double> values) : std::vector<double>(std::move(values)) {}  // NOLINT
};

/// None as null, one as a number, several as a list.
json encode(const Thresholds& thresholds);
/// null, a number or a list.
void decode(const json& j, Thresholds& thresholds);

}  // namespace keras::metrics
