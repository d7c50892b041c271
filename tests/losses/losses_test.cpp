#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "losses/losses.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::golden_tensor;
using keras::testing::load_golden;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {

Tensor call_function(const std::string& fn, const json& args, const Tensor& y_true, const Tensor& y_pred) {
  const bool from_logits = args.value("from_logits", false);
  const float ls = args.value("label_smoothing", 0.f);
  const int axis = args.value("axis", -1);
  if (fn == "mean_squared_error") return losses::mean_squared_error(y_true, y_pred);
  if (fn == "mean_absolute_error") return losses::mean_absolute_error(y_true, y_pred);
  if (fn == "binary_crossentropy") return losses::binary_crossentropy(y_true, y_pred, from_logits, ls, axis);
  if (fn == "categorical_crossentropy") return losses::categorical_crossentropy(y_true, y_pred, from_logits, ls, axis);
  if (fn == "sparse_categorical_crossentropy") return losses::sparse_categorical_crossentropy(y_true, y_pred, from_logits);
  FAIL("unknown function " << fn);
  return Tensor();
}

bool all_finite(const Tensor& t) {
  for (float v : t.to_vector<float>())
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace

TEST_CASE("losses match the PyTorch / NumPy golden values for every reduction") {
  const json golden = load_golden("losses.json");
  REQUIRE(golden["cases"].size() >= 20);
  for (const auto& c : golden["cases"]) {
    SECTION(c["name"].get<std::string>()) {
      keras::testing::check_loss_case(c, call_function);
    }
  }
}

TEST_CASE("loss gradients with respect to y_pred match finite differences") {
  const Tensor y_reg = random_tensor({3, 4}, -1, 1, 21);
  const Tensor probs = random_tensor({3, 4}, 0.05f, 0.95f, 22);
  const Tensor logits = random_tensor({3, 4}, -3, 3, 23);
  const Tensor binary = Tensor::from_vector<float>({1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1}, {3, 4});
  const Tensor onehot = ops::one_hot(Tensor::from_vector<std::int32_t>({2, 0, 3}), 4);
  const Tensor ids = Tensor::from_vector<std::int64_t>({2, 0, 3});

  losses::MeanSquaredError mse;
  losses::MeanAbsoluteError mae;
  check_gradients([&](const V& v) { return mse(y_reg, v[0]); }, {random_tensor({3, 4}, -1, 1, 24)});
  check_gradients([&](const V& v) { return mae.call(y_reg, v[0]); }, {random_tensor({3, 4}, -1, 1, 25)}, 1e-3f);

  for (const double ls : {0.0, 0.2}) {
    losses::BinaryCrossentropy bce({.label_smoothing = ls});
    losses::BinaryCrossentropy bce_logits({.from_logits = true, .label_smoothing = ls});
    losses::CategoricalCrossentropy cce({.label_smoothing = ls});
    losses::CategoricalCrossentropy cce_logits({.from_logits = true, .label_smoothing = ls});
    check_gradients([&](const V& v) { return bce.call(binary, v[0]); }, {probs.clone()}, 1e-3f);
    check_gradients([&](const V& v) { return bce_logits.call(binary, v[0]); }, {logits.clone()}, 1e-3f);
    check_gradients([&](const V& v) { return cce.call(onehot, v[0]); }, {probs.clone()}, 1e-3f);
    check_gradients([&](const V& v) { return cce_logits(onehot, v[0]); }, {logits.clone()}, 1e-3f);
  }
  losses::CategoricalCrossentropy cce_axis0({.from_logits = true, .axis = 0});
  check_gradients([&](const V& v) { return cce_axis0.call(onehot, v[0]); }, {logits.clone()}, 1e-3f);
  losses::BinaryCrossentropy bce_weighted({.from_logits = true, .reduction = losses::Reduction::sum});
  check_gradients([&](const V& v) { return bce_weighted(binary, v[0], Tensor::from_vector<float>({1, 0.5, 2})); },
                  {logits.clone()}, 1e-3f);

  losses::SparseCategoricalCrossentropy scce;
  losses::SparseCategoricalCrossentropy scce_logits({.from_logits = true});
  check_gradients([&](const V& v) { return scce.call(ids, v[0]); }, {probs.clone()}, 1e-3f);
  check_gradients([&](const V& v) { return scce_logits(ids, v[0]); }, {logits.clone()}, 1e-3f);
}

TEST_CASE("crossentropies from logits stay finite, with finite gradients, at +-100") {
  const Tensor logits = Tensor::from_vector<float>({100, -100, 0, -100, 100, 0}, {2, 3});
  const Tensor onehot = Tensor::from_vector<float>({0, 1, 0, 0, 1, 0}, {2, 3});
  const Tensor ids = Tensor::from_vector<std::int32_t>({1, 1});
  const std::vector<std::function<Tensor(const Tensor&)>> losses_of = {
      [&](const Tensor& x) { return losses::binary_crossentropy(onehot, x, true); },
      [&](const Tensor& x) { return losses::binary_crossentropy(onehot, x, true, 0.1f); },
      [&](const Tensor& x) { return losses::categorical_crossentropy(onehot, x, true); },
      [&](const Tensor& x) { return losses::categorical_crossentropy(onehot, x, true, 0.1f, 0); },
      [&](const Tensor& x) { return losses::sparse_categorical_crossentropy(ids, x, true); },
  };
  for (const auto& f : losses_of) {
    Tensor x = logits.clone();
    GradientTape tape;
    tape.watch(x);
    Tensor loss = ops::sum(f(x));
    Tensor grad = tape.gradient(loss, x);
    CHECK(all_finite(loss));
    CHECK(all_finite(grad));
  }
  // Row 0: the true class has logit -100, so the loss is 200; row 1 is right with certainty.
  auto v = losses::categorical_crossentropy(onehot, logits, true).to_vector<float>();
  CHECK(v[0] == Approx(200.f));
  CHECK(v[1] == Approx(0.f).margin(1e-5));
  // BCE of logit 100 against 1 and -100 against 0 is zero; the gradient at 0 is sigmoid(0) - z.
  Tensor x = Tensor::from_vector<float>({100, -100, 0}, {1, 3});
  GradientTape tape;
  tape.watch(x);
  Tensor bce = losses::binary_crossentropy(Tensor::from_vector<float>({1, 0, 1}, {1, 3}), x, true);
  CHECK(bce.item() == Approx(std::log(2.0) / 3).epsilon(1e-6));
  auto g = tape.gradient(bce, x).to_vector<float>();
  CHECK(g[0] == Approx(0.f).margin(1e-7));
  CHECK(g[1] == Approx(0.f).margin(1e-7));
  CHECK(g[2] == Approx(-0.5 / 3).epsilon(1e-6));
  // Probabilities of exactly 0 and 1 are clipped, not logged.
  CHECK(all_finite(losses::binary_crossentropy(onehot, Tensor::from_vector<float>({1, 0, 1, 0, 1, 0}, {2, 3}))));
  CHECK(all_finite(losses::categorical_crossentropy(onehot, Tensor::from_vector<float>({1, 0, 0, 0, 1, 0}, {2, 3}))));
}

TEST_CASE("losses take identifiers, options and aliases, and round-trip their configs") {
  CHECK(losses::Loss::get("mse")->class_name() == "MeanSquaredError");
  CHECK(losses::Loss::get("MSE")->name() == "mean_squared_error");
  CHECK(losses::Loss::get("mean_squared_error")->class_name() == "MeanSquaredError");
  CHECK(losses::Loss::get("mae")->class_name() == "MeanAbsoluteError");
  CHECK(losses::Loss::get("MAE")->class_name() == "MeanAbsoluteError");
  CHECK(losses::Loss::get("mean_absolute_error")->name() == "mean_absolute_error");
  CHECK(losses::Loss::get("binary_crossentropy")->class_name() == "BinaryCrossentropy");
  CHECK(losses::Loss::get("categorical_crossentropy")->class_name() == "CategoricalCrossentropy");
  CHECK(losses::Loss::get("sparse_categorical_crossentropy")->name() == "sparse_categorical_crossentropy");
  CHECK(losses::Loss::get("SparseCategoricalCrossentropy")->class_name() == "SparseCategoricalCrossentropy");

  losses::LossRef ref = losses::SparseCategoricalCrossentropy({.from_logits = true});
  CHECK(ref->class_name() == "SparseCategoricalCrossentropy");
  CHECK(ref->get_config()["from_logits"] == true);

  const std::vector<std::shared_ptr<losses::Loss>> all = {
      std::make_shared<losses::MeanSquaredError>(losses::MeanSquaredErrorOptions{.reduction = losses::Reduction::sum}),
      std::make_shared<losses::MeanAbsoluteError>(losses::MeanAbsoluteErrorOptions{.name = "l1"}),
      std::make_shared<losses::BinaryCrossentropy>(
          losses::BinaryCrossentropyOptions{.from_logits = true, .label_smoothing = 0.1, .axis = 0}),
      std::make_shared<losses::CategoricalCrossentropy>(
          losses::CategoricalCrossentropyOptions{.label_smoothing = 0.2, .reduction = losses::Reduction::none}),
      std::make_shared<losses::SparseCategoricalCrossentropy>(
          losses::SparseCategoricalCrossentropyOptions{.from_logits = true, .name = "scce"}),
  };
  for (const auto& loss : all) {
    const json serialized = losses::serialize(*loss);
    auto again = losses::Loss::deserialize(serialized);
    CHECK(again->class_name() == loss->class_name());
    CHECK(again->get_config() == loss->get_config());
    CHECK(losses::serialize(*again) == serialized);
  }
  const json bce = all[2]->get_config();
  CHECK(bce == json{{"reduction", "sum_over_batch_size"}, {"name", "binary_crossentropy"}, {"from_logits", true},
                    {"label_smoothing", 0.1}, {"axis", 0}});
  const json scce = all[4]->get_config();
  CHECK(scce == json{{"reduction", "sum_over_batch_size"}, {"name", "scce"}, {"from_logits", true},
                     {"ignore_class", nullptr}});
  // Keras writes "auto" for the default reduction in older files.
  auto from_keras = losses::Loss::deserialize(
      json::parse(R"({"class_name": "CategoricalCrossentropy", "config": {"reduction": "auto", "name":
                   "categorical_crossentropy", "from_logits": true, "label_smoothing": 0.0, "axis": -1}})"));
  CHECK(from_keras->reduction() == losses::Reduction::sum_over_batch_size);
  CHECK(from_keras->get_config()["from_logits"] == true);
}

TEST_CASE("loss errors name the identifier or the shapes and the fix") {
  try {
    losses::Loss::get("mean_sqared_error");
    FAIL("expected an error");
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("mean_sqared_error") != std::string::npos);
    for (const char* name : {"mse", "mae", "binary_crossentropy", "categorical_crossentropy",
                             "sparse_categorical_crossentropy", "MeanSquaredError"})
      CHECK(msg.find(name) != std::string::npos);
  }
  const Tensor logits = random_tensor({3, 4});
  // One-hot targets given to the sparse loss, and integer ids to the categorical one.
  CHECK_THROWS_WITH(losses::sparse_categorical_crossentropy(ops::one_hot(Tensor::from_vector<std::int32_t>({0, 1, 2}), 4),
                                                            logits, true),
                    Catch::Contains("(3, 4)") && Catch::Contains("categorical_crossentropy"));
  CHECK_THROWS_WITH(losses::categorical_crossentropy(Tensor::from_vector<std::int32_t>({0, 1, 2}), logits, true),
                    Catch::Contains("(3,)") && Catch::Contains("sparse_categorical_crossentropy"));
  CHECK_THROWS_AS(losses::sparse_categorical_crossentropy(Tensor::from_vector<std::int32_t>({0, 4, 1}), logits, true),
                  ValueError);
  CHECK_THROWS_WITH(losses::sparse_categorical_crossentropy(Tensor::from_vector<float>({0, 1.5f, 1}), logits, true),
                    Catch::Contains("whole numbers"));
  CHECK_THROWS_WITH(losses::mean_squared_error(random_tensor({3, 2}), logits), Catch::Contains("(3, 2)"));
  CHECK_THROWS_AS(losses::BinaryCrossentropy({.label_smoothing = 1.5}), ValueError);
  CHECK_THROWS_AS(losses::categorical_crossentropy(ops::softmax(logits), logits, false, 0.f, 2), ValueError);
  CHECK_THROWS_AS(losses::Loss::deserialize(json::parse(
                      R"({"class_name": "SparseCategoricalCrossentropy", "config": {"ignore_class": "void"}})")),
                  ValueError);
  CHECK_THROWS_AS(losses::Loss::deserialize(json::parse(
                      R"({"class_name": "MeanSquaredError", "config": {"reduction": "mean"}})")),
                  ValueError);
}
