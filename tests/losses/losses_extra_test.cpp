// The tf.keras 2.x losses beyond MSE, MAE and the crossentropies: golden values (tests/golden/losses_extra.json,
// from tests/golden/make_losses_extra_golden.py), gradients, configs, aliases and errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "losses/losses.hpp"

// Every options struct must accept partial designated initializers without a warning (see below).
#pragma GCC diagnostic error "-Wmissing-field-initializers"

using namespace keras;
using keras::testing::check_gradients;
using keras::testing::check_close;
using keras::testing::golden_tensor;
using keras::testing::load_golden;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {

Tensor call_function(const std::string& fn, const json& a, const Tensor& y_true, const Tensor& y_pred) {
  const bool from_logits = a.value("from_logits", false);
  const float ls = a.value("label_smoothing", 0.f);
  const int axis = a.value("axis", -1);
  const float alpha = a.value("alpha", 0.25f), gamma = a.value("gamma", 2.f);
  if (fn == "mean_absolute_percentage_error") return losses::mean_absolute_percentage_error(y_true, y_pred);
  if (fn == "mean_squared_logarithmic_error") return losses::mean_squared_logarithmic_error(y_true, y_pred);
  if (fn == "huber") return losses::huber(y_true, y_pred, a.value("delta", 1.f));
  if (fn == "log_cosh") return losses::log_cosh(y_true, y_pred);
  if (fn == "poisson") return losses::poisson(y_true, y_pred);
  if (fn == "kl_divergence") return losses::kl_divergence(y_true, y_pred);
  if (fn == "cosine_similarity") return losses::cosine_similarity(y_true, y_pred, axis);
  if (fn == "hinge") return losses::hinge(y_true, y_pred);
  if (fn == "squared_hinge") return losses::squared_hinge(y_true, y_pred);
  if (fn == "categorical_hinge") return losses::categorical_hinge(y_true, y_pred);
  if (fn == "binary_focal_crossentropy")
    return losses::binary_focal_crossentropy(y_true, y_pred, a.value("apply_class_balancing", false), alpha, gamma,
                                             from_logits, ls, axis);
  if (fn == "categorical_focal_crossentropy")
    return losses::categorical_focal_crossentropy(y_true, y_pred, alpha, gamma, from_logits, ls, axis);
  FAIL("unknown function " << fn);
  return Tensor();
}

bool all_finite(const Tensor& t) {
  for (float v : t.to_vector<float>())
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace

TEST_CASE("extra losses match the PyTorch / NumPy golden values for every reduction") {
  const json golden = load_golden("losses_extra.json");
  REQUIRE(golden["cases"].size() >= 50);
  std::set<std::string> classes;
  for (const auto& c : golden["cases"]) {
    classes.insert(c["class_name"].get<std::string>());
    SECTION(c["name"].get<std::string>()) {
      keras::testing::check_loss_case(c, call_function);
    }
  }
  CHECK(classes.size() == 12);
}

TEST_CASE("extra loss gradients with respect to y_pred match finite differences") {
  const Tensor y_reg = random_tensor({3, 4}, -2, 2, 31);
  const Tensor pred_reg = random_tensor({3, 4}, -2, 2, 32);
  const Tensor positive_true = random_tensor({3, 4}, 0.2f, 3, 33);
  const Tensor positive = random_tensor({3, 4}, 0.2f, 3, 34);
  const Tensor probs = random_tensor({3, 4}, 0.05f, 0.95f, 35);
  const Tensor logits = random_tensor({3, 4}, -3, 3, 36);
  const Tensor dist = ops::softmax(random_tensor({3, 4}, -1, 1, 37));
  const Tensor binary = Tensor::from_vector<float>({1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1}, {3, 4});
  const Tensor signs = 2.f * binary - 1.f;
  const Tensor onehot = ops::one_hot(Tensor::from_vector<std::int32_t>({2, 0, 3}), 4);
  const float fd = 1e-3f;  // a small step: several of these losses have kinks

  SECTION("regression losses") {
    losses::MeanAbsolutePercentageError mape;
    losses::MeanSquaredLogarithmicError msle;
    losses::LogCosh log_cosh;
    losses::Poisson poisson;
    check_gradients([&](const V& v) { return mape.call(positive_true, v[0]); }, {pred_reg.clone()}, fd);
    check_gradients([&](const V& v) { return msle.call(positive_true, v[0]); }, {positive.clone()}, fd);
    check_gradients([&](const V& v) { return log_cosh(y_reg, v[0]); }, {pred_reg.clone()}, fd);
    check_gradients([&](const V& v) { return poisson.call(positive_true, v[0]); }, {positive.clone()}, fd);
    for (const double delta : {1.0, 0.5, 3.0}) {
      losses::Huber huber({.delta = delta});
      check_gradients([&](const V& v) { return huber.call(y_reg, v[0]); }, {pred_reg.clone()}, fd);
    }
  }
  SECTION("probabilistic losses") {
    losses::KLDivergence kld;
    check_gradients([&](const V& v) { return kld.call(dist, v[0]); }, {probs.clone()}, fd);
    for (const int axis : {-1, 0}) {
      losses::CosineSimilarity cosine({.axis = axis});
      check_gradients([&](const V& v) { return cosine.call(y_reg, v[0]); }, {pred_reg.clone()}, fd);
    }
  }
  SECTION("hinges") {
    losses::Hinge hinge;
    losses::SquaredHinge squared_hinge;
    losses::CategoricalHinge categorical_hinge;
    for (const Tensor& labels : {binary, signs}) {
      check_gradients([&](const V& v) { return hinge.call(labels, v[0]); }, {pred_reg.clone()}, fd);
      check_gradients([&](const V& v) { return squared_hinge.call(labels, v[0]); }, {pred_reg.clone()}, fd);
    }
    check_gradients([&](const V& v) { return categorical_hinge.call(onehot, v[0]); }, {pred_reg.clone()}, fd);
  }
  SECTION("focal crossentropies") {
    for (const double ls : {0.0, 0.2}) {
      for (const bool balance : {false, true}) {
        losses::BinaryFocalCrossentropy bfce({.apply_class_balancing = balance, .label_smoothing = ls});
        losses::BinaryFocalCrossentropy bfce_logits(
            {.apply_class_balancing = balance, .alpha = 0.6, .gamma = 1.5, .from_logits = true, .label_smoothing = ls});
        check_gradients([&](const V& v) { return bfce.call(binary, v[0]); }, {probs.clone()}, fd);
        check_gradients([&](const V& v) { return bfce_logits.call(binary, v[0]); }, {logits.clone()}, fd);
      }
      losses::CategoricalFocalCrossentropy cfce({.label_smoothing = ls});
      losses::CategoricalFocalCrossentropy cfce_logits({.alpha = 0.5, .gamma = 3.0, .from_logits = true,
                                                        .label_smoothing = ls});
      check_gradients([&](const V& v) { return cfce.call(onehot, v[0]); }, {probs.clone()}, fd);
      check_gradients([&](const V& v) { return cfce_logits.call(onehot, v[0]); }, {logits.clone()}, fd);
    }
    losses::BinaryFocalCrossentropy bfce_gamma0({.gamma = 0.0, .from_logits = true, .axis = 0});
    losses::CategoricalFocalCrossentropy cfce_axis0({.gamma = 0.0, .from_logits = true, .axis = 0});
    check_gradients([&](const V& v) { return bfce_gamma0.call(binary, v[0]); }, {logits.clone()}, fd);
    check_gradients([&](const V& v) { return cfce_axis0.call(onehot, v[0]); }, {logits.clone()}, fd);
  }
  SECTION("through sample weights and reductions") {
    const Tensor w = Tensor::from_vector<float>({1, 0.5, 2});
    losses::Huber huber({.reduction = losses::Reduction::sum});
    losses::CosineSimilarity cosine({.reduction = losses::Reduction::sum_over_batch_size});
    losses::BinaryFocalCrossentropy bfce({.from_logits = true, .reduction = losses::Reduction::none});
    check_gradients([&](const V& v) { return huber(y_reg, v[0], w); }, {pred_reg.clone()}, fd);
    check_gradients([&](const V& v) { return cosine(y_reg, v[0], w); }, {pred_reg.clone()}, fd);
    check_gradients([&](const V& v) { return bfce(binary, v[0], w); }, {logits.clone()}, fd);
  }
}

TEST_CASE("extra losses stay finite, with finite gradients, at extreme inputs") {
  const Tensor big_logits = Tensor::from_vector<float>({100, -100, 0, -100, 100, 0}, {2, 3});
  const Tensor edge_probs = Tensor::from_vector<float>({1, 0, 0.5f, 0, 1, 0}, {2, 3});
  const Tensor onehot = Tensor::from_vector<float>({0, 1, 0, 0, 1, 0}, {2, 3});
  const Tensor zeros = Tensor::zeros({2, 3});
  const std::vector<std::pair<std::string, std::function<Tensor(const Tensor&)>>> cases = {
      {"bfce logits",
       [&](const Tensor& x) { return losses::binary_focal_crossentropy(onehot, x, false, 0.25f, 2.f, true); }},
      {"bfce logits balanced, smoothed",
       [&](const Tensor& x) { return losses::binary_focal_crossentropy(onehot, x, true, 0.25f, 2.f, true, 0.1f); }},
      {"cfce logits",
       [&](const Tensor& x) { return losses::categorical_focal_crossentropy(onehot, x, 0.25f, 2.f, true); }},
      {"cfce logits axis 0",
       [&](const Tensor& x) { return losses::categorical_focal_crossentropy(onehot, x, 0.25f, 2.f, true, 0.1f, 0); }},
      {"log_cosh", [&](const Tensor& x) { return losses::log_cosh(zeros, x); }},
      {"cosine_similarity", [&](const Tensor& x) { return losses::cosine_similarity(onehot, x); }},
  };
  for (const auto& [name, f] : cases) {
    INFO(name);
    Tensor x = big_logits.clone();
    GradientTape tape;
    tape.watch(x);
    Tensor loss = ops::sum(f(x));
    CHECK(all_finite(loss));
    CHECK(all_finite(tape.gradient(loss, x)));
  }
  // Probabilities of exactly 0 and 1 (and zero rates) are clipped or floored, not logged.
  for (const Tensor& v : {losses::binary_focal_crossentropy(onehot, edge_probs),
                          losses::categorical_focal_crossentropy(onehot, edge_probs),
                          losses::kl_divergence(onehot, edge_probs), losses::poisson(onehot, edge_probs),
                          losses::mean_squared_logarithmic_error(onehot, edge_probs),
                          losses::mean_absolute_percentage_error(zeros, edge_probs)})
    CHECK(all_finite(v));
  // log(cosh(x)) for |x| = 100 is |x| - log 2 (cosh itself overflows float32).
  auto lc = losses::log_cosh(zeros, big_logits).to_vector<float>();
  CHECK(lc[0] == Approx((200 - 2 * std::log(2.0)) / 3).epsilon(1e-6));
  // A zero vector has cosine similarity 0 with anything.
  CHECK(losses::cosine_similarity(zeros, big_logits).to_vector<float>() == std::vector<float>{0, 0});
}

TEST_CASE("extra losses: Keras semantics in small cases") {
  // Keras returns the negative cosine similarity: -1 for the same direction, 1 for the opposite one.
  const Tensor a = Tensor::from_vector<float>({1, 2, 3, 1, 0, 0}, {2, 3});
  const Tensor b = Tensor::from_vector<float>({2, 4, 6, -3, 0, 0}, {2, 3});
  auto cos = losses::cosine_similarity(a, b).to_vector<float>();
  CHECK(cos[0] == Approx(-1.f));
  CHECK(cos[1] == Approx(1.f));
  // Hinge maps 0/1 labels to -1/1, but leaves labels alone if any is neither 0 nor 1.
  const Tensor scores = Tensor::from_vector<float>({0.3f, -0.4f}, {1, 2});
  CHECK(losses::hinge(Tensor::from_vector<float>({1, 0}, {1, 2}), scores).item() == Approx((0.7 + 0.6) / 2));
  CHECK(losses::hinge(Tensor::from_vector<float>({1, -1}, {1, 2}), scores).item() == Approx((0.7 + 0.6) / 2));
  CHECK(losses::hinge(Tensor::from_vector<float>({1, 0.5f}, {1, 2}), scores).item() == Approx((0.7 + 1.2) / 2));
  CHECK(losses::squared_hinge(Tensor::from_vector<std::int32_t>({1, 0}, {1, 2}), scores).item() ==
        Approx((0.49 + 0.36) / 2));
  // Huber is quadratic up to delta and linear beyond, continuous at delta.
  const Tensor zero = Tensor::zeros({1, 1});
  CHECK(losses::huber(zero, Tensor::full({1, 1}, 0.5)).item() == Approx(0.125));
  CHECK(losses::huber(zero, Tensor::full({1, 1}, -3.0)).item() == Approx(2.5));
  CHECK(losses::huber(zero, Tensor::full({1, 1}, 3.0), 2.f).item() == Approx(4.0));
  // With gamma = 0, alpha = 1 and no balancing, the focal losses are the plain crossentropies.
  const Tensor t = Tensor::from_vector<float>({1, 0, 0, 0, 1, 0}, {2, 3});
  const Tensor x = random_tensor({2, 3}, -2, 2, 5);
  const Tensor p = ops::softmax(x);
  for (const bool from_logits : {false, true}) {
    const Tensor& in = from_logits ? x : p;
    const auto bce = losses::binary_crossentropy(t, in, from_logits, 0.1f).to_vector<float>();
    check_close(losses::binary_focal_crossentropy(t, in, false, 0.25f, 0.f, from_logits, 0.1f), {2},
                {bce.begin(), bce.end()});
    const auto cce = losses::categorical_crossentropy(t, in, from_logits, 0.1f).to_vector<float>();
    check_close(losses::categorical_focal_crossentropy(t, in, 1.f, 0.f, from_logits, 0.1f), {2},
                {cce.begin(), cce.end()});
  }
  // KL divergence of a distribution from itself is zero; function aliases are the same functions.
  CHECK(losses::kl_divergence(p, p).to_vector<float>() == std::vector<float>{0, 0});
  CHECK(losses::kld(t, p).to_vector<float>() == losses::kullback_leibler_divergence(t, p).to_vector<float>());
  CHECK(losses::mape(t, p).to_vector<float>() == losses::mean_absolute_percentage_error(t, p).to_vector<float>());
  CHECK(losses::msle(t, p).to_vector<float>() == losses::mean_squared_logarithmic_error(t, p).to_vector<float>());
  CHECK(losses::logcosh(t, p).to_vector<float>() == losses::log_cosh(t, p).to_vector<float>());
}

TEST_CASE("extra losses take Keras's identifiers and aliases") {
  const std::map<std::string, std::vector<std::string>> aliases = {
      {"MeanAbsolutePercentageError", {"mean_absolute_percentage_error", "mape", "MAPE"}},
      {"MeanSquaredLogarithmicError", {"mean_squared_logarithmic_error", "msle", "MSLE"}},
      {"Huber", {"huber"}},
      {"LogCosh", {"log_cosh", "logcosh"}},
      {"KLDivergence", {"kl_divergence", "kld", "KLD", "kullback_leibler_divergence"}},
      {"Poisson", {"poisson"}},
      {"CosineSimilarity", {"cosine_similarity"}},
      {"Hinge", {"hinge"}},
      {"SquaredHinge", {"squared_hinge"}},
      {"CategoricalHinge", {"categorical_hinge"}},
      {"BinaryFocalCrossentropy", {"binary_focal_crossentropy"}},
      {"CategoricalFocalCrossentropy", {"categorical_focal_crossentropy"}},
  };
  const std::map<std::string, std::string> default_names = {
      {"MeanAbsolutePercentageError", "mean_absolute_percentage_error"},
      {"MeanSquaredLogarithmicError", "mean_squared_logarithmic_error"},
      {"Huber", "huber_loss"},
      {"LogCosh", "log_cosh"},
      {"KLDivergence", "kl_divergence"},
      {"Poisson", "poisson"},
      {"CosineSimilarity", "cosine_similarity"},
      {"Hinge", "hinge"},
      {"SquaredHinge", "squared_hinge"},
      {"CategoricalHinge", "categorical_hinge"},
      {"BinaryFocalCrossentropy", "binary_focal_crossentropy"},
      {"CategoricalFocalCrossentropy", "categorical_focal_crossentropy"},
  };
  for (const auto& [cls, names] : aliases) {
    INFO(cls);
    auto by_class = losses::Loss::get(cls);
    CHECK(by_class->class_name() == cls);
    CHECK(by_class->name() == default_names.at(cls));
    CHECK(by_class->reduction() == losses::Reduction::sum_over_batch_size);
    for (const auto& alias : names) {
      INFO(alias);
      CHECK(losses::Loss::get(alias)->class_name() == cls);
      CHECK(losses::Loss::get(alias)->get_config() == by_class->get_config());
    }
  }
  losses::LossRef ref = "kld";
  CHECK(ref->class_name() == "KLDivergence");
  losses::LossRef obj = losses::Huber({.delta = 2.0});
  CHECK(obj->get_config()["delta"] == 2.0);
}

TEST_CASE("extra losses write Keras's config keys and round-trip them") {
  // Keras's keys, in the defaults' values.
  CHECK(losses::Huber().get_config() == json{{"reduction", "sum_over_batch_size"}, {"name", "huber_loss"}, {"delta", 1.0}});
  CHECK(losses::CosineSimilarity().get_config() ==
        json{{"reduction", "sum_over_batch_size"}, {"name", "cosine_similarity"}, {"axis", -1}});
  CHECK(losses::LogCosh().get_config() == json{{"reduction", "sum_over_batch_size"}, {"name", "log_cosh"}});
  CHECK(losses::BinaryFocalCrossentropy().get_config() ==
        json{{"reduction", "sum_over_batch_size"}, {"name", "binary_focal_crossentropy"},
             {"apply_class_balancing", false}, {"alpha", 0.25}, {"gamma", 2.0}, {"from_logits", false},
             {"label_smoothing", 0.0}, {"axis", -1}});
  CHECK(losses::CategoricalFocalCrossentropy().get_config() ==
        json{{"reduction", "sum_over_batch_size"}, {"name", "categorical_focal_crossentropy"}, {"alpha", 0.25},
             {"gamma", 2.0}, {"from_logits", false}, {"label_smoothing", 0.0}, {"axis", -1}});

  // Partial designated initializers (an error here if any field lacked a default, by the pragma above).
  const std::vector<std::shared_ptr<losses::Loss>> all = {
      std::make_shared<losses::MeanAbsolutePercentageError>(
          losses::MeanAbsolutePercentageErrorOptions{.reduction = losses::Reduction::sum}),
      std::make_shared<losses::MeanSquaredLogarithmicError>(losses::MeanSquaredLogarithmicErrorOptions{.name = "m"}),
      std::make_shared<losses::Huber>(losses::HuberOptions{.delta = 0.5, .name = "h"}),
      std::make_shared<losses::LogCosh>(losses::LogCoshOptions{.reduction = losses::Reduction::none}),
      std::make_shared<losses::KLDivergence>(losses::KLDivergenceOptions{.name = "kl"}),
      std::make_shared<losses::Poisson>(losses::PoissonOptions{.reduction = losses::Reduction::sum}),
      std::make_shared<losses::CosineSimilarity>(losses::CosineSimilarityOptions{.axis = 1}),
      std::make_shared<losses::Hinge>(losses::HingeOptions{.name = "svm"}),
      std::make_shared<losses::SquaredHinge>(losses::SquaredHingeOptions{.reduction = losses::Reduction::none}),
      std::make_shared<losses::CategoricalHinge>(losses::CategoricalHingeOptions{.name = "ch"}),
      std::make_shared<losses::BinaryFocalCrossentropy>(losses::BinaryFocalCrossentropyOptions{
          .apply_class_balancing = true, .gamma = 3.0, .label_smoothing = 0.1, .reduction = losses::Reduction::sum}),
      std::make_shared<losses::CategoricalFocalCrossentropy>(
          losses::CategoricalFocalCrossentropyOptions{.alpha = 0.5, .from_logits = true, .axis = 0}),
  };
  for (const auto& loss : all) {
    INFO(loss->class_name());
    const json serialized = losses::serialize(*loss);
    auto again = losses::Loss::deserialize(serialized);
    CHECK(again->class_name() == loss->class_name());
    CHECK(again->get_config() == loss->get_config());
    CHECK(losses::serialize(*again) == serialized);
    // Both compute the same thing.
    const Tensor y = random_tensor({2, 3}, 0.1f, 0.9f, 3), p = ops::softmax(random_tensor({2, 3}, -1, 1, 4));
    CHECK((*again)(y, p).to_vector<float>() == (*loss)(y, p).to_vector<float>());
  }
  CHECK(all[10]->get_config() == json{{"reduction", "sum"}, {"name", "binary_focal_crossentropy"},
                                      {"apply_class_balancing", true}, {"alpha", 0.25}, {"gamma", 3.0},
                                      {"from_logits", false}, {"label_smoothing", 0.1}, {"axis", -1}});
  // A config as tf.keras 2.x writes it.
  auto from_keras = losses::Loss::deserialize(json::parse(
      R"({"class_name": "BinaryFocalCrossentropy", "config": {"reduction": "auto", "name": "binary_focal_crossentropy",
          "apply_class_balancing": true, "alpha": 0.3, "gamma": 1.0, "from_logits": true, "label_smoothing": 0.0,
          "axis": -1}})"));
  auto* bfce = dynamic_cast<losses::BinaryFocalCrossentropy*>(from_keras.get());
  REQUIRE(bfce != nullptr);
  CHECK(bfce->options().apply_class_balancing);
  CHECK(bfce->options().alpha == 0.3);
  CHECK(bfce->options().gamma == 1.0);
  CHECK(bfce->options().from_logits);
  CHECK(from_keras->reduction() == losses::Reduction::sum_over_batch_size);
  auto huber = losses::Loss::deserialize(json::parse(R"({"class_name": "Huber", "config": {"delta": 0.75}})"));
  CHECK(huber->get_config()["delta"] == 0.75);
  CHECK(huber->name() == "huber_loss");
}

TEST_CASE("extra loss errors name the shapes and the fix") {
  const Tensor p = random_tensor({3, 4});
  CHECK_THROWS_WITH(losses::categorical_focal_crossentropy(Tensor::from_vector<std::int32_t>({0, 1, 2}), p),
                    Catch::Contains("(3,)") && Catch::Contains("(3, 4)") && Catch::Contains("one-hot"));
  CHECK_THROWS_WITH(losses::categorical_focal_crossentropy(ops::softmax(p), p, 0.25f, 2.f, false, 0.f, 2),
                    Catch::Contains("axis 2"));
  CHECK_THROWS_WITH(losses::cosine_similarity(p, p, 3), Catch::Contains("axis 3") && Catch::Contains("(3, 4)"));
  CHECK_THROWS_WITH(losses::huber(random_tensor({3, 2}), p), Catch::Contains("huber") && Catch::Contains("(3, 2)"));
  CHECK_THROWS_WITH(losses::kl_divergence(random_tensor({2, 4}), p), Catch::Contains("kl_divergence"));
  CHECK_THROWS_AS(losses::categorical_hinge(Tensor::scalar(1.f), Tensor::scalar(1.f)), ValueError);
  CHECK_THROWS_AS(losses::BinaryFocalCrossentropy({.label_smoothing = -0.1}), ValueError);
  CHECK_THROWS_AS(losses::CategoricalFocalCrossentropy({.label_smoothing = 2.0}), ValueError);
  CHECK_THROWS_AS(losses::binary_focal_crossentropy(p, p, false, 0.25f, 2.f, false, 1.5f), ValueError);
  CHECK_THROWS_AS(losses::Loss::deserialize(json::parse(R"({"class_name": "Huber", "config": {"reduction": "mean"}})")),
                  ValueError);
  try {
    losses::Loss::get("kullback_leibler");
    FAIL("expected an error");
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    for (const char* name : {"kullback_leibler", "kld", "huber", "logcosh", "categorical_focal_crossentropy"})
      CHECK(msg.find(name) != std::string::npos);
  }
}

TEST_CASE("extra losses reproduce the examples in tf.keras's documentation") {
  // The values printed in tf.keras 2.x's docstrings (real TensorFlow output), to the digits printed there.
  auto t = [](std::vector<float> v, Shape s) { return Tensor::from_vector<float>(v, s); };
  const Tensor y01 = t({0, 1, 0, 0}, {2, 2}), p01 = t({0.6f, 0.4f, 0.4f, 0.6f}, {2, 2});
  const Tensor w10 = t({1, 0}, {2});
  auto value = [](const losses::Loss& loss, const Tensor& y, const Tensor& p, const Tensor& w = Tensor()) {
    return loss(y, p, w).item();
  };
  losses::MeanAbsolutePercentageError mape;
  const Tensor reg_true = t({0, 1, 0, 0}, {2, 2}), reg_pred = t({1, 1, 1, 0}, {2, 2});
  CHECK(value(mape, reg_true, reg_pred) == Approx(500000000.0).epsilon(1e-6));
  CHECK(value(mape, reg_true, reg_pred, t({0.7f, 0.3f}, {2})) == Approx(250000000.0).epsilon(1e-6));
  losses::MeanSquaredLogarithmicError msle;
  CHECK(value(msle, reg_true, reg_pred) == Approx(0.24022643).epsilon(1e-6));
  CHECK(value(msle, reg_true, reg_pred, t({0.7f, 0.3f}, {2})) == Approx(0.12011322).epsilon(1e-6));
  losses::Hinge hinge;
  CHECK(value(hinge, y01, p01) == Approx(1.3).epsilon(1e-6));
  CHECK(value(hinge, y01, p01, w10) == Approx(0.55).epsilon(1e-6));
  losses::SquaredHinge squared_hinge;
  CHECK(value(squared_hinge, y01, p01) == Approx(1.86).epsilon(1e-6));
  CHECK(value(squared_hinge, y01, p01, w10) == Approx(0.73).epsilon(1e-6));
  losses::CategoricalHinge categorical_hinge;
  CHECK(value(categorical_hinge, y01, p01) == Approx(1.4000001).epsilon(1e-6));
  CHECK(value(categorical_hinge, y01, p01, w10) == Approx(0.6).epsilon(1e-6));
  const Tensor rate_pred = t({1, 1, 0, 0}, {2, 2});
  losses::Poisson poisson;
  CHECK(value(poisson, reg_true, rate_pred) == Approx(0.49999997).epsilon(1e-6));
  CHECK(value(poisson, reg_true, rate_pred, w10) == Approx(0.49999997).epsilon(1e-6));
  losses::LogCosh log_cosh;
  CHECK(value(log_cosh, reg_true, rate_pred) == Approx(0.10844523).epsilon(1e-6));
  CHECK(value(log_cosh, reg_true, rate_pred, w10) == Approx(0.10844523).epsilon(1e-6));
  losses::KLDivergence kld;
  CHECK(value(kld, y01, p01) == Approx(0.45814306).epsilon(1e-5));
  CHECK(value(kld, y01, p01, w10) == Approx(0.4581446).epsilon(1e-5));
  CHECK(losses::kld(t({0.4f, 0.9f, 0.2f}, {3}), t({0.5f, 0.8f, 0.12f}, {3})).item() == Approx(0.11891246).epsilon(1e-5));
  losses::Huber huber;
  CHECK(value(huber, y01, p01) == Approx(0.155).epsilon(1e-6));
  CHECK(value(huber, y01, p01, w10) == Approx(0.09).epsilon(1e-6));
  losses::CosineSimilarity cosine({.axis = 1});
  CHECK(value(cosine, t({0, 1, 1, 1}, {2, 2}), t({1, 0, 1, 1}, {2, 2})) == Approx(-0.49999997).epsilon(1e-6));

  // Binary focal crossentropy (printed to 3 or 4 decimals).
  auto bfce_doc = losses::binary_focal_crossentropy(y01, p01, false, 0.25f, 2.f).to_vector<float>();
  CHECK(bfce_doc[0] == Approx(0.330).margin(5e-4));
  CHECK(bfce_doc[1] == Approx(0.206).margin(5e-4));
  CHECK(value(losses::BinaryFocalCrossentropy({.gamma = 2.0, .from_logits = true}), t({0, 1, 0, 0}, {4}),
              t({-18.6f, 0.51f, 2.94f, -12.8f}, {4})) == Approx(0.691).margin(5e-4));
  const Tensor logits = t({-18.6f, 0.51f, 2.94f, -12.8f}, {2, 2});
  losses::BinaryFocalCrossentropy gamma3({.gamma = 3.0, .from_logits = true});
  CHECK(value(gamma3, y01, logits) == Approx(0.647).margin(5e-4));
  CHECK(value(gamma3, y01, logits, t({0.8f, 0.2f}, {2})) == Approx(0.133).margin(5e-4));
  CHECK(value(losses::BinaryFocalCrossentropy({.gamma = 4.0, .from_logits = true,
                                               .reduction = losses::Reduction::sum}),
              y01, logits) == Approx(1.222).margin(5e-4));
  auto none = losses::BinaryFocalCrossentropy({.gamma = 5.0, .from_logits = true,
                                               .reduction = losses::Reduction::none})(y01, logits)
                  .to_vector<float>();
  CHECK(none[0] == Approx(0.0017).margin(5e-5));
  CHECK(none[1] == Approx(1.1561).margin(5e-5));

  // Categorical focal crossentropy.
  const Tensor y3 = t({0, 1, 0, 0, 0, 1}, {2, 3});
  auto cfce_doc =
      losses::categorical_focal_crossentropy(y3, t({0.05f, 0.9f, 0.05f, 0.1f, 0.85f, 0.05f}, {2, 3})).to_vector<float>();
  CHECK(cfce_doc[0] == Approx(2.63401289e-04).epsilon(1e-5));
  CHECK(cfce_doc[1] == Approx(6.75912094e-01).epsilon(1e-5));
  const Tensor p3 = t({0.05f, 0.95f, 0, 0.1f, 0.8f, 0.1f}, {2, 3});
  CHECK(value(losses::CategoricalFocalCrossentropy(), y3, p3) == Approx(0.23315276).epsilon(1e-5));
  CHECK(value(losses::CategoricalFocalCrossentropy(), y3, p3, t({0.3f, 0.7f}, {2})) == Approx(0.1632).margin(5e-5));
  CHECK(value(losses::CategoricalFocalCrossentropy({.reduction = losses::Reduction::sum}), y3, p3) ==
        Approx(0.46631).margin(5e-6));
  auto cfce_none = losses::CategoricalFocalCrossentropy({.reduction = losses::Reduction::none})(y3, p3).to_vector<float>();
  CHECK(cfce_none[0] == Approx(3.2058331e-05).epsilon(1e-4));
  CHECK(cfce_none[1] == Approx(4.6627346e-01).epsilon(1e-5));
}
