#pragma once
// Reading the reference files in tests/golden (written by tests/golden/make_*_golden.py).
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

namespace keras::testing {

inline json load_golden(const std::string& file) {
  std::ifstream in(std::string(KERAS_GOLDEN_DIR) + "/" + file);
  REQUIRE(in.good());
  return json::parse(in);
}

/// {"dtype", "shape", "data"} as the generator scripts write tensors.
inline Tensor golden_tensor(const json& j) {
  if (j.is_null()) return Tensor();
  Tensor t = Tensor::from_vector<float>(j["data"].get<std::vector<float>>(), j["shape"].get<Shape>());
  return t.astype(dtype_from_name(j["dtype"].get<std::string>()));
}

}  // namespace keras::testing
