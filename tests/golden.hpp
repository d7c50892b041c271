#pragma once
// Reading the reference files in tests/golden (written by tests/golden/make_*_golden.py).
#include <cmath>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "test_paths.hpp"

namespace keras::testing {

inline json load_golden(const std::string& file) {
  std::ifstream in(std::string(keras_test::golden_dir) + "/" + file);
  REQUIRE(in.good());
  return json::parse(in);
}

/// {"dtype", "shape", "data"} as the generator scripts write tensors.
inline Tensor golden_tensor(const json& j) {
  if (j.is_null()) return Tensor();
  Tensor t = Tensor::from_vector<float>(j["data"].get<std::vector<float>>(), j["shape"].get<Shape>());
  return t.astype(dtype_from_name(j["dtype"].get<std::string>()));
}

/// Relative 1e-5 with an absolute floor of 1e-5 near zero (float32 sums of a few logs carry ~1e-6).
inline void check_close(const Tensor& got, const Shape& shape, const std::vector<double>& want) {
  REQUIRE(got.shape() == shape);
  auto v = got.to_vector<float>();
  REQUIRE(v.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::isfinite(v[i]));
    CHECK(v[i] == Approx(want[i]).epsilon(1e-5).margin(1e-5));
  }
}

/// Every golden tensor of a JSON list.
inline std::vector<Tensor> golden_tensors(const json& list) {
  std::vector<Tensor> out;
  for (const auto& t : list) out.push_back(golden_tensor(t));
  return out;
}

/// check_close against a golden tensor ({"shape": [...], "data": [...]}).
inline void check_close(const Tensor& got, const json& want) {
  check_close(got, want["shape"].get<Shape>(), want["data"].get<std::vector<double>>());
}

/// One case of losses*.json: the per-sample function `fn(name, args, y_true, y_pred)`, then the class built
/// from its config under every reduction, against the reference values.
template <class Fn>
void check_loss_case(const json& c, Fn fn) {
  const Tensor y_true = golden_tensor(c["y_true"]), y_pred = golden_tensor(c["y_pred"]);
  const Tensor sw = golden_tensor(c["sample_weight"]);
  check_close(fn(c["fn"].get<std::string>(), c["fn_args"], y_true, y_pred), c["per_sample"]["shape"].get<Shape>(),
              c["per_sample"]["data"].get<std::vector<double>>());
  for (const std::string reduction : {"none", "sum", "sum_over_batch_size"}) {
    INFO("reduction " << reduction);
    json config = c["config"];
    config["reduction"] = reduction;
    auto loss = losses::Loss::deserialize({{"class_name", c["class_name"]}, {"config", config}});
    CHECK(loss->class_name() == c["class_name"].get<std::string>());
    const Tensor value = (*loss)(y_true, y_pred, sw);
    if (reduction == "none")
      check_close(value, c["none"]["shape"].get<Shape>(), c["none"]["data"].get<std::vector<double>>());
    else
      check_close(value, {}, {c[reduction].get<double>()});
  }
}

}  // namespace keras::testing
