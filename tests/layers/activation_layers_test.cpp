// Activation layers beyond the golden values: Keras's defaults, names and messages, PReLU's weight, and a
// model built from them that trains, saves to HDF5 and loads back.
#include <filesystem>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

TEST_CASE("activation layers have Keras's defaults, names and checks", "[activation]") {
  backend::clear_session();
  CHECK(layers::ReLU().name() == "re_lu");
  CHECK(layers::LeakyReLU().name() == "leaky_re_lu");
  CHECK(layers::PReLU().name() == "p_re_lu");
  CHECK(layers::ELU().name() == "elu");
  CHECK(layers::Softmax().name() == "softmax");
  CHECK(layers::LeakyReLU().get_config()["alpha"] == Approx(0.3));
  CHECK(layers::ELU().get_config()["alpha"] == Approx(1.0));
  CHECK(layers::Softmax().get_config()["axis"] == -1);
  const json relu = layers::ReLU().get_config();
  CHECK(relu["max_value"].is_null());
  CHECK(relu["negative_slope"] == 0.0);
  CHECK(relu["threshold"] == 0.0);
  CHECK_THROWS_WITH(layers::ReLU({.max_value = -1.0}), Catch::Contains("cannot be a negative value"));
  CHECK_THROWS_WITH(layers::Softmax(3)(Tensor::ones({2, 3})), Catch::Contains("axis 3 is out of bounds"));
  // Keras 3 writes LeakyReLU's slope as negative_slope.
  auto leaky = Layer::deserialize(json::parse(R"({"class_name": "LeakyReLU", "config": {"negative_slope": 0.1}})"));
  CHECK(leaky->get_config()["alpha"] == Approx(0.1));

  layers::PReLU prelu({.shared_axes = {1, 2}});
  prelu(Tensor::ones({2, 5, 5, 3}));
  REQUIRE(prelu.weights().size() == 1);
  CHECK(prelu.alpha()->name() == "alpha");
  CHECK(prelu.alpha()->shape() == Shape{1, 1, 3});
  CHECK(prelu.get_config()["shared_axes"] == json::parse("[1, 2]"));
  CHECK(prelu.get_config()["alpha_initializer"]["class_name"] == "Zeros");
  CHECK_THROWS_WITH(layers::PReLU({.shared_axes = {3}})(Tensor::ones({2, 4})), Catch::Contains("shared axis 3"));
}

TEST_CASE("a model with PReLU, ReLU, LeakyReLU, ELU and Softmax trains, saves and loads", "[activation]") {
  utils::set_random_seed(8);
  KerasTensor in = Input({5});
  KerasTensor h = layers::PReLU({.alpha_initializer = initializers::Constant(0.25)})(layers::Dense(8)(in));
  h = layers::ReLU({.max_value = 6.0, .negative_slope = 0.05})(h);
  h = layers::ELU(0.5)(layers::LeakyReLU(0.2)(layers::Dense(8)(h)));
  Model model(in, layers::Softmax()(layers::Dense(3)(h)));
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "sparse_categorical_crossentropy"});
  const Tensor x = random_tensor({12, 5}, -1, 1, 3);
  const Tensor y = Tensor::from_vector<std::int32_t>({0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
  const double first = model.train_on_batch(x, y).at("loss");
  for (int i = 0; i < 20; ++i) model.train_on_batch(x, y);
  CHECK(model.test_on_batch(x, y).at("loss") < first);

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_activation_model.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const auto want = model.predict(x).to_vector<float>(), got = loaded->predict(x).to_vector<float>();
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-6));
  std::filesystem::remove(path);
}
