// The premade regressors and the wide-and-deep classifier on every kind of feature column;
// model_to_estimator; train_and_evaluate's throttled evaluations.
#include <catch2/catch.hpp>

#include <filesystem>

#include "estimator_helpers.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace est = keras::estimator;

namespace {

// A census-like table: age (numeric), education (string), occupation (string, hashed), and a label
// that depends on the bucketized age crossed with education.
struct Census {
  Tensor age, education, occupation, label;
};
Census census(std::int64_t n) {
  const std::vector<std::string> educations{"Bachelors", "HS-grad", "Masters", "Doctorate"};
  const std::vector<std::string> jobs{"Tech-support", "Sales", "Exec", "Craft-repair", "Other"};
  std::vector<float> age;
  std::vector<std::string> edu, job;
  std::vector<float> label;
  for (std::int64_t i = 0; i < n; ++i) {
    age.push_back(float(18 + (i * 7) % 50));
    edu.push_back(educations[(i * 3) % 4]);
    job.push_back(jobs[(i * 2) % 5]);
    const bool high = (edu.back() == "Masters" || edu.back() == "Doctorate") && age.back() > 30;
    label.push_back(high ? 1.f : 0.f);
  }
  return {Tensor::from_vector(age, {n}), data::Component::strings(edu, {n}).tensor(),
          data::Component::strings(job, {n}).tensor(), Tensor::from_vector(label, {n})};  // [batch] labels: read as [batch, 1]
}
est::InputFn census_fn(const Census& c, bool repeat) {
  return [c, repeat] {
    auto ds = data::Dataset::from_tensor_slices(data::tuple(
                  {data::named({{"age", c.age}, {"education", c.education}, {"occupation", c.occupation}}), c.label}))
                  .batch(25);
    return repeat ? ds.repeat() : ds;
  };
}

}  // namespace

TEST_CASE("DNNLinearCombinedClassifier learns a crossed feature from every column kind", "[estimator][premade]") {
  const auto data = census(200);
  auto age = est::numeric_column("age", {.normalizer_fn = [](const Tensor& t) { return ops::multiply(ops::add(t, Tensor::scalar(-40.f)), Tensor::scalar(1.f / 15.f)); }});
  auto age_buckets = est::bucketized_column(age, {25, 30, 35, 45, 55});
  auto education = est::categorical_column_with_vocabulary_list("education", std::vector<std::string>{"Bachelors", "HS-grad", "Masters", "Doctorate"});
  auto occupation = est::categorical_column_with_hash_bucket("occupation", 20);
  auto crossed = est::crossed_column({age_buckets, std::string("education")}, 100);
  keras_test::TempDir dir("wide_deep");
  est::DNNLinearCombinedClassifier model({.model_dir = dir.path().string(),
                                          .linear_feature_columns = {age_buckets, education, occupation, crossed},
                                          .dnn_feature_columns = {age, est::indicator_column(education), est::embedding_column(occupation, 3)},
                                          .dnn_hidden_units = {8},
                                          .dnn_optimizer = optimizers::Adam({.learning_rate = 0.05}),
                                          .config = {.tf_random_seed = 3, .log_step_count_steps = 0}});
  const double before = [&] {
    model.train(census_fn(data, true), {.steps = 1});
    return model.evaluate(census_fn(data, false)).at("loss");
  }();
  model.train(census_fn(data, true), {.steps = 120});
  const auto metrics = model.evaluate(census_fn(data, false));
  INFO("loss before " << before << ", after " << metrics.at("loss"));
  CHECK(metrics.at("loss") < before * 0.5);
  CHECK(metrics.at("accuracy") > 0.95);
  CHECK(metrics.at("auc") > 0.95);
  CHECK(metrics.at("auc_precision_recall") > 0.9);
  const auto out = model.predict(census_fn(data, false));
  CHECK(out.at("logistic").shape() == Shape{200, 1});
  CHECK(out.at("class_ids").dtype() == DType::int64);
}

TEST_CASE("LinearRegressor and DNNRegressor fit a linear target", "[estimator][premade]") {
  const std::int64_t n = 64;
  std::vector<float> x, y;
  for (std::int64_t i = 0; i < n; ++i) {
    x.push_back(float(i % 16) / 8.f - 1.f);
    y.push_back(3.f * x.back() + 0.5f);
  }
  const Tensor xt = Tensor::from_vector(x, {n}), yt = Tensor::from_vector(y, {n, 1});
  auto fn = [&](bool repeat) -> est::InputFn {
    return [=] {
      auto ds = data::Dataset::from_tensor_slices(data::tuple({data::named({{"x", xt}}), yt})).batch(16);
      return repeat ? ds.repeat() : ds;
    };
  };
  keras_test::TempDir dir("regressors");
  est::LinearRegressor linear({.feature_columns = {est::numeric_column("x")}, .model_dir = dir / "linear",
                               .optimizer = optimizers::SGD({.learning_rate = 0.2}), .config = {.log_step_count_steps = 0}});
  linear.train(fn(true), {.steps = 150});
  CHECK(linear.evaluate(fn(false)).at("loss") < 1e-3);
  const auto w = linear.model(est::ModeKeys::TRAIN)->get_weights();  // kernel, bias
  CHECK(w[0].to_vector<float>()[0] == Approx(3.0).margin(0.02));
  CHECK(w[1].to_vector<float>()[0] == Approx(0.5).margin(0.02));
  est::DNNRegressor dnn({.hidden_units = {8}, .feature_columns = {est::numeric_column("x")}, .model_dir = dir / "dnn",
                         .optimizer = optimizers::Adam({.learning_rate = 0.02}), .config = {.tf_random_seed = 1, .log_step_count_steps = 0}});
  dnn.train(fn(true), {.steps = 200});
  CHECK(dnn.evaluate(fn(false)).at("loss") < 0.05);
  CHECK(dnn.predict(fn(false)).at("predictions").shape() == Shape{n, 1});
}

TEST_CASE("model_to_estimator trains a compiled Keras model from its initial weights", "[estimator][premade]") {
  const auto data = est::make_iris_like(64, 6);
  utils::set_random_seed(5);
  auto model = std::make_shared<Sequential>(std::initializer_list<LayerRef>{
      layers::Input({4}, {.name = "measurements"}), layers::Dense(8, {.activation = "relu"}),
      layers::Dense(3, {.activation = "softmax"})});
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
  const auto initial = model->get_weights();
  keras_test::TempDir dir("to_estimator");
  auto estimator = est::model_to_estimator(model, {.model_dir = dir.path().string(), .config = {.log_step_count_steps = 0}});
  REQUIRE(model->input_names() == std::vector<std::string>{"measurements"});
  CHECK(estimator->global_step() == 0);  // the warm start: the model's weights as checkpoint 0
  auto fn = [&](bool repeat) -> est::InputFn {
    return [&, repeat] {
      auto ds = data::Dataset::from_tensor_slices(data::tuple({data.matrix, data.labels})).batch(16);
      return repeat ? ds.repeat() : ds;
    };
  };
  const double before = estimator->evaluate(fn(false)).at("loss");
  estimator->train(fn(true), {.steps = 40});
  CHECK(estimator->global_step() == 40);
  const auto after = estimator->evaluate(fn(false));
  CHECK(after.at("loss") < before);
  CHECK(after.count("accuracy"));
  CHECK(model->get_weights()[0].to_vector<float>() != initial[0].to_vector<float>());
  const auto out = estimator->predict(fn(false));
  REQUIRE(out.size() == 1);
  CHECK(out.begin()->second.shape() == Shape{64, 3});
  auto uncompiled = std::make_shared<Sequential>(std::initializer_list<LayerRef>{layers::Input({4}), layers::Dense(2)});
  CHECK_THROWS_WITH(est::model_to_estimator(uncompiled), Catch::Contains("must be compiled"));
}

TEST_CASE("train_and_evaluate evaluates after checkpoints, throttled, and at the end", "[estimator][premade]") {
  const auto data = est::make_iris_like(48, 8);
  keras_test::TempDir dir("train_and_evaluate");
  auto make = [&](const std::string& sub) {
    return std::make_unique<est::DNNClassifier>(est::DNNOptions{
        .hidden_units = {4}, .feature_columns = est_test::iris_columns(), .model_dir = dir / sub, .n_classes = 3,
        .config = {.save_checkpoints_steps = 5, .log_step_count_steps = 0}});
  };
  auto every = make("every");
  const auto result = est::train_and_evaluate(*every, {.input_fn = est_test::input_fn(data, 16, true), .max_steps = 12},
                                              {.input_fn = est_test::input_fn(data, 16, false), .steps = {}, .throttle_secs = 0});
  CHECK(result.evaluated_steps == std::vector<std::int64_t>{5, 10, 12});
  CHECK(result.metrics.at("global_step") == 12);
  auto throttled = make("throttled");
  const auto once = est::train_and_evaluate(*throttled, {.input_fn = est_test::input_fn(data, 16, true), .max_steps = 12},
                                            {.input_fn = est_test::input_fn(data, 16, false), .throttle_secs = 3600});
  CHECK(once.evaluated_steps == std::vector<std::int64_t>{5, 12});
}
