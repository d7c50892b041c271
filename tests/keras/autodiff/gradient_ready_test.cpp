// GradientReadyScope: each source's gradient is reported once, as soon as it is final (the last layer's
// before the first layer's), and equals what gradient() returns.
#include <catch2/catch.hpp>

#include "keras/autodiff/gradient_ready.hpp"
#include "keras/keras.hpp"

using namespace keras;

TEST_CASE("GradientReadyScope reports each gradient once, final, last layer first") {
  utils::set_random_seed(4);
  Sequential model({layers::Input({5}), layers::Dense(7, {.activation = "tanh"}), layers::Dense(7, {.activation = "relu"}),
                    layers::Dense(2)});
  const Tensor x = Tensor::full({3, 5}, 0.5);
  auto vars = model.trainable_weights();
  std::vector<Tensor> sources;
  for (const auto& v : vars) sources.push_back(v->value());
  std::vector<std::size_t> order;
  std::vector<Tensor> reported(vars.size());
  std::vector<Tensor> grads;
  {
    GradientTape tape;
    Tensor loss = ops::sum(ops::square(model(x)));
    autodiff::GradientReadyScope scope([&](std::size_t i, const Tensor& g) {
      order.push_back(i);
      reported[i] = g.clone();
    });
    grads = tape.gradient(loss, sources);
  }
  REQUIRE(order.size() == vars.size());
  for (std::size_t i = 0; i < vars.size(); ++i) {
    CHECK(std::count(order.begin(), order.end(), i) == 1);
    CHECK(reported[i].to_vector<float>() == grads[i].to_vector<float>());
  }
  // vars: kernel, bias of each Dense in turn; the last Dense's are reported before the first's.
  const auto position = [&](std::size_t var) { return std::find(order.begin(), order.end(), var) - order.begin(); };
  CHECK(position(4) < position(0));
  CHECK(position(5) < position(1));
}

TEST_CASE("without a GradientReadyScope, or for a source the target does not use, nothing is reported") {
  Tensor a = Tensor::full({2}, 1.0), unused = Tensor::full({2}, 3.0);
  int calls = 0;
  {
    GradientTape tape;
    tape.watch(a);
    tape.watch(unused);
    Tensor y = ops::sum(ops::multiply(a, a));
    autodiff::GradientReadyScope scope([&](std::size_t i, const Tensor&) {
      ++calls;
      CHECK(i == 0);
    });
    auto g = tape.gradient(y, std::vector{a, unused});
    CHECK_FALSE(g[1].defined());
  }
  CHECK(calls == 1);
  GradientTape tape;
  tape.watch(a);
  Tensor y = ops::sum(ops::multiply(a, a));
  CHECK(tape.gradient(y, a).to_vector<float>() == std::vector<float>{2.f, 2.f});
}
