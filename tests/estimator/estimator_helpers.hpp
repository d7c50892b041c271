#pragma once
// Shared by the Estimator tests: Iris-like input_fns and the iris feature columns.
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "keras/estimator/estimator.hpp"

namespace est_test {

inline keras::data::Element features_of(const keras::estimator::IrisLike& d) {
  std::vector<std::pair<std::string, keras::data::Element>> items;
  for (const auto& [name, t] : d.features) items.emplace_back(name, keras::data::Element(t));
  return keras::data::named(std::move(items));
}

/// (features, labels) batches of `batch` rows, in order; repeated forever when `repeat`.
inline keras::estimator::InputFn input_fn(const keras::estimator::IrisLike& d, std::int64_t batch, bool repeat) {
  return [d, batch, repeat] {
    auto ds = keras::data::Dataset::from_tensor_slices(keras::data::tuple({features_of(d), d.labels})).batch(batch);
    return repeat ? ds.repeat() : ds;
  };
}

inline std::vector<keras::estimator::Column> iris_columns() {
  std::vector<keras::estimator::Column> out;
  for (const auto& name : keras::estimator::IrisLike::feature_names()) out.push_back(keras::estimator::numeric_column(name));
  return out;
}

}  // namespace est_test
