// Merging layers beyond the golden values: Keras's shape checks and messages, the functional shortcuts,
// several-input functional models that train, save to HDF5 and load back.
#include <filesystem>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

TEST_CASE("merge layers check their inputs as Keras does", "[merging]") {
  const Tensor a = random_tensor({2, 3}), b = random_tensor({2, 4}), c = random_tensor({3, 3});
  CHECK_THROWS_WITH(layers::Add()(std::vector<Tensor>{a, b}), Catch::Contains("Inputs have incompatible shapes"));
  CHECK_THROWS_WITH(layers::Add()(std::vector<Tensor>{a, c}), Catch::Contains("different batch sizes"));
  CHECK_THROWS_WITH(layers::Add()(a), Catch::Contains("should be called on a list of inputs"));
  CHECK_THROWS_WITH(layers::Subtract()(std::vector<Tensor>{a, a, a}), Catch::Contains("exactly 2 inputs"));
  CHECK_THROWS_WITH(layers::Concatenate()(std::vector<Tensor>{random_tensor({2, 3, 4}), random_tensor({2, 2, 4})}),
                    Catch::Contains("matching shapes except for the concatenation axis"));
  CHECK_THROWS_WITH(layers::Dot(1)(std::vector<Tensor>{a, b}), Catch::Contains("Incompatible input shapes: axis values 3"));
  CHECK_THROWS_WITH(layers::Dot(1)(std::vector<Tensor>{a, a, a}), Catch::Contains("list of 2 inputs"));
  // Broadcasting over size-1 axes and lower-rank inputs is allowed.
  CHECK(layers::Multiply()(std::vector<Tensor>{random_tensor({2, 1, 4}), random_tensor({2, 3, 4})}).shape() ==
        Shape{2, 3, 4});
}

TEST_CASE("functional shortcuts build the same layers", "[merging]") {
  const Tensor a = random_tensor({2, 3}, -1, 1, 1), b = random_tensor({2, 3}, -1, 1, 2);
  CHECK(layers::add({a, b}).to_vector<float>() == (a + b).to_vector<float>());
  CHECK(layers::subtract({a, b}).to_vector<float>() == (a - b).to_vector<float>());
  CHECK(layers::maximum({a, b}).to_vector<float>() == ops::maximum(a, b).to_vector<float>());
  CHECK(layers::concatenate({a, b}).shape() == Shape{2, 6});
  CHECK(layers::concatenate({a, b}, 0).shape() == Shape{4, 3});
  CHECK(layers::dot({a, b}, 1).shape() == Shape{2, 1});

  KerasTensor x = Input({3}), y = Input({3});
  CHECK(layers::add({x, y}).shape() == Shape{-1, 3});
  CHECK(layers::concatenate({x, y}).shape() == Shape{-1, 6});
  CHECK(layers::dot({x, y}, -1, true).shape() == Shape{-1, 1});
  CHECK(layers::average({x, y}).node()->layer->class_name() == "Average");
}

TEST_CASE("a two-input functional model with Concatenate, Add and Dot trains, saves and loads", "[merging]") {
  utils::set_random_seed(4);
  KerasTensor in1 = Input({4}), in2 = Input({4});
  KerasTensor h1 = layers::Dense(6, {.activation = "tanh"})(in1);
  KerasTensor h2 = layers::Dense(6, {.activation = "tanh"})(in2);
  KerasTensor merged = layers::concatenate({layers::add({h1, h2}), layers::multiply({h1, h2}),
                                            layers::dot({h1, h2}, 1, true)});
  Model model({in1, in2}, layers::Dense(1)(merged));
  CHECK(model.compute_output_shape(std::vector<Shape>{{-1, 4}, {-1, 4}})[0] == Shape{-1, 1});
  model.compile({.optimizer = "adam", .loss = "mse"});

  const Tensor x1 = random_tensor({6, 4}, -1, 1, 7), x2 = random_tensor({6, 4}, -1, 1, 8);
  const Tensor y = random_tensor({6, 1}, -1, 1, 9);
  // The graph runs both inputs; one gradient step lowers the loss on this batch.
  auto predict = [&](Model& m) { return m(std::vector<Tensor>{x1, x2}); };
  const double before = ops::mean(ops::square(predict(model) - y)).item();
  for (int i = 0; i < 20; ++i) {
    GradientTape tape;
    Tensor loss = ops::mean(ops::square(predict(model) - y));
    model.optimizer().apply_gradients(tape.gradient(loss, model.trainable_weights()), model.trainable_weights());
  }
  CHECK(ops::mean(ops::square(predict(model) - y)).item() < before);

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_merging_model.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const auto want = predict(model).to_vector<float>(), got = predict(*loaded).to_vector<float>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-6));
  std::filesystem::remove(path);
}
