// keras::ops segment_max, slogdet and lu_factor: values and gradients against PyTorch
// (tests/golden/make_ops3_golden.py) in float32 within 1e-5 and in float64 within 1e-9 (float64 gradients
// included), finite differences, Keras's edge cases; and float64 gradients through the arithmetic,
// element-wise, reduction and matrix-product ops against derivatives computed here in double precision.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/linalg.hpp"
#include "keras/ops/scatter.hpp"
#include "keras/ops/unary_math.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;

namespace {

// The op's outputs, the differentiated one first (slogdet: logabsdet, then the sign), as the golden lists them.
std::vector<Tensor> run(const std::string& op, const Tensor& x, const Tensor& ids, const json& args) {
  if (op == "segment_max") return {ops::segment_max(x, ids, args["num_segments"].get<std::int64_t>())};
  if (op == "slogdet") {
    auto [sign, logabsdet] = ops::slogdet(x);
    return {logabsdet, sign};
  }
  auto [lu, pivots] = ops::lu_factor(x);
  return {lu, pivots};
}

// Compares with the golden's float64 numbers themselves (not rounded to float32).
void check_close(const Tensor& got, const json& want, double tol) {
  REQUIRE(got.shape() == want["shape"].get<Shape>());
  const auto w = want["data"].get<std::vector<double>>();
  const Tensor g = got.astype(DType::float64);
  for (std::int64_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(g.data<double>()[i] == Approx(w[static_cast<std::size_t>(i)]).epsilon(tol).margin(tol));
  }
}

}  // namespace

TEST_CASE("segment_max, slogdet and lu_factor match PyTorch in float32 and float64, gradients included", "[ops3]") {
  const json golden = load_golden("ops3.json");
  REQUIRE(golden["cases"].size() == 9);
  for (const auto& c : golden["cases"]) {
    const std::string op = c["op"];
    for (DType dtype : {DType::float32, DType::float64}) {
      INFO(op << " of shape " << c["inputs"][0]["shape"].dump() << " in " << dtype_name(dtype));
      const double tol = dtype == DType::float32 ? 1e-5 : 1e-9;
      const Tensor x = golden_tensor(c["inputs"][0]).astype(dtype);
      const Tensor ids = c["inputs"].size() > 1 ? golden_tensor(c["inputs"][1]) : Tensor();
      GradientTape tape;
      tape.watch(x);
      const auto outputs = run(op, x, ids, c["args"]);
      REQUIRE(outputs.size() == c["outputs"].size());
      CHECK(outputs[0].dtype() == dtype);
      for (std::size_t k = 0; k < outputs.size(); ++k) check_close(outputs[k], c["outputs"][k], tol);
      if (op == "lu_factor") CHECK(outputs[1].dtype() == DType::int32);
      const Tensor w = golden_tensor(c["w"]).astype(dtype);
      const Tensor g = tape.gradient(ops::sum(ops::multiply(outputs[0], w)), x);
      REQUIRE(g.defined());
      CHECK(g.dtype() == dtype);
      check_close(g, c["grad"], tol);
    }
  }
}

TEST_CASE("segment_max, slogdet and lu_factor agree with finite differences", "[ops3]") {
  using keras::testing::check_gradients;
  using keras::testing::random_tensor;
  const Tensor ids = Tensor::from_vector(std::vector<std::int64_t>{1, 0, 1, 2, 0}, {5});
  check_gradients([&](const std::vector<Tensor>& in) { return ops::segment_max(in[0], ids, 3); },
                  {random_tensor({5, 3}, -1.f, 1.f, 11)}, 1e-3f);
  // Well-conditioned matrices: the identity plus a small random part.
  Tensor a = ops::add(random_tensor({2, 3, 3}, -0.3f, 0.3f, 12), ops::eye(3));
  check_gradients([](const std::vector<Tensor>& in) { return ops::slogdet(in[0]).second; }, {a}, 1e-3f);
  check_gradients([](const std::vector<Tensor>& in) { return ops::lu_factor(in[0]).first; }, {a}, 1e-3f);
}

TEST_CASE("segment_max: empty segments, dropped ids, integers, errors", "[ops3]") {
  const Tensor data = Tensor::from_vector(std::vector<float>{1.f, 5.f, -2.f, 3.f}, {4});
  const Tensor ids = Tensor::from_vector(std::vector<std::int32_t>{0, 0, 3, -1}, {4});
  const auto y = ops::segment_max(data, ids, 4).to_vector<float>();
  // Segments 1 and 2 are empty: the lowest float, as TensorFlow's unsorted_segment_max; id -1 is dropped.
  CHECK(y == std::vector<float>{5.f, std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(), -2.f});
  // num_segments defaults to max(ids) + 1; integer data stays integer (Keras's example).
  const Tensor ints = Tensor::from_vector(std::vector<std::int32_t>{1, 2, 10, 20, 100, 200}, {6});
  const Tensor seg = Tensor::from_vector(std::vector<std::int32_t>{0, 0, 1, 1, 2, 2}, {6});
  const Tensor yi = ops::segment_max(ints, seg);
  CHECK(yi.dtype() == DType::int32);
  CHECK(yi.to_vector<std::int32_t>() == std::vector<std::int32_t>{2, 20, 200});
  CHECK_THROWS_WITH(ops::segment_max(data, Tensor::from_vector(std::vector<std::int32_t>{0, 1}, {2})),
                    Catch::Contains("one id per row"));
}

TEST_CASE("lu_factor rebuilds its input from LAPACK's pivots - slogdet of a singular matrix", "[ops3]") {
  const Tensor x = Tensor::from_vector(std::vector<float>{0.f, 2.f, 1.f, 4.f, -1.f, 3.f, 2.f, 2.f, 5.f}, {3, 3});
  auto [lu, pivots] = ops::lu_factor(x);
  const auto f = lu.to_vector<float>();
  const auto piv = pivots.to_vector<std::int32_t>();
  // L U, then the row swaps undone in reverse order, gives x back.
  std::vector<double> rebuilt(9, 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k <= std::min(i, j); ++k) rebuilt[i * 3 + j] += (k == i ? 1.0 : f[i * 3 + k]) * f[k * 3 + j];
  for (int step = 2; step >= 0; --step)
    for (int j = 0; j < 3; ++j) std::swap(rebuilt[step * 3 + j], rebuilt[piv[step] * 3 + j]);
  for (int i = 0; i < 9; ++i) CHECK(rebuilt[i] == Approx(x.data<float>()[i]).margin(1e-5));
  CHECK(piv[0] == 1);  // the largest |value| of column 0 is row 1's 4

  const Tensor singular = Tensor::from_vector(std::vector<float>{1.f, 2.f, 2.f, 4.f}, {2, 2});
  auto [sign, logabsdet] = ops::slogdet(singular);
  CHECK(sign.item() == 0.0);
  CHECK(std::isinf(logabsdet.item()));
  CHECK(logabsdet.item() < 0);
  CHECK_THROWS_WITH(ops::lu_factor(singular), Catch::Contains("singular"));
  CHECK_THROWS_WITH(ops::lu_factor(Tensor::zeros({2, 3})), Catch::Contains("square"));
}

TEST_CASE("float64 gradients flow through arithmetic, element-wise, reduction and matrix-product ops", "[ops3]") {
  // f(x) = sum(sin(x) * exp(x) / (1 + x^2)) + sum((x @ x^T) * 0.5), in double precision.
  const std::vector<double> v{0.3, -1.2, 0.7, 2.1, -0.4, 1.5};
  const Tensor x = Tensor::from_vector(v, {2, 3});
  GradientTape tape;
  tape.watch(x);
  const Tensor smooth = ops::divide(ops::multiply(ops::sin(x), ops::exp(x)), ops::add(ops::square(x), Tensor::scalar(1.f)));
  const Tensor gram = ops::batch_matmul(x, x, false, true);
  const Tensor f = ops::add(ops::sum(smooth), ops::sum(ops::multiply(gram, Tensor::scalar(0.5f))));
  CHECK(f.dtype() == DType::float64);
  const Tensor g = tape.gradient(f, x);
  REQUIRE(g.defined());
  CHECK(g.dtype() == DType::float64);
  for (int i = 0; i < 6; ++i) {
    const double t = v[i], d = 1 + t * t;
    const double smooth_grad = ((std::cos(t) + std::sin(t)) * std::exp(t) * d - std::sin(t) * std::exp(t) * 2 * t) / (d * d);
    // d/dx of 0.5 sum(x x^T) = the column sums of x (each row of x times the sum of rows).
    const int col = i % 3;
    const double gram_grad = v[col] + v[3 + col];
    CHECK(g.data<double>()[i] == Approx(smooth_grad + gram_grad).epsilon(1e-12));
  }
}
