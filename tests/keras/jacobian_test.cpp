// autodiff::jacobian and batch_jacobian against the analytic Jacobian of tanh(x W), computed here with
// std::tanh: J[b, i, c, j] = [b == c] (1 - y[b, i]^2) W[j, i]; and against torch.autograd.functional's
// jacobian and hessian (tests/golden/make_jacobian_golden.py).
#include <cmath>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/autodiff/jacobian.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/ops/nn.hpp"

using namespace keras;

namespace {
const std::vector<float> xv{0.5f, -1.f, 0.25f, 2.f, 0.1f, -0.3f};  // (2, 3)
const std::vector<float> wv{0.2f, -0.4f, 0.7f, 0.1f, -0.5f, 0.3f};  // (3, 2)
double y_of(int b, int i) {
  double s = 0;
  for (int j = 0; j < 3; ++j) s += double(xv[b * 3 + j]) * wv[j * 2 + i];
  return std::tanh(s);
}
}  // namespace

TEST_CASE("jacobian of tanh(x W) with respect to x: target shape + source shape, zeros across samples") {
  Tensor x = Tensor::from_vector(xv, {2, 3});
  const Tensor w = Tensor::from_vector(wv, {3, 2});
  GradientTape tape(true);
  tape.watch(x);
  const Tensor y = ops::tanh(ops::matmul(x, w));
  const Tensor j = autodiff::jacobian(tape, y, x);
  REQUIRE(j.shape() == Shape{2, 2, 2, 3});
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2; ++i)
      for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 3; ++k) {
          const double expected = b == c ? (1 - y_of(b, i) * y_of(b, i)) * wv[k * 2 + i] : 0.0;
          CHECK(j.data<float>()[((b * 2 + i) * 2 + c) * 3 + k] == Approx(expected).margin(1e-6));
        }
  const Tensor bj = autodiff::batch_jacobian(tape, y, x);
  REQUIRE(bj.shape() == Shape{2, 2, 3});
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 3; ++k)
        CHECK(bj.data<float>()[(b * 2 + i) * 3 + k] == Approx((1 - y_of(b, i) * y_of(b, i)) * wv[k * 2 + i]).margin(1e-6));
}

TEST_CASE("jacobian: zeros for an unrelated source, a clear error for a non-persistent tape and a batch mismatch") {
  Tensor x = Tensor::from_vector(xv, {2, 3});
  Tensor unrelated = Tensor::ones({4});
  GradientTape tape(true);
  tape.watch(x);
  tape.watch(unrelated);
  const Tensor y = ops::multiply(x, x);
  const Tensor j = autodiff::jacobian(tape, y, unrelated);
  CHECK(j.shape() == Shape{2, 3, 4});
  for (std::int64_t i = 0; i < j.size(); ++i) CHECK(j.data<float>()[i] == 0.f);
  CHECK_THROWS_WITH(autodiff::batch_jacobian(tape, y, unrelated), Catch::Contains("batch"));

  GradientTape once;
  once.watch(x);
  const Tensor z = ops::multiply(x, x);
  CHECK_THROWS_WITH(autodiff::jacobian(once, z, x), Catch::Contains("persistent"));
}

TEST_CASE("jacobian, batch_jacobian and a Hessian match torch.autograd.functional") {
  // tests/golden/make_jacobian_golden.py: y = softmax(tanh(x w)) couples every output of a sample.
  const json golden = testing::load_golden("jacobian.json");
  auto load = [&](const char* key) {
    return Tensor::from_vector(golden[key]["data"].get<std::vector<float>>(), golden[key]["shape"].get<Shape>());
  };
  auto check = [&](const Tensor& got, const char* key) {
    const auto want = golden[key]["data"].get<std::vector<double>>();
    REQUIRE(got.shape() == golden[key]["shape"].get<Shape>());
    for (std::size_t i = 0; i < want.size(); ++i) {
      INFO(key << " element " << i);
      CHECK(got.data<float>()[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
    }
  };
  Tensor x = load("x");
  const Tensor w = load("w"), c = load("c");
  {
    GradientTape tape(true);
    tape.watch(x);
    const Tensor y = ops::softmax(ops::tanh(ops::matmul(x, w)));
    check(autodiff::jacobian(tape, y, x), "jacobian");
    check(autodiff::batch_jacobian(tape, y, x), "batch_jacobian");
  }
  // The Hessian of sum(softplus(x w) c): the jacobian, on an outer tape, of the gradient of an inner one.
  GradientTape outer(true);
  outer.watch(x);
  Tensor g;
  {
    GradientTape inner;
    inner.watch(x);
    g = inner.gradient(ops::sum(ops::multiply(ops::softplus(ops::matmul(x, w)), c)), x);
  }
  check(autodiff::jacobian(outer, g, x), "hessian");
}
