// Sequential on the functional graph executor: the graph it builds (given, inferred or rebuilt by add/pop),
// Keras's input/output names, and the same numbers as the equivalent functional model.
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

namespace {

// Gradients of sum(model(x) * w) with respect to the model's trainable weights and to x.
std::vector<Tensor> gradients(Layer& model, Tensor x, const Tensor& w) {
  GradientTape tape;
  tape.watch(x);
  Tensor loss = ops::sum(ops::multiply(model(x, true), w));
  std::vector<Tensor> sources{x};
  for (const auto& v : model.trainable_weights()) sources.push_back(v->value());
  return tape.gradient(loss, sources);
}

}  // namespace

TEST_CASE("a Sequential and the equivalent functional model give identical outputs and gradients", "[sequential]") {
  backend::clear_session();
  utils::set_random_seed(3);
  Sequential seq({layers::Input({6}), layers::Dense(5, {.activation = "tanh"}), layers::LayerNormalization(),
                  layers::Dense(3, {.activation = "softmax"})});
  KerasTensor in = Input({6});
  KerasTensor h = layers::Dense(5, {.activation = "tanh"})(in);
  Model functional(in, layers::Dense(3, {.activation = "softmax"})(layers::LayerNormalization()(h)));
  functional.set_weights(seq.get_weights());
  // The Sequential runs the graph it built: an InputLayer, then each layer called on the previous output.
  REQUIRE(seq.inputs().size() == 1);
  CHECK(seq.inputs()[0].node()->layer->class_name() == "InputLayer");
  CHECK(seq.outputs()[0].node()->layer == seq.layers().back());
  const Tensor x = random_tensor({4, 6});
  CHECK(seq.predict(x).to_vector<float>() == functional.predict(x).to_vector<float>());
  const Tensor w = random_tensor({4, 3}, 0.5f, 1.5f, 9);
  const auto gs = gradients(seq, x, w), gf = gradients(functional, x, w);
  REQUIRE(gs.size() == 7);
  REQUIRE(gf.size() == gs.size());
  for (std::size_t i = 0; i < gs.size(); ++i) {
    INFO("gradient " << i);
    REQUIRE(gs[i].defined());
    CHECK(gs[i].to_vector<float>() == gf[i].to_vector<float>());
  }
  // And they agree with finite differences.
  keras::testing::check_gradients([&](const std::vector<Tensor>& in) { return seq(in[0]); }, {x});
}

TEST_CASE("Sequential reports tf.keras 2.x's input and output names and writes the input layer it made", "[sequential]") {
  backend::clear_session();
  Sequential seq({layers::Dense(4, {.input_shape = {3}}), layers::Dense(2)});
  CHECK(seq.built());
  CHECK(seq.input_names() == std::vector<std::string>{"dense_input"});
  CHECK(seq.output_names() == std::vector<std::string>{"dense_1"});
  const json config = seq.get_config();
  REQUIRE(config["layers"].size() == 3);
  CHECK(config["layers"][0]["class_name"] == "InputLayer");
  CHECK(config["layers"][0]["config"]["name"] == "dense_input");
  CHECK(config["layers"][0]["config"]["batch_input_shape"] == json::array({nullptr, 3}));
  CHECK(seq.layers().size() == 2);  // the InputLayer is not one of Sequential.layers, as in Keras

  Sequential named({Input({3}, {.name = "features"}), layers::Dense(2, {.name = "scores"})});
  CHECK(named.input_names() == std::vector<std::string>{"features"});
  CHECK(named.output_names() == std::vector<std::string>{"scores"});
  CHECK(named.get_config()["layers"][0]["config"]["name"] == "features");
  CHECK_THROWS_WITH(Sequential({layers::Dense(2, {.name = "x_input"})}).add(layers::Dense(2, {.name = "x_input"})),
                    Catch::Contains("unique names"));
}

TEST_CASE("a Sequential without an input shape builds its graph on the first call, fit or build()", "[sequential]") {
  backend::clear_session();
  utils::set_random_seed(4);
  Sequential called({layers::Dense(4, {.activation = "relu"}), layers::Dense(1)});
  CHECK_FALSE(called.built());
  CHECK(called.inputs().empty());
  const Tensor x = random_tensor({5, 3});
  const Tensor y = called(x);
  CHECK(y.shape() == Shape{5, 1});
  REQUIRE(called.inputs().size() == 1);
  CHECK(called.inputs()[0].shape() == Shape{-1, 3});  // the batch dimension stays free
  CHECK(called.input_names() == std::vector<std::string>{"dense_input"});
  CHECK(called.predict(random_tensor({2, 3})).shape() == Shape{2, 1});
  CHECK_THROWS_WITH(called(random_tensor({2, 4})), Catch::Contains("dense"));
  CHECK_THROWS_WITH(called(random_tensor({2, 3, 1})), Catch::Contains("found shape=(2, 3, 1)"));
  std::ostringstream table;
  called.summary(table);
  CHECK(table.str().find("dense_1 (Dense)             (None, 1)") != std::string::npos);
  CHECK(table.str().find("Connected to") == std::string::npos);

  Sequential fitted({layers::Dense(2), layers::Dense(1)});
  fitted.compile({.optimizer = "sgd", .loss = "mse"});
  auto history = fitted.fit(x, Tensor::ones({5, 1}), {.epochs = 2, .verbose = 0});
  CHECK(history.history["loss"].size() == 2);
  CHECK(fitted.inputs().at(0).shape() == Shape{-1, 3});
  CHECK(fitted.output_names() == std::vector<std::string>{"dense_3"});

  // As tf.keras 2.x, an inferred shape is relaxed where later data differ: sequences of another length run.
  Sequential sequences({layers::Embedding(10, 3), layers::GRU(2)});
  CHECK(sequences.predict(Tensor::ones({2, 5})).shape() == Shape{2, 2});
  CHECK(sequences.inputs().at(0).shape() == Shape{-1, 5});
  CHECK(sequences.predict(Tensor::ones({2, 7})).shape() == Shape{2, 2});
  CHECK(sequences.inputs().at(0).shape() == Shape{-1, -1});
  Sequential fixed_length({Input({5}), layers::Embedding(10, 3), layers::GRU(2)});
  CHECK_THROWS_WITH(fixed_length.predict(Tensor::ones({2, 7})), Catch::Contains("(None, 5)"));

  Sequential explicit_build({layers::Dense(2)});
  explicit_build.build({-1, 7});
  CHECK(explicit_build.count_params() == 7 * 2 + 2);
  CHECK(explicit_build.inputs().at(0).shape() == Shape{-1, 7});
}

TEST_CASE("add and pop after build rebuild the graph - a layer that does not fit is refused", "[sequential]") {
  backend::clear_session();
  Sequential model({layers::Input({3}), layers::Dense(4)});
  const Tensor x = random_tensor({2, 3});
  CHECK(model.predict(x).shape() == Shape{2, 4});
  model.add(layers::Dense(6));
  CHECK(model.outputs()[0].shape() == Shape{-1, 6});
  CHECK(model.predict(x).shape() == Shape{2, 6});
  CHECK(model.output_names() == std::vector<std::string>{"dense_1"});
  model.add(layers::Reshape({2, 3}));
  CHECK(model.predict(x).shape() == Shape{2, 2, 3});
  CHECK_THROWS_AS(model.add(layers::Reshape({5})), ValueError);
  CHECK(model.layers().size() == 3);  // the refused layer was not added
  CHECK(model.predict(x).shape() == Shape{2, 2, 3});
  model.pop();
  model.pop();
  CHECK(model.predict(x).shape() == Shape{2, 4});
  CHECK(model.output_names() == std::vector<std::string>{"dense"});
  model.pop();
  CHECK_FALSE(model.built());
  CHECK(model.inputs().empty());
  model.add(layers::Dense(5));  // the Input given up front still fixes the shape
  CHECK(model.predict(x).shape() == Shape{2, 5});
  // A layer with several outputs has no place in a Sequential model (Keras's rule).
  Sequential rnn({layers::Input({4, 2})});
  CHECK_THROWS_WITH(rnn.add(layers::LSTM(3, {.return_state = true})), Catch::Contains("single output tensor"));
}

TEST_CASE("a layer shared by a Sequential and a functional model keeps one set of weights", "[sequential]") {
  backend::clear_session();
  utils::set_random_seed(6);
  auto shared = std::make_shared<layers::Dense>(3, layers::DenseOptions{.activation = "tanh"});
  Sequential seq({layers::Input({4}), shared, layers::Dense(2)});
  KerasTensor in = Input({4});
  Model functional(in, (*shared)(in));
  const Tensor x = random_tensor({3, 4});
  const Tensor before = functional.predict(x);
  CHECK(before.to_vector<float>() == (*shared)(x).to_vector<float>());
  seq.compile({.optimizer = optimizers::SGD({.learning_rate = 0.5}), .loss = "mse"});
  seq.fit(x, Tensor::ones({3, 2}), {.epochs = 1, .verbose = 0});
  const Tensor after = functional.predict(x);
  CHECK(after.to_vector<float>() == (*shared)(x).to_vector<float>());
  CHECK(after.to_vector<float>() != before.to_vector<float>());
  // Both graphs hold their own call of the layer; rebuilding one leaves the other whole.
  seq.pop();
  seq.add(layers::Dense(1));
  CHECK(functional.predict(x).to_vector<float>() == after.to_vector<float>());
  CHECK(seq.predict(x).shape() == Shape{3, 1});
}

TEST_CASE("Sequential keeps masks, nesting and a fixed batch on the graph", "[sequential]") {
  backend::clear_session();
  utils::set_random_seed(8);
  // Embedding(mask_zero) → LSTM: the padded sequence gives the short one's result.
  Sequential masked({Input({5}), layers::Embedding(9, 3, {.mask_zero = true}), layers::LSTM(4)});
  const Tensor padded = Tensor::from_vector<float>({2, 7, 1, 0, 0}, {1, 5});
  const Tensor short_seq = Tensor::from_vector<float>({2, 7, 1}, {1, 3});
  const Tensor want = (*masked.layers()[1])((*masked.layers()[0])(short_seq));
  const auto got = masked.predict(padded).to_vector<float>();  // stepwise (masked) against the fused kernel
  REQUIRE(got.size() == 4);
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want.to_vector<float>()[i]).margin(1e-6));
  // A nested Sequential receives the mask of the layer before it (Keras passes it to the inner graph's input).
  auto lstm_stack = std::make_shared<Sequential>(std::initializer_list<LayerRef>{layers::LSTM(4)});
  Sequential with_nested({Input({5}), masked.layers()[0], lstm_stack});
  lstm_stack->layers()[0]->set_weights(masked.layers()[1]->get_weights());
  const auto nested = with_nested.predict(padded).to_vector<float>();
  for (std::size_t i = 0; i < nested.size(); ++i) CHECK(nested[i] == Approx(want.to_vector<float>()[i]).margin(1e-6));
  // A Sequential inside a Sequential inside a functional model.
  auto inner = std::make_shared<Sequential>(std::initializer_list<LayerRef>{layers::Dense(3), layers::Dense(2)});
  Sequential outer({Input({4}), inner, layers::Dense(1)});
  CHECK(inner->built());
  CHECK(inner->inputs().at(0).shape() == Shape{-1, 4});
  KerasTensor in = Input({4});
  Model functional(in, (*inner)(in));
  const Tensor x = random_tensor({2, 4});
  CHECK(functional.predict(x).to_vector<float>() == (*inner)(x).to_vector<float>());
  CHECK(outer.predict(x).to_vector<float>() == (*outer.layers()[1])((*inner)(x)).to_vector<float>());
  CHECK(outer.count_params() == 4 * 3 + 3 + 3 * 2 + 2 + 2 + 1);
  // A fixed batch given up front stays in the graph's input (stateful-style models need it).
  Sequential fixed({Input({6, 2}, {.batch_size = 4}), layers::GRU(3)});
  CHECK(fixed.inputs().at(0).shape() == Shape{4, 6, 2});
  CHECK(fixed.get_config()["layers"][0]["config"]["batch_input_shape"] == json::array({4, 6, 2}));
  CHECK(fixed.predict(random_tensor({8, 6, 2}), {.batch_size = 4}).shape() == Shape{8, 3});
}

TEST_CASE("a Sequential built on its first call saves and loads back through its graph", "[sequential][saving]") {
  backend::clear_session();
  utils::set_random_seed(10);
  Sequential model({layers::Dense(4, {.activation = "relu"}), layers::Dropout(0.2), layers::Dense(2)});
  const Tensor x = random_tensor({3, 5});
  model.compile({.optimizer = "adam", .loss = "mse"});
  model.fit(x, Tensor::zeros({3, 2}), {.epochs = 1, .verbose = 0});
  const std::string path = "/tmp/kerascpp_sequential_" + std::to_string(::getpid()) + ".h5";
  model.save(path);
  backend::clear_session();
  auto loaded = models::load_model(path);
  std::remove(path.c_str());
  REQUIRE(loaded->class_name() == "Sequential");
  CHECK(loaded->input_names() == std::vector<std::string>{"dense_input"});
  CHECK(loaded->layers().size() == 3);
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  CHECK(loaded->get_config() == model.get_config());
}
