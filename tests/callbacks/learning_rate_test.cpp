#include <catch2/catch.hpp>

#include "callback_helpers.hpp"

using namespace keras;
using callbacks::LearningRateScheduler;
using callbacks::ReduceLROnPlateau;

TEST_CASE("LearningRateScheduler sets the rate each epoch and logs lr", "[learning_rate]") {
  auto m = cbtest::tiny_model();
  m.optimizer().set_learning_rate(0.1);
  std::vector<double> seen;
  auto rec = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_batch_begin = [&](std::int64_t b, Logs&) { if (b == 0) seen.push_back(m.optimizer().learning_rate()); }});
  auto h = m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
                 {.batch_size = 2, .epochs = 3, .verbose = 0,
                  .callbacks = {LearningRateScheduler([](int epoch, double lr) { return epoch == 0 ? lr : lr * 0.5; }), rec}});
  CHECK(seen == std::vector<double>{0.1, 0.05, 0.025});
  CHECK(h.history.at("lr") == std::vector<double>{0.1, 0.05, 0.025});

  auto h2 = m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
                  {.epochs = 2, .verbose = 0, .callbacks = {LearningRateScheduler([](int epoch) { return 0.01 * (epoch + 1); })}});
  CHECK(h2.history.at("lr") == std::vector<double>{0.01, 0.02});
}

TEST_CASE("LearningRateScheduler refuses an optimizer on a schedule", "[learning_rate]") {
  Sequential m({layers::Input({2}), layers::Dense(1)});
  m.compile({.optimizer = optimizers::SGD({.learning_rate = optimizers::schedules::ExponentialDecay(0.1, 10, 0.5)}),
             .loss = "mse"});
  CHECK_THROWS_WITH(m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
                          {.verbose = 0, .callbacks = {LearningRateScheduler([](int) { return 0.1; })}}),
                    Catch::Contains("LearningRateSchedule"));
}

namespace {
// Runs ReduceLROnPlateau over scripted values; returns the learning rate after each epoch.
std::vector<double> plateau_lrs(ReduceLROnPlateau& cb, const std::string& key, const std::vector<double>& values) {
  auto m = cbtest::tiny_model();
  m.optimizer().set_learning_rate(1.0);
  std::vector<double> lrs;
  cbtest::run_epochs(cb, m, key, values, [&](int epoch) {
    if (epoch > 0) lrs.push_back(m.optimizer().learning_rate());
  });
  lrs.push_back(m.optimizer().learning_rate());
  return lrs;
}
}  // namespace

TEST_CASE("ReduceLROnPlateau reduces after patience epochs without improvement", "[learning_rate]") {
  ReduceLROnPlateau cb({.factor = 0.5, .patience = 2});
  // best 1.0 at epoch 0; epochs 1, 2 no better → reduce at the end of epoch 2; epoch 3 improves
  CHECK(plateau_lrs(cb, "val_loss", {1.0, 1.0, 1.1, 0.5, 0.6, 0.7}) == std::vector<double>{1.0, 1.0, 0.5, 0.5, 0.5, 0.25});
}

TEST_CASE("ReduceLROnPlateau min_delta, cooldown, min_lr and mode", "[learning_rate]") {
  ReduceLROnPlateau delta({.factor = 0.5, .patience = 1, .min_delta = 0.1});
  // 0.95 is not 0.1 better than 1.0: reduce at epoch 1; 0.8 is: no reduce at epoch 2
  CHECK(plateau_lrs(delta, "val_loss", {1.0, 0.95, 0.8}) == std::vector<double>{1.0, 0.5, 0.5});

  ReduceLROnPlateau cool({.factor = 0.5, .patience = 1, .cooldown = 2});
  // reduce at epoch 1; the counter drops at the start of epochs 2 and 3, so epoch 2 is skipped and epoch 3
  // (counter back to 0) counts and reduces again; epoch 4 is in cooldown (tf.keras 2.x's order)
  CHECK(plateau_lrs(cool, "val_loss", {1.0, 1.0, 1.0, 1.0, 1.0}) == std::vector<double>{1.0, 0.5, 0.5, 0.25, 0.25});
  CHECK(cool.cooldown_counter() == 1);
  ReduceLROnPlateau no_cool({.factor = 0.5, .patience = 1});
  CHECK(plateau_lrs(no_cool, "val_loss", {1.0, 1.0, 1.0, 1.0, 1.0}) == std::vector<double>{1.0, 0.5, 0.25, 0.125, 0.0625});

  ReduceLROnPlateau floor({.factor = 0.1, .patience = 1, .min_lr = 0.05});
  CHECK(plateau_lrs(floor, "val_loss", {1.0, 1.0, 1.0, 1.0}) == std::vector<double>{1.0, 0.1, 0.05, 0.05});

  ReduceLROnPlateau acc({.monitor = "val_accuracy", .factor = 0.5, .patience = 1});
  CHECK(acc.maximizes());
  CHECK(plateau_lrs(acc, "val_accuracy", {0.5, 0.6, 0.6}) == std::vector<double>{1.0, 1.0, 0.5});
  CHECK_FALSE(ReduceLROnPlateau({.monitor = "val_accuracy", .mode = "min"}).maximizes());
  CHECK_THROWS_AS(ReduceLROnPlateau({.factor = 1.0}), ValueError);
}

TEST_CASE("ReduceLROnPlateau logs lr in the epoch logs", "[learning_rate]") {
  auto m = cbtest::tiny_model();
  auto h = m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
                 {.epochs = 2, .verbose = 0, .callbacks = {ReduceLROnPlateau({.monitor = "loss"})}});
  REQUIRE(h.history.count("lr"));
  CHECK(h.history.at("lr").size() == 2);
  CHECK(h.history.at("lr")[0] == Approx(0.01));
}
