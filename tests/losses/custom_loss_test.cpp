// A user's focal loss, written both ways Keras allows: as a plain callable and as a Loss subclass.
// The formula is the one from the seed's tutorial (eat_tensorflow2_in_30_days, 4.5.3), a sum over all
// elements of
//   -alpha * (1 - pt_1)^gamma * log(1e-7 + pt_1) - (1 - alpha) * pt_0^gamma * log(1 - pt_0 + 1e-7),
// with pt_1 = y_pred where y_true == 1 (else 1) and pt_0 = y_pred where y_true == 0 (else 0).
#include <catch2/catch.hpp>

#include <cmath>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "losses/losses.hpp"

using namespace keras;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {

// tf.where(cond, a, b) for a constant 0/1 mask: mask * a + (1 - mask) * b; gradients flow to a and b only.
Tensor select(const Tensor& mask, const Tensor& a, const Tensor& b) { return mask * a + (1.f - mask) * b; }

// 1. As a callable: a factory returning a lambda, exactly as the Python `focal_loss(gamma, alpha)`.
losses::LossFunctionWrapper::Fn focal_loss(float gamma = 2.f, float alpha = 0.25f) {
  return [gamma, alpha](const Tensor& y_true, const Tensor& y_pred) {
    const Tensor is_1 = ops::equal(y_true, Tensor::scalar(1.f));
    const Tensor is_0 = ops::equal(y_true, Tensor::scalar(0.f));
    const Tensor pt_1 = select(is_1, y_pred, Tensor::ones(y_pred.shape()));
    const Tensor pt_0 = select(is_0, y_pred, Tensor::zeros(y_pred.shape()));
    return -ops::sum(alpha * ops::pow(1.f - pt_1, gamma) * ops::log(1e-7f + pt_1)) -
           ops::sum((1.f - alpha) * ops::pow(pt_0, gamma) * ops::log(1.f - pt_0 + 1e-7f));
  };
}

// 2. As a Loss subclass, with its own options, config and registration, so that it also saves and loads.
struct FocalLossOptions {
  double gamma = 2.0;
  double alpha = 0.25;
  losses::Reduction reduction = losses::Reduction::sum_over_batch_size;
  std::string name = "focal_loss";
};

class FocalLoss : public losses::Loss {
 public:
  explicit FocalLoss(FocalLossOptions options = {}) : Loss(options.name, options.reduction), options_(options) {}

  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    const auto gamma = static_cast<float>(options_.gamma), alpha = static_cast<float>(options_.alpha);
    const Tensor is_1 = ops::equal(y_true, Tensor::scalar(1.f));
    const Tensor is_0 = ops::equal(y_true, Tensor::scalar(0.f));
    const Tensor pt_1 = select(is_1, y_pred, Tensor::ones(y_pred.shape()));
    const Tensor pt_0 = select(is_0, y_pred, Tensor::zeros(y_pred.shape()));
    return -ops::sum(alpha * ops::pow(1.f - pt_1, gamma) * ops::log(1e-7f + pt_1)) -
           ops::sum((1.f - alpha) * ops::pow(pt_0, gamma) * ops::log(1.f - pt_0 + 1e-7f));
  }
  std::string class_name() const override { return "FocalLoss"; }
  json get_config() const override {
    json config = Loss::get_config();
    config["gamma"] = options_.gamma;
    config["alpha"] = options_.alpha;
    return config;
  }
  static std::shared_ptr<Loss> from_config(const json& c) {
    return std::make_shared<FocalLoss>(FocalLossOptions{
        .gamma = c.value("gamma", 2.0),
        .alpha = c.value("alpha", 0.25),
        .reduction = losses::reduction_from_name(c.value("reduction", "sum_over_batch_size")),
        .name = c.value("name", "focal_loss")});
  }

 private:
  FocalLossOptions options_;
};

const bool focal_registered = register_class<losses::Loss, FocalLoss>("FocalLoss");

// The same sum in double precision, element by element.
double reference_focal(const std::vector<float>& y, const std::vector<float>& p, double gamma, double alpha) {
  double loss = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double pt_1 = y[i] == 1.f ? p[i] : 1.0;
    const double pt_0 = y[i] == 0.f ? p[i] : 0.0;
    loss -= alpha * std::pow(1 - pt_1, gamma) * std::log(1e-7 + pt_1);
    loss -= (1 - alpha) * std::pow(pt_0, gamma) * std::log(1 - pt_0 + 1e-7);
  }
  return loss;
}

}  // namespace

TEST_CASE("the seed's focal loss, as a callable and as a Loss subclass, gives the reference value") {
  const Tensor y_true = Tensor::from_vector<float>({1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0}, {4, 3});
  const Tensor y_pred = random_tensor({4, 3}, 0.02f, 0.98f, 11);
  const auto y = y_true.to_vector<float>(), p = y_pred.to_vector<float>();

  for (const auto& [gamma, alpha] : {std::pair{2.0, 0.25}, std::pair{0.0, 0.5}, std::pair{3.5, 0.9}}) {
    INFO("gamma " << gamma << " alpha " << alpha);
    const double want = reference_focal(y, p, gamma, alpha);
    const Tensor as_function = focal_loss(static_cast<float>(gamma), static_cast<float>(alpha))(y_true, y_pred);
    CHECK(as_function.ndim() == 0);
    CHECK(as_function.item() == Approx(want).epsilon(1e-5));

    // Wrapped as compile() wraps a callable (sum_over_batch_size of a scalar is that scalar).
    losses::LossRef ref(focal_loss(static_cast<float>(gamma), static_cast<float>(alpha)), "focal_loss");
    CHECK(ref->class_name() == "LossFunctionWrapper");
    CHECK((*ref)(y_true, y_pred).item() == Approx(want).epsilon(1e-5));

    FocalLoss as_class({.gamma = gamma, .alpha = alpha});
    CHECK(as_class(y_true, y_pred).item() == Approx(want).epsilon(1e-5));
    CHECK(as_class(y_true, y_pred).item() == as_function.item());
  }
  // Predictions of exactly 0 and 1 stay finite thanks to the 1e-7 inside the logs.
  const Tensor edge = Tensor::from_vector<float>({1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0}, {4, 3});
  CHECK(std::isfinite(FocalLoss()(y_true, edge).item()));
  CHECK(std::isfinite(focal_loss()(y_true, edge).item()));
}

TEST_CASE("the seed's focal loss has tape gradients that match finite differences, both ways") {
  const Tensor y_true = Tensor::from_vector<float>({1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0}, {4, 3});
  const Tensor y_pred = random_tensor({4, 3}, 0.05f, 0.95f, 12);
  for (const double gamma : {2.0, 1.5}) {
    const auto fn = focal_loss(static_cast<float>(gamma));
    FocalLoss as_class({.gamma = gamma});
    check_gradients([&](const V& v) { return fn(y_true, v[0]); }, {y_pred.clone()}, 1e-3f);
    check_gradients([&](const V& v) { return as_class(y_true, v[0]); }, {y_pred.clone()}, 1e-3f);
  }
  // Both give the same gradient.
  Tensor x1 = y_pred.clone(), x2 = y_pred.clone();
  GradientTape t1, t2;
  t1.watch(x1);
  t2.watch(x2);
  const Tensor g1 = t1.gradient(focal_loss()(y_true, x1), x1);
  const Tensor g2 = t2.gradient(FocalLoss()(y_true, x2), x2);
  CHECK(g1.to_vector<float>() == g2.to_vector<float>());
}

TEST_CASE("the FocalLoss subclass saves, loads and resolves by name like a built-in loss") {
  FocalLoss loss({.gamma = 3.0, .name = "focal"});
  const json serialized = losses::serialize(loss);
  CHECK(serialized == json{{"class_name", "FocalLoss"},
                           {"config", {{"reduction", "sum_over_batch_size"}, {"name", "focal"}, {"gamma", 3.0},
                                       {"alpha", 0.25}}}});
  auto again = losses::Loss::deserialize(serialized);
  CHECK(again->class_name() == "FocalLoss");
  CHECK(again->get_config() == loss.get_config());
  CHECK(losses::Loss::get("FocalLoss")->name() == "focal_loss");
  losses::LossRef ref = FocalLoss({.alpha = 0.5});
  CHECK(ref->get_config()["alpha"] == 0.5);
}
