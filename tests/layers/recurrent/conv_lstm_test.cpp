// ConvLSTM1D/2D/3D (one rank-generic core): NumPy's values (tests/golden/make_conv_lstm_golden.py: same/valid
// padding, strides, dilation, go_backwards, return_sequences, no bias, final states), finite differences,
// Keras's weights and config, return_state in a functional model, initial states as extra inputs.
#include <catch2/catch.hpp>

#include <filesystem>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/hdf5_format.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;

TEST_CASE("ConvLSTM1D, 2D and 3D match NumPy: outputs, final states, input gradients", "[conv_lstm]") {
  const json golden = keras::testing::load_golden("conv_lstm.json");
  int index = 0;
  for (const auto& c : golden["conv_lstm"]) {
    SECTION("case " + std::to_string(index++) + " " + c["layer"]["class_name"].get<std::string>()) {
      auto base = Layer::deserialize(c["layer"]);
      auto* layer = dynamic_cast<layers::ConvLSTM*>(base.get());
      REQUIRE(layer != nullptr);
      CHECK(base->class_name() == c["layer"]["class_name"]);
      const Tensor x = golden_tensor(c["inputs"][0]);
      CHECK(layer->rank() == x.ndim() - 3);
      std::vector<Tensor> weights;
      for (const auto& w : c["weights"]) weights.push_back(golden_tensor(w));
      layer->ensure_built(x.shape());
      REQUIRE(layer->weights().size() == weights.size());
      for (std::size_t i = 0; i < weights.size(); ++i) CHECK(layer->weights()[i]->shape() == weights[i].shape());
      layer->set_weights(weights);  // Keras's order: kernel, recurrent_kernel, bias
      const auto out = layer->call_with_state(x);
      REQUIRE(out.size() == 3);
      check_close(out[0], c["y"]);
      check_close(out[1], c["extra"][0]);
      check_close(out[2], c["extra"][1]);
      // return_state is set in the golden config: the general call gives {output, h, c} too.
      const auto all = base->call_all({x});
      REQUIRE(all.size() == 3);
      CHECK(all[2].to_vector<float>() == out[2].to_vector<float>());
      Shape in = x.shape(), want = out[0].shape(), state = out[1].shape();
      in[0] = want[0] = state[0] = -1;
      CHECK(base->compute_output_shape(std::vector<Shape>{in}) == std::vector<Shape>{want, state, state});

      json config = base->get_config();
      CHECK(config["strides"] == c["layer"]["config"]["strides"]);
      CHECK(config["kernel_size"] == c["layer"]["config"]["kernel_size"]);
      auto again = Layer::deserialize(serialize_object(base->class_name(), config));
      config.erase("name");
      json config2 = again->get_config();
      config2.erase("name");
      CHECK(config == config2);
      check_gradients([&](const std::vector<Tensor>& v) { return layer->call_with_state(v[0])[0]; }, {x}, 1e-3f, 2e-2f);
    }
  }
}

TEST_CASE("ConvLSTM1D and ConvLSTM3D build Keras's weights, names and shapes", "[conv_lstm]") {
  backend::clear_session();
  layers::ConvLSTM1D one(3, 2, {.strides = 2, .padding = "same", .return_sequences = true});
  const Tensor y1 = one(random_tensor({2, 4, 7, 5}, -1, 1, 3));
  CHECK(y1.shape() == Shape{2, 4, 4, 3});
  CHECK(saving::named_weights(one)[0].first == "conv_lstm1d/conv_lstm_cell/kernel:0");
  CHECK(one.kernel()->shape() == Shape{2, 5, 12});
  CHECK(one.recurrent_kernel()->shape() == Shape{2, 3, 12});
  CHECK(one.bias()->value().to_vector<float>()[3] == 1.f);  // unit_forget_bias
  const json c1 = one.get_config();
  CHECK(c1["kernel_size"] == json::array({2}));
  CHECK(c1["strides"] == json::array({2}));
  CHECK(c1["dilation_rate"] == json::array({1}));
  CHECK(c1["recurrent_activation"] == "hard_sigmoid");
  CHECK(c1["stateful"] == false);

  layers::ConvLSTM3D three(2, {3, 3, 3}, {.padding = "same"});
  const Tensor y3 = three(random_tensor({1, 2, 4, 5, 6, 1}, -1, 1, 4));
  CHECK(y3.shape() == Shape{1, 4, 5, 6, 2});
  CHECK(saving::named_weights(three)[1].first == "conv_lstm3d/conv_lstm_cell/recurrent_kernel:0");
  CHECK(three.kernel()->shape() == Shape{3, 3, 3, 1, 8});
  CHECK(three.get_config()["kernel_size"] == json::array({3, 3, 3}));

  // Keras configs may give one integer for every axis.
  json config = three.get_config();
  config["kernel_size"] = 2;
  config["strides"] = 1;
  auto from_ints = Layer::deserialize(serialize_object("ConvLSTM3D", config));
  CHECK(from_ints->get_config()["kernel_size"] == json::array({2, 2, 2}));

  CHECK_THROWS_WITH(layers::ConvLSTM1D(0, 3), Catch::Contains("filters"));
  CHECK_THROWS_WITH(layers::ConvLSTM3D(2, {3, 0, 3}), Catch::Contains("positive"));
  CHECK_THROWS_WITH(layers::ConvLSTM1D(2, 3, {.padding = "causal"}), Catch::Contains("padding"));
  CHECK_THROWS_WITH(one(Tensor::ones({2, 4, 7, 5, 1})), Catch::Contains("rank 4"));
  CHECK_THROWS_WITH(three(Tensor::ones({1, 2, 4, 5, 1})), Catch::Contains("rank 6"));
  config["kernel_size"] = json::array({2, 2});
  CHECK_THROWS_WITH(Layer::deserialize(serialize_object("ConvLSTM3D", config)), Catch::Contains("3 values"));
}

TEST_CASE("ConvLSTM1D in a functional model: return_state, initial states as inputs, HDF5 round trip",
          "[conv_lstm]") {
  backend::clear_session();
  auto x = Input({3, 6, 2});
  auto lstm = std::make_shared<layers::ConvLSTM1D>(4, 3, layers::ConvLSTM1DOptions{.padding = "same", .return_state = true});
  auto outs = lstm->call_all({x});
  REQUIRE(outs.size() == 3);
  CHECK(outs[1].shape() == Shape{-1, 6, 4});
  auto h0 = Input({6, 4}), c0 = Input({6, 4});
  auto again = lstm->call_all({x, h0, c0});  // the same weights, from given states
  Model model({x, h0, c0}, {outs[0], again[0], again[2]});
  const Tensor xs = random_tensor({2, 3, 6, 2}, -1, 1, 8);
  const Tensor hs = random_tensor({2, 6, 4}, -1, 1, 9), cs = random_tensor({2, 6, 4}, -1, 1, 10);
  const auto y = model.predict_outputs({xs, hs, cs});
  const auto direct = lstm->call_with_state(xs, {hs, cs});
  CHECK(y[1].to_vector<float>() == direct[0].to_vector<float>());
  CHECK(y[2].to_vector<float>() == direct[2].to_vector<float>());
  CHECK(y[0].to_vector<float>() == lstm->call_with_state(xs)[0].to_vector<float>());

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_conv_lstm1d.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  const auto y2 = loaded->predict_outputs({xs, hs, cs});
  for (std::size_t i = 0; i < y.size(); ++i) CHECK(y2[i].to_vector<float>() == y[i].to_vector<float>());
  std::filesystem::remove(path);
}
