// layers::Activation with a C++ callable (Keras's Activation(fn)): forward values computed here with
// std::exp, gradients through the callable's ops, and the config name Keras writes for a lambda.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {
Tensor swish_fn(const Tensor& x) { return ops::multiply(x, activations::sigmoid(x)); }
double swish(double v) { return v / (1.0 + std::exp(-v)); }
double swish_derivative(double v) {
  const double s = 1.0 / (1.0 + std::exp(-v));
  return s + v * s * (1 - s);
}
}  // namespace

TEST_CASE("Activation(callable) applies the callable and differentiates through its ops") {
  layers::Activation act([](const Tensor& x) { return swish_fn(x); });
  Tensor x = Tensor::from_vector(std::vector<float>{-2.f, -0.5f, 0.f, 1.f, 3.f}, {1, 5});
  GradientTape tape;
  tape.watch(x);
  const Tensor y = act(x);
  const Tensor g = tape.gradient(ops::sum(y), x);
  for (int i = 0; i < 5; ++i) {
    const double v = x.data<float>()[i];
    CHECK(y.data<float>()[i] == Approx(swish(v)).margin(1e-6));
    CHECK(g.data<float>()[i] == Approx(swish_derivative(v)).margin(1e-5));
  }
  CHECK(act.get_config()["activation"] == "<lambda>");
  CHECK_THROWS_WITH(layers::Activation(std::function<Tensor(const Tensor&)>()), Catch::Contains("empty"));
}

TEST_CASE("Activation: a registered callable saves and loads by name inside a model") {
  static const bool registered = activations::register_activation("test_swish_callable", swish_fn);
  REQUIRE(registered);
  backend::clear_session();
  Sequential model({layers::Input({5}), layers::Activation("test_swish_callable")});
  const Tensor x = Tensor::from_vector(std::vector<float>{-2.f, -0.5f, 0.f, 1.f, 3.f}, {1, 5});
  auto again = models::model_from_json(model.to_json());
  const Tensor y = again->predict(x, {});
  for (int i = 0; i < 5; ++i) CHECK(y.data<float>()[i] == Approx(swish(x.data<float>()[i])).margin(1e-6));
}
