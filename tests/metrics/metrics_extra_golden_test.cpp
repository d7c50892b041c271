// The stateful metrics against tests/golden/metrics_extra.json (NumPy re-implementations of tf.keras
// 2.x, cross-checked with scikit-learn and SciPy) and against the values tf.keras's own docstrings print.
#include <catch2/catch.hpp>

#include <array>
#include <optional>

#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "metrics/metrics.hpp"
#include "metrics_extra_helpers.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;
using keras::testing::result_tensor_of;

namespace {

Tensor f(std::vector<float> v) { return Tensor::from_vector<float>(v); }
Tensor f(std::vector<float> v, Shape s) { return Tensor::from_vector<float>(v, s); }

}  // namespace

TEST_CASE("extra metrics match the golden values batch by batch, reset, and keep Keras's configs") {
  const json golden = load_golden("metrics_extra.json");
  REQUIRE(golden["cases"].size() >= 50);
  for (const auto& c : golden["cases"]) {
    SECTION(c["name"].get<std::string>()) {
      const json config = c["config"];
      auto metric = metrics::Metric::deserialize({{"class_name", c["class_name"]}, {"config", config}});
      CHECK(metric->class_name() == c["class_name"].get<std::string>());
      CHECK(metric->name() == config["name"].get<std::string>());
      // The config holds exactly the keys and values tf.keras 2.13 writes.
      CHECK(metric->get_config() == config);
      CHECK(metrics::serialize(*metrics::Metric::deserialize(metrics::serialize(*metric))) == metrics::serialize(*metric));

      const json& batches = c["batches"].is_string() ? golden["data"][c["batches"].get<std::string>()] : c["batches"];
      const auto results = c["results"].get<std::vector<double>>();
      const double tol = c["tolerance"].get<double>();
      REQUIRE(batches.size() >= 2);
      REQUIRE(results.size() == batches.size());
      const auto feed = [&](std::size_t b) {
        metric->update_state(golden_tensor(batches[b]["y_true"]), golden_tensor(batches[b]["y_pred"]),
                             golden_tensor(batches[b]["sample_weight"]));
      };
      for (std::size_t b = 0; b < batches.size(); ++b) {
        INFO("after batch " << b);
        feed(b);
        CHECK(metric->result() == Approx(results[b]).epsilon(tol).margin(tol / 10));
        if (c.contains("result_tensors")) {
          const auto got = result_tensor_of(*metric);
          REQUIRE(got.has_value());
          const auto want = c["result_tensors"][b].get<std::vector<double>>();
          const auto values = got->to_vector<float>();
          REQUIRE(values.size() == want.size());
          for (std::size_t i = 0; i < want.size(); ++i) CHECK(values[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
        }
      }
      if (c.contains("reference")) {  // the independent oracle, within its stated tolerance
        INFO(c["reference"]["oracle"].get<std::string>());
        CHECK(std::abs(metric->result() - c["reference"]["value"].get<double>()) <=
              c["reference"]["tolerance"].get<double>() + 1e-6);
      }
      metric->reset_state();
      CHECK(metric->result() == 0.0);
      feed(0);
      CHECK(metric->result() == Approx(results[0]).epsilon(tol).margin(tol / 10));
    }
  }
}

// The outputs printed in tf.keras 2.x's docstrings: Keras itself as the oracle.
TEST_CASE("extra metrics reproduce tf.keras's documented examples") {
  SECTION("AUC") {
    metrics::AUC m({.num_thresholds = 3});
    m.update_state(f({0, 0, 1, 1}), f({0, 0.5f, 0.3f, 0.9f}));
    CHECK(m.result() == Approx(0.75));
    REQUIRE(m.thresholds().size() == 3);
    CHECK(m.thresholds()[0] == Approx(-1e-7));
    CHECK(m.thresholds()[1] == Approx(0.5));
    CHECK(m.thresholds()[2] == Approx(1 + 1e-7));
    CHECK(m.counts().tp == std::vector<double>{2, 1, 0});
    CHECK(m.counts().fp == std::vector<double>{2, 0, 0});
    CHECK(m.counts().fn == std::vector<double>{0, 1, 2});
    CHECK(m.counts().tn == std::vector<double>{0, 2, 2});
    m.reset_state();
    m.update_state(f({0, 0, 1, 1}), f({0, 0.5f, 0.3f, 0.9f}), f({1, 0, 0, 1}));
    CHECK(m.result() == Approx(1.0));
    CHECK(metrics::AUC().thresholds().size() == 200);
  }
  SECTION("confusion counters, precision, recall") {
    metrics::FalsePositives fp;
    fp.update_state(f({0, 1, 0, 0}), f({0, 0, 1, 1}));
    CHECK(fp.result() == 2);
    fp.reset_state();
    fp.update_state(f({0, 1, 0, 0}), f({0, 0, 1, 1}), f({0, 0, 1, 0}));
    CHECK(fp.result() == 1);
    metrics::FalseNegatives fn;
    fn.update_state(f({0, 1, 1, 1}), f({0, 1, 0, 0}));
    CHECK(fn.result() == 2);
    metrics::TrueNegatives tn;
    tn.update_state(f({0, 1, 0, 0}), f({1, 1, 0, 0}));
    CHECK(tn.result() == 2);
    metrics::TruePositives tp;
    tp.update_state(f({0, 1, 1, 1}), f({1, 0, 1, 1}));
    CHECK(tp.result() == 2);
    metrics::Precision p;
    p.update_state(f({0, 1, 1, 1}), f({1, 0, 1, 1}));
    CHECK(p.result() == Approx(2.0 / 3));
    p.reset_state();
    p.update_state(f({0, 1, 1, 1}), f({1, 0, 1, 1}), f({0, 0, 1, 0}));
    CHECK(p.result() == Approx(1.0));
    metrics::Precision top2({.top_k = 2});
    top2.update_state(f({0, 0, 1, 1}), f({1, 1, 1, 1}));
    CHECK(top2.result() == 0.0);
    metrics::Precision top4({.top_k = 4});
    top4.update_state(f({0, 0, 1, 1}), f({1, 1, 1, 1}));
    CHECK(top4.result() == Approx(0.5));
    metrics::Recall r;
    r.update_state(f({0, 1, 1, 1}), f({1, 0, 1, 1}));
    CHECK(r.result() == Approx(2.0 / 3));
    r.reset_state();
    r.update_state(f({0, 1, 1, 1}), f({1, 0, 1, 1}), f({0, 0, 1, 0}));
    CHECK(r.result() == Approx(1.0));
  }
  SECTION("sensitivity and specificity family") {
    const Tensor yt = f({0, 0, 0, 1, 1}), yp = f({0, 0.3f, 0.8f, 0.3f, 0.8f});
    metrics::SensitivityAtSpecificity ss(0.5);
    ss.update_state(yt, yp);
    CHECK(ss.result() == Approx(0.5));
    ss.reset_state();
    ss.update_state(yt, yp, f({1, 1, 2, 2, 1}));
    CHECK(ss.result() == Approx(0.333333).epsilon(1e-5));
    metrics::SpecificityAtSensitivity sp(0.5);
    sp.update_state(yt, yp);
    CHECK(sp.result() == Approx(0.66666667));
    sp.reset_state();
    sp.update_state(yt, yp, f({1, 1, 2, 2, 2}));
    CHECK(sp.result() == Approx(0.5));
    metrics::PrecisionAtRecall pr(0.5);
    pr.update_state(yt, yp);
    CHECK(pr.result() == Approx(0.5));
    pr.reset_state();
    pr.update_state(yt, yp, f({2, 2, 2, 1, 1}));
    CHECK(pr.result() == Approx(0.33333333));
    metrics::RecallAtPrecision rp(0.8);
    rp.update_state(f({0, 0, 1, 1}), f({0, 0.5f, 0.3f, 0.9f}));
    CHECK(rp.result() == Approx(0.5));
    rp.reset_state();
    rp.update_state(f({0, 0, 1, 1}), f({0, 0.5f, 0.3f, 0.9f}), f({1, 0, 0, 1}));
    CHECK(rp.result() == Approx(1.0));
  }
  SECTION("IoU family") {
    metrics::IoU iou(2, {0});
    iou.update_state(f({0, 0, 1, 1}), f({0, 1, 0, 1}));
    CHECK(iou.result() == Approx(0.33333334));
    iou.reset_state();
    iou.update_state(f({0, 0, 1, 1}), f({0, 1, 0, 1}), f({0.3f, 0.3f, 0.3f, 0.1f}));
    CHECK(iou.result() == Approx(0.33333334));
    metrics::MeanIoU miou(2);
    miou.update_state(f({0, 0, 1, 1}), f({0, 1, 0, 1}));
    CHECK(miou.result() == Approx(0.33333334));
    miou.reset_state();
    miou.update_state(f({0, 0, 1, 1}), f({0, 1, 0, 1}), f({0.3f, 0.3f, 0.3f, 0.1f}));
    CHECK(miou.result() == Approx(0.23809525));
    metrics::BinaryIoU biou({.target_class_ids = {0, 1}, .threshold = 0.3});
    biou.update_state(f({0, 1, 0, 1}), f({0.1f, 0.2f, 0.4f, 0.7f}));
    CHECK(biou.result() == Approx(0.33333334));
    biou.reset_state();
    biou.update_state(f({0, 1, 0, 1}), f({0.1f, 0.2f, 0.4f, 0.7f}), f({0.2f, 0.3f, 0.4f, 0.1f}));
    CHECK(biou.result() == Approx(0.17361112));
    const Tensor onehot = f({0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0, 0}, {4, 3});
    const Tensor scores = f({0.2f, 0.3f, 0.5f, 0.1f, 0.2f, 0.7f, 0.5f, 0.3f, 0.1f, 0.1f, 0.4f, 0.5f}, {4, 3});
    metrics::OneHotIoU ohiou(3, {0, 2});
    ohiou.update_state(onehot, scores, f({0.1f, 0.2f, 0.3f, 0.4f}));
    CHECK(ohiou.result() == Approx((0 + 0.1 / 0.7) / 2));  // Keras prints 0.071
    metrics::OneHotMeanIoU ohmiou(3);
    ohmiou.update_state(onehot, scores, f({0.1f, 0.2f, 0.3f, 0.4f}));
    CHECK(ohmiou.result() == Approx((0.1 / 0.7) / 3));  // Keras prints 0.048
  }
  SECTION("F-scores") {
    const Tensor yt = Tensor::from_vector<std::int32_t>({1, 1, 1, 1, 0, 0, 1, 1, 0}, {3, 3});
    const Tensor yp = f({0.2f, 0.6f, 0.7f, 0.2f, 0.6f, 0.6f, 0.6f, 0.8f, 0.0f}, {3, 3});
    metrics::FBetaScore fb({.beta = 2.0, .threshold = 0.5});
    fb.update_state(yt, yp);
    const auto fbv = fb.result_tensor().to_vector<float>();
    REQUIRE(fbv.size() == 3);
    CHECK(fbv[0] == Approx(0.3846154));
    CHECK(fbv[1] == Approx(0.90909094));
    CHECK(fbv[2] == Approx(0.8333334));
    CHECK(fb.result() == Approx((0.3846154 + 0.90909094 + 0.8333334) / 3));
    metrics::F1Score f1({.threshold = 0.5});
    f1.update_state(yt, yp);
    const auto f1v = f1.result_tensor().to_vector<float>();
    REQUIRE(f1v.size() == 3);
    CHECK(f1v[0] == Approx(0.5));
    CHECK(f1v[1] == Approx(0.8));
    CHECK(f1v[2] == Approx(0.6666667));
  }
  SECTION("R2Score, MeanTensor, regression metrics, accuracies") {
    metrics::R2Score r2;
    r2.update_state(f({1, 4, 3}, {3, 1}), f({2, 4, 4}, {3, 1}));
    CHECK(r2.result() == Approx(0.57142854));

    metrics::MeanTensor mt;
    mt.update(f({0, 1, 2, 3}));
    mt.update(f({4, 5, 6, 7}));
    CHECK(mt.result_tensor().to_vector<float>() == std::vector<float>{2, 3, 4, 5});
    const auto v = mt(f({12, 10, 8, 6}), f({0, 0.2f, 0.5f, 1})).to_vector<float>();
    CHECK(v[0] == Approx(2));
    CHECK(v[1] == Approx(3.6363635));
    CHECK(v[2] == Approx(4.8));
    CHECK(v[3] == Approx(5.3333335));

    const Tensor t = f({0, 1, 0, 0}, {2, 2}), p = f({1, 1, 0, 0}, {2, 2}), w = f({1, 0});
    const auto check = [&](metrics::Metric& m, double plain, double weighted) {
      INFO(m.class_name());
      m.update_state(t, p);
      CHECK(m.result() == Approx(plain).epsilon(1e-6));
      m.reset_state();
      m.update_state(t, p, w);
      CHECK(m.result() == Approx(weighted).epsilon(1e-6));
    };
    metrics::RootMeanSquaredError rmse;
    check(rmse, 0.5, 0.70710677);
    metrics::MeanAbsolutePercentageError mape;
    check(mape, 250000000.0, 500000000.0);
    metrics::MeanSquaredLogarithmicError msle;
    check(msle, 0.12011322, 0.24022643);
    metrics::LogCoshError logcosh;
    check(logcosh, 0.10844523, 0.21689045);

    metrics::CosineSimilarity cos({.axis = 1});
    cos.update_state(f({0, 1, 1, 1}, {2, 2}), f({1, 0, 1, 1}, {2, 2}));
    CHECK(cos.result() == Approx(0.49999997));
    cos.reset_state();
    cos.update_state(f({0, 1, 1, 1}, {2, 2}), f({1, 0, 1, 1}, {2, 2}), f({0.3f, 0.7f}));
    CHECK(cos.result() == Approx(0.6999999));

    metrics::Accuracy acc;
    acc.update_state(f({1, 2, 3, 4}, {4, 1}), f({0, 2, 3, 4}, {4, 1}));
    CHECK(acc.result() == Approx(0.75));
    acc.reset_state();
    acc.update_state(f({1, 2, 3, 4}, {4, 1}), f({0, 2, 3, 4}, {4, 1}), f({1, 1, 0, 0}));
    CHECK(acc.result() == Approx(0.5));

    const Tensor scores = f({0.1f, 0.9f, 0.8f, 0.05f, 0.95f, 0}, {2, 3});
    metrics::TopKCategoricalAccuracy top1({.k = 1});
    top1.update_state(f({0, 0, 1, 0, 1, 0}, {2, 3}), scores);
    CHECK(top1.result() == Approx(0.5));
    top1.reset_state();
    top1.update_state(f({0, 0, 1, 0, 1, 0}, {2, 3}), scores, f({0.7f, 0.3f}));
    CHECK(top1.result() == Approx(0.3));
    metrics::SparseTopKCategoricalAccuracy stop1({.k = 1});
    stop1.update_state(Tensor::from_vector<std::int32_t>({2, 1}), scores);
    CHECK(stop1.result() == Approx(0.5));
    stop1.reset_state();
    stop1.update_state(Tensor::from_vector<std::int32_t>({2, 1}), scores, f({0.7f, 0.3f}));
    CHECK(stop1.result() == Approx(0.3));

    metrics::Sum sum;
    CHECK(sum(f({1, 3, 5, 7})) == 16);
    metrics::Mean mean;
    CHECK(mean(f({1, 3, 5, 7})) == 4);
    mean.reset_state();
    CHECK(mean(f({1, 3, 5, 7}), f({1, 1, 0, 0})) == 2);
  }
}
