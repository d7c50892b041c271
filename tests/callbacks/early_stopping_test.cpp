#include <catch2/catch.hpp>

#include "callback_helpers.hpp"

using namespace keras;
using callbacks::EarlyStopping;

TEST_CASE("EarlyStopping counts patience epochs without improvement", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  EarlyStopping es({.monitor = "val_loss", .patience = 2});
  // best at epoch 1 (0.5); epochs 2 and 3 do not improve: stop after epoch 3
  CHECK(cbtest::run_epochs(es, m, "val_loss", {1.0, 0.5, 0.6, 0.55, 0.1, 0.1}) == 4);
  CHECK(es.stopped_epoch() == 3);
  CHECK(es.best() == 0.5);
  CHECK(es.best_epoch() == 1);

  EarlyStopping never({.patience = 2});
  CHECK(cbtest::run_epochs(never, m, "val_loss", {5, 4, 3, 2, 1}) == 5);
  CHECK(never.stopped_epoch() == 0);
}

TEST_CASE("EarlyStopping min_delta: smaller gains are no improvement", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  EarlyStopping es({.min_delta = 0.1, .patience = 1});
  // 1.0 → 0.95 gains 0.05 < 0.1: no improvement, stop after epoch 1
  CHECK(cbtest::run_epochs(es, m, "val_loss", {1.0, 0.95, 0.5}) == 2);
  EarlyStopping big({.min_delta = 0.1, .patience = 1});
  CHECK(cbtest::run_epochs(big, m, "val_loss", {1.0, 0.85, 0.7, 0.69}) == 4);
  CHECK(big.stopped_epoch() == 3);
  // a negative min_delta counts as its absolute value, as in Keras
  EarlyStopping neg({.min_delta = -0.1, .patience = 1});
  CHECK(cbtest::run_epochs(neg, m, "val_loss", {1.0, 0.95, 0.5}) == 2);
}

TEST_CASE("EarlyStopping infers the mode from the monitor's name as tf.keras 2.x", "[early_stopping]") {
  CHECK(EarlyStopping({.monitor = "val_accuracy"}).maximizes());
  CHECK(EarlyStopping({.monitor = "acc"}).maximizes());
  CHECK(EarlyStopping({.monitor = "val_auc"}).maximizes());
  CHECK_FALSE(EarlyStopping({.monitor = "val_loss"}).maximizes());
  CHECK_FALSE(EarlyStopping({.monitor = "val_mae"}).maximizes());
  CHECK_FALSE(EarlyStopping({.monitor = "val_accuracy", .mode = "min"}).maximizes());
  CHECK(EarlyStopping({.monitor = "val_loss", .mode = "max"}).maximizes());
  CHECK_FALSE(EarlyStopping({.monitor = "val_loss", .mode = "bogus"}).maximizes());  // warns, falls back to auto

  auto m = cbtest::tiny_model();
  EarlyStopping acc({.monitor = "val_accuracy", .patience = 1});
  CHECK(cbtest::run_epochs(acc, m, "val_accuracy", {0.5, 0.6, 0.7, 0.65, 0.9}) == 4);
  CHECK(acc.best() == 0.7);
}

TEST_CASE("EarlyStopping baseline: stops unless the baseline is beaten within patience", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  EarlyStopping es({.patience = 2, .baseline = 0.5});
  // improving but never below 0.5: the wait is not reset, stop after `patience` epochs (tf.keras 2.x)
  CHECK(cbtest::run_epochs(es, m, "val_loss", {0.9, 0.8, 0.7, 0.6, 0.4}) == 2);
  CHECK(es.stopped_epoch() == 1);
  CHECK(es.best() == 0.8);
  EarlyStopping beaten({.patience = 2, .baseline = 0.5});
  CHECK(cbtest::run_epochs(beaten, m, "val_loss", {0.9, 0.4, 0.3, 0.2, 0.1}) == 5);
}

TEST_CASE("EarlyStopping start_from_epoch ignores the first epochs", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  EarlyStopping es({.patience = 1, .start_from_epoch = 3});
  // epochs 0-2 get worse but are not watched; from epoch 3 on: best 2.0, then 2.5 → stop at 4
  CHECK(cbtest::run_epochs(es, m, "val_loss", {1.0, 1.5, 1.8, 2.0, 2.5, 0.1}) == 5);
  CHECK(es.best_epoch() == 3);
}

TEST_CASE("EarlyStopping restore_best_weights goes back to the best epoch's weights", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  auto set_all = [&](float v) {
    std::vector<Tensor> ws;
    for (const auto& w : m.get_weights()) ws.push_back(Tensor::full(w.shape(), v));
    m.set_weights(ws);
  };
  EarlyStopping es({.patience = 2, .restore_best_weights = true});
  // the weights hold the epoch number; the best epoch is 1
  cbtest::run_epochs(es, m, "val_loss", {0.9, 0.3, 0.5, 0.6, 0.1}, [&](int epoch) { set_all(float(epoch)); });
  CHECK(es.stopped_epoch() == 3);
  for (const auto& w : m.get_weights()) CHECK(w.to_vector<float>() == std::vector<float>(w.size(), 1.0f));

  EarlyStopping keep({.patience = 2, .restore_best_weights = false});
  cbtest::run_epochs(keep, m, "val_loss", {0.9, 0.3, 0.5, 0.6, 0.1}, [&](int epoch) { set_all(float(epoch)); });
  for (const auto& w : m.get_weights()) CHECK(w.to_vector<float>() == std::vector<float>(w.size(), 3.0f));
}

TEST_CASE("EarlyStopping ends a real fit and a missing monitor only warns", "[early_stopping]") {
  auto m = cbtest::tiny_model();
  // lr 0 keeps val_loss constant: no improvement after epoch 0, patience 1 → 2 epochs
  m.optimizer().set_learning_rate(0.0);
  auto h = m.fit(Tensor::ones({8, 2}), Tensor::zeros({8, 1}),
                 {.batch_size = 4, .epochs = 10, .verbose = 0, .callbacks = {EarlyStopping({.monitor = "loss", .patience = 1})}});
  CHECK(h.epoch.size() == 2);
  auto h2 = m.fit(Tensor::ones({8, 2}), Tensor::zeros({8, 1}),
                  {.batch_size = 4, .epochs = 3, .verbose = 0, .callbacks = {EarlyStopping({.monitor = "val_missing"})}});
  CHECK(h2.epoch.size() == 3);
}
