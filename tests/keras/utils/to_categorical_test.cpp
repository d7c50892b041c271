// keras::utils::to_categorical: Keras's docstring example, its shape rules, and bad class indices.
#include <catch2/catch.hpp>

#include "keras/errors.hpp"
#include "keras/utils/to_categorical.hpp"

using namespace keras;

TEST_CASE("to_categorical reproduces Keras's docstring example", "[utils]") {
  const Tensor a = utils::to_categorical({0, 1, 2, 3}, 4);
  CHECK(a.shape() == Shape{4, 4});
  CHECK(a.dtype() == DType::float32);
  CHECK(a.to_vector<float>() == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
}

TEST_CASE("to_categorical infers num_classes, drops a last axis of 1 and keeps the others", "[utils]") {
  const Tensor y = Tensor::from_vector<std::int32_t>({2, 0, 1}, {3, 1});
  const Tensor c = utils::to_categorical(y);
  CHECK(c.shape() == Shape{3, 3});
  CHECK(c.to_vector<float>() == std::vector<float>{0, 0, 1, 1, 0, 0, 0, 1, 0});
  const Tensor grid = utils::to_categorical(Tensor::from_vector<std::int64_t>({1, 0, 0, 2}, {2, 2}), 5, "int32");
  CHECK(grid.shape() == Shape{2, 2, 5});
  CHECK(grid.dtype() == DType::int32);
  CHECK(grid.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0});
  // Float labels are truncated as NumPy's cast to int64 does.
  CHECK(utils::to_categorical(Tensor::from_vector<float>({1.f, 2.7f}), 3).to_vector<float>() ==
        std::vector<float>{0, 1, 0, 0, 0, 1});
}

TEST_CASE("to_categorical refuses indices below 0 or from num_classes up", "[utils]") {
  CHECK_THROWS_AS(utils::to_categorical({0, 4}, 4), ValueError);
  CHECK_THROWS_WITH(utils::to_categorical({0, -1}, 4), Catch::Contains("class index -1"));
  CHECK_THROWS_WITH(utils::to_categorical(std::vector<std::int64_t>{}), Catch::Contains("give num_classes"));
  CHECK_THROWS_AS(utils::to_categorical({1}, -2), ValueError);
}
