// C++ callables as activations (Keras's Activation(fn) and every `activation=` argument): forward values
// computed here with std:: maths, gradients through the callable's ops, the callable path of the fused layers
// (Conv2D, LSTM) equal to the named one, the config names Keras writes, and saving: an unregistered callable
// is refused naming the layer, a registered function or a custom object saves and loads.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;

namespace {
Tensor swish_fn(const Tensor& x) { return ops::multiply(x, activations::sigmoid(x)); }
Tensor cube_fn(const Tensor& x) { return ops::multiply(ops::multiply(x, x), x); }
Tensor registered_cube(const Tensor& x) { return cube_fn(x); }
double swish(double v) { return v / (1.0 + std::exp(-v)); }
double swish_derivative(double v) {
  const double s = 1.0 / (1.0 + std::exp(-v));
  return s + v * s * (1 - s);
}
Tensor row(std::vector<float> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return Tensor::from_vector(std::move(v), {1, n});
}
}  // namespace

TEST_CASE("Activation(callable) applies the callable and differentiates through its ops") {
  layers::Activation act([](const Tensor& x) { return swish_fn(x); });
  Tensor x = row({-2.f, -0.5f, 0.f, 1.f, 3.f});
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
  // A built-in function stands for its name, as Keras serializes keras.activations.tanh as "tanh".
  CHECK(layers::Activation(activations::tanh).get_config()["activation"] == "tanh");
}

TEST_CASE("Activation: a registered callable saves and loads by name inside a model") {
  static const bool registered = activations::register_activation("test_swish_callable", swish_fn);
  REQUIRE(registered);
  backend::clear_session();
  Sequential model({layers::Input({5}), layers::Activation("test_swish_callable")});
  const Tensor x = row({-2.f, -0.5f, 0.f, 1.f, 3.f});
  auto again = models::model_from_json(model.to_json());
  const Tensor y = again->predict(x, {});
  for (int i = 0; i < 5; ++i) CHECK(y.data<float>()[i] == Approx(swish(x.data<float>()[i])).margin(1e-6));
}

TEST_CASE("Dense(activation = callable): forward and kernel gradient of a cube activation") {
  // kernel of ones, no bias: each unit is s = sum(x), y = s^3, d sum(y) / d kernel[i][j] = 3 s^2 x_i.
  layers::Dense dense(2, {.activation = [](const Tensor& x) { return cube_fn(x); },
                          .use_bias = false,
                          .kernel_initializer = "ones"});
  const Tensor x = row({0.5f, -1.f, 2.f});
  const double s = 0.5 - 1.0 + 2.0;
  GradientTape tape;
  const Tensor y = dense(x);
  const Tensor g = tape.gradient(ops::sum(y), std::vector<std::shared_ptr<Variable>>{dense.kernel()})[0];
  for (int j = 0; j < 2; ++j) CHECK(y.data<float>()[j] == Approx(s * s * s).margin(1e-5));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      CHECK(g.data<float>()[i * 2 + j] == Approx(3 * s * s * x.data<float>()[i]).margin(1e-5));
  CHECK(dense.get_config()["activation"] == "<lambda>");
}

TEST_CASE("Conv2D and LSTM with callables equal the same layers with the named activations") {
  backend::clear_session();
  const Tensor images = random::normal({2, 5, 5, 3}, 0.0, 1.0, DType::float32, 7);
  layers::Conv2D named(4, {3, 3}, {.activation = "relu"});
  layers::Conv2D callable(4, {3, 3}, {.activation = [](const Tensor& x) { return ops::maximum(x, Tensor::scalar(0.f)); }});
  const Tensor a = named(images);
  callable(images);  // builds
  callable.set_weights(named.get_weights());
  const Tensor b = callable(images);
  REQUIRE(a.shape() == b.shape());
  for (std::int64_t i = 0; i < a.size(); ++i) CHECK(b.data<float>()[i] == Approx(a.data<float>()[i]).margin(1e-6));

  // The named LSTM runs oneDNN's fused cell; callables take the generic cell.
  const Tensor seq = random::normal({2, 4, 3}, 0.0, 1.0, DType::float32, 8);
  layers::LSTM fused(5, {.return_sequences = true});
  layers::LSTM generic(5, {.activation = [](const Tensor& x) { return ops::tanh(x); },
                           .recurrent_activation = [](const Tensor& x) { return ops::sigmoid(x); },
                           .return_sequences = true});
  const Tensor c = fused(seq);
  generic(seq);  // builds
  generic.set_weights(fused.get_weights());
  const Tensor d = generic(seq);
  REQUIRE(c.shape() == d.shape());
  for (std::int64_t i = 0; i < c.size(); ++i) CHECK(d.data<float>()[i] == Approx(c.data<float>()[i]).margin(1e-5));
  CHECK(generic.get_config()["recurrent_activation"] == "<lambda>");
}

TEST_CASE("Saving a model with an unregistered callable activation names the layer and the fix") {
  backend::clear_session();
  keras_test::TempDir dir("activation_callable");
  auto in = layers::Input({3});
  auto h = layers::Dense(4, {.activation = [](const Tensor& x) { return cube_fn(x); }, .name = "cubed"})(in);
  Model model(in, layers::Dense(1)(h));
  CHECK_THROWS_AS(model.to_json(), ValueError);
  CHECK_THROWS_WITH(model.to_json(), Catch::Contains("Dense layer 'cubed'") && Catch::Contains("register_activation"));
  CHECK_THROWS_WITH(model.save(dir / "m.keras"), Catch::Contains("Dense layer 'cubed'") && Catch::Contains("register_activation"));
  CHECK_THROWS_WITH(model.save(dir / "m.h5"), Catch::Contains("Dense layer 'cubed'") && Catch::Contains("register_activation"));
  // A recurrent_activation inside a Sequential.
  Sequential seq({layers::Input({4, 2}),
                  layers::LSTM(3, {.recurrent_activation = [](const Tensor& x) { return ops::sigmoid(x); }, .name = "inner"})});
  CHECK_THROWS_WITH(seq.to_json(), Catch::Contains("'inner'") && Catch::Contains("recurrent_activation"));
  // Bidirectional makes its backward layer from the forward layer's config, as tf.keras 2.x does: an
  // unregistered callable cannot make that trip, and the message says how to register it.
  CHECK_THROWS_WITH(layers::Bidirectional(layers::LSTM(3, {.activation = [](const Tensor& x) { return ops::tanh(x); }})),
                    Catch::Contains("register_activation"));
  // A config naming "<lambda>" (tf.keras writes it for a lambda) cannot be loaded: the message says why.
  json config = layers::Dense(2).get_config();
  config["activation"] = "<lambda>";
  CHECK_THROWS_WITH(layers::Dense::from_config(config), Catch::Contains("register_activation"));
}

TEST_CASE("A registered function or a custom object as activation saves and loads") {
  static const bool registered = activations::register_activation("test_registered_cube", registered_cube);
  REQUIRE(registered);
  backend::clear_session();
  keras_test::TempDir dir("activation_registered");
  const Tensor x = Tensor::from_vector(std::vector<float>{0.3f, -0.2f, 0.1f, 0.5f, 0.4f, -0.6f}, {2, 3});

  // The function itself: its config writes the registered name.
  Sequential model({layers::Input({3}), layers::Dense(2, {.activation = registered_cube})});
  CHECK(model.layers()[0]->get_config()["activation"] == "test_registered_cube");
  const Tensor y = model.predict(x, {});
  model.save(dir / "registered.keras");
  const Tensor y2 = models::load_model(dir / "registered.keras")->predict(x, {});
  for (std::int64_t i = 0; i < y.size(); ++i) CHECK(y2.data<float>()[i] == Approx(y.data<float>()[i]).margin(1e-6));

  // A named Activation that is not registered: written under its name, loaded with custom_objects.
  Sequential named({layers::Input({3}), layers::Dense(2, {.activation = activations::Activation{.name = "cube_obj", .fn = cube_fn}})});
  const Tensor z = named.predict(x, {});
  named.save(dir / "custom.h5");
  CHECK_THROWS(models::load_model(dir / "custom.h5"));
  auto loaded = models::load_model(dir / "custom.h5", {.custom_objects = {.activations = {{"cube_obj", cube_fn}}}});
  const Tensor z2 = loaded->predict(x, {});
  for (std::int64_t i = 0; i < z.size(); ++i) CHECK(z2.data<float>()[i] == Approx(z.data<float>()[i]).margin(1e-6));
}
