// Models with several inputs and outputs: compile with a loss, weight and metrics per output, fit /
// evaluate / predict / *_on_batch on lists, maps and Datasets, tf.keras 2.x log names, saving.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "reference_losses.hpp"

using namespace keras;
using keras_test::accuracy;
using keras_test::mse;
using keras_test::sparse_ce_from_logits;

namespace {

struct TwoHeads {
  std::shared_ptr<Model> model;
  Tensor xa, xb, y1, y2;
};

// input_a [4] and input_b [3] → Concatenate → Dense(8, relu) "dense" → Dense(2) "dense_1" (regression) and
// Dense(3) "dense_2" (logits of 3 classes), with Keras's default names.
TwoHeads two_heads(std::int64_t n = 12) {
  backend::clear_session();
  utils::set_random_seed(11);
  KerasTensor a = Input({4}, {.name = "input_a"});
  KerasTensor b = Input({3}, {.name = "input_b"});
  KerasTensor h = layers::Dense(8, {.activation = "relu"})(layers::Concatenate()({a, b}));
  KerasTensor out1 = layers::Dense(2)(h);
  KerasTensor out2 = layers::Dense(3)(h);
  TwoHeads t{std::make_shared<Model>(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{out1, out2}), {}, {}, {}, {}};
  t.xa = Tensor::empty({n, 4});
  t.xb = Tensor::empty({n, 3});
  t.y1 = Tensor::empty({n, 2});
  t.y2 = Tensor::empty({n}, DType::int32);
  for (std::int64_t i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j) t.xa.data<float>()[i * 4 + j] = std::sin(0.7f * float(i) + float(j));
    for (int j = 0; j < 3; ++j) t.xb.data<float>()[i * 3 + j] = std::cos(0.3f * float(i * j) + 0.5f);
    for (int j = 0; j < 2; ++j) t.y1.data<float>()[i * 2 + j] = 0.1f * float(i % 5) - 0.2f * float(j);
    t.y2.data<std::int32_t>()[i] = static_cast<std::int32_t>(i % 3);
  }
  return t;
}

std::vector<std::string> keys(const Logs& logs) {
  std::vector<std::string> out;
  for (const auto& [k, v] : logs) out.push_back(k);
  return out;
}

CompileOptions two_heads_compile() {
  return {.optimizer = optimizers::SGD({.learning_rate = 0.05}),
          .loss = {{"dense_1", "mse"}, {"dense_2", losses::SparseCategoricalCrossentropy({.from_logits = true})}},
          .loss_weights = {0.3, 2.0},
          .metrics = {{"dense_2", {"accuracy"}}}};
}

}  // namespace

TEST_CASE("multi-output fit: per-output and total losses follow Keras's formula, with tf.keras log names") {
  auto t = two_heads();
  Model& model = *t.model;
  CHECK(model.input_names() == std::vector<std::string>{"input_a", "input_b"});
  CHECK(model.output_names() == std::vector<std::string>{"dense_1", "dense_2"});
  model.compile(two_heads_compile());
  CHECK(model.metrics_names() == std::vector<std::string>{"loss", "dense_1_loss", "dense_2_loss", "dense_2_accuracy"});
  for (int epoch = 0; epoch < 3; ++epoch) {
    // One full batch per epoch: the logged losses are those of the forward pass before the step.
    auto before = model.predict_outputs({t.xa, t.xb});
    REQUIRE(before.size() == 2);
    const double l1 = mse(t.y1, before[0]), l2 = sparse_ce_from_logits(t.y2, before[1]);
    auto history = model.fit({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 12, .epochs = 1, .verbose = 0, .shuffle = false});
    INFO("epoch " << epoch);
    CHECK(history.history.at("dense_1_loss")[0] == Approx(l1).epsilon(1e-5));
    CHECK(history.history.at("dense_2_loss")[0] == Approx(l2).epsilon(1e-5));
    CHECK(history.history.at("loss")[0] == Approx(0.3 * l1 + 2.0 * l2).epsilon(1e-5));
    CHECK(history.history.at("dense_2_accuracy")[0] == Approx(accuracy(t.y2, before[1])));
  }
}

TEST_CASE("loss_weights weigh the gradients: an output with weight 0 leaves its own head untouched") {
  auto t = two_heads();
  Model& model = *t.model;
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}),
                 .loss = {"mse", losses::SparseCategoricalCrossentropy({.from_logits = true})},
                 .loss_weights = {{"dense_1", 0.0}}});
  const auto head1 = model.get_layer("dense_1")->get_weights();
  const auto head2 = model.get_layer("dense_2")->get_weights();
  auto logs = model.train_on_batch({{"input_a", t.xa}, {"input_b", t.xb}}, {{"dense_1", t.y1}, {"dense_2", t.y2}});
  CHECK(logs.at("loss") == Approx(logs.at("dense_2_loss")));
  CHECK(model.get_layer("dense_1")->get_weights()[0].to_vector<float>() == head1[0].to_vector<float>());
  CHECK(model.get_layer("dense_2")->get_weights()[0].to_vector<float>() != head2[0].to_vector<float>());
}

TEST_CASE("evaluate and validation logs of a multi-output model: val_ prefixes, callbacks see the names") {
  auto t = two_heads();
  Model& model = *t.model;
  model.compile(two_heads_compile());
  const std::string csv = "multi_output_log.csv";
  auto history = model.fit({t.xa, t.xb}, {t.y1, t.y2},
                           {.batch_size = 5, .epochs = 3, .verbose = 0,
                            .callbacks = {callbacks::CSVLogger(csv),
                                          callbacks::EarlyStopping({.monitor = "val_dense_2_loss", .patience = 5})},
                            .validation_split = 0.25});
  for (const char* key : {"loss", "dense_1_loss", "dense_2_loss", "dense_2_accuracy", "val_loss", "val_dense_1_loss",
                          "val_dense_2_loss", "val_dense_2_accuracy"})
    CHECK(history.history.count(key) == 1);
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  if (!header.empty() && header.back() == '\r') header.pop_back();
  CHECK(header == "epoch,dense_1_loss,dense_2_accuracy,dense_2_loss,loss,val_dense_1_loss,val_dense_2_accuracy,"
                  "val_dense_2_loss,val_loss");
  std::remove(csv.c_str());

  // evaluate over several batches: each per-output mean and the weighted total agree with the outputs.
  auto logs = model.evaluate({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .verbose = 0});
  auto p = model.predict_outputs({t.xa, t.xb}, {.batch_size = 5});
  CHECK(logs.at("dense_1_loss") == Approx(mse(t.y1, p[0])).epsilon(1e-5));
  CHECK(logs.at("dense_2_loss") == Approx(sparse_ce_from_logits(t.y2, p[1])).epsilon(1e-5));
  CHECK(logs.at("loss") == Approx(0.3 * logs.at("dense_1_loss") + 2.0 * logs.at("dense_2_loss")).epsilon(1e-5));
  CHECK(logs.at("dense_2_accuracy") == Approx(accuracy(t.y2, p[1])));
  auto batch_logs = model.test_on_batch({t.xa, t.xb}, {t.y1, t.y2});
  CHECK(batch_logs.at("loss") == Approx(logs.at("loss")).epsilon(1e-5));
  // One batch of all 12 samples, inputs by name in another order: bit-identical to predict at that batch size.
  auto on_batch = model.predict_on_batch_outputs({{"input_b", t.xb}, {"input_a", t.xa}});
  CHECK(on_batch[1].to_vector<float>() == model.predict_outputs({t.xa, t.xb}, {.batch_size = 12})[1].to_vector<float>());
}

TEST_CASE("multi-output save -> load_model -> evaluate is identical, training_config per output as Keras writes it") {
  auto t = two_heads();
  Model& model = *t.model;
  model.compile(two_heads_compile());
  model.fit({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .epochs = 2, .verbose = 0});
  json tc = model.training_config();
  CHECK(tc["loss"]["dense_1"] == "mse");  // a loss given by name is written by name, as Keras does
  CHECK(tc["loss"]["dense_2"]["config"]["from_logits"] == true);
  CHECK(tc["loss_weights"] == json::array({0.3, 2.0}));
  CHECK(tc["metrics"] == json{{"dense_2", json::array({"accuracy"})}});
  const std::string path = "multi_output_model.h5";
  model.save(path);
  auto again = models::load_model(path);
  std::remove(path.c_str());
  CHECK(again->output_names() == model.output_names());
  CHECK(again->training_config() == tc);
  auto a = model.evaluate({t.xa, t.xb}, {t.y1, t.y2}, {.verbose = 0});
  auto b = again->evaluate({t.xa, t.xb}, {t.y1, t.y2}, {.verbose = 0});
  CHECK(keys(a) == keys(b));
  for (const auto& k : keys(a)) CHECK(a.at(k) == b.at(k));
  // and training continues identically (the optimizer state came along)
  model.fit({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  again->fit({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  CHECK(again->get_weights()[2].to_vector<float>() == model.get_weights()[2].to_vector<float>());
}

TEST_CASE("Datasets of ((x1, x2), (y1, y2)) and of named components feed a multi-input model like arrays") {
  auto t = two_heads();
  Model& model = *t.model;
  model.compile(two_heads_compile());
  Tensor w = Tensor::from_vector<float>({1, 2, 0, 1, 1, 3, 1, 0.5f, 1, 1, 2, 1}, {12});
  auto arrays = model.evaluate({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .verbose = 0, .sample_weight = w});
  auto tuples = data::Dataset::from_tensor_slices(
                    data::tuple({data::tuple({t.xa, t.xb}), data::tuple({t.y1, t.y2}), w}))
                    .batch(4);
  auto named = data::Dataset::from_tensor_slices(
                   data::tuple({data::named({{"input_b", t.xb}, {"input_a", t.xa}}),
                                data::named({{"dense_2", t.y2}, {"dense_1", t.y1}}), w}))
                   .batch(4);
  for (const auto& ds : {tuples, named}) {
    auto logs = model.evaluate(ds, {.verbose = 0});
    CHECK(keys(logs) == keys(arrays));
    for (const auto& k : keys(arrays)) CHECK(logs.at(k) == Approx(arrays.at(k)).epsilon(1e-6));
  }
  auto p = model.predict_outputs(data::Dataset::from_tensor_slices(data::named({{"input_a", t.xa}, {"input_b", t.xb}})).batch(5));
  CHECK(p[0].to_vector<float>() == model.predict_outputs({t.xa, t.xb}, {.batch_size = 5})[0].to_vector<float>());

  // fit on the Dataset = fit on the same arrays in the same order, step for step
  const auto start = model.get_weights();
  model.fit({t.xa, t.xb}, {t.y1, t.y2}, {.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false, .sample_weight = w});
  const auto by_arrays = model.get_weights();
  model.set_weights(start);
  model.compile(two_heads_compile());  // a fresh optimizer
  model.fit(named, {.epochs = 2, .verbose = 0});
  const auto by_dataset = model.get_weights();
  for (std::size_t i = 0; i < by_arrays.size(); ++i) CHECK(by_dataset[i].to_vector<float>() == by_arrays[i].to_vector<float>());
}

TEST_CASE("bad multi-input/multi-output data and compile arguments give errors naming the model and the fix") {
  auto t = two_heads();
  Model& model = *t.model;
  CHECK_THROWS_WITH(model.compile({.loss = {{"dense_1", "mse"}, {"dense_9", "mse"}}}),
                    Catch::Contains("dense_9") && Catch::Contains("'dense_1', 'dense_2'"));
  CHECK_THROWS_WITH(model.compile({.loss = {"mse", "mse", "mse"}}), Catch::Contains("expects 2 loss"));
  model.compile(two_heads_compile());
  CHECK_THROWS_WITH(model.fit({t.xa}, {t.y1, t.y2}, {.verbose = 0}),
                    Catch::Contains("'model'") && Catch::Contains("expects 2 x") && Catch::Contains("input_a"));
  CHECK_THROWS_WITH(model.fit(t.xa, {t.y1, t.y2}, {.verbose = 0}), Catch::Contains("a single x was given"));
  CHECK_THROWS_WITH(model.fit({t.xa, t.xb.slice(0, 10)}, {t.y1, t.y2}, {.verbose = 0}),
                    Catch::Contains("Data cardinality") && Catch::Contains("(10, 3)"));
  CHECK_THROWS_WITH(model.evaluate({t.xa, t.xb}, {{"dense_1", t.y1}, {"dense_3", t.y2}}, {.verbose = 0}),
                    Catch::Contains("dense_3"));
  CHECK_THROWS_WITH(model.evaluate({t.xa, t.xb}, {{"dense_1", t.y1}}, {.verbose = 0}),
                    Catch::Contains("output 'dense_2' has a loss but no target"));
  CHECK_THROWS_WITH(model.predict({t.xa, t.xb}), Catch::Contains("predict_outputs"));
  CHECK_THROWS_WITH(model.fit({t.xa, t.xb}, {t.y1, t.y2}, {.verbose = 0, .class_weight = {{0, 1.0}}}),
                    Catch::Contains("class_weight"));
}

TEST_CASE("a multi-input single-output model keeps Tensor predict, and one loss and metric list serve every output") {
  backend::clear_session();
  KerasTensor a = Input({2}), b = Input({2});
  Model two_in({a, b}, layers::Add()({a, b}));
  Tensor x = Tensor::ones({3, 2});
  CHECK(two_in.predict({x, x}).to_vector<float>() == std::vector<float>(6, 2.f));
  CHECK(two_in.predict_on_batch({x, x}).shape() == Shape{3, 2});

  auto t = two_heads();
  t.model->compile({.optimizer = "sgd", .loss = "mse", .metrics = {"mae"}});
  auto logs = t.model->evaluate({t.xa, t.xb}, {t.y1, Tensor::zeros({12, 3})}, {.verbose = 0});
  CHECK(keys(logs) == std::vector<std::string>{"loss", "dense_1_loss", "dense_2_loss", "dense_1_mae", "dense_2_mae"});
  CHECK(logs.at("dense_1_loss") + logs.at("dense_2_loss") == Approx(logs.at("loss")));
}
