// data_format="channels_first" for the convolution, pooling, reshaping and upsampling layers, loaded from
// Keras configs and compared with PyTorch (channels_first natively): tests/golden/make_channels_first_golden.py.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::golden_tensor;

TEST_CASE("channels_first layers match PyTorch and keep their data_format in the config", "[channels_first]") {
  const json golden = keras::testing::load_golden("channels_first.json");
  for (const auto& c : golden["cases"]) {
    SECTION(c["name"].get<std::string>()) {
      auto layer = Layer::deserialize(c["layer"]);
      const Tensor x = golden_tensor(c["input"]);
      const Tensor want = golden_tensor(c["output"]);
      layer->ensure_built(x.shape());
      std::vector<Tensor> weights;
      for (const auto& w : c["weights"]) weights.push_back(golden_tensor(w));
      if (!weights.empty()) layer->set_weights(weights);
      const Tensor got = layer->call(x, false);
      CHECK(layer->compute_output_shape(x.shape()) == want.shape());
      REQUIRE(got.shape() == want.shape());
      const auto g = got.to_vector<float>(), w = want.to_vector<float>();
      for (std::size_t i = 0; i < w.size(); ++i) {
        INFO("element " << i);
        CHECK(g[i] == Approx(w[i]).epsilon(1e-4).margin(1e-5));
      }
      CHECK(layer->get_config()["data_format"] == "channels_first");
      auto again = Layer::deserialize(json{{"class_name", layer->class_name()}, {"config", layer->get_config()}});
      CHECK(again->get_config() == layer->get_config());
    }
  }
}

TEST_CASE("an unknown data_format is a ValueError naming the layer", "[channels_first]") {
  CHECK_THROWS_WITH(Layer::deserialize(json::parse(
                        R"({"class_name": "Conv2D", "config": {"filters": 2, "kernel_size": 3, "data_format": "NCHW"}})")),
                    Catch::Contains("Conv2D") && Catch::Contains("data_format"));
  CHECK_THROWS_AS(Layer::deserialize(json::parse(
                      R"({"class_name": "MaxPooling2D", "config": {"data_format": "channels_middle"}})")),
                  ValueError);
}

TEST_CASE("a channels_first Conv2D → Flatten → Dense model runs in a Sequential", "[channels_first]") {
  auto conv = Layer::deserialize(json::parse(
      R"({"class_name": "Conv2D", "config": {"filters": 4, "kernel_size": 3, "data_format": "channels_first"}})"));
  auto flat = Layer::deserialize(json::parse(R"({"class_name": "Flatten", "config": {"data_format": "channels_first"}})"));
  Sequential model({layers::Input({3, 8, 8}), conv, flat, layers::Dense(2)});
  const Tensor y = model.predict(Tensor::ones({2, 3, 8, 8}));
  CHECK(y.shape() == Shape{2, 2});
  CHECK(model.layers()[0]->compute_output_shape({-1, 3, 8, 8}) == Shape{-1, 4, 6, 6});
}
