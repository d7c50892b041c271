#include <catch2/catch.hpp>

#include <fstream>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "losses/losses.hpp"
#include "metrics/metrics.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;
using keras::testing::random_tensor;

namespace {

Tensor call_function(const std::string& fn, const json& args, const Tensor& y_true, const Tensor& y_pred) {
  if (fn == "binary_accuracy") return metrics::binary_accuracy(y_true, y_pred, args.value("threshold", 0.5f));
  if (fn == "categorical_accuracy") return metrics::categorical_accuracy(y_true, y_pred);
  if (fn == "sparse_categorical_accuracy") return metrics::sparse_categorical_accuracy(y_true, y_pred);
  if (fn == "mean_absolute_error") return losses::mean_absolute_error(y_true, y_pred);
  if (fn == "mean_squared_error") return losses::mean_squared_error(y_true, y_pred);
  FAIL("unknown function " << fn);
  return Tensor();
}

}  // namespace

TEST_CASE("metrics match the PyTorch golden values, accumulate over batches and reset") {
  const json golden = load_golden("metrics.json");
  REQUIRE(golden["cases"].size() >= 6);
  for (const auto& c : golden["cases"]) {
    SECTION(c["name"].get<std::string>()) {
      auto metric = metrics::Metric::deserialize({{"class_name", c["class_name"]}, {"config", c["config"]}});
      CHECK(metric->class_name() == c["class_name"].get<std::string>());
      const auto& batches = c["batches"];
      const auto results = c["results"].get<std::vector<double>>();
      REQUIRE(batches.size() >= 2);
      for (std::size_t b = 0; b < batches.size(); ++b) {
        INFO("batch " << b);
        const Tensor y_true = golden_tensor(batches[b]["y_true"]), y_pred = golden_tensor(batches[b]["y_pred"]);
        const Tensor values = call_function(c["fn"], c["fn_args"], y_true, y_pred);
        CHECK(values.dtype() == DType::float32);
        const auto want = batches[b]["values"].get<std::vector<double>>();
        const auto got = values.to_vector<float>();
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
        metric->update_state(y_true, y_pred, golden_tensor(batches[b]["sample_weight"]));
        CHECK(metric->result() == Approx(results[b]).epsilon(1e-5));
      }
      metric->reset_state();
      CHECK(metric->result() == 0.0);
      metric->update_state(golden_tensor(batches[0]["y_true"]), golden_tensor(batches[0]["y_pred"]),
                           golden_tensor(batches[0]["sample_weight"]));
      CHECK(metric->result() == Approx(results[0]).epsilon(1e-5));
    }
  }
}

TEST_CASE("metrics have Keras's default names, aliases and configs") {
  CHECK(metrics::BinaryAccuracy().name() == "binary_accuracy");
  CHECK(metrics::CategoricalAccuracy().name() == "categorical_accuracy");
  CHECK(metrics::SparseCategoricalAccuracy().name() == "sparse_categorical_accuracy");
  CHECK(metrics::MeanAbsoluteError().name() == "mean_absolute_error");
  CHECK(metrics::MeanSquaredError().name() == "mean_squared_error");
  CHECK(metrics::Metric::get("mae")->class_name() == "MeanAbsoluteError");
  CHECK(metrics::Metric::get("MAE")->class_name() == "MeanAbsoluteError");
  CHECK(metrics::Metric::get("mse")->class_name() == "MeanSquaredError");
  CHECK(metrics::Metric::get("MSE")->class_name() == "MeanSquaredError");
  CHECK(metrics::Metric::get("mean_squared_error")->class_name() == "MeanSquaredError");
  CHECK(metrics::Metric::get("binary_accuracy")->class_name() == "BinaryAccuracy");
  CHECK(metrics::Metric::get("categorical_accuracy")->class_name() == "CategoricalAccuracy");
  CHECK(metrics::Metric::get("sparse_categorical_accuracy")->class_name() == "SparseCategoricalAccuracy");

  metrics::BinaryAccuracy ba({.name = "ba", .threshold = 0.7});
  CHECK(ba.get_config() == json{{"name", "ba"}, {"dtype", "float32"}, {"threshold", 0.7}});
  const std::vector<std::shared_ptr<metrics::Metric>> all = {
      std::make_shared<metrics::BinaryAccuracy>(ba),
      std::make_shared<metrics::CategoricalAccuracy>(metrics::CategoricalAccuracyOptions{.name = "cat"}),
      std::make_shared<metrics::SparseCategoricalAccuracy>(),
      std::make_shared<metrics::MeanAbsoluteError>(),
      std::make_shared<metrics::MeanSquaredError>(metrics::MeanSquaredErrorOptions{.name = "l2"}),
  };
  for (const auto& m : all) {
    const json serialized = metrics::serialize(*m);
    auto again = metrics::Metric::deserialize(serialized);
    CHECK(again->class_name() == m->class_name());
    CHECK(again->name() == m->name());
    CHECK(metrics::serialize(*again) == serialized);
  }
  // The threshold survives the round trip and is used.
  auto again = metrics::Metric::deserialize(metrics::serialize(ba));
  again->update_state(Tensor::from_vector<float>({1, 0}, {2, 1}), Tensor::from_vector<float>({0.6f, 0.6f}, {2, 1}));
  CHECK(again->result() == Approx(0.5));

  try {
    metrics::Metric::get("acuracy");
    FAIL("expected an error");
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("acuracy") != std::string::npos);
    for (const char* name : {"binary_accuracy", "sparse_categorical_accuracy", "mae", "mse", "BinaryAccuracy"})
      CHECK(msg.find(name) != std::string::npos);
  }
}

TEST_CASE("metric functions handle label layouts and reject mismatched shapes") {
  const Tensor probs = Tensor::from_vector<float>({0.1f, 0.7f, 0.2f, 0.5f, 0.3f, 0.2f}, {2, 3});
  const std::vector<float> expected{1, 0};
  CHECK(metrics::sparse_categorical_accuracy(Tensor::from_vector<std::int32_t>({1, 2}), probs).to_vector<float>() ==
        expected);
  CHECK(metrics::sparse_categorical_accuracy(Tensor::from_vector<std::int64_t>({1, 2}, {2, 1}), probs)
            .to_vector<float>() == expected);
  CHECK(metrics::sparse_categorical_accuracy(Tensor::from_vector<std::uint8_t>({1, 2}), probs).to_vector<float>() ==
        expected);
  CHECK(metrics::sparse_categorical_accuracy(Tensor::from_vector<float>({1, 2}, {2, 1}), probs).to_vector<float>() ==
        expected);
  CHECK(metrics::categorical_accuracy(ops::one_hot(Tensor::from_vector<std::int32_t>({1, 2}), 3), probs)
            .to_vector<float>() == expected);
  CHECK(metrics::binary_accuracy(Tensor::from_vector<float>({1, 0, 1}, {3, 1}),
                                 Tensor::from_vector<float>({0.9f, 0.4f, 0.5f}, {3, 1}))
            .to_vector<float>() == std::vector<float>{1, 1, 0});

  CHECK_THROWS_WITH(metrics::sparse_categorical_accuracy(ops::one_hot(Tensor::from_vector<std::int32_t>({1, 2}), 3), probs),
                    Catch::Contains("(2, 3)") && Catch::Contains("categorical_accuracy"));
  CHECK_THROWS_WITH(metrics::categorical_accuracy(Tensor::from_vector<std::int32_t>({1, 2}), probs),
                    Catch::Contains("(2,)") && Catch::Contains("sparse_categorical_accuracy"));
  CHECK_THROWS_AS(metrics::binary_accuracy(Tensor::zeros({2, 2}), probs), ValueError);
  metrics::MeanAbsoluteError mae;
  CHECK_THROWS_AS(mae.update_state(Tensor::zeros({2}), probs, Tensor::ones({3})), ValueError);
}

TEST_CASE("metric updates inside a recording tape leave the tape usable") {
  Tensor x = random_tensor({4, 3});
  GradientTape tape;
  tape.watch(x);
  metrics::MeanSquaredError mse;
  mse.update_state(Tensor::zeros({4, 3}), x);
  Tensor loss = ops::sum(x);
  CHECK(tape.gradient(loss, x).defined());
}

TEST_CASE("\"accuracy\" and \"crossentropy\" resolve from the loss and the shapes, as in Keras 2") {
  struct Case {
    std::string identifier;
    Shape y_true, y_pred;
    std::string loss, class_name;
  };
  const std::vector<Case> cases = {
      {"accuracy", {32, 1}, {32, 1}, "BinaryCrossentropy", "BinaryAccuracy"},
      {"accuracy", {32, 1}, {32, 1}, "MeanSquaredError", "BinaryAccuracy"},
      {"accuracy", {32}, {32, 1}, "", "BinaryAccuracy"},
      {"accuracy", {32, 5}, {32, 5}, "BinaryCrossentropy", "BinaryAccuracy"},  // multi-label
      {"acc", {32}, {32, 10}, "SparseCategoricalCrossentropy", "SparseCategoricalAccuracy"},
      {"accuracy", {32, 1}, {32, 10}, "SparseCategoricalCrossentropy", "SparseCategoricalAccuracy"},
      {"accuracy", {8, 20}, {8, 20, 10}, "SparseCategoricalCrossentropy", "SparseCategoricalAccuracy"},
      {"accuracy", {32, 10}, {32, 10}, "CategoricalCrossentropy", "CategoricalAccuracy"},
      {"acc", {32, 10}, {32, 10}, "", "CategoricalAccuracy"},
      {"mae", {32, 1}, {32, 1}, "MeanSquaredError", "MeanAbsoluteError"},
      {"binary_accuracy", {32, 10}, {32, 10}, "CategoricalCrossentropy", "BinaryAccuracy"},
  };
  for (const auto& c : cases) {
    INFO(c.identifier << " " << shape_str(c.y_true) << " " << shape_str(c.y_pred) << " " << c.loss);
    auto metric = metrics::resolve_metric(c.identifier, c.y_true, c.y_pred, c.loss);
    CHECK(metric->class_name() == c.class_name);
    CHECK(metric->name() == c.identifier);
  }
  // A class name keeps the class's default metric name.
  CHECK(metrics::resolve_metric("MeanSquaredError", {4, 1}, {4, 1}, "")->name() == "mean_squared_error");

  // The resolved metric computes the chosen accuracy.
  auto acc = metrics::resolve_metric("accuracy", {2}, {2, 3}, "SparseCategoricalCrossentropy");
  acc->update_state(Tensor::from_vector<std::int32_t>({1, 0}),
                    Tensor::from_vector<float>({0.1f, 0.7f, 0.2f, 0.5f, 0.3f, 0.2f}, {2, 3}));
  CHECK(acc->result() == Approx(1.0));

  // "crossentropy" / "ce" average the matching crossentropy.
  const Tensor p = Tensor::from_vector<float>({0.1f, 0.7f, 0.2f, 0.5f, 0.3f, 0.2f}, {2, 3});
  const Tensor ids = Tensor::from_vector<std::int32_t>({1, 0});
  auto ce = metrics::resolve_metric("ce", {2}, {2, 3}, "SparseCategoricalCrossentropy");
  CHECK(ce->name() == "ce");
  ce->update_state(ids, p);
  CHECK(ce->result() == Approx(ops::mean(losses::sparse_categorical_crossentropy(ids, p)).item()));
  auto cce = metrics::resolve_metric("crossentropy", {2, 3}, {2, 3}, "CategoricalCrossentropy");
  cce->update_state(ops::one_hot(ids, 3), p);
  CHECK(cce->result() == Approx(ops::mean(losses::categorical_crossentropy(ops::one_hot(ids, 3), p)).item()));
  auto bce = metrics::resolve_metric("crossentropy", {2, 1}, {2, 1}, "");
  const Tensor bt = Tensor::from_vector<float>({1, 0}, {2, 1}), bp = Tensor::from_vector<float>({0.8f, 0.4f}, {2, 1});
  bce->update_state(bt, bp);
  CHECK(bce->result() == Approx(ops::mean(losses::binary_crossentropy(bt, bp)).item()));

  CHECK_THROWS_WITH(metrics::resolve_metric("acuracy", {2}, {2, 3}, ""), Catch::Contains("sparse_categorical_accuracy"));
}
