// keras::ops linear algebra beyond the PyTorch goldens (ops_numpy_test.cpp): the decompositions rebuild their
// input and have orthonormal factors, gradients agree with finite differences, bad input throws.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/decompositions.hpp"
#include "keras/ops/linalg.hpp"
#include "keras/ops/norm.hpp"

using namespace keras;
using keras::testing::check_gradients;
using keras::testing::random_tensor;

namespace {

void check_near(const Tensor& a, const Tensor& b, float tol = 1e-5f) {
  REQUIRE(a.shape() == b.shape());
  for (std::int64_t i = 0; i < a.size(); ++i) {
    INFO("element " << i);
    CHECK(a.data<float>()[i] == Approx(b.data<float>()[i]).margin(tol));
  }
}

Tensor identity_batch(std::int64_t batch, std::int64_t n) {
  Tensor e = Tensor::zeros({batch, n, n});
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < n; ++i) e.data<float>()[(b * n + i) * n + i] = 1.f;
  return e;
}

// A well-conditioned symmetric positive-definite batch: x x^T + n I.
Tensor spd(std::int64_t batch, std::int64_t n, unsigned seed) {
  const Tensor x = random_tensor({batch, n, n}, -1.f, 1.f, seed);
  return ops::add(ops::batch_matmul(x, x, false, true), ops::multiply(identity_batch(batch, n), Tensor::scalar(float(n))));
}

}  // namespace

TEST_CASE("qr, svd and eigh rebuild their input with orthonormal factors", "[ops2][linalg]") {
  for (const Shape& shape : {Shape{2, 5, 3}, Shape{2, 3, 5}, Shape{1, 4, 4}}) {
    INFO("shape " << shape_str(shape));
    const Tensor x = random_tensor(shape, -1.f, 1.f, 21);
    const std::int64_t m = shape[1], n = shape[2], k = std::min(m, n);
    for (const std::string mode : {"reduced", "complete"}) {
      auto [q, r] = ops::qr(x, mode);
      check_near(ops::batch_matmul(q, r), x);
      const auto qk = q.dim(-1);
      check_near(ops::batch_matmul(q, q, true, false), identity_batch(shape[0], qk));
      for (std::int64_t b = 0; b < shape[0]; ++b)
        for (std::int64_t i = 0; i < r.dim(1); ++i)
          for (std::int64_t j = 0; j < std::min(i, n); ++j) CHECK(r.data<float>()[(b * r.dim(1) + i) * n + j] == 0.f);
    }
    for (bool full : {true, false}) {
      const auto res = ops::svd(x, full);
      CHECK(res.u.shape() == Shape{shape[0], m, full ? m : k});
      CHECK(res.vh.shape() == Shape{shape[0], full ? n : k, n});
      check_near(ops::batch_matmul(res.u, res.u, true, false), identity_batch(shape[0], res.u.dim(-1)));
      check_near(ops::batch_matmul(res.vh, res.vh, false, true), identity_batch(shape[0], res.vh.dim(-2)));
      // u[:, :k] diag(s) vh[:k]
      Tensor us = Tensor::zeros({shape[0], m, k}), vk = Tensor::zeros({shape[0], k, n});
      for (std::int64_t b = 0; b < shape[0]; ++b)
        for (std::int64_t j = 0; j < k; ++j) {
          const float s = res.s.data<float>()[b * k + j];
          if (j > 0) CHECK(s <= res.s.data<float>()[b * k + j - 1]);
          for (std::int64_t i = 0; i < m; ++i) us.data<float>()[(b * m + i) * k + j] = res.u.data<float>()[(b * m + i) * res.u.dim(-1) + j] * s;
          for (std::int64_t i = 0; i < n; ++i) vk.data<float>()[(b * k + j) * n + i] = res.vh.data<float>()[(b * res.vh.dim(-2) + j) * n + i];
        }
      check_near(ops::batch_matmul(us, vk), x);
    }
  }
  const Tensor a = spd(2, 4, 22);
  auto [w, v] = ops::eigh(a);
  check_near(ops::batch_matmul(v, v, true, false), identity_batch(2, 4));
  Tensor vw = ops::multiply(v, ops::reshape(w, {2, 1, 4}));  // v diag(w)
  check_near(ops::batch_matmul(a, v), vw, 1e-4f);
}

TEST_CASE("inv, det, solve, cholesky and norm agree with finite differences", "[ops2][linalg]") {
  const Tensor a = ops::subtract(spd(1, 3, 23), Tensor::scalar(1.f));
  check_gradients([](const std::vector<Tensor>& in) { return ops::inv(in[0]); }, {a.clone()}, 1e-3f);
  check_gradients([](const std::vector<Tensor>& in) { return ops::det(in[0]); }, {a.clone()}, 1e-3f);
  check_gradients([](const std::vector<Tensor>& in) { return ops::solve(in[0], in[1]); },
                  {a.clone(), random_tensor({1, 3, 2})}, 1e-3f);
  // cholesky reads the lower triangle: perturb symmetric pairs together through (x + x^T) / 2.
  check_gradients([](const std::vector<Tensor>& in) {
    return ops::cholesky(ops::multiply(ops::add(in[0], ops::matrix_transpose(in[0])), Tensor::scalar(0.5f)));
  }, {spd(1, 3, 24)}, 1e-3f);
  check_gradients([](const std::vector<Tensor>& in) { return ops::norm(in[0], 3, {1}); }, {random_tensor({2, 4}, 0.2f, 1.f)});
  check_gradients([](const std::vector<Tensor>& in) { return ops::norm(in[0], ops::inf, {0, 1}); }, {random_tensor({3, 4})});
}

TEST_CASE("linear algebra ops reject bad input with the shapes in the message", "[ops2][linalg]") {
  CHECK_THROWS_WITH(ops::inv(Tensor::zeros({2, 3})), Catch::Contains("square") && Catch::Contains("(2, 3)"));
  CHECK_THROWS_WITH(ops::inv(Tensor::zeros({2, 2})), Catch::Contains("singular"));
  CHECK_THROWS_WITH(ops::cholesky(ops::negative(identity_batch(1, 2))), Catch::Contains("not positive definite"));
  CHECK_THROWS_WITH(ops::solve(identity_batch(1, 3), Tensor::zeros({1, 2, 1})), Catch::Contains("do not match"));
  CHECK_THROWS_WITH(ops::norm(Tensor::zeros({2, 2, 2}), 1), Catch::Contains("pass the axes"));
  CHECK_THROWS_WITH(ops::norm(Tensor::zeros({2, 2}), "fro", {0}), Catch::Contains("matrix norm"));
  CHECK_THROWS_WITH(ops::qr(Tensor::zeros({2, 2}), "full"), Catch::Contains("reduced"));
  CHECK(ops::det(Tensor::zeros({3, 3})).item() == 0.0);
}
