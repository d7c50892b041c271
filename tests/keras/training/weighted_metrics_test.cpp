// compile's metrics are unweighted and weighted_metrics take sample_weight and class_weight, logged with
// tf.keras 2.x's "weighted_" prefix on a name clash; validation_freq. Expected values are computed here
// from the model's known predictions as Keras defines the metrics.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/training_config.hpp"

using namespace keras;

namespace {

// Dense(1, sigmoid, no bias) with kernel 1: predictions sigmoid(x), so the metrics are known by hand.
// x = [2, -1, 3, -2] → predicted classes [1, 0, 1, 0]; y = [1, 1, 0, 0] → correct [1, 0, 0, 1].
std::shared_ptr<Sequential> fixed_model() {
  backend::clear_session();
  auto model = std::make_shared<Sequential>(std::vector<LayerRef>{
      layers::Input({1}), layers::Dense(1, {.activation = "sigmoid", .use_bias = false})});
  model->set_weights({Tensor::ones({1, 1})});
  return model;
}

const Tensor x = Tensor::from_vector(std::vector<float>{2, -1, 3, -2}, {4, 1});
const Tensor y = Tensor::from_vector(std::vector<float>{1, 1, 0, 0}, {4, 1});

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

CompileOptions options() {
  return {.optimizer = optimizers::SGD({.learning_rate = 0.0}),
          .loss = "binary_crossentropy",
          .metrics = {"accuracy", "binary_crossentropy"},
          .weighted_metrics = {"accuracy"}};
}

}  // namespace

TEST_CASE("evaluate: metrics ignore sample_weight, weighted_metrics use it and are named weighted_<name>") {
  auto model = fixed_model();
  model->compile(options());
  // Correct predictions: [1, 0, 0, 1] (sigmoid(3) > 0.5 for label 0 is wrong, sigmoid(-1) < 0.5 for label 1 too).
  const Tensor sw = Tensor::from_vector(std::vector<float>{3, 1, 1, 5});
  const Logs logs = model->evaluate(x, y, {.batch_size = 4, .verbose = 0, .sample_weight = sw});
  CHECK(logs.at("accuracy") == Approx(0.5));
  CHECK(logs.at("weighted_accuracy") == Approx((3.0 + 5.0) / 10.0));
  const double bce[4] = {-std::log(sigmoid(2)), -std::log(sigmoid(-1)), -std::log(1 - sigmoid(3)),
                         -std::log(1 - sigmoid(-2))};
  CHECK(logs.at("binary_crossentropy") == Approx((bce[0] + bce[1] + bce[2] + bce[3]) / 4).epsilon(1e-5));
  // The loss is weighted (sum of weighted losses over the batch size), as Keras.
  CHECK(logs.at("loss") == Approx((3 * bce[0] + bce[1] + bce[2] + 5 * bce[3]) / 4).epsilon(1e-5));
  const auto names = model->metrics_names();
  CHECK(names == std::vector<std::string>{"loss", "accuracy", "binary_crossentropy", "weighted_accuracy"});
}

TEST_CASE("fit: class_weight weighs only weighted_metrics - a weighted metric without a clash keeps its name") {
  auto model = fixed_model();
  CompileOptions o = options();
  o.metrics = {"accuracy"};
  o.weighted_metrics = {"accuracy", "binary_crossentropy"};
  model->compile(o);
  const auto history = model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false,
                                         .class_weight = {{0, 1.0}, {1, 4.0}}});
  // Weights by label [4, 4, 1, 1]; correct [1, 0, 0, 1].
  CHECK(history.history.at("accuracy")[0] == Approx(0.5));
  CHECK(history.history.at("weighted_accuracy")[0] == Approx((4.0 + 1.0) / 10.0));
  const double weighted_bce = (4 * -std::log(sigmoid(2)) + 4 * -std::log(sigmoid(-1)) + -std::log(1 - sigmoid(3)) +
                               -std::log(1 - sigmoid(-2))) / 10.0;
  CHECK(history.history.at("binary_crossentropy")[0] == Approx(weighted_bce).epsilon(1e-5));
  CHECK(history.history.count("weighted_binary_crossentropy") == 0);
}

TEST_CASE("weighted_metrics are written to training_config and Keras 3's compile_config and read back") {
  auto model = fixed_model();
  model->compile(options());
  const json tc = model->training_config();
  CHECK(tc["weighted_metrics"] == json::array({"accuracy"}));
  CHECK(model->compile_config()["weighted_metrics"] == json::array({"accuracy"}));
  auto other = fixed_model();
  saving::compile_from_training_config(*other, tc);
  CHECK(other->training_config()["weighted_metrics"] == tc["weighted_metrics"]);
  auto from_keras3 = fixed_model();
  from_keras3->compile_from_config(model->compile_config());
  const Logs logs = from_keras3->evaluate(x, y, {.batch_size = 4, .verbose = 0,
                                                 .sample_weight = Tensor::from_vector(std::vector<float>{3, 1, 1, 5})});
  CHECK(logs.at("weighted_accuracy") == Approx(0.8));
  // Without weighted_metrics, Keras writes null.
  auto plain = fixed_model();
  plain->compile({.optimizer = "sgd", .loss = "mse"});
  CHECK(plain->training_config()["weighted_metrics"].is_null());
}

TEST_CASE("validation_freq: validation runs every n epochs or after the listed epochs") {
  auto model = fixed_model();
  model->compile(options());
  const ValidationData val{x, y, {}};
  auto every2 = model->fit(x, y, {.batch_size = 4, .epochs = 5, .verbose = 0, .validation_data = val,
                                  .validation_freq = 2});
  CHECK(every2.history.at("loss").size() == 5);
  CHECK(every2.history.at("val_loss").size() == 2);  // after epochs 2 and 4
  auto listed = model->fit(x, y, {.batch_size = 4, .epochs = 5, .verbose = 0, .validation_data = val,
                                  .validation_freq = {1, 5, 9}});
  CHECK(listed.history.at("val_accuracy").size() == 2);  // after epochs 1 and 5
  CHECK_THROWS_WITH(ValidationFreq(0), Catch::Contains("validation_freq must be a positive int"));
}

TEST_CASE("A losses:: object given as a metric is averaged, unweighted, under the loss's name") {
  auto model = fixed_model();
  model->compile({.optimizer = optimizers::SGD({.learning_rate = 0.0}),
                  .loss = "binary_crossentropy",
                  .metrics = {losses::MeanSquaredError(), "hinge"}});
  const Logs logs = model->evaluate(x, y, {.batch_size = 4, .verbose = 0,
                                           .sample_weight = Tensor::from_vector(std::vector<float>{3, 1, 1, 5})});
  const double p[4] = {sigmoid(2), sigmoid(-1), sigmoid(3), sigmoid(-2)}, t[4] = {1, 1, 0, 0};
  double mse = 0, hinge = 0;
  for (int i = 0; i < 4; ++i) {
    mse += (p[i] - t[i]) * (p[i] - t[i]) / 4;
    hinge += std::max(1 - (2 * t[i] - 1) * p[i], 0.0) / 4;  // {0, 1} targets become {-1, 1}
  }
  CHECK(logs.at("mean_squared_error") == Approx(mse).epsilon(1e-5));
  CHECK(logs.at("hinge") == Approx(hinge).epsilon(1e-5));
}

TEST_CASE("Several outputs: weighted metrics are named <output>_weighted_<name> on a clash, <output>_<name> otherwise") {
  backend::clear_session();
  KerasTensor in = Input({1});
  KerasTensor a = layers::Dense(1, {.activation = "sigmoid", .use_bias = false, .name = "a"})(in);
  KerasTensor b = layers::Dense(1, {.activation = "sigmoid", .use_bias = false, .name = "b"})(in);
  Model model(in, std::vector<KerasTensor>{a, b});
  model.set_weights({Tensor::ones({1, 1}), Tensor::full({1, 1}, -1.0)});
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.0}),
                 .loss = "binary_crossentropy",
                 .metrics = {{"a", {"accuracy"}}},
                 .weighted_metrics = {"accuracy"}});
  const Tensor sw = Tensor::from_vector(std::vector<float>{3, 1, 1, 5});
  const Logs logs = model.evaluate(x, {y, y}, {.batch_size = 4, .verbose = 0, .sample_weight = sw});
  // Output a predicts classes [1, 0, 1, 0] (correct [1, 0, 0, 1]); output b the opposite (correct [0, 1, 1, 0]).
  CHECK(logs.at("a_accuracy") == Approx(0.5));
  CHECK(logs.at("a_weighted_accuracy") == Approx(8.0 / 10.0));
  CHECK(logs.at("b_accuracy") == Approx(2.0 / 10.0));
  CHECK_FALSE(logs.contains("b_weighted_accuracy"));
}
