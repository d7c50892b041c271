// Reshaping layers beyond the golden values: argument forms, Keras's configs and messages, and a
// Sequential model built from them that trains, saves to HDF5 and loads back.
#include <filesystem>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

TEST_CASE("reshaping layers write Keras's configs and check their inputs", "[reshaping]") {
  CHECK(layers::Cropping1D().get_config()["cropping"] == json::parse("[1, 1]"));
  CHECK(layers::Cropping2D().get_config()["cropping"] == json::parse("[[0, 0], [0, 0]]"));
  CHECK(layers::Cropping3D().get_config()["cropping"] == json::parse("[[1, 1], [1, 1], [1, 1]]"));
  CHECK(layers::ZeroPadding1D().get_config()["padding"] == json::parse("[1, 1]"));
  CHECK(layers::ZeroPadding2D().get_config()["padding"] == json::parse("[[1, 1], [1, 1]]"));
  CHECK(layers::ZeroPadding2D().get_config()["data_format"] == "channels_last");
  CHECK(layers::UpSampling1D().get_config()["size"] == 2);
  CHECK(layers::UpSampling2D().get_config()["size"] == json::parse("[2, 2]"));
  CHECK(layers::UpSampling2D().get_config()["interpolation"] == "nearest");
  CHECK(layers::UpSampling3D().get_config()["size"] == json::parse("[2, 2, 2]"));
  CHECK(layers::RepeatVector(3).name().rfind("repeat_vector", 0) == 0);

  // Keras's short forms: an int for every side, one int per axis.
  auto pad = Layer::deserialize(json::parse(R"({"class_name": "ZeroPadding2D", "config": {"padding": 2}})"));
  CHECK((*pad)(Tensor::ones({1, 2, 3, 1})).shape() == Shape{1, 6, 7, 1});
  auto crop = Layer::deserialize(json::parse(R"({"class_name": "Cropping2D", "config": {"cropping": [1, 2]}})"));
  CHECK((*crop)(Tensor::ones({1, 5, 6, 1})).shape() == Shape{1, 3, 2, 1});
  CHECK_THROWS_WITH(Layer::deserialize(json::parse(
                        R"({"class_name": "UpSampling2D", "config": {"data_format": "channels_middle"}})")),
                    Catch::Contains("channels_last"));

  CHECK_THROWS_WITH(layers::Cropping1D({3, 3})(Tensor::ones({1, 5, 2})), Catch::Contains("must be smaller than the input shape"));
  CHECK_THROWS_WITH(layers::ZeroPadding2D()(Tensor::ones({2, 3})), Catch::Contains("expected ndim=4"));
  CHECK_THROWS_WITH(layers::Permute({1, 3}), Catch::Contains("must be consecutive and start from 1"));
  CHECK_THROWS_WITH(layers::RepeatVector(2)(Tensor::ones({2, 3, 4})), Catch::Contains("expected ndim=2"));
  CHECK_THROWS_WITH(layers::UpSampling2D({2, 2}, {.interpolation = "cubic"}), Catch::Contains("\"nearest\" or \"bilinear\""));
}

TEST_CASE("a Sequential model of reshaping layers trains, saves and loads", "[reshaping]") {
  utils::set_random_seed(5);
  Sequential model({layers::Input({6, 6, 2}), layers::ZeroPadding2D({{1, 0}, {0, 1}}), layers::Cropping2D({{0, 1}, {1, 0}}),
                    layers::UpSampling2D({2, 2}, {.interpolation = "bilinear"}), layers::Conv2D(3, {3, 3}),
                    layers::Permute({3, 1, 2}), layers::Reshape({3, -1}), layers::UpSampling1D(2),
                    layers::Cropping1D({1, 1}), layers::ZeroPadding1D(1), layers::Flatten(), layers::Dense(4),
                    layers::RepeatVector(2), layers::Flatten(), layers::Dense(1)});
  CHECK(model.output_shape() == Shape{-1, 1});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  const Tensor x = random_tensor({8, 6, 6, 2}, -1, 1, 3), y = random_tensor({8, 1}, -1, 1, 4);
  const double first = model.train_on_batch(x, y).at("loss");
  for (int i = 0; i < 15; ++i) model.train_on_batch(x, y);
  CHECK(model.test_on_batch(x, y).at("loss") < first);

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_reshaping_model.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const auto want = model.predict(x).to_vector<float>(), got = loaded->predict(x).to_vector<float>();
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-6));
  std::filesystem::remove(path);
}
