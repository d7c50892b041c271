// The extra metrics' API: default names, Keras's string identifiers, compile() resolution, options and
// configs, standalone use, MeanMetricWrapper over any loss-like callable, the KS metric in fit/evaluate,
// and the errors.
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "losses/losses.hpp"
#include "metrics/metrics.hpp"
#include "metrics_extra_helpers.hpp"

using namespace keras;
using keras::testing::KS;

namespace {

Tensor f(std::vector<float> v) { return Tensor::from_vector<float>(v); }
Tensor f(std::vector<float> v, Shape s) { return Tensor::from_vector<float>(v, s); }

}  // namespace

TEST_CASE("standalone Mean, Sum and MeanTensor, as in the seed") {
  metrics::Mean m;
  m.update(Tensor::scalar(0));
  m.update(Tensor::scalar(5));
  CHECK(m.result() == 2.5);
  CHECK(m(10.0) == 5.0);
  CHECK(m(Tensor::scalar(-5)) == 2.5);
  CHECK(m(4.0, 0.0) == 2.5);  // a zero weight changes nothing
  m.reset_state();
  CHECK(m.result() == 0.0);
  CHECK(m(f({1, 2, 3, 4}, {2, 2}), f({1, 3})) == Approx((1 + 2 + 3 * 3 + 4 * 3) / 8.0));

  metrics::Sum s;
  s.update(2.0);
  s.update(f({1, 2, 3}), f({1, 0, 2}));
  CHECK(s.result() == 9.0);
  CHECK(s(1.0, 3.0) == 12.0);

  metrics::MeanTensor mt({.shape = Shape{2}});
  CHECK(mt.result_tensor().to_vector<float>() == std::vector<float>{0, 0});
  CHECK_THROWS_WITH(mt.update(f({1, 2, 3})), Catch::Contains("(2,)") && Catch::Contains("(3,)"));
  CHECK_THROWS_WITH(metrics::MeanTensor().result_tensor(), Catch::Contains("does not have any value"));
}

TEST_CASE("extra metrics have Keras's default names and string identifiers") {
  CHECK(metrics::Accuracy().name() == "accuracy");
  CHECK(metrics::TopKCategoricalAccuracy().name() == "top_k_categorical_accuracy");
  CHECK(metrics::TopKCategoricalAccuracy().k() == 5);
  CHECK(metrics::SparseTopKCategoricalAccuracy().name() == "sparse_top_k_categorical_accuracy");
  CHECK(metrics::RootMeanSquaredError().name() == "root_mean_squared_error");
  CHECK(metrics::MeanAbsolutePercentageError().name() == "mean_absolute_percentage_error");
  CHECK(metrics::MeanSquaredLogarithmicError().name() == "mean_squared_logarithmic_error");
  CHECK(metrics::CosineSimilarity().name() == "cosine_similarity");
  CHECK(metrics::LogCoshError().name() == "logcosh");
  CHECK(metrics::AUC().name() == "auc");
  CHECK(metrics::Precision().name() == "precision");
  CHECK(metrics::Recall().name() == "recall");
  CHECK(metrics::TruePositives().name() == "true_positives");
  CHECK(metrics::TrueNegatives().name() == "true_negatives");
  CHECK(metrics::FalsePositives().name() == "false_positives");
  CHECK(metrics::FalseNegatives().name() == "false_negatives");
  CHECK(metrics::PrecisionAtRecall(0.5).name() == "precision_at_recall");
  CHECK(metrics::RecallAtPrecision(0.5).name() == "recall_at_precision");
  CHECK(metrics::SensitivityAtSpecificity(0.5).name() == "sensitivity_at_specificity");
  CHECK(metrics::SpecificityAtSensitivity(0.5).name() == "specificity_at_sensitivity");
  CHECK(metrics::MeanIoU(3).name() == "mean_io_u");
  CHECK(metrics::IoU(3, {1}).name() == "io_u");
  CHECK(metrics::BinaryIoU().name() == "binary_io_u");
  CHECK(metrics::OneHotIoU(3, {1}).name() == "one_hot_io_u");
  CHECK(metrics::OneHotMeanIoU(3).name() == "one_hot_mean_io_u");
  CHECK(metrics::F1Score().name() == "f1_score");
  CHECK(metrics::FBetaScore().name() == "fbeta_score");
  CHECK(metrics::R2Score().name() == "r2_score");
  CHECK(metrics::Sum().name() == "sum");
  CHECK(metrics::MeanTensor().name() == "mean_tensor");

  // tf.keras 2.x's function names and aliases, and Keras's snake_case class names.
  const std::vector<std::pair<std::string, std::string>> identifiers = {
      {"accuracy", "Accuracy"}, {"acc", "Accuracy"}, {"ACC", "Accuracy"}, {"Accuracy", "Accuracy"},
      {"top_k_categorical_accuracy", "TopKCategoricalAccuracy"},
      {"sparse_top_k_categorical_accuracy", "SparseTopKCategoricalAccuracy"},
      {"mape", "MeanAbsolutePercentageError"}, {"MAPE", "MeanAbsolutePercentageError"},
      {"mean_absolute_percentage_error", "MeanAbsolutePercentageError"},
      {"msle", "MeanSquaredLogarithmicError"}, {"MSLE", "MeanSquaredLogarithmicError"},
      {"mean_squared_logarithmic_error", "MeanSquaredLogarithmicError"},
      {"logcosh", "LogCoshError"}, {"log_cosh", "LogCoshError"},
      {"cosine_similarity", "CosineSimilarity"}, {"cosine_proximity", "CosineSimilarity"},
      {"root_mean_squared_error", "RootMeanSquaredError"}, {"RootMeanSquaredError", "RootMeanSquaredError"},
      {"auc", "AUC"}, {"AUC", "AUC"}, {"precision", "Precision"}, {"Precision", "Precision"},
      {"recall", "Recall"}, {"true_positives", "TruePositives"}, {"TrueNegatives", "TrueNegatives"},
      {"false_positives", "FalsePositives"}, {"false_negatives", "FalseNegatives"},
      {"f1_score", "F1Score"}, {"fbeta_score", "FBetaScore"}, {"r2_score", "R2Score"},
      {"sum", "Sum"}, {"mean_tensor", "MeanTensor"}, {"binary_io_u", "BinaryIoU"}, {"ks", "KS"},
  };
  for (const auto& [identifier, class_name] : identifiers) {
    INFO(identifier);
    CHECK(metrics::Metric::get(identifier)->class_name() == class_name);
  }
  // Keras registers no "rmse"; the error lists the valid names.
  CHECK_THROWS_WITH(metrics::Metric::get("rmse"), Catch::Contains("root_mean_squared_error") && Catch::Contains("auc"));
  // Metrics with required arguments say which.
  CHECK_THROWS_WITH(metrics::Metric::get("mean_io_u"), Catch::Contains("num_classes"));
  CHECK_THROWS_WITH(metrics::Metric::get("precision_at_recall"), Catch::Contains("recall"));
  CHECK_THROWS_WITH(metrics::Metric::get("io_u"), Catch::Contains("num_classes"));
}

TEST_CASE("compile() strings resolve to the extra metrics with Keras's names") {
  struct Case {
    std::string identifier, class_name, name;
  };
  const std::vector<Case> cases = {
      {"auc", "AUC", "auc"},
      {"AUC", "AUC", "auc"},
      {"precision", "Precision", "precision"},
      {"Recall", "Recall", "recall"},
      {"top_k_categorical_accuracy", "TopKCategoricalAccuracy", "top_k_categorical_accuracy"},
      {"sparse_top_k_categorical_accuracy", "SparseTopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy"},
      {"mape", "MeanAbsolutePercentageError", "mape"},
      {"RootMeanSquaredError", "RootMeanSquaredError", "root_mean_squared_error"},
      {"Accuracy", "Accuracy", "accuracy"},
      {"ks", "KS", "ks"},
  };
  for (const auto& c : cases) {
    INFO(c.identifier);
    auto m = metrics::resolve_metric(c.identifier, {8, 1}, {8, 1}, "BinaryCrossentropy");
    CHECK(m->class_name() == c.class_name);
    CHECK(m->name() == c.name);
  }
}

TEST_CASE("a model compiled with extra metrics reports them under their names") {
  utils::set_random_seed(3);
  Sequential model({layers::Input({4}), layers::Dense(1, {.activation = "sigmoid"})});
  model.compile({.optimizer = "sgd",
                 .loss = "binary_crossentropy",
                 .metrics = {"auc", "precision", metrics::Recall({.thresholds = {0.4}, .name = "recall_at_0.4"}),
                             metrics::MeanIoU(2, {.name = "miou"}), "ks"}});
  std::vector<float> xs, ys;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 4; ++j) xs.push_back(static_cast<float>(((i * 7 + j * 3) % 11) - 5) / 5.f);
    ys.push_back(static_cast<float>((i * 5) % 3 == 0));
  }
  const Tensor x = f(xs, {64, 4}), y = f(ys, {64, 1});
  const auto logs = model.evaluate(x, y, {.batch_size = 16, .verbose = 0});
  for (const char* key : {"loss", "auc", "precision", "recall_at_0.4", "miou", "ks"}) {
    INFO(key);
    CHECK(logs.contains(key));
  }
  // The same values from the metrics used standalone on the predictions.
  const Tensor p = model.predict(x, {.verbose = 0});
  metrics::AUC auc;
  auc.update_state(y, p);
  CHECK(logs.at("auc") == Approx(auc.result()).epsilon(1e-6));
  metrics::Precision precision;
  precision.update_state(y, p);
  CHECK(logs.at("precision") == Approx(precision.result()).epsilon(1e-6));
  KS ks;
  ks.update_state(y, p);
  CHECK(logs.at("ks") == Approx(ks.result()).epsilon(1e-6));
}

TEST_CASE("options structs take partial designated initializers and round-trip through configs") {
  const std::vector<std::shared_ptr<metrics::Metric>> all = {
      std::make_shared<metrics::AUC>(metrics::AUCOptions{.curve = "PR", .from_logits = true}),
      std::make_shared<metrics::AUC>(metrics::AUCOptions{.thresholds = {0.8, 0.2}, .multi_label = true}),
      std::make_shared<metrics::Precision>(metrics::PrecisionOptions{.top_k = 3}),
      std::make_shared<metrics::Recall>(metrics::RecallOptions{.thresholds = {0.2, 0.7}, .class_id = 1}),
      std::make_shared<metrics::TruePositives>(metrics::ConfusionCountOptions{.thresholds = {0.3}}),
      std::make_shared<metrics::FalseNegatives>(metrics::ConfusionCountOptions{.name = "fn"}),
      std::make_shared<metrics::PrecisionAtRecall>(0.7, metrics::PrecisionAtRecallOptions{.class_id = 2}),
      std::make_shared<metrics::SensitivityAtSpecificity>(0.4,
                                                          metrics::SensitivityAtSpecificityOptions{.num_thresholds = 10}),
      std::make_shared<metrics::IoU>(4, std::vector<int>{1, 3}, metrics::IoUOptions{.ignore_class = 255}),
      std::make_shared<metrics::MeanIoU>(3, metrics::MeanIoUOptions{.sparse_y_pred = false}),
      std::make_shared<metrics::BinaryIoU>(metrics::BinaryIoUOptions{.threshold = 0.2}),
      std::make_shared<metrics::OneHotIoU>(3, std::vector<int>{0}),
      std::make_shared<metrics::OneHotMeanIoU>(3, metrics::OneHotMeanIoUOptions{.axis = 1}),
      std::make_shared<metrics::F1Score>(metrics::F1ScoreOptions{.average = "macro"}),
      std::make_shared<metrics::FBetaScore>(metrics::FBetaScoreOptions{.beta = 0.5, .threshold = 0.6}),
      std::make_shared<metrics::R2Score>(metrics::R2ScoreOptions{.class_aggregation = std::nullopt}),
      std::make_shared<metrics::R2Score>(metrics::R2ScoreOptions{.num_regressors = 3}),
      std::make_shared<metrics::TopKCategoricalAccuracy>(metrics::TopKCategoricalAccuracyOptions{.k = 2}),
      std::make_shared<metrics::SparseTopKCategoricalAccuracy>(metrics::SparseTopKCategoricalAccuracyOptions{.name = "s"}),
      std::make_shared<metrics::CosineSimilarity>(metrics::CosineSimilarityOptions{.axis = 0}),
      std::make_shared<metrics::MeanTensor>(metrics::MeanTensorOptions{.shape = Shape{2, 3}}),
      std::make_shared<metrics::Sum>(metrics::SumOptions{.name = "total"}),
      std::make_shared<metrics::Accuracy>(),
      std::make_shared<metrics::RootMeanSquaredError>(),
      std::make_shared<metrics::MeanAbsolutePercentageError>(),
      std::make_shared<metrics::MeanSquaredLogarithmicError>(),
      std::make_shared<metrics::LogCoshError>(),
  };
  for (const auto& m : all) {
    INFO(m->class_name() << " " << m->get_config().dump());
    const json serialized = metrics::serialize(*m);
    auto again = metrics::Metric::deserialize(serialized);
    CHECK(again->class_name() == m->class_name());
    CHECK(again->name() == m->name());
    CHECK(metrics::serialize(*again) == serialized);
  }
  // Keras's keys and values for a few.
  CHECK(metrics::Precision({.top_k = 3}).get_config() ==
        json{{"name", "precision"}, {"dtype", "float32"}, {"thresholds", nullptr}, {"top_k", 3}, {"class_id", nullptr}});
  CHECK(metrics::AUC({.thresholds = {0.8, 0.2}}).get_config()["thresholds"] == json{0.2, 0.8});
  CHECK(metrics::AUC({.thresholds = {0.8, 0.2}}).get_config()["num_thresholds"] == 4);
  CHECK(metrics::AUC({.curve = "pr"}).get_config()["curve"] == "PR");
  CHECK(!metrics::AUC().get_config().contains("thresholds"));
  CHECK(metrics::F1Score().get_config() ==
        json{{"name", "f1_score"}, {"dtype", "float32"}, {"average", nullptr}, {"threshold", nullptr}});
}

TEST_CASE("MeanMetricWrapper averages any loss-like callable") {
  const Tensor t = f({0, 1, 1, 0}, {2, 2}), p = f({0.2f, 0.9f, 0.4f, 0.1f}, {2, 2});
  const double mse = ops::mean(losses::mean_squared_error(t, p)).item();

  metrics::MeanMetricWrapper from_function(losses::mean_squared_error, "mse_fn");
  from_function.update_state(t, p);
  CHECK(from_function.result() == Approx(mse));
  CHECK(from_function.get_config() == json{{"name", "mse_fn"}, {"dtype", "float32"}});

  metrics::MeanMetricWrapper from_lambda([](const Tensor& yt, const Tensor& yp) { return ops::max(ops::abs(yt - yp), {-1}); },
                                         "max_abs");
  from_lambda.update_state(t, p);
  CHECK(from_lambda.result() == Approx((0.2 + 0.6) / 2));

  metrics::MeanMetricWrapper from_loss(losses::MeanSquaredError{});
  CHECK(from_loss.name() == "mean_squared_error");
  from_loss.update_state(t, p, f({1, 0}));
  CHECK(from_loss.result() == Approx(ops::mean(losses::mean_squared_error(t, p).slice(0, 1)).item()));
  CHECK(from_loss.get_config()["fn"] == "mean_squared_error");
  auto again = metrics::Metric::deserialize(metrics::serialize(from_loss));
  again->update_state(t, p, f({1, 0}));
  CHECK(again->result() == Approx(from_loss.result()));

  metrics::MeanMetricWrapper bce(losses::BinaryCrossentropy({.from_logits = true}), "bce_logits");
  bce.update_state(t, p);
  CHECK(bce.result() == Approx(ops::mean(losses::binary_crossentropy(t, p, true)).item()));

  // "fn" may name a metric function too, its arguments kept.
  auto top2 = metrics::MeanMetricWrapper::from_config({{"name", "top"}, {"fn", "top_k_categorical_accuracy"}});
  top2->update_state(f({0, 0, 1, 1, 0, 0}, {2, 3}), f({0.5f, 0.3f, 0.2f, 0.1f, 0.2f, 0.7f}, {2, 3}));
  CHECK(top2->result() == 1.0);
  CHECK_THROWS_WITH(metrics::MeanMetricWrapper::from_config({{"fn", "nope"}}), Catch::Contains("nope"));

  // (N,) targets against (N, 1) predictions reach the callable reshaped.
  metrics::MeanMetricWrapper shapes([](const Tensor& yt, const Tensor& yp) {
    CHECK(yt.shape() == yp.shape());
    return ops::mean(ops::abs(yt - yp), {-1});
  });
  shapes.update_state(f({1, 0}), f({0.5f, 0.5f}, {2, 1}));
  CHECK(shapes.result() == Approx(0.5));
}

TEST_CASE("extra metrics accumulate under a recording tape without touching it") {
  Tensor x = f({0.2f, 0.7f, 0.4f, 0.9f}, {4, 1});
  GradientTape tape;
  tape.watch(x);
  metrics::AUC auc;
  metrics::RootMeanSquaredError rmse;
  metrics::LogCoshError logcosh;
  auc.update_state(f({0, 1, 0, 1}, {4, 1}), x);
  rmse.update_state(f({0, 1, 0, 1}, {4, 1}), x);
  logcosh.update_state(f({0, 1, 0, 1}, {4, 1}), x);
  CHECK(auc.result() == Approx(1.0));
  Tensor loss = ops::sum(ops::square(x));
  CHECK(tape.gradient(loss, x).defined());
}

TEST_CASE("extra metrics reject bad arguments with messages that say how to fix them") {
  CHECK_THROWS_WITH(metrics::AUC({.curve = "roc_curve"}), Catch::Contains("ROC") && Catch::Contains("PR"));
  CHECK_THROWS_WITH(metrics::AUC({.summation_method = "trapezoid"}), Catch::Contains("minoring"));
  CHECK_THROWS_WITH(metrics::AUC({.num_thresholds = 1}), Catch::Contains("num_thresholds"));
  CHECK_THROWS_WITH(metrics::AUC({.thresholds = {0.5, 1.5}}), Catch::Contains("[0, 1]") && Catch::Contains("1.5"));
  CHECK_THROWS_WITH(metrics::AUC({.num_labels = 3}), Catch::Contains("multi_label"));
  CHECK_THROWS_WITH(metrics::Precision({.thresholds = {-0.1}}), Catch::Contains("[0, 1]"));
  CHECK_THROWS_WITH(metrics::PrecisionAtRecall(1.5), Catch::Contains("recall"));
  CHECK_THROWS_WITH(metrics::SensitivityAtSpecificity(0.5, {.num_thresholds = 0}), Catch::Contains("num_thresholds"));
  CHECK_THROWS_WITH(metrics::IoU(3, {3}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(metrics::F1Score({.average = "samples"}), Catch::Contains("micro") && Catch::Contains("F1Score"));
  CHECK_THROWS_WITH(metrics::FBetaScore({.beta = 0}), Catch::Contains("beta"));
  CHECK_THROWS_WITH(metrics::F1Score({.threshold = 1.5}), Catch::Contains("threshold"));
  CHECK_THROWS_WITH(metrics::R2Score({.class_aggregation = "median"}), Catch::Contains("variance_weighted_average"));

  metrics::Precision precision;
  CHECK_THROWS_WITH(precision.update_state(f({1, 0, 1}), f({0.5f, 0.2f})), Catch::Contains("(3,)") && Catch::Contains("(2,)"));
  CHECK_THROWS_WITH(precision.update_state(f({1, 0}), f({0.5f, 0.2f}), f({1, 2, 3})),
                    Catch::Contains("sample_weight"));
  metrics::Recall class3({.class_id = 3});
  CHECK_THROWS_WITH(class3.update_state(f({1, 0, 0}, {1, 3}), f({0.5f, 0.2f, 0.1f}, {1, 3})),
                    Catch::Contains("class_id 3"));
  metrics::MeanIoU miou(2);
  CHECK_THROWS_WITH(miou.update_state(f({0, 2}), f({0, 1})), Catch::Contains("num_classes"));
  metrics::R2Score r2;
  CHECK_THROWS_WITH(r2.update_state(f({1, 2}), f({1, 2})), Catch::Contains("2D"));
  metrics::F1Score f1;
  CHECK_THROWS_WITH(f1.update_state(f({1, 0}, {1, 2}), f({1, 0, 0}, {1, 3})), Catch::Contains("(1, 3)"));
  metrics::AUC multi({.multi_label = true});
  CHECK_THROWS_WITH(multi.update_state(f({1, 0}), f({0.2f, 0.3f})), Catch::Contains("rank 2"));
  metrics::SparseTopKCategoricalAccuracy top;
  CHECK_THROWS_WITH(top.update_state(f({1, 2, 0}), f({0.2f, 0.3f, 0.5f, 0.1f}, {2, 2})),
                    Catch::Contains("top_k_categorical_accuracy"));
}

TEST_CASE("the KS metric accumulates over batches like the seed's") {
  KS ks;
  // Positives score high, negatives low: fully separated.
  ks.update_state(f({1, 1, 0}), f({0.9f, 0.8f, 0.1f}));
  CHECK(ks.result() == Approx(1.0));
  // A positive at 0.05 and a negative at 0.95: buckets are now positives {5, 80, 90}, negatives {10, 95}.
  // Cumulative shares (positives, negatives): 5 → (1/3, 0), 10 → (1/3, 1/2), 80 → (2/3, 1/2),
  // 90 → (1, 1/2), 95 → (1, 1); the largest gap is 1/2.
  ks.update_state(f({1, 0}), f({0.05f, 0.95f}));
  CHECK(ks.result() == Approx(0.5));
  ks.reset_state();
  CHECK(ks.result() == 0.0);
  auto from_registry = metrics::Metric::get("ks");
  CHECK(from_registry->name() == "ks");
}
