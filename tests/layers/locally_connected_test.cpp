// LocallyConnected1D / LocallyConnected2D (and the extract_patches op under them): PyTorch's values
// (tests/golden/make_attention_golden.py), finite differences, Keras's weight layout, configs, errors,
// training and an HDF5 round trip in Sequential.
#include <catch2/catch.hpp>

#include <filesystem>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/ops/patches.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;

TEST_CASE("LocallyConnected1D/2D match PyTorch: outputs, input and weight gradients", "[locally_connected]") {
  const json golden = keras::testing::load_golden("attention.json");
  int index = 0;
  for (const auto& c : golden["locally_connected"]) {
    SECTION("case " + std::to_string(index++) + " " + c["layer"]["class_name"].get<std::string>()) {
      auto layer = Layer::deserialize(c["layer"]);
      const Tensor x = golden_tensor(c["inputs"][0]);
      (*layer)(x);
      std::vector<Tensor> weights;
      for (const auto& w : c["weights"]) weights.push_back(golden_tensor(w));
      REQUIRE(layer->weights().size() == weights.size());
      layer->set_weights(weights);
      GradientTape tape;
      tape.watch(x);
      const Tensor y = (*layer)(x);
      check_close(y, c["y"]);
      std::vector<Tensor> sources{x};
      for (const auto& w : layer->weights()) sources.push_back(w->value());
      const auto grads = tape.gradient(ops::sum(ops::multiply(y, golden_tensor(c["w"]))), sources);
      check_close(grads[0], c["input_grads"][0]);
      for (std::size_t i = 0; i < weights.size(); ++i) check_close(grads[1 + i], c["weight_grads"][i]);
      Shape in = x.shape(), want = y.shape();
      in[0] = want[0] = -1;
      CHECK(layer->compute_output_shape(in) == want);

      json config = layer->get_config();
      auto again = Layer::deserialize(serialize_object(layer->class_name(), config));
      config.erase("name");
      json config2 = again->get_config();
      config2.erase("name");
      CHECK(config == config2);
      check_gradients([&](const std::vector<Tensor>& in) { return (*layer)(in[0]); }, {x}, 1e-3f, 2e-2f);
    }
  }
}

TEST_CASE("extract_patches reads every window in Keras's order and adds gradients back", "[locally_connected]") {
  const Tensor x = Tensor::from_vector<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {1, 3, 4, 1});
  const Tensor p = ops::extract_patches(x, {2, 2}, {1, 2});
  REQUIRE(p.shape() == Shape{1, 4, 4});
  CHECK(p.to_vector<float>() == std::vector<float>{0, 1, 4, 5, 2, 3, 6, 7, 4, 5, 8, 9, 6, 7, 10, 11});
  check_gradients([](const std::vector<Tensor>& in) { return ops::extract_patches(in[0], {2, 3}, {2, 1}); },
                  {random_tensor({2, 5, 5, 2}, -1, 1, 3)}, 1e-2f, 1e-2f);
  check_gradients([](const std::vector<Tensor>& in) { return ops::extract_patches(in[0], {3}, {2}); },
                  {random_tensor({2, 7, 3}, -1, 1, 4)}, 1e-2f, 1e-2f);
  CHECK_THROWS_WITH(ops::extract_patches(x, {4, 1}, {1, 1}), Catch::Contains("does not fit"));
}

TEST_CASE("LocallyConnected layers build Keras's implementation-1 weights and reject what Keras rejects",
          "[locally_connected]") {
  backend::clear_session();
  layers::LocallyConnected2D lc(5, {3, 2}, {.strides = {2, 1}});
  lc(Tensor::ones({1, 7, 6, 3}));
  CHECK(lc.name() == "locally_connected2d");
  CHECK(lc.kernel()->shape() == Shape{3 * 5, 3 * 2 * 3, 5});
  CHECK(lc.bias()->shape() == Shape{3, 5, 5});
  layers::LocallyConnected1D lc1(4, 3);
  lc1(Tensor::ones({2, 10, 2}));
  CHECK(lc1.kernel()->shape() == Shape{8, 6, 4});
  CHECK(lc1.bias()->shape() == Shape{8, 4});
  CHECK(lc1.get_config()["implementation"] == 1);

  CHECK_THROWS_WITH(layers::LocallyConnected1D(2, 3, {.padding = "same"}), Catch::Contains("only \"valid\""));
  CHECK_THROWS_WITH(layers::LocallyConnected2D(2, {2, 2}, {.implementation = 2}), Catch::Contains("implementation"));
  CHECK_THROWS_WITH(lc1(Tensor::ones({2, 11, 2})), Catch::Contains("incompatible"));
  layers::LocallyConnected1D big(2, 5);
  CHECK_THROWS_WITH(big(Tensor::ones({1, 3, 2})), Catch::Contains("larger than the input"));
}

TEST_CASE("LocallyConnected layers train in Sequential with regularizers and survive an HDF5 round trip",
          "[locally_connected]") {
  backend::clear_session();
  Sequential model({layers::Input({6, 6, 2}),
                    layers::LocallyConnected2D(3, {3, 3}, {.activation = "relu", .kernel_regularizer = "l2"}),
                    layers::Reshape({16, 3}), layers::LocallyConnected1D(2, 4, {.strides = 2}), layers::Flatten(),
                    layers::Dense(1)});
  const Tensor xs = random_tensor({32, 6, 6, 2}, -1, 1, 41);
  const Tensor ys = ops::mean(xs, {1, 2, 3}, false).reshape({32, 1});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  auto history = model.fit(xs, ys, {.batch_size = 8, .epochs = 4, .verbose = 0});
  CHECK(model.losses().size() == 1);  // the l2 penalty of the kernel
  CHECK(history.history["loss"].back() < history.history["loss"].front());

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_locally_connected.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->predict(xs).to_vector<float>() == model.predict(xs).to_vector<float>());
  std::filesystem::remove(path);
}
