// MultiHeadAttention: PyTorch einsum values (tests/golden/make_attention_golden.py) with attention
// masks, causal masks, other attention axes and output shapes; Keras's weight names and shapes;
// finite differences; configs; training and an HDF5 round trip in a functional model.
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
using keras::testing::golden_tensors;
using keras::testing::random_tensor;

TEST_CASE("MultiHeadAttention matches PyTorch: outputs, scores, input and weight gradients", "[attention]") {
  const json golden = keras::testing::load_golden("attention.json");
  int index = 0;
  for (const auto& c : golden["multi_head_attention"]) {
    SECTION("case " + std::to_string(index++) + " " + c["call"].dump().substr(0, 60)) {
      auto base = Layer::deserialize(c["layer"]);
      auto* layer = dynamic_cast<layers::MultiHeadAttention*>(base.get());
      REQUIRE(layer != nullptr);
      const std::vector<Tensor> inputs = golden_tensors(c["inputs"]);
      layers::MultiHeadAttentionCallArgs args{
          .attention_mask = golden_tensor(c["call"]["attention_mask"]),
          .return_attention_scores = c["call"]["return_attention_scores"].get<bool>(),
          .use_causal_mask = c["call"]["use_causal_mask"].get<bool>()};
      layer->call_with_args(inputs, args);
      const std::vector<Tensor> weights = golden_tensors(c["weights"]);
      REQUIRE(layer->weights().size() == weights.size());
      for (std::size_t i = 0; i < weights.size(); ++i) CHECK(layer->weights()[i]->shape() == weights[i].shape());
      layer->set_weights(weights);

      GradientTape tape;
      for (const auto& x : inputs) tape.watch(x);
      const auto out = layer->call_with_args(inputs, args);
      check_close(out[0], c["y"]);
      if (args.return_attention_scores) check_close(out[1], c["extra"][0]);
      std::vector<Tensor> sources = inputs;
      for (const auto& w : layer->weights()) sources.push_back(w->value());
      const auto grads = tape.gradient(ops::sum(ops::multiply(out[0], golden_tensor(c["w"]))), sources);
      for (std::size_t i = 0; i < sources.size(); ++i) {
        INFO("gradient " << i);
        check_close(grads[i], i < inputs.size() ? c["input_grads"][i] : c["weight_grads"][i - inputs.size()]);
      }

      std::vector<Shape> shapes;
      for (const auto& x : inputs) {
        Shape s = x.shape();
        s[0] = -1;
        shapes.push_back(s);
      }
      Shape want = out[0].shape();
      want[0] = -1;
      CHECK(layer->compute_output_shape(shapes).at(0) == want);

      // The config records the built shapes, so the rebuilt layer has its weights at once.
      json config = layer->get_config();
      auto again = Layer::deserialize(serialize_object("MultiHeadAttention", config));
      CHECK(again->weights().size() == weights.size());
      json config2 = again->get_config();
      config.erase("name");
      config2.erase("name");
      CHECK(config == config2);

      check_gradients([&](const std::vector<Tensor>& in) { return layer->call_with_args(in, args)[0]; }, inputs, 1e-3f,
                      2e-2f);
    }
  }
}

TEST_CASE("MultiHeadAttention names and shapes its weights as Keras and checks its arguments", "[attention]") {
  backend::clear_session();
  layers::MultiHeadAttention mha(4, 8, {.value_dim = 6});
  mha({Tensor::ones({1, 3, 16}), Tensor::ones({1, 5, 12})});
  const std::vector<std::pair<std::string, Shape>> want{
      {"query/kernel", {16, 4, 8}}, {"query/bias", {4, 8}},   {"key/kernel", {12, 4, 8}},
      {"key/bias", {4, 8}},         {"value/kernel", {12, 4, 6}}, {"value/bias", {4, 6}},
      {"attention_output/kernel", {4, 6, 16}}, {"attention_output/bias", {16}}};
  REQUIRE(mha.weights().size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(mha.weights()[i]->name() == want[i].first);
    CHECK(mha.weights()[i]->shape() == want[i].second);
  }
  CHECK(mha.name() == "multi_head_attention");
  const auto named = saving::named_weights(mha);  // the names an HDF5 file gets, as tf.keras writes them
  REQUIRE(named.size() == want.size());
  CHECK(named[0].first == "multi_head_attention/query/kernel:0");
  CHECK(named[7].first == "multi_head_attention/attention_output/bias:0");
  CHECK(mha.count_params() == 16 * 32 + 32 + 12 * 32 + 32 + 12 * 24 + 24 + 24 * 16 + 16);

  CHECK_THROWS_WITH(layers::MultiHeadAttention(0, 4), Catch::Contains("num_heads"));
  CHECK_THROWS_WITH(mha(Tensor::ones({1, 3, 16})), Catch::Contains("{query, value}"));
  CHECK_THROWS_WITH(mha({Tensor::ones({1, 3, 16}), Tensor::ones({1, 5})}), Catch::Contains("same rank"));
  CHECK_THROWS_WITH(mha.call_with_args({Tensor::ones({1, 3, 16}), Tensor::ones({1, 5, 12})},
                                       {.attention_mask = Tensor::ones({1, 3, 4})}),
                    Catch::Contains("attention_mask must have shape"));
  layers::MultiHeadAttention axes(2, 2, {.attention_axes = {3}});
  CHECK_THROWS_WITH(axes({Tensor::ones({1, 2, 3, 4}), Tensor::ones({1, 2, 3, 4})}), Catch::Contains("attention axis"));
}

TEST_CASE("MultiHeadAttention masks from Keras masks equal the same attention_mask - dropout only in training",
          "[attention]") {
  layers::MultiHeadAttention mha(2, 3, {.dropout = 0.5});
  const Tensor q = random_tensor({2, 4, 5}, -1, 1, 21), v = random_tensor({2, 6, 5}, -1, 1, 22);
  Tensor qm = Tensor::ones({2, 4}), vm = Tensor::ones({2, 6});
  qm.data<float>()[3] = 0.f;
  vm.data<float>()[7] = 0.f;
  vm.data<float>()[2] = 0.f;
  Tensor am = Tensor::empty({2, 4, 6});
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j)
        am.data<float>()[(b * 4 + i) * 6 + j] = qm.data<float>()[b * 4 + i] * vm.data<float>()[b * 6 + j] * (j <= i);
  const auto from_masks = mha.call_with_args({q, v}, {.query_mask = qm, .value_mask = vm, .use_causal_mask = true});
  const auto from_attention_mask = mha.call_with_args({q, v}, {.attention_mask = am});
  CHECK(from_masks[0].to_vector<float>() == from_attention_mask[0].to_vector<float>());
  CHECK(mha({q, v}, false).to_vector<float>() == mha({q, v}, false).to_vector<float>());
  CHECK(mha({q, v}, true).to_vector<float>() != mha({q, v}, false).to_vector<float>());
}

TEST_CASE("MultiHeadAttention trains in a functional model and survives an HDF5 round trip", "[attention]") {
  backend::clear_session();
  KerasTensor x = Input({5, 4});
  KerasTensor a = layers::MultiHeadAttention(2, 4, {.output_shape = {6}})({x, x});
  Model model(x, layers::Dense(1)(layers::GlobalAveragePooling1D()(a)));
  const Tensor xs = random_tensor({32, 5, 4}, -1, 1, 31);
  const Tensor ys = ops::sum(ops::square(xs), {1, 2}, false).reshape({32, 1});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  auto history = model.fit(xs, ys, {.batch_size = 8, .epochs = 4, .verbose = 0});
  CHECK(history.history["loss"].back() < history.history["loss"].front());

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_mha_model.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->predict(xs).to_vector<float>() == model.predict(xs).to_vector<float>());
  std::filesystem::remove(path);
}
