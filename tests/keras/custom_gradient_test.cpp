#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using Catch::Contains;
using V = std::vector<Tensor>;

namespace {

// softplus = log(1 + exp(x)), computed stably, with the gradient sigmoid(x).
Tensor log1pexp(const Tensor& x) {
  return ops::custom_gradient(
      "log1pexp", x, [](const Tensor& x) { return ops::relu(x) + ops::log(1.f + ops::exp(-ops::abs(x))); },
      [](const Tensor& x, const Tensor&, const Tensor& upstream) { return upstream * ops::sigmoid(x); });
}

// multiply written as a closure, with the built-in op's backward (broadcast axes summed away).
Tensor closure_multiply(const Tensor& a, const Tensor& b) {
  return ops::custom_gradient(
      "closure_multiply", {a, b}, [](const V& in) { return ops::multiply(in[0], in[1]); },
      [](const V& in, const Tensor&, const Tensor& upstream) {
        return V{ops::reduce_to_shape(upstream * in[1], in[0].shape()),
                 ops::reduce_to_shape(upstream * in[0], in[1].shape())};
      });
}

void check_same(const Tensor& got, const Tensor& expected, double margin = 1e-6) {
  REQUIRE(got.defined());
  REQUIRE(got.shape() == expected.shape());
  const auto g = got.to_vector<float>(), e = expected.to_vector<float>();
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g[i] == Approx(e[i]).margin(margin));
}

}  // namespace

TEST_CASE("custom_gradient: a one-input op matches finite differences and the built-in softplus") {
  Tensor x = random_tensor({3, 4}, -3, 3, 1);
  check_gradients([](const V& v) { return log1pexp(v[0]); }, {x});
  check_gradients([](const V& v) { return log1pexp(log1pexp(v[0]) - 1.f); }, {x});  // chained twice

  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor ours = log1pexp(x), builtin = ops::softplus(x);
  check_same(ours, builtin);
  check_same(tape.gradient(ops::sum(ours * x), x), tape.gradient(ops::sum(builtin * x), x));
}

TEST_CASE("custom_gradient: multiply as a closure gives the built-in multiply's gradients") {
  Tensor a = random_tensor({3, 4}, -1, 1, 2), b = random_tensor({4}, 0.5, 1.5, 3);
  check_gradients([](const V& v) { return closure_multiply(v[0], v[1]); }, {a, b});

  GradientTape tape(/*persistent=*/true);
  tape.watch(a);
  tape.watch(b);
  const V ours = tape.gradient(ops::sum(ops::square(closure_multiply(a, b))), {a, b});
  const V builtin = tape.gradient(ops::sum(ops::square(ops::multiply(a, b))), {a, b});
  check_same(ours[0], builtin[0]);
  check_same(ours[1], builtin[1]);
}

TEST_CASE("custom_gradient: the gradient function alone defines the gradient") {
  Tensor x = Tensor::from_vector<float>({-2, 0.5f, 3}, {3});
  auto clip_gradient = [](const Tensor& x) {  // identity forward, returning its input as is
    return ops::custom_gradient(
        "clip_gradient", x, [](const Tensor& x) { return x; },
        [](const Tensor&, const Tensor&, const Tensor& upstream) { return ops::clip(upstream, -1.f, 1.f); });
  };
  auto doubled = [](const Tensor& x) {  // ops inside forward are not recorded: only 2 * upstream flows back
    return ops::custom_gradient(
        "doubled", x, [](const Tensor& x) { return ops::exp(x); },
        [](const Tensor&, const Tensor&, const Tensor& upstream) { return upstream * 2.f; });
  };
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = clip_gradient(x);
  CHECK(y.id() != x.id());
  CHECK(y.to_vector<float>() == x.to_vector<float>());
  Tensor scale = Tensor::from_vector<float>({5, -0.25f, -3}, {3});
  CHECK(tape.gradient(ops::sum(y * scale), x).to_vector<float>() == std::vector<float>{1, -0.25f, -1});
  CHECK(tape.gradient(ops::sum(doubled(x) * scale), x).to_vector<float>() == std::vector<float>{10, -0.5f, -6});
}

TEST_CASE("custom_gradient: trainable variables, unwatched and integer inputs") {
  auto w = std::make_shared<Variable>("w", Tensor::from_vector<float>({1, 2, 3}, {3}));
  Tensor ids = Tensor::from_vector<std::int64_t>({2, 0}, {2});
  auto gather_scaled = [](const Tensor& w, const Tensor& ids) {  // w[ids] * 10; no gradient for ids
    return ops::custom_gradient(
        "gather_scaled", {w, ids}, [](const V& in) { return ops::take_rows(in[0], in[1]) * 10.f; },
        [](const V& in, const Tensor&, const Tensor& upstream) {
          std::vector<float> g(static_cast<std::size_t>(in[0].size()), 0.f);
          const auto u = upstream.to_vector<float>();
          const auto idx = in[1].to_vector<std::int64_t>();
          for (std::size_t i = 0; i < idx.size(); ++i) g[static_cast<std::size_t>(idx[i])] += 10.f * u[i];
          return V{Tensor::from_vector<float>(g, in[0].shape()), Tensor()};
        });
  };
  GradientTape tape;
  Tensor y = gather_scaled(w->value(), ids);
  CHECK(y.to_vector<float>() == std::vector<float>{30, 10});
  const V grads = tape.gradient(ops::sum(y), std::vector<std::shared_ptr<Variable>>{w});
  CHECK(grads[0].to_vector<float>() == std::vector<float>{10, 0, 10});
}

TEST_CASE("custom_gradient: without a tape only the forward pass runs") {
  bool gradient_called = false;
  Tensor x = Tensor::from_vector<float>({1, 2}, {2});
  Tensor y = ops::custom_gradient(
      "square", x, [](const Tensor& x) { return x * x; },
      [&](const Tensor& x, const Tensor&, const Tensor& upstream) {
        gradient_called = true;
        return upstream * x * 2.f;
      });
  CHECK(y.to_vector<float>() == std::vector<float>{1, 4});
  Tensor listed = ops::custom_gradient(  // the list form with one input
      "square", {x}, [](const V& in) { return in[0] * in[0]; },
      [&](const V& in, const Tensor&, const Tensor& upstream) {
        gradient_called = true;
        return V{upstream * in[0] * 2.f};
      });
  CHECK(listed.to_vector<float>() == std::vector<float>{1, 4});
  CHECK_FALSE(gradient_called);
}

TEST_CASE("custom_gradient: bad gradient functions throw errors naming the op and the shapes") {
  Tensor a = random_tensor({3, 2}), b = random_tensor({2});
  auto op = [&](V (*grad)(const V&, const Tensor&)) {
    return ops::custom_gradient(
        "my_op", {a, b}, [](const V& in) { return in[0] + in[1]; },
        [grad](const V& in, const Tensor&, const Tensor& upstream) { return grad(in, upstream); });
  };
  auto gradient_of = [&](V (*grad)(const V&, const Tensor&)) {
    GradientTape tape;
    tape.watch(a);
    tape.watch(b);
    return tape.gradient(ops::sum(op(grad)), {a, b});
  };
  CHECK_THROWS_AS(gradient_of([](const V&, const Tensor& u) { return V{u}; }), ValueError);
  CHECK_THROWS_WITH(gradient_of([](const V&, const Tensor& u) { return V{u}; }),
                    Contains("'my_op'") && Contains("returned 1 gradient(s) for 2 input(s)"));
  CHECK_THROWS_WITH(gradient_of([](const V&, const Tensor& u) { return V{u, u}; }),  // b's gradient not reduced
                    Contains("'my_op'") && Contains("input 1 has shape (3, 2)") && Contains("shape (2,)"));
  CHECK_THROWS_WITH(gradient_of([](const V&, const Tensor& u) {
                      return V{u, ops::cast(ops::sum(u, {0}), DType::int64)};
                    }),
                    Contains("'my_op'") && Contains("float32"));
  CHECK(gradient_of([](const V&, const Tensor& u) { return V{u, Tensor()}; })[1].defined() == false);

  CHECK_THROWS_WITH(ops::custom_gradient("empty", a, [](const Tensor&) { return Tensor(); },
                                         [](const Tensor&, const Tensor&, const Tensor& u) { return u; }),
                    Contains("'empty'") && Contains("undefined"));
}
