// Gradients of gradients: nested GradientTapes against PyTorch's torch.autograd.grad(create_graph=True)
// (tests/golden/make_second_order_golden.py), Hessian-vector products, a WGAN-GP penalty, a third
// derivative, and the errors for ops whose backward cannot be differentiated.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::golden_tensors;
using keras::testing::load_golden;
using Catch::Contains;
using V = std::vector<Tensor>;
using kernels::Eltwise;

namespace {

// The twins of the generator's functions, from keras::ops.
Tensor elementwise(const V& in) {
  const Tensor &x = in[0], &y = in[1];
  return ops::sum(ops::exp(x) * ops::log(y) + ops::sqrt(y) * ops::square(x) - x / y +
                  ops::pow(y, 1.5f) * ops::tanh(x) + ops::sigmoid(x * y) - ops::maximum(x, 0.5f * y) +
                  ops::abs(x) * x);
}

Tensor trigonometric(const V& in) {
  const Tensor& x = in[0];
  return ops::sum(ops::sin(x) * ops::cos(2.f * x) + ops::arctan(x) * ops::erf(x) + ops::log1p(x * x) +
                  ops::sinh(x) * ops::cosh(0.5f * x) + ops::expm1(x) * ops::rsqrt(x + 2.f) + ops::arcsin(0.5f * x) +
                  ops::arcsinh(x) + ops::arctanh(0.5f * x) + ops::tan(0.5f * x) + ops::arccos(0.4f * x));
}

Tensor activations(const V& in) {
  const Tensor& x = in[0];
  namespace a = keras::activations;
  return ops::sum(ops::square(a::relu(x)) + a::elu(x) * x + a::gelu(x) + a::gelu(x, true) * x + a::swish(x) +
                  a::softplus(x) * x + a::leaky_relu(x, 0.2f) * x + a::relu6(x) * x + a::sigmoid(x) * x +
                  a::tanh(x) * x);
}

Tensor mlp(const V& in) {  // dense with fused tanh and relu, then a separate sigmoid
  const Tensor h = ops::dense(in[0], in[1], in[2], Eltwise::tanh);
  const Tensor o = ops::sigmoid(ops::dense(h, in[3], in[4], Eltwise::relu));
  return ops::mean(o * o) + ops::sum(ops::matmul(h, in[3])) * 0.1f;
}

Tensor softmax_losses(const V& in) {
  const Tensor logits = ops::matmul(in[0], in[1]);
  const Tensor labels = Tensor::from_vector<std::int64_t>({0, 2, 1, 2}, {4});
  const Tensor p = ops::softmax(logits);
  const Tensor ls = ops::log_softmax(2.f * logits);
  return ops::mean(ops::sparse_softmax_cross_entropy(labels, logits)) + ops::sum(p * p) +
         ops::sum(ls * ops::stop_gradient(p)) * 0.3f + ops::sum(ops::logsumexp(logits, {1})) * 0.2f;
}

Tensor shapes(const V& in) {
  const Tensor& x = in[0];  // [2, 3, 4]
  const Tensor r = ops::reshape(ops::transpose(x, {2, 0, 1}), {8, 3});
  const Tensor m = ops::mean(r, {0}) * ops::max(x, {0, 2});
  const Tensor c = ops::concatenate({ops::slice(x, {0, 1, 0}, {2, 2, 4}), ops::slice(x, {0, 0, 0}, {2, 2, 4}) * 2.f}, 1);
  const Tensor p = ops::pad(x, {0, 0, 1}, {0, 2, 0});
  const Tensor rep = ops::repeat(x, 2, 2);
  const Tensor v = ops::var(x, {1});
  return ops::sum(m * m) + ops::sum(ops::pow(c, 3.f)) + ops::sum(ops::square(ops::sum(p, {1}))) * 0.1f +
         ops::sum(rep * ops::sum(rep, {2}, true)) * 0.01f +
         ops::sum(v * ops::reshape(ops::slice(x, {0, 0, 0}, {2, 1, 4}), {2, 4}));
}

Tensor convolution(const V& in) {
  const Tensor y = ops::conv2d(in[0], in[1], in[2], {1, 1}, "same", {1, 1}, Eltwise::tanh);
  const Tensor t = ops::conv_transpose(y, in[3], Tensor(), {2, 2}, "valid");
  return ops::mean(y * y) + ops::sum(ops::sigmoid(t)) * 0.05f;
}

Tensor batch_matmul(const V& in) {
  return ops::sum(ops::tanh(ops::batch_matmul(in[0], in[1]))) +
         ops::sum(ops::square(ops::batch_matmul(in[0], in[0], true, false))) * 0.01f;
}

Tensor embedding(const V& in) {
  const Tensor rows = ops::take_rows(in[0], std::vector<std::int64_t>{2, 0, 2, 3});
  return ops::sum(ops::square(ops::tanh(ops::matmul(rows, in[1]))));
}

Tensor critic(const V& in) {
  const Tensor h = ops::tanh(ops::relu(ops::dense(in[0], in[1], in[2]), 0.2f));
  return ops::sum(ops::dense(h, in[3], in[4]));
}

Tensor third(const V& in) {
  const Tensor& x = in[0];
  return ops::sum(ops::sin(x) * ops::pow(x, 3.f) + ops::exp(0.5f * x) + ops::tanh(x) * ops::square(x));
}

Tensor call_twin(const std::string& name, const V& in) {
  static const std::map<std::string, Tensor (*)(const V&)> functions{
      {"elementwise", elementwise}, {"trigonometric", trigonometric}, {"activations", activations},
      {"mlp", mlp}, {"softmax_losses", softmax_losses}, {"shapes", shapes}, {"convolution", convolution},
      {"batch_matmul", batch_matmul}, {"embedding", embedding}, {"critic", critic}, {"third", third}};
  auto it = functions.find(name);
  if (it == functions.end()) FAIL("no C++ twin for " << name);
  return it->second(in);
}

// Second derivatives accumulate float32 rounding over a few more ops than first ones.
void check_close(const Tensor& got, const json& want) {
  REQUIRE(got.defined());
  REQUIRE(got.shape() == want["shape"].get<Shape>());
  const auto w = want["data"].get<std::vector<double>>();
  const auto g = got.to_vector<float>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    INFO("element " << i);
    CHECK(g[i] == Approx(w[i]).epsilon(2e-5).margin(2e-5));
  }
}

Tensor dot(const V& a, const V& b) {
  Tensor s = Tensor::scalar(0.f);
  for (std::size_t i = 0; i < a.size(); ++i) s = s + ops::sum(a[i] * b[i]);
  return s;
}

void run_hvp(const json& c) {
  const V inputs = golden_tensors(c["inputs"]), v = golden_tensors(c["v"]);
  GradientTape outer;
  for (const auto& t : inputs) outer.watch(t);
  V grads;
  Tensor f;
  {
    GradientTape inner;
    for (const auto& t : inputs) inner.watch(t);
    f = call_twin(c["function"].get<std::string>(), inputs);
    grads = inner.gradient(f, inputs);
  }
  CHECK(f.item() == Approx(c["value"].get<double>()).epsilon(1e-5));
  for (std::size_t i = 0; i < grads.size(); ++i) {
    INFO("first derivative, input " << i);
    check_close(grads[i], c["grad"][i]);
  }
  const V hv = outer.gradient(dot(grads, v), inputs);
  for (std::size_t i = 0; i < hv.size(); ++i) {
    INFO("Hessian-vector product, input " << i);
    check_close(hv[i], c["hv"][i]);
  }
}

void run_penalty(const json& c) {
  const V inputs = golden_tensors(c["inputs"]);
  const V params(inputs.begin() + 1, inputs.end());
  GradientTape outer;
  for (const auto& t : params) outer.watch(t);
  Tensor g;
  {
    GradientTape inner;
    inner.watch(inputs[0]);
    g = inner.gradient(call_twin(c["function"].get<std::string>(), inputs), inputs[0]);
  }
  const Tensor norm = ops::sqrt(ops::sum(ops::square(g), {1}));
  const Tensor p = ops::mean(ops::square(norm - 1.f));
  CHECK(p.item() == Approx(c["value"].get<double>()).epsilon(1e-5));
  const V dp = outer.gradient(p, params);
  for (std::size_t i = 0; i < dp.size(); ++i) {
    INFO("penalty gradient, parameter " << i);
    if (c["grad"][i].is_null()) {
      CHECK_FALSE(dp[i].defined());  // PyTorch's None: the penalty does not depend on it
      continue;
    }
    check_close(dp[i], c["grad"][i]);
  }
}

void run_third(const json& c) {
  const Tensor x = golden_tensor(c["inputs"][0]), v = golden_tensor(c["v"][0]);
  GradientTape t3;
  t3.watch(x);
  Tensor g2;
  {
    GradientTape t2;
    t2.watch(x);
    Tensor g1;
    {
      GradientTape t1;
      t1.watch(x);
      g1 = t1.gradient(call_twin(c["function"].get<std::string>(), {x}), x);
    }
    g2 = t2.gradient(ops::sum(g1 * v), x);
  }
  check_close(t3.gradient(ops::sum(g2 * v), x), c["grad"][0]);
}

}  // namespace

TEST_CASE("Second derivatives match PyTorch's create_graph gradients", "[autodiff][second_order]") {
  const json golden = load_golden("second_order.json");
  for (const auto& c : golden["cases"]) {
    const std::string name = c["function"], protocol = c["protocol"];
    SECTION(name + " (" + protocol + ")") {
      if (protocol == "hvp") run_hvp(c);
      else if (protocol == "penalty") run_penalty(c);
      else if (protocol == "third") run_third(c);
      else FAIL("unknown protocol " << protocol);
    }
  }
}

TEST_CASE("A Hessian-vector product matches finite differences of the gradient", "[autodiff][second_order]") {
  // f(x) = sum(tanh(x W)^2): H v ≈ (g(x + h v) - g(x - h v)) / 2h.
  const Tensor w = keras::testing::random_tensor({3, 2}, -1, 1, 5), x = keras::testing::random_tensor({4, 3}, -1, 1, 6);
  const Tensor v = keras::testing::random_tensor({4, 3}, -1, 1, 7);
  auto f = [&](const Tensor& x) { return ops::sum(ops::square(ops::dense(x, w, Tensor(), Eltwise::tanh))); };
  auto gradient = [&](const Tensor& at) {
    GradientTape tape;
    tape.watch(at);
    return tape.gradient(f(at), at);
  };
  GradientTape outer;
  outer.watch(x);
  Tensor g;
  {
    GradientTape inner;
    inner.watch(x);
    g = inner.gradient(f(x), x);
  }
  const Tensor hv = outer.gradient(ops::sum(g * v), x);
  const float h = 1e-2f;
  const Tensor fd = (gradient(x + h * v) - gradient(x - h * v)) / (2.f * h);
  for (std::int64_t i = 0; i < hv.size(); ++i) CHECK(hv.data<float>()[i] == Approx(fd.data<float>()[i]).margin(2e-3));
}

TEST_CASE("An outer tape sees the inner gradient of a Dense layer's weights (a gradient penalty)",
          "[autodiff][second_order]") {
  // d/dW of |d y / d x|^2 for y = sum(x W): the inner gradient is W's row sums, the penalty sum_rows(...)^2.
  layers::Dense dense(1, {.use_bias = false, .kernel_initializer = "ones"});
  const Tensor x = keras::testing::random_tensor({2, 3}, -1, 1, 3);
  dense(x);  // builds the kernel
  GradientTape outer;  // watches the trainable kernel on its own
  Tensor g;
  {
    GradientTape inner;
    inner.watch(x);
    g = inner.gradient(ops::sum(dense(x)), x);  // every row is the kernel's column: ones
  }
  const Tensor penalty = ops::sum(ops::square(g));  // 2 rows * sum_j w_j^2
  const Tensor dw = outer.gradient(penalty, dense.trainable_weights())[0];
  REQUIRE(dw.defined());
  for (float v : dw.to_vector<float>()) CHECK(v == Approx(4.f));  // d/dw_j 2 w_j^2 = 4 w_j
}

TEST_CASE("A second derivative through an op without a differentiable backward throws", "[autodiff][second_order]") {
  const Tensor x = keras::testing::random_tensor({2, 4, 4, 3}, -1, 1, 8);
  GradientTape outer;
  outer.watch(x);
  Tensor g;
  {
    GradientTape inner;
    inner.watch(x);
    g = inner.gradient(ops::sum(ops::square(ops::max_pool2d(x, {2, 2}, {2, 2}))), x);
  }
  CHECK(g.defined());  // the first derivative is fine
  CHECK_THROWS_WITH(outer.gradient(ops::sum(g * g), x), Contains("second derivative through 'pooling'"));

  // A custom op whose gradient is not declared differentiable throws the same way; declared, it works.
  auto cube = [](const Tensor& x, bool differentiable) {
    return ops::custom_gradient(
        "cube", x, [](const Tensor& x) { return x * x * x; },
        [](const Tensor& x, const Tensor&, const Tensor& up) { return up * 3.f * x * x; },
        {.differentiable_gradient = differentiable});
  };
  for (bool differentiable : {false, true}) {
    const Tensor y = keras::testing::random_tensor({3}, -1, 1, 9);
    GradientTape outer2;
    outer2.watch(y);
    Tensor gy;
    {
      GradientTape inner;
      inner.watch(y);
      gy = inner.gradient(ops::sum(cube(y, differentiable)), y);  // 3 y^2
    }
    if (!differentiable) {
      CHECK_THROWS_WITH(outer2.gradient(ops::sum(gy), y), Contains("second derivative through 'cube'"));
      continue;
    }
    const Tensor h = outer2.gradient(ops::sum(gy), y);  // 6 y
    for (std::int64_t i = 0; i < 3; ++i) CHECK(h.data<float>()[i] == Approx(6.f * y.data<float>()[i]));
  }
}

TEST_CASE("A tape does not differentiate its own gradient: the error says to use an outer tape",
          "[autodiff][second_order]") {
  const Tensor x = keras::testing::random_tensor({3}, -1, 1, 10);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  const Tensor g = tape.gradient(ops::sum(ops::pow(x, 3.f)), x);
  CHECK_THROWS_WITH(tape.gradient(g, x), Contains("outer GradientTape"));
}

TEST_CASE("Without an outer tape the backward pass records nothing", "[autodiff][second_order]") {
  // A sibling tape that watches nothing the pass touches does not change the first derivative.
  const Tensor x = keras::testing::random_tensor({2, 3}, -1, 1, 11);
  const Tensor w = keras::testing::random_tensor({3, 4}, -1, 1, 12);
  Tensor alone, nested;
  {
    GradientTape tape;
    tape.watch(x);
    alone = tape.gradient(ops::sum(ops::tanh(ops::matmul(x, w))), x);
  }
  {
    GradientTape outer;
    outer.watch(x);
    GradientTape inner;
    inner.watch(x);
    nested = inner.gradient(ops::sum(ops::tanh(ops::matmul(x, w))), x);
  }
  for (std::int64_t i = 0; i < alone.size(); ++i)
    CHECK(nested.data<float>()[i] == Approx(alone.data<float>()[i]).epsilon(1e-6));
}

TEST_CASE("A non-persistent tape gives the gradient with respect to an intermediate tensor", "[autodiff]") {
  const Tensor x = keras::testing::random_tensor({3}, -1, 1, 13);
  GradientTape tape;
  tape.watch(x);
  const Tensor h = ops::exp(x);
  const V g = tape.gradient(ops::sum(ops::square(h)), {h, x});
  REQUIRE(g[0].defined());
  REQUIRE(g[1].defined());
  for (std::int64_t i = 0; i < 3; ++i) {
    CHECK(g[0].data<float>()[i] == Approx(2.f * h.data<float>()[i]));
    CHECK(g[1].data<float>()[i] == Approx(2.f * h.data<float>()[i] * h.data<float>()[i]));
  }
}

TEST_CASE("A Hessian is the jacobian of a gradient", "[autodiff][second_order]") {
  // f(x) = sum(sin(x) * x0 * x1 ...) is too long to write by hand: f(x) = sum(x^3) + x0 * x1 has
  // H = diag(6 x) + the off-diagonal 1 between x0 and x1.
  const Tensor x = Tensor::from_vector<float>({0.5f, -1.f, 2.f}, {3});
  GradientTape outer(/*persistent=*/true);
  outer.watch(x);
  Tensor g;
  {
    GradientTape inner;
    inner.watch(x);
    const Tensor x0 = ops::slice(x, {0}, {1}), x1 = ops::slice(x, {1}, {1});
    g = inner.gradient(ops::sum(ops::pow(x, 3.f)) + ops::sum(x0 * x1), x);
  }
  const Tensor h = autodiff::jacobian(outer, g, x);
  REQUIRE(h.shape() == Shape{3, 3});
  const std::vector<float> want{3.f, 1.f, 0.f, 1.f, -6.f, 0.f, 0.f, 0.f, 12.f};
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(h.to_vector<float>()[i] == Approx(want[i]));
}
