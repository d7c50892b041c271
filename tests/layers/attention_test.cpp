// Attention and AdditiveAttention (and the batch_matmul op under them): PyTorch's values
// (tests/golden/make_attention_golden.py) with masks, causal masks and returned scores, finite
// differences, configs, errors, training and an HDF5 round trip in functional models.
#include <catch2/catch.hpp>

#include <filesystem>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::golden_tensor;
using keras::testing::golden_tensors;
using keras::testing::random_tensor;

namespace {

layers::AttentionCallArgs call_args(const json& call) {
  layers::AttentionCallArgs a;
  if (call.contains("mask")) a.mask = golden_tensors(call["mask"]);
  a.use_causal_mask = call.value("use_causal_mask", false);
  a.return_attention_scores = call.value("return_attention_scores", false);
  return a;
}

}  // namespace

TEST_CASE("Attention and AdditiveAttention match PyTorch: outputs, scores, input and weight gradients", "[attention]") {
  const json golden = keras::testing::load_golden("attention.json");
  int index = 0;
  for (const auto& c : golden["attention"]) {
    SECTION("case " + std::to_string(index++) + " " + c["layer"].dump() + " " + c["call"].dump().substr(0, 80)) {
      auto base = Layer::deserialize(c["layer"]);
      auto* layer = dynamic_cast<layers::BaseDenseAttention*>(base.get());
      REQUIRE(layer != nullptr);
      const std::vector<Tensor> inputs = golden_tensors(c["inputs"]);
      const auto args = call_args(c["call"]);
      layer->call_with_args(inputs, args);  // builds
      const std::vector<Tensor> weights = golden_tensors(c["weights"]);
      REQUIRE(layer->weights().size() == weights.size());
      if (!weights.empty()) layer->set_weights(weights);

      GradientTape tape;
      for (const auto& x : inputs) tape.watch(x);
      const auto out = layer->call_with_args(inputs, args);
      REQUIRE(out.size() == (args.return_attention_scores ? 2u : 1u));
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
      for (const auto& x : inputs) shapes.push_back({-1, x.dim(1), x.dim(2)});
      CHECK(layer->compute_output_shape(shapes).at(0) == Shape{-1, out[0].dim(1), out[0].dim(2)});

      json config = layer->get_config();
      auto again = Layer::deserialize(serialize_object(layer->class_name(), config));
      json config2 = again->get_config();
      config.erase("name");
      config2.erase("name");
      CHECK(config == config2);

      check_gradients(
          [&](const std::vector<Tensor>& in) {
            return dynamic_cast<layers::BaseDenseAttention&>(*layer).call_with_args(in, args)[0];
          },
          inputs, 1e-3f, 2e-2f);
    }
  }
}

TEST_CASE("batch_matmul matches a plain triple loop in every transpose form, and its gradients", "[attention]") {
  const Tensor a = random_tensor({3, 2, 4}, -1, 1, 1), b = random_tensor({3, 4, 5}, -1, 1, 2);
  const Tensor c = ops::batch_matmul(a, b);
  REQUIRE(c.shape() == Shape{3, 2, 5});
  for (int n = 0; n < 3; ++n)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 5; ++j) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += double(a.data<float>()[(n * 2 + i) * 4 + k]) * b.data<float>()[(n * 4 + k) * 5 + j];
        CHECK(c.data<float>()[(n * 2 + i) * 5 + j] == Approx(s).margin(1e-5));
      }
  const Tensor at = ops::transpose(a, {0, 2, 1}), bt = ops::transpose(b, {0, 2, 1});
  CHECK(ops::batch_matmul(at, b, true, false).to_vector<float>() == c.to_vector<float>());
  CHECK(ops::batch_matmul(a, bt, false, true).to_vector<float>() == c.to_vector<float>());
  CHECK(ops::batch_matmul(at, bt, true, true).to_vector<float>() == c.to_vector<float>());
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      check_gradients([&](const std::vector<Tensor>& in) { return ops::batch_matmul(in[0], in[1], ta, tb); },
                      {ta ? at : a, tb ? bt : b}, 1e-2f, 1e-2f);
  CHECK_THROWS_WITH(ops::batch_matmul(a, a), Catch::Contains("inner dimensions"));
  CHECK_THROWS_WITH(ops::batch_matmul(a, Tensor::ones({2, 4, 5})), Catch::Contains("leading axes"));
}

TEST_CASE("attention layers build Keras's weights and reject bad calls with clear errors", "[attention]") {
  backend::clear_session();
  layers::Attention plain;
  CHECK(plain.name() == "attention");
  plain({Tensor::ones({1, 2, 3}), Tensor::ones({1, 4, 3})});
  CHECK(plain.weights().empty());
  layers::Attention scaled({.use_scale = true, .score_mode = "concat"});
  scaled({Tensor::ones({1, 2, 3}), Tensor::ones({1, 4, 3})});
  REQUIRE(scaled.weights().size() == 2);
  CHECK(scaled.weights()[0]->name() == "scale");
  CHECK(scaled.weights()[0]->shape() == Shape{});
  CHECK(scaled.weights()[1]->name() == "concat_score_weight");
  layers::AdditiveAttention additive;
  additive({Tensor::ones({1, 2, 3}), Tensor::ones({1, 4, 3})});
  REQUIRE(additive.weights().size() == 1);
  CHECK(additive.weights()[0]->shape() == Shape{3});
  CHECK(additive.get_config()["use_scale"] == true);

  CHECK_THROWS_WITH(layers::Attention({.score_mode = "add"}), Catch::Contains("score_mode"));
  CHECK_THROWS_WITH(layers::Attention({.dropout = 1.5}), Catch::Contains("dropout"));
  CHECK_THROWS_WITH(plain(Tensor::ones({1, 2, 3})), Catch::Contains("list of inputs"));
  CHECK_THROWS_WITH(plain({Tensor::ones({1, 2, 3}), Tensor::ones({1, 4, 5})}), Catch::Contains("last dimension"));
  CHECK_THROWS_WITH(plain.call_with_args({Tensor::ones({1, 2, 3}), Tensor::ones({1, 4, 3})},
                                         {.mask = {Tensor::ones({1, 2}), Tensor::ones({1, 3})}}),
                    Catch::Contains("value_mask must have shape"));
}

TEST_CASE("attention dropout acts only in training and the causal option survives the config", "[attention]") {
  layers::Attention drop({.dropout = 0.5});
  const Tensor q = random_tensor({2, 4, 3}, -1, 1, 5), v = random_tensor({2, 6, 3}, -1, 1, 6);
  const Tensor inference = drop({q, v}, false);
  layers::Attention none;
  CHECK(inference.to_vector<float>() == none({q, v}).to_vector<float>());
  const auto trained = drop.call_with_args({q, v}, {.return_attention_scores = true, .training = true});
  int zeros = 0;
  for (float p : trained[1].to_vector<float>()) zeros += p == 0.f;
  CHECK(zeros > 0);

  layers::Attention causal({.causal = true});
  const auto scores = causal.call_with_args({q, v}, {.return_attention_scores = true})[1];
  CHECK(scores.to_vector<float>()[1] < 1e-6f);  // position 0 does not see position 1
  auto again = Layer::deserialize(serialize_object("Attention", causal.get_config()));
  CHECK((*again)({q, v}).to_vector<float>() == causal({q, v}).to_vector<float>());
}

TEST_CASE("Attention and AdditiveAttention train in functional models and survive an HDF5 round trip", "[attention]") {
  backend::clear_session();
  KerasTensor x = Input({6, 4});
  KerasTensor h = layers::Dense(8, {.activation = "tanh"})(x);
  KerasTensor a = layers::Attention({.use_scale = true})({h, h});
  KerasTensor b = layers::AdditiveAttention()({h, a, h});
  KerasTensor pooled = layers::GlobalAveragePooling1D()(b);
  Model model(x, layers::Dense(1)(pooled));
  const Tensor xs = random_tensor({32, 6, 4}, -1, 1, 11);
  const Tensor ys = ops::sum(xs, {1, 2}, false).reshape({32, 1});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  auto history = model.fit(xs, ys, {.batch_size = 8, .epochs = 4, .verbose = 0});
  CHECK(history.history["loss"].back() < history.history["loss"].front());

  // Two model inputs (query and value) into one attention layer.
  KerasTensor q = Input({3, 4}), v = Input({5, 4});
  Model two({q, v}, layers::Attention({.use_scale = true, .score_mode = "concat"})({q, v}));
  two.set_weights({Tensor::scalar(0.5f), Tensor::scalar(1.7f)});
  for (Model* m : {&model, &two}) {
    const auto path = (std::filesystem::temp_directory_path() / "kerascpp_attention_model.h5").string();
    m->save(path);
    auto loaded = models::load_model(path);
    CHECK(loaded->get_config() == m->get_config());
    REQUIRE(loaded->weights().size() == m->weights().size());
    if (m == &model) {
      CHECK(loaded->predict(xs).to_vector<float>() == model.predict(xs).to_vector<float>());
    } else {
      const std::vector<Tensor> in{random_tensor({2, 3, 4}, -1, 1, 12), random_tensor({2, 5, 4}, -1, 1, 13)};
      CHECK((*loaded)(in).to_vector<float>() == two(in).to_vector<float>());
    }
    std::filesystem::remove(path);
  }
}
