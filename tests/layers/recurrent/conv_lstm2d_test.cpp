// ConvLSTM2D: PyTorch's values (tests/golden/make_attention_golden.py: same/valid padding, strides,
// dilation, go_backwards, return_sequences, final states), finite differences, Keras's weights and
// config, masks, initial states, training and an HDF5 round trip in Sequential.
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

TEST_CASE("ConvLSTM2D matches PyTorch: outputs, states, input and weight gradients", "[conv_lstm2d]") {
  const json golden = keras::testing::load_golden("attention.json");
  int index = 0;
  for (const auto& c : golden["conv_lstm2d"]) {
    SECTION("case " + std::to_string(index++)) {
      auto base = Layer::deserialize(c["layer"]);
      auto* layer = dynamic_cast<layers::ConvLSTM2D*>(base.get());
      REQUIRE(layer != nullptr);
      const Tensor x = golden_tensor(c["inputs"][0]);
      layer->ensure_built(x.shape());
      std::vector<Tensor> weights;
      for (const auto& w : c["weights"]) weights.push_back(golden_tensor(w));
      REQUIRE(layer->weights().size() == weights.size());
      layer->set_weights(weights);
      GradientTape tape;
      tape.watch(x);
      const auto out = layer->call_with_state(x);
      REQUIRE(out.size() == 3);
      check_close(out[0], c["y"]);
      check_close(out[1], c["extra"][0]);
      check_close(out[2], c["extra"][1]);
      std::vector<Tensor> sources{x};
      for (const auto& w : layer->weights()) sources.push_back(w->value());
      const auto grads = tape.gradient(ops::sum(ops::multiply(out[0], golden_tensor(c["w"]))), sources);
      check_close(grads[0], c["input_grads"][0]);
      for (std::size_t i = 0; i < weights.size(); ++i) check_close(grads[1 + i], c["weight_grads"][i]);
      Shape in = x.shape(), want = out[0].shape();
      in[0] = want[0] = -1;
      CHECK(layer->compute_output_shape(in) == want);

      json config = layer->get_config();
      auto again = Layer::deserialize(serialize_object("ConvLSTM2D", config));
      config.erase("name");
      json config2 = again->get_config();
      config2.erase("name");
      CHECK(config == config2);
      check_gradients([&](const std::vector<Tensor>& in) { return layer->call_with_state(in[0])[0]; }, {x}, 1e-3f, 2e-2f);
    }
  }
}

TEST_CASE("ConvLSTM2D builds Keras's weights and takes masks and initial states", "[conv_lstm2d]") {
  backend::clear_session();
  layers::ConvLSTM2D layer(3, {3, 3}, {.padding = "same", .return_sequences = true});
  const Tensor x = random_tensor({2, 4, 5, 5, 2}, -1, 1, 61);
  const Tensor y = layer(x);
  CHECK(y.shape() == Shape{2, 4, 5, 5, 3});
  REQUIRE(layer.weights().size() == 3);
  CHECK(saving::named_weights(layer)[1].first == "conv_lstm2d/conv_lstm_cell/recurrent_kernel:0");
  CHECK(layer.kernel()->shape() == Shape{3, 3, 2, 12});
  CHECK(layer.recurrent_kernel()->shape() == Shape{3, 3, 3, 12});
  const auto bias = layer.bias()->value().to_vector<float>();
  CHECK(bias[0] == 0.f);
  CHECK(bias[3] == 1.f);  // unit_forget_bias
  CHECK(bias[6] == 0.f);
  CHECK(layer.get_config()["recurrent_activation"] == "hard_sigmoid");

  // A masked step keeps the states: masking the last step gives the output of the step before.
  Tensor mask = Tensor::ones({2, 4});
  mask.data<float>()[3] = 0.f;
  const Tensor masked = layer.call_with_state(x, {}, mask)[0];
  const auto m = masked.to_vector<float>(), full = y.to_vector<float>();
  const std::int64_t step = 5 * 5 * 3;
  for (std::int64_t i = 0; i < step; ++i) CHECK(m[3 * step + i] == m[2 * step + i]);
  CHECK(m[3 * step] != full[3 * step]);

  // Starting from the final states of the first two steps continues the sequence.
  const auto first = layer.call_with_state(ops::slice(x, {0, 0, 0, 0, 0}, {2, 2, 5, 5, 2}));
  const auto rest = layer.call_with_state(ops::slice(x, {0, 2, 0, 0, 0}, {2, 2, 5, 5, 2}), {first[1], first[2]});
  const auto r = rest[0].to_vector<float>();
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t i = 0; i < 2 * step; ++i)
      CHECK(r[b * 2 * step + i] == Approx(full[b * 4 * step + 2 * step + i]).margin(1e-6));

  CHECK_THROWS_WITH(layers::ConvLSTM2D(0, {3, 3}), Catch::Contains("filters"));
  CHECK_THROWS_WITH(layers::ConvLSTM2D(2, {3, 3}, {.padding = "full"}), Catch::Contains("padding"));
  CHECK_THROWS_WITH(layer(Tensor::ones({2, 5, 5, 2})), Catch::Contains("rank 5"));
  CHECK_THROWS_WITH(layer.call_with_state(x, {first[1]}), Catch::Contains("initial_state"));
}

TEST_CASE("ConvLSTM2D trains in Sequential and survives an HDF5 round trip", "[conv_lstm2d]") {
  backend::clear_session();
  utils::set_random_seed(5);  // initial weights and dropout masks: unseeded, the loss rose in about 1 run of 100
  Sequential model({layers::Input({3, 6, 6, 1}),
                    layers::ConvLSTM2D(2, {3, 3}, {.dropout = 0.1f, .recurrent_dropout = 0.1f}),
                    layers::Flatten(), layers::Dense(1)});
  const Tensor xs = random_tensor({16, 3, 6, 6, 1}, -1, 1, 71);
  const Tensor ys = ops::mean(xs, {1, 2, 3, 4}, false).reshape({16, 1});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  auto history = model.fit(xs, ys, {.batch_size = 8, .epochs = 3, .verbose = 0});
  CHECK(history.history["loss"].back() < history.history["loss"].front());

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_conv_lstm2d.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->predict(xs).to_vector<float>() == model.predict(xs).to_vector<float>());
  std::filesystem::remove(path);
}
