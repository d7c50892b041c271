// Estimator: premade DNNClassifier against a Keras model with the same layers, resuming from model_dir,
// checkpoints, eval summaries, predict, a custom model_fn.
#include <catch2/catch.hpp>

#include <filesystem>

#include "callbacks/event_reader.hpp"
#include "estimator_helpers.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace est = keras::estimator;
namespace fs = std::filesystem;

namespace {

double accuracy(const Tensor& class_ids, const Tensor& labels) {
  const auto p = class_ids.astype(DType::int64).to_vector<std::int64_t>();
  const auto l = labels.to_vector<std::int64_t>();
  double hits = 0;
  for (std::size_t i = 0; i < l.size(); ++i) hits += p[i] == l[i];
  return hits / double(l.size());
}

std::vector<std::string> files_in(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("DNNClassifier on feature columns reaches the accuracy of a Keras model with the same layers", "[estimator]") {
  const auto train = est::make_iris_like(120, 1);
  const auto test = est::make_iris_like(60, 2);
  constexpr std::int64_t steps = 240;  // 30 epochs of 8 batches of 16

  keras_test::TempDir dir("dnn_iris");
  est::DNNClassifier classifier({.hidden_units = {10, 10}, .feature_columns = est_test::iris_columns(),
                                 .model_dir = dir.path().string(), .n_classes = 3,
                                 .optimizer = optimizers::Adagrad({.learning_rate = 0.1}),
                                 .config = {.tf_random_seed = 7, .log_step_count_steps = 0}});
  classifier.train(est_test::input_fn(train, 16, true), {.steps = steps});
  CHECK(classifier.global_step() == steps);
  const auto metrics = classifier.evaluate(est_test::input_fn(test, 16, false));
  const auto predictions = classifier.predict(est_test::input_fn(test, 16, false));
  REQUIRE(predictions.count("class_ids"));
  REQUIRE(predictions.count("probabilities"));
  const double estimator_accuracy = accuracy(predictions.at("class_ids"), test.labels);
  CHECK(metrics.at("accuracy") == Approx(estimator_accuracy).margin(1e-6));
  CHECK(metrics.at("global_step") == steps);
  const auto probs = predictions.at("probabilities").to_vector<float>();
  for (std::size_t r = 0; r < probs.size() / 3; ++r) CHECK(probs[3 * r] + probs[3 * r + 1] + probs[3 * r + 2] == Approx(1.0));

  // The same layers as a Keras model, fed the same batches in the same order.
  utils::set_random_seed(7);
  Sequential keras_model({layers::Input({4}), layers::Dense(10, {.activation = "relu"}), layers::Dense(10, {.activation = "relu"}),
                          layers::Dense(3)});
  keras_model.compile({.optimizer = optimizers::Adagrad({.learning_rate = 0.1}),
                       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}), .metrics = {"accuracy"}});
  keras_model.fit(train.matrix, train.labels, {.batch_size = 16, .epochs = int(steps / 8), .verbose = 0, .shuffle = false});
  const double keras_accuracy = keras_model.evaluate(test.matrix, test.labels, {.verbose = 0}).at("accuracy");
  INFO("estimator " << estimator_accuracy << ", keras " << keras_accuracy);
  CHECK(keras_accuracy > 0.85);
  CHECK(estimator_accuracy == Approx(keras_accuracy).margin(0.07));
}

TEST_CASE("Estimator training stopped and restarted resumes from model_dir as if uninterrupted", "[estimator]") {
  const auto data = est::make_iris_like(96, 3);  // 6 batches of 16: a restart sees the batches an uninterrupted run sees
  const auto fn = est_test::input_fn(data, 16, true);
  auto make = [](const std::string& dir) {
    return std::make_unique<est::DNNClassifier>(est::DNNOptions{
        .hidden_units = {8}, .feature_columns = est_test::iris_columns(), .model_dir = dir, .n_classes = 3,
        .config = {.tf_random_seed = 11, .save_checkpoints_steps = 4, .keep_checkpoint_max = 2, .log_step_count_steps = 0}});
  };
  keras_test::TempDir straight("resume_a"), restarted("resume_b");
  auto a = make(straight.path().string());
  a->train(fn, {.steps = 12});
  {
    auto b = make(restarted.path().string());
    b->train(fn, {.steps = 6});
    CHECK(b->global_step() == 6);
  }
  auto c = make(restarted.path().string());
  CHECK(c->global_step() == 6);
  c->train(fn, {.max_steps = 12});
  CHECK(c->global_step() == 12);
  c->train(fn, {.max_steps = 12});  // already there: nothing to do
  CHECK(c->global_step() == 12);
  const auto wa = a->model(est::ModeKeys::TRAIN)->get_weights();
  const auto wc = c->model(est::ModeKeys::TRAIN)->get_weights();
  REQUIRE(wa.size() == wc.size());
  for (std::size_t i = 0; i < wa.size(); ++i) {
    const auto x = wa[i].to_vector<float>(), y = wc[i].to_vector<float>();
    REQUIRE(x.size() == y.size());
    for (std::size_t j = 0; j < x.size(); ++j) CHECK(x[j] == Approx(y[j]).margin(1e-6));
  }
  // keep_checkpoint_max = 2: the two newest are kept and listed in the state file.
  CHECK(files_in(straight.path().string(), "model.ckpt-") == std::vector<std::string>{"model.ckpt-12.h5", "model.ckpt-8.h5"});
  CHECK(est::Estimator::step_of(*c->latest_checkpoint()) == 12);
  CHECK_THROWS_WITH(c->train(fn, {.steps = 1, .max_steps = 3}), Catch::Contains("not both"));
}

TEST_CASE("Estimator evaluate writes TensorBoard summaries to model_dir/eval at the global step", "[estimator]") {
  const auto data = est::make_iris_like(48, 4);
  keras_test::TempDir dir("eval_summaries");
  est::LinearClassifier linear({.feature_columns = est_test::iris_columns(), .model_dir = dir.path().string(), .n_classes = 3,
                                .config = {.save_summary_steps = 2, .log_step_count_steps = 0}});
  CHECK_THROWS_WITH(linear.evaluate(est_test::input_fn(data, 16, false)), Catch::Contains("Could not find trained model"));
  linear.train(est_test::input_fn(data, 16, false));  // to the end of the data: 3 steps
  CHECK(linear.global_step() == 3);
  const auto metrics = linear.evaluate(est_test::input_fn(data, 16, false), {.name = "holdout"});
  const auto events_dir = dir.path() / "eval_holdout";
  REQUIRE(fs::exists(events_dir));
  std::map<std::string, std::pair<std::int64_t, float>> seen;
  for (const auto& file : fs::directory_iterator(events_dir))
    for (const auto& event : evreader::read_events(file.path().string()))
      for (const auto& v : event.values)
        if (v.simple_value) seen[v.tag] = {event.step, *v.simple_value};
  REQUIRE(seen.count("accuracy"));
  REQUIRE(seen.count("loss"));
  CHECK(seen["accuracy"].first == 3);
  CHECK(seen["accuracy"].second == Approx(metrics.at("accuracy")));
  CHECK(seen["loss"].second == Approx(metrics.at("loss")));
  // The training loss summary, every save_summary_steps, in model_dir.
  std::vector<std::int64_t> loss_steps;
  for (const auto& file : fs::directory_iterator(dir.path()))
    if (file.path().filename().string().rfind("events.out.tfevents", 0) == 0)
      for (const auto& event : evreader::read_events(file.path().string()))
        for (const auto& v : event.values)
          if (v.tag == "loss") loss_steps.push_back(event.step);
  CHECK(loss_steps == std::vector<std::int64_t>{2});
}

TEST_CASE("Estimator from a custom model_fn: modes, params and errors", "[estimator]") {
  const auto data = est::make_iris_like(60, 5);
  std::vector<est::ModeKeys> modes;
  auto model_fn = [&modes](const est::Features& features, const KerasTensor& labels, est::ModeKeys mode, const json& params) {
    modes.push_back(mode);
    if (mode != est::ModeKeys::PREDICT) CHECK(labels.defined());
    auto net = est::input_layer(features, est_test::iris_columns());
    net = layers::Dense(params.at("units").get<int>(), {.activation = "relu"})(net);
    auto logits = layers::Dense(3)(net);
    return est::EstimatorSpec{.mode = mode,
                              .predictions = {{"logits", logits}, {"probabilities", layers::Activation("softmax")(logits)}},
                              .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                              .train_op = optimizers::Adam({.learning_rate = 0.01}),
                              .eval_metric_ops = {"accuracy"}};
  };
  keras_test::TempDir dir("model_fn");
  est::Estimator estimator(model_fn, {.model_dir = dir.path().string(), .config = {.log_step_count_steps = 0}, .params = {{"units", 6}}});
  estimator.train(est_test::input_fn(data, 20, true), {.steps = 30});
  const auto metrics = estimator.evaluate(est_test::input_fn(data, 20, false), {.steps = 2});
  CHECK(metrics.at("global_step") == 30);
  CHECK(metrics.count("accuracy"));
  const auto out = estimator.predict(est_test::input_fn(data, 20, false), {.predict_keys = {"probabilities"}});
  REQUIRE(out.size() == 1);
  CHECK(out.at("probabilities").shape() == Shape{60, 3});
  CHECK(modes == std::vector<est::ModeKeys>{est::ModeKeys::TRAIN, est::ModeKeys::EVAL, est::ModeKeys::PREDICT});
  CHECK_THROWS_WITH(estimator.predict(est_test::input_fn(data, 20, false), {.predict_keys = {"nope"}}), Catch::Contains("'nope'"));
  // Labels are needed to train.
  auto features_only = [&] { return data::Dataset::from_tensor_slices(est_test::features_of(data)).batch(10); };
  est::Estimator other(model_fn, {.model_dir = (dir / "other"), .params = {{"units", 2}}});
  CHECK_THROWS_WITH(other.train(features_only, {.steps = 1}), Catch::Contains("(features, labels)"));
  CHECK_THROWS_WITH(est::Estimator(model_fn, {.model_dir = dir / "a", .config = {.model_dir = dir / "b"}}), Catch::Contains("differs"));
}

TEST_CASE("Estimator logs each step's own loss and refuses endless data without steps", "[estimator]") {
  const auto data = est::make_iris_like(16, 9);
  auto one_batch = [&] {  // the same batch every step
    return data::Dataset::from_tensor_slices(data::tuple({est_test::features_of(data), data.labels})).batch(16).repeat();
  };
  auto make = [](const std::string& dir) {
    return std::make_unique<est::DNNClassifier>(est::DNNOptions{
        .hidden_units = {6}, .feature_columns = est_test::iris_columns(), .model_dir = dir, .n_classes = 3,
        .config = {.tf_random_seed = 21, .save_summary_steps = 1, .log_step_count_steps = 0}});
  };
  keras_test::TempDir one("step_loss_1"), two("step_loss_2");
  auto a = make(one.path().string());
  a->train(one_batch, {.steps = 1});
  const double loss_after_one_step = a->evaluate(one_batch, {.steps = 1}).at("loss");
  auto b = make(two.path().string());
  b->train(one_batch, {.steps = 2});
  std::map<std::int64_t, float> logged;
  for (const auto& file : fs::directory_iterator(two.path()))
    if (file.path().filename().string().rfind("events.out.tfevents", 0) == 0)
      for (const auto& event : evreader::read_events(file.path().string()))
        for (const auto& v : event.values)
          if (v.tag == "loss" && v.simple_value) logged[event.step] = *v.simple_value;
  REQUIRE(logged.size() == 2);
  // Step 2's loss is the loss of the weights after step 1 (not the mean of steps 1 and 2).
  CHECK(logged[2] == Approx(loss_after_one_step).epsilon(1e-5));
  CHECK(logged[1] != Approx(logged[2]).epsilon(1e-3));
  CHECK_THROWS_WITH(b->train(one_batch), Catch::Contains("never ends; give steps or max_steps"));
}
