// keras::utils::normalize against NumPy's np.linalg.norm (tests/golden/make_utils_golden.py).
#include <cmath>

#include <catch2/catch.hpp>

#include "golden.hpp"

using namespace keras;

TEST_CASE("normalize equals x / np.linalg.norm(x, order, axis) with zero norms as 1", "[utils]") {
  const json g = keras::testing::load_golden("utils.json")["normalize"];
  const Tensor x = keras::testing::golden_tensor(g["x"]);
  REQUIRE(g["cases"].size() == 18);
  for (const auto& c : g["cases"]) {
    const double order = c["order"].is_string() ? (c["order"] == "inf" ? INFINITY : -INFINITY) : c["order"].get<double>();
    INFO("axis " << c["axis"] << " order " << order);
    keras::testing::check_close(utils::normalize(x, c["axis"].get<int>(), order), c["output"]);
  }
}

TEST_CASE("normalize: default L2 on the last axis, integer input, and bad axes", "[utils]") {
  const Tensor x = Tensor::from_vector<std::int32_t>({3, 4, 0, 0}, {2, 2});
  CHECK(utils::normalize(x).to_vector<float>() == std::vector<float>{0.6f, 0.8f, 0.f, 0.f});
  CHECK_THROWS_WITH(utils::normalize(x, 2), Catch::Contains("axis 2 is out of range"));
  CHECK_THROWS_AS(utils::normalize(Tensor::scalar(1.f)), ValueError);
}
