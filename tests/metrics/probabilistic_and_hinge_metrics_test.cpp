// The probabilistic and hinge metric classes: values as Keras defines them (computed here from the
// formulas with std::log/std::max, not from kerascpp's losses), Keras's names, configs and identifiers.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {
Tensor t2(std::vector<float> v, std::int64_t rows, std::int64_t cols) { return Tensor::from_vector(v, {rows, cols}); }
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
}  // namespace

TEST_CASE("BinaryCrossentropy metric averages -[y log p + (1-y) log(1-p)] over samples, weighted when asked") {
  metrics::BinaryCrossentropy m;
  CHECK(m.name() == "binary_crossentropy");
  const Tensor y = t2({1, 0, 1}, 3, 1), p = t2({0.8f, 0.3f, 0.4f}, 3, 1);
  m.update_state(y, p);
  const double l0 = -std::log(0.8), l1 = -std::log(0.7), l2 = -std::log(0.4);
  CHECK(m.result() == Approx((l0 + l1 + l2) / 3).epsilon(1e-5));
  m.reset_state();
  m.update_state(y, p, Tensor::from_vector(std::vector<float>{1, 2, 3}));
  CHECK(m.result() == Approx((l0 + 2 * l1 + 3 * l2) / 6).epsilon(1e-5));

  metrics::BinaryCrossentropy logits({.from_logits = true, .label_smoothing = 0.2});
  logits.update_state(t2({1, 0}, 2, 1), t2({1.5f, -0.5f}, 2, 1));
  // label smoothing 0.2: targets 1 → 0.9, 0 → 0.1.
  auto bce = [](double t, double z) { return -(t * std::log(sigmoid(z)) + (1 - t) * std::log(1 - sigmoid(z))); };
  CHECK(logits.result() == Approx((bce(0.9, 1.5) + bce(0.1, -0.5)) / 2).epsilon(1e-5));
  const json c = logits.get_config();
  CHECK(c["from_logits"] == true);
  CHECK(c["label_smoothing"].get<double>() == Approx(0.2));
  auto again = metrics::Metric::deserialize(metrics::serialize(logits));
  CHECK(again->class_name() == "BinaryCrossentropy");
  CHECK(again->get_config() == c);
}

TEST_CASE("CategoricalCrossentropy and SparseCategoricalCrossentropy metrics agree on one-hot and integer targets") {
  const Tensor p = t2({0.7f, 0.2f, 0.1f, 0.1f, 0.3f, 0.6f}, 2, 3);
  metrics::CategoricalCrossentropy cat;
  cat.update_state(t2({1, 0, 0, 0, 0, 1}, 2, 3), p);
  metrics::SparseCategoricalCrossentropy sparse;
  sparse.update_state(Tensor::from_vector(std::vector<std::int32_t>{0, 2}), p);
  const double expected = (-std::log(0.7) - std::log(0.6)) / 2;
  CHECK(cat.result() == Approx(expected).epsilon(1e-5));
  CHECK(sparse.result() == Approx(expected).epsilon(1e-5));
  CHECK(cat.name() == "categorical_crossentropy");
  CHECK(sparse.name() == "sparse_categorical_crossentropy");
  CHECK(cat.get_config()["axis"] == -1);
  CHECK(sparse.get_config().contains("ignore_class"));
  CHECK(sparse.get_config()["ignore_class"].is_null());
  CHECK_THROWS_WITH(metrics::SparseCategoricalCrossentropy({.axis = 0}), Catch::Contains("axis=-1"));
}

TEST_CASE("KLDivergence, Poisson, Hinge, SquaredHinge and CategoricalHinge metrics follow Keras's formulas") {
  const Tensor y = t2({0.2f, 0.8f, 0.5f, 0.5f}, 2, 2), p = t2({0.4f, 0.6f, 0.9f, 0.1f}, 2, 2);
  metrics::KLDivergence kl;
  kl.update_state(y, p);
  const double kl0 = 0.2 * std::log(0.2 / 0.4) + 0.8 * std::log(0.8 / 0.6);
  const double kl1 = 0.5 * std::log(0.5 / 0.9) + 0.5 * std::log(0.5 / 0.1);
  CHECK(kl.result() == Approx((kl0 + kl1) / 2).epsilon(1e-5));
  CHECK(kl.name() == "kullback_leibler_divergence");

  metrics::Poisson poisson;
  poisson.update_state(y, p);
  auto pois = [](double t, double q) { return q - t * std::log(q + 1e-7); };
  const double pr0 = (pois(0.2, 0.4) + pois(0.8, 0.6)) / 2, pr1 = (pois(0.5, 0.9) + pois(0.5, 0.1)) / 2;
  CHECK(poisson.result() == Approx((pr0 + pr1) / 2).epsilon(1e-5));

  // Hinge: {0, 1} targets become {-1, 1}; per sample mean(max(1 - t * p, 0)).
  const Tensor yb = t2({1, 0, 0, 1}, 2, 2), s = t2({0.3f, -2.f, 0.4f, 1.5f}, 2, 2);
  metrics::Hinge hinge;
  metrics::SquaredHinge squared;
  hinge.update_state(yb, s);
  squared.update_state(yb, s);
  const double h[4] = {std::max(1 - 0.3, 0.0), std::max(1 - 2.0, 0.0), std::max(1 + 0.4, 0.0), std::max(1 - 1.5, 0.0)};
  CHECK(hinge.result() == Approx(((h[0] + h[1]) / 2 + (h[2] + h[3]) / 2) / 2).epsilon(1e-5));
  CHECK(squared.result() ==
        Approx(((h[0] * h[0] + h[1] * h[1]) / 2 + (h[2] * h[2] + h[3] * h[3]) / 2) / 2).epsilon(1e-5));

  // CategoricalHinge: max(max((1 - y) * p) - sum(y * p) + 1, 0).
  metrics::CategoricalHinge cat;
  cat.update_state(t2({0, 1, 1, 0}, 2, 2), t2({0.3f, 0.9f, 0.2f, 0.6f}, 2, 2));
  const double c0 = std::max(0.3 - 0.9 + 1, 0.0), c1 = std::max(0.6 - 0.2 + 1, 0.0);
  CHECK(cat.result() == Approx((c0 + c1) / 2).epsilon(1e-5));
  CHECK(hinge.name() == "hinge");
  CHECK(squared.name() == "squared_hinge");
  CHECK(cat.name() == "categorical_hinge");
}

TEST_CASE("Loss names resolve to the metric classes, named as written") {
  for (const std::string id : {"binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy",
                               "kl_divergence", "kld", "poisson", "hinge", "squared_hinge", "categorical_hinge"}) {
    auto m = metrics::resolve_metric(id, {4, 3}, {4, 3}, "");
    CHECK(m->name() == id);
  }
  CHECK(metrics::Metric::get("binary_crossentropy")->class_name() == "BinaryCrossentropy");
  CHECK(metrics::Metric::get("KLDivergence")->class_name() == "KLDivergence");
  CHECK(metrics::Metric::get("categorical_hinge")->class_name() == "CategoricalHinge");
}
