#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

TEST_CASE("Flatten and Reshape change shapes and pass gradients") {
  layers::Flatten flatten;
  CHECK(flatten(Tensor::ones({2, 3, 4})).shape() == Shape{2, 12});
  CHECK(flatten.compute_output_shape({-1, 3, 4}) == Shape{-1, 12});
  layers::Reshape reshape({3, -1});
  CHECK(reshape(Tensor::ones({2, 12})).shape() == Shape{2, 3, 4});
  CHECK(reshape.compute_output_shape({-1, 12}) == Shape{-1, 3, 4});
  CHECK_THROWS_AS(layers::Reshape({5, -1}).compute_output_shape({-1, 12}), ValueError);
  keras::testing::check_gradients([&](const std::vector<Tensor>& v) { return reshape(flatten(v[0])); },
                                  {random_tensor({2, 3, 4})});
  auto r = Layer::deserialize(serialize_object("Reshape", reshape.get_config()));
  CHECK(r->get_config()["target_shape"] == json::array({3, -1}));
}

TEST_CASE("Activation layer applies every named activation with correct gradients") {
  for (const auto& name : activations::names()) {
    SECTION(name) {
      layers::Activation act(name);
      Tensor x = random_tensor({2, 4}, -2, 2);
      CHECK(act(x).shape() == x.shape());
      const float eps = (name == "relu" || name == "relu6" || name == "leaky_relu" || name == "hard_sigmoid") ? 1e-3f : 1e-2f;
      keras::testing::check_gradients([&](const std::vector<Tensor>& v) { return act(v[0]); }, {x}, eps);
    }
  }
  CHECK(activations::get("silu").name == "swish");
  CHECK_THROWS_AS(activations::get("nope"), ValueError);
}

TEST_CASE("activations match their definitions") {
  Tensor x = Tensor::from_vector<float>({-2, -0.5, 0, 0.5, 3, 8}, {1, 6});
  auto close = [](const Tensor& t, std::vector<float> want) {
    auto got = t.to_vector<float>();
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-5));
  };
  close(activations::relu6(x), {0, 0, 0, 0.5, 3, 6});
  close(activations::hard_sigmoid(x), {0.1f, 0.4f, 0.5f, 0.6f, 1, 1});
  close(activations::softsign(x), {-2.f / 3, -1.f / 3, 0, 1.f / 3, 0.75f, 8.f / 9});
  close(activations::leaky_relu(x), {-0.4f, -0.1f, 0, 0.5f, 3, 8});
  close(activations::selu(Tensor::from_vector<float>({-1, 1}, {1, 2})), {-1.1113307f, 1.0507010f});
}

TEST_CASE("Dropout drops only in training, scales the rest, and is seedable") {
  layers::Dropout drop(0.5, {.seed = 3});
  Tensor x = Tensor::ones({1000});
  CHECK(drop(x, false).to_vector<float>() == x.to_vector<float>());
  auto v = drop(x, true).to_vector<float>();
  int zeros = 0;
  for (float f : v) {
    CHECK((f == 0.f || f == Approx(2.f)));
    zeros += f == 0.f;
  }
  CHECK(zeros > 400);
  CHECK(zeros < 600);
  CHECK_THROWS_AS(layers::Dropout(1.0), ValueError);
  CHECK(Layer::deserialize(serialize_object("Dropout", drop.get_config()))->get_config()["rate"] == 0.5);
}

TEST_CASE("Input layers name themselves input_1, input_2 and carry the batch shape") {
  backend::clear_session();
  auto a = layers::Input({28, 28}).node()->layer;
  auto b = Input({3}).node()->layer;
  CHECK(a->name() == "input_1");
  CHECK(b->name() == "input_2");
  CHECK(*a->batch_input_shape() == Shape{-1, 28, 28});
  CHECK(a->get_config()["batch_input_shape"] == json::parse("[null, 28, 28]"));
  CHECK_THROWS_AS(layers::Input({0, 3}), ValueError);
}

TEST_CASE("snake_case names follow Keras") {
  CHECK(to_snake_case("Dense") == "dense");
  CHECK(to_snake_case("Conv2D") == "conv2d");
  CHECK(to_snake_case("BatchNormalization") == "batch_normalization");
  CHECK(to_snake_case("GRU") == "gru");
}
