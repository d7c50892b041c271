// Attention's core in one op (ops::fused_attention, keras/kernels/attention.hpp) against the same formula as
// separate ops (batch_matmul, softmax, batch_matmul): outputs and gradients, first and second order, the
// shapes the kernels serve and the ones they leave to the caller, and a NaN that must not vanish.
#include <cmath>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "keras/kernels/attention.hpp"
#include "keras/ops/fused_attention.hpp"

using namespace keras;
using keras::testing::max_relative_error;
using keras::testing::random_tensor;

namespace {

Tensor by_ops(const Tensor& q, const Tensor& k, const Tensor& v) {
  return ops::batch_matmul(ops::softmax(ops::batch_matmul(q, k, false, true), -1), v);
}

// sum(f(q, k, v) * w) and its gradients for q, k and v.
std::vector<Tensor> value_and_gradients(Tensor (*f)(const Tensor&, const Tensor&, const Tensor&),
                                        const std::vector<Tensor>& in, const Tensor& w) {
  GradientTape tape;
  for (const auto& t : in) tape.watch(t);
  std::vector<Tensor> out{f(in[0], in[1], in[2])};
  for (const auto& g : tape.gradient(ops::sum(ops::multiply(out[0], w)), in)) out.push_back(g);
  return out;
}

bool served(std::int64_t n, std::int64_t t, std::int64_t s, std::int64_t d, std::int64_t dv) {
  return kernels::attention_fits({.n = n, .t = t, .s = s, .d = d, .dv = dv});
}

}  // namespace

TEST_CASE("fused attention gives the ops' outputs and gradients, tails and full tiles alike", "[attention]") {
  struct Shape5 { std::int64_t n, t, s, d, dv; };
  for (const Shape5 c : {Shape5{3, 7, 13, 5, 3}, Shape5{2, 33, 17, 40, 20}, Shape5{4, 128, 128, 32, 32},
                         Shape5{2, 1, 1, 1, 1}, Shape5{2, 50, 300, 64, 48}}) {
    INFO("n " << c.n << " t " << c.t << " s " << c.s << " d " << c.d << " dv " << c.dv);
    if (!served(c.n, c.t, c.s, c.d, c.dv)) {
      WARN("not served here: below AVX2, KERAS_OWN_KERNELS=0, or fewer heads than threads");
      CHECK_FALSE(ops::fused_attention(random_tensor({c.n, c.t, c.d}), random_tensor({c.n, c.s, c.d}),
                                       random_tensor({c.n, c.s, c.dv})).defined());
      continue;
    }
    // Scores of a few units either way, as a scaled query gives.
    const std::vector<Tensor> in{random_tensor({c.n, c.t, c.d}, -2.f, 2.f, 1),
                                 random_tensor({c.n, c.s, c.d}, -2.f, 2.f, 2),
                                 random_tensor({c.n, c.s, c.dv}, -1.f, 1.f, 3)};
    const Tensor w = random_tensor({c.n, c.t, c.dv}, 0.5f, 1.5f, 4);
    const auto fused = value_and_gradients(ops::fused_attention, in, w);
    const auto plain = value_and_gradients(by_ops, in, w);
    REQUIRE(fused[0].shape() == plain[0].shape());
    for (std::size_t i = 0; i < fused.size(); ++i) {
      INFO("0: output, 1-3: gradients of q, k, v; here " << i);
      REQUIRE(fused[i].shape() == plain[i].shape());
      CHECK(max_relative_error(fused[i], plain[i]) < 1e-5);
    }
  }
}

TEST_CASE("fused attention over Keras's [batch, t, heads, d] equals it over the transposed stacks", "[attention]") {
  // batch 2, t 9, s 20, heads 3, d 6, dv 5: heads interleaved in each position's row, tails everywhere.
  if (!served(6, 9, 20, 6, 5)) return;
  const std::vector<Tensor> in{random_tensor({2, 9, 3, 6}, -2.f, 2.f, 11), random_tensor({2, 20, 3, 6}, -2.f, 2.f, 12),
                               random_tensor({2, 20, 3, 5}, -1.f, 1.f, 13)};
  const Tensor w = random_tensor({2, 9, 3, 5}, 0.5f, 1.5f, 14);
  auto stacked = [](const Tensor& q, const Tensor& k, const Tensor& v) {
    auto stacks = [](const Tensor& x) {
      return ops::reshape(ops::transpose(x, {0, 2, 1, 3}), {x.dim(0) * x.dim(2), x.dim(1), x.dim(3)});
    };
    const Tensor o = by_ops(stacks(q), stacks(k), stacks(v));
    return ops::transpose(ops::reshape(o, {q.dim(0), q.dim(2), q.dim(1), v.dim(3)}), {0, 2, 1, 3});
  };
  const auto fused = value_and_gradients(ops::fused_attention, in, w);
  const auto plain = value_and_gradients(+stacked, in, w);
  for (std::size_t i = 0; i < fused.size(); ++i) {
    INFO("0: output, 1-3: gradients of q, k, v; here " << i);
    REQUIRE(fused[i].shape() == plain[i].shape());
    CHECK(max_relative_error(fused[i], plain[i]) < 1e-5);
  }
  // Heads that do not match between q and k are the caller's to refuse.
  CHECK_FALSE(ops::fused_attention(in[0], random_tensor({2, 20, 2, 6}), in[2]).defined());
}

TEST_CASE("fused attention differentiates twice, as recorded ops under an outer tape", "[attention]") {
  if (!served(2, 5, 6, 4, 3)) return;
  const Tensor q = random_tensor({2, 5, 4}, -1.f, 1.f, 5), k = random_tensor({2, 6, 4}, -1.f, 1.f, 6);
  const Tensor v = random_tensor({2, 6, 3}, -1.f, 1.f, 7);
  auto second = [&](Tensor (*f)(const Tensor&, const Tensor&, const Tensor&)) {
    GradientTape outer;
    outer.watch(q);
    Tensor dq;
    {
      GradientTape inner;
      inner.watch(q);
      dq = inner.gradient(ops::sum(ops::square(f(q, k, v))), q);
    }
    return outer.gradient(ops::sum(ops::square(dq)), q);
  };
  CHECK(max_relative_error(second(ops::fused_attention), second(by_ops)) < 1e-5);
  // The same through Keras's head layout: [1, 5, 2, 4] is q's two stacks side by side.
  const Tensor q4 = ops::transpose(ops::reshape(q, {1, 2, 5, 4}), {0, 2, 1, 3});
  const Tensor k4 = ops::transpose(ops::reshape(k, {1, 2, 6, 4}), {0, 2, 1, 3});
  const Tensor v4 = ops::transpose(ops::reshape(v, {1, 2, 6, 3}), {0, 2, 1, 3});
  GradientTape outer;
  outer.watch(q4);
  Tensor dq;
  {
    GradientTape inner;
    inner.watch(q4);
    dq = inner.gradient(ops::sum(ops::square(ops::fused_attention(q4, k4, v4))), q4);
  }
  const Tensor dq4 = outer.gradient(ops::sum(ops::square(dq)), q4);
  const Tensor dq2 = ops::reshape(ops::transpose(dq4, {0, 2, 1, 3}), {2, 5, 4});
  CHECK(max_relative_error(dq2, second(by_ops)) < 1e-5);
}

TEST_CASE("fused attention keeps a NaN in its head and leaves unserved shapes to the caller", "[attention]") {
  if (!served(2, 4, 4, 8, 8)) return;
  Tensor q = random_tensor({2, 4, 8}, -1.f, 1.f, 8);
  q.data<float>()[3] = std::nanf("");  // head 0, query row 0
  const Tensor o = ops::fused_attention(q, random_tensor({2, 4, 8}), random_tensor({2, 4, 8}));
  REQUIRE(o.defined());
  const float* y = o.data<float>();
  for (int j = 0; j < 8; ++j) CHECK(std::isnan(y[j]));             // the row whose scores hold the NaN
  for (int j = 8; j < 64; ++j) CHECK_FALSE(std::isnan(y[j]));      // the other rows and the other head
  // Past a head's 512 x 512 scores, mismatched stacks, float64: the caller runs the ops.
  // (Two heads, as many as CI's threads, so that only the named reason refuses.)
  const Tensor k2 = random_tensor({2, 4, 8}), v2 = random_tensor({2, 4, 8});
  REQUIRE(ops::fused_attention(random_tensor({2, 512, 8}), k2, v2).defined());
  CHECK_FALSE(ops::fused_attention(random_tensor({2, 513, 8}), k2, v2).defined());
  CHECK_FALSE(ops::fused_attention(random_tensor({3, 4, 8}), k2, v2).defined());
  CHECK_FALSE(ops::fused_attention(random_tensor({2, 4, 8}).astype(DType::float64), k2, v2).defined());
}
