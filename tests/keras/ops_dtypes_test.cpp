// keras::ops on the bool and float64 dtypes: comparisons and logical ops return bool, where takes a bool
// condition, float64 arithmetic / reductions / matmul / element-wise functions stay in double precision.
#include <catch2/catch.hpp>

#include <cmath>

#include "keras/ops/comparison.hpp"
#include "keras/ops/logical.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/selection.hpp"
#include "keras/ops/unary_math.hpp"

using namespace keras;

TEST_CASE("comparisons and logical ops return bool tensors - where takes them", "[ops2][dtypes]") {
  const Tensor a = Tensor::from_vector(std::vector<float>{1.f, 2.f, 3.f});
  const Tensor b = Tensor::from_vector(std::vector<std::int32_t>{1, 5, 0});
  for (auto op : {ops::equal, ops::not_equal, ops::less, ops::less_equal, ops::greater, ops::greater_equal})
    CHECK(op(a, b).dtype() == DType::bool_);
  CHECK(ops::less(a, b).to_vector<bool>() == std::vector<bool>{false, true, false});
  CHECK(ops::greater_equal(a, b).to_vector<bool>() == std::vector<bool>{true, false, true});
  const Tensor t = ops::logical_or(ops::equal(a, b), ops::greater(a, Tensor::scalar(2.5f)));
  CHECK(t.to_vector<bool>() == std::vector<bool>{true, false, true});
  CHECK(ops::logical_not(t).to_vector<bool>() == std::vector<bool>{false, true, false});
  CHECK(ops::any(t).item() == 1.0);
  CHECK(ops::all(t).item() == 0.0);
  CHECK(ops::any(t).dtype() == DType::bool_);
  const Tensor w = ops::where(t, a, Tensor::scalar(-1.f));
  CHECK(w.to_vector<float>() == std::vector<float>{1.f, -1.f, 3.f});
  // Arithmetic on bool masks promotes them (as multiplying by a mask does in Keras after a cast).
  CHECK(ops::multiply(a, t).to_vector<float>() == std::vector<float>{1.f, 0.f, 3.f});
  const Tensor nan = Tensor::from_vector(std::vector<double>{1.0, std::nan(""), INFINITY, -INFINITY});
  CHECK(ops::isnan(nan).to_vector<bool>() == std::vector<bool>{false, true, false, false});
  CHECK(ops::isinf(nan).to_vector<bool>() == std::vector<bool>{false, false, true, true});
  CHECK(ops::isfinite(nan).to_vector<bool>() == std::vector<bool>{true, false, false, false});
}

TEST_CASE("float64 arithmetic, reductions, element-wise functions and matmul stay in double precision", "[ops2][dtypes]") {
  const Tensor a = Tensor::from_vector(std::vector<double>{0.1, 0.2, 1e-10});
  const Tensor b = Tensor::from_vector(std::vector<double>{0.2, 0.1, 1.0});
  const Tensor s = ops::add(a, b);
  REQUIRE(s.dtype() == DType::float64);
  CHECK(s.to_vector<double>() == std::vector<double>{0.1 + 0.2, 0.2 + 0.1, 1e-10 + 1.0});
  CHECK(ops::add(a, Tensor::scalar(1.f)).dtype() == DType::float64);  // float32 + float64 is float64, as Keras
  CHECK(ops::divide(a, b).to_vector<double>()[2] == 1e-10);
  CHECK(ops::sum(a).item() == 0.1 + 0.2 + 1e-10);
  CHECK(ops::mean(b).item() == Approx((0.2 + 0.1 + 1.0) / 3).epsilon(1e-15));
  CHECK(ops::max(a).item() == 0.2);
  CHECK(ops::exp(a).to_vector<double>()[2] == std::exp(1e-10));
  CHECK(ops::log1p(a).to_vector<double>()[2] == std::log1p(1e-10));
  CHECK(ops::sin(b).dtype() == DType::float64);
  CHECK(ops::sin(b).to_vector<double>()[0] == std::sin(0.2));
  CHECK(ops::sqrt(b).to_vector<double>()[1] == std::sqrt(0.1));
  const Tensor m = Tensor::from_vector(std::vector<double>{1.0, 1e-9, 2.0, 3.0}, {2, 2});
  const Tensor p = ops::matmul(m, m);
  REQUIRE(p.dtype() == DType::float64);
  CHECK(p.to_vector<double>() == std::vector<double>{1.0 + 2e-9, 1e-9 + 3e-9, 2.0 + 6.0, 2e-9 + 9.0});
  CHECK(ops::equal(a, Tensor::from_vector(std::vector<double>{0.1, 0.3, 0.0})).to_vector<bool>() ==
        std::vector<bool>{true, false, false});
}
