#pragma once
// Helpers for the Dataset tests: elements as plain numbers.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"

namespace keras::data::testing {

/// The int64 scalar of a single-component element.
inline std::int64_t scalar(const Element& e) {
  return static_cast<std::int64_t>(e.leaf().tensor().astype(DType::int64).item());
}

/// Every element's values (as int64) for a dataset of numeric single components.
inline std::vector<std::vector<std::int64_t>> values(const Dataset& ds) {
  std::vector<std::vector<std::int64_t>> out;
  for (const Element& e : ds) out.push_back(e.leaf().tensor().astype(DType::int64).to_vector<std::int64_t>());
  return out;
}

/// Scalars of a dataset of int scalars.
inline std::vector<std::int64_t> scalars(const Dataset& ds) {
  std::vector<std::int64_t> out;
  for (const Element& e : ds) out.push_back(scalar(e));
  return out;
}

inline std::vector<std::int64_t> iota(std::int64_t a, std::int64_t b, std::int64_t step = 1) {
  std::vector<std::int64_t> v;
  for (auto i = a; i < b; i += step) v.push_back(i);
  return v;
}

}  // namespace keras::data::testing
