// keras::ops trigonometric, rounding and other element-wise functions, and min/var/std/logsumexp: values
// and gradients against PyTorch (tests/golden/make_ops_golden.py), plus finite differences.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/ops/composite_reductions.hpp"
#include "keras/ops/unary_math.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;

namespace {

Tensor apply(const std::string& op, const Tensor& x, const json& args) {
  static const std::map<std::string, Tensor (*)(const Tensor&)> unary{
      {"sin", ops::sin},     {"cos", ops::cos},         {"tan", ops::tan},         {"arcsin", ops::arcsin},
      {"arccos", ops::arccos}, {"arctan", ops::arctan}, {"sinh", ops::sinh},       {"cosh", ops::cosh},
      {"arcsinh", ops::arcsinh}, {"arctanh", ops::arctanh}, {"sign", ops::sign},   {"floor", ops::floor},
      {"ceil", ops::ceil},   {"round", ops::round},     {"log1p", ops::log1p},     {"expm1", ops::expm1},
      {"rsqrt", ops::rsqrt}, {"erf", ops::erf}};
  if (auto it = unary.find(op); it != unary.end()) return it->second(x);
  const auto axes = args.at("axes").get<std::vector<int>>();
  const bool keepdims = args.at("keepdims").get<bool>();
  if (op == "min") return ops::min(x, axes, keepdims);
  if (op == "var") return ops::var(x, axes, keepdims);
  if (op == "std") return ops::std(x, axes, keepdims);
  if (op == "logsumexp") return ops::logsumexp(x, axes, keepdims);
  FAIL("unknown op " << op);
  return Tensor();
}

void check_close(const Tensor& got, const Tensor& want) {
  REQUIRE(got.shape() == want.shape());
  for (std::int64_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got.data<float>()[i] == Approx(want.data<float>()[i]).epsilon(1e-5).margin(1e-5));
  }
}

}  // namespace

TEST_CASE("ops element-wise functions and reductions match PyTorch's values and gradients") {
  const json golden = load_golden("ops.json");
  for (const auto& c : golden["cases"]) {
    const std::string op = c["op"];
    INFO(op << " " << c["args"].dump());
    Tensor x = golden_tensor(c["x"]);
    const Tensor w = golden_tensor(c["w"]);
    GradientTape tape;
    tape.watch(x);
    const Tensor y = apply(op, x, c["args"]);
    check_close(y, golden_tensor(c["y"]));
    const Tensor g = tape.gradient(ops::sum(ops::multiply(y, w)), x);
    const Tensor want = golden_tensor(c["grad"]);
    check_close(g.defined() ? g : Tensor::zeros(want.shape()), want);
  }
}

TEST_CASE("ops element-wise functions and reductions agree with finite differences") {
  using keras::testing::check_gradients;
  using keras::testing::random_tensor;
  for (auto op : {ops::sin, ops::cos, ops::arctan, ops::sinh, ops::erf, ops::arcsinh})
    check_gradients([op](const std::vector<Tensor>& in) { return op(in[0]); }, {random_tensor({2, 3}, -1.5f, 1.5f)});
  check_gradients([](const std::vector<Tensor>& in) { return ops::log1p(in[0]); }, {random_tensor({2, 3}, 0.f, 2.f)});
  check_gradients([](const std::vector<Tensor>& in) { return ops::rsqrt(in[0]); }, {random_tensor({2, 3}, 0.5f, 2.f)});
  check_gradients([](const std::vector<Tensor>& in) { return ops::std(in[0], {1}); }, {random_tensor({3, 4})});
  check_gradients([](const std::vector<Tensor>& in) { return ops::logsumexp(in[0], {0}, true); }, {random_tensor({3, 4})});
}

TEST_CASE("ops rounding follows NumPy: halves to even, sign of zero is zero, integer input becomes float") {
  const Tensor r = ops::round(Tensor::from_vector(std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f, -2.5f}));
  CHECK(r.to_vector<float>() == std::vector<float>{0.f, 2.f, 2.f, -0.f, -2.f});
  const Tensor s = ops::sign(Tensor::from_vector(std::vector<std::int32_t>{-3, 0, 7}));
  CHECK(s.dtype() == DType::float32);
  CHECK(s.to_vector<float>() == std::vector<float>{-1.f, 0.f, 1.f});
}
