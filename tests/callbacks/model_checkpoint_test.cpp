#include <catch2/catch.hpp>

#include "callback_helpers.hpp"
#include "callbacks/format_path.hpp"

using namespace keras;
using callbacks::format_path;
using callbacks::ModelCheckpoint;
namespace fs = std::filesystem;

TEST_CASE("format_path follows Python's str.format for d, f, e and g", "[model_checkpoint]") {
  const Logs logs{{"val_loss", 0.123456}, {"accuracy", 0.5}, {"lr", 1e-5}};
  CHECK(format_path("ckpt-{epoch:02d}-{val_loss:.3f}.h5", {{"epoch", 3}}, logs) == "ckpt-03-0.123.h5");
  CHECK(format_path("{epoch}", {{"epoch", 12}}, logs) == "12");
  CHECK(format_path("{epoch:4d}|{epoch:<4}|{epoch:+d}", {{"epoch", 7}}, logs) == "   7|7   |+7");
  CHECK(format_path("{val_loss:.2e}", {}, logs) == "1.23e-01");
  CHECK(format_path("{lr:g}", {}, logs) == "1e-05");
  CHECK(format_path("{val_loss:.3g}", {}, logs) == "0.123");
  CHECK(format_path("{accuracy:08.4f}", {}, logs) == "000.5000");
  CHECK(format_path("{accuracy}", {}, logs) == "0.5");            // Python's repr
  CHECK(format_path("{val_loss:10}", {}, logs) == "  0.123456");
  CHECK(format_path("{{epoch}}-{epoch:03d}", {{"epoch", 1}}, logs) == "{epoch}-001");
  CHECK(format_path("{epoch:.1f}", {{"epoch", 2}}, logs) == "2.0");
  CHECK_THROWS_AS(format_path("{missing}", {{"epoch", 1}}, logs), ValueError);
  CHECK_THROWS_WITH(format_path("{val_loss:d}", {}, logs), Catch::Contains("Unknown format code 'd'"));
  CHECK_THROWS_AS(format_path("{epoch:.2d}", {{"epoch", 1}}, logs), ValueError);
  CHECK_THROWS_AS(format_path("{epoch:q}", {{"epoch", 1}}, logs), ValueError);
  CHECK_THROWS_AS(format_path("ckpt-{epoch", {{"epoch", 1}}, logs), ValueError);
  CHECK_THROWS_AS(format_path("ckpt-}", {{"epoch", 1}}, logs), ValueError);
}

TEST_CASE("ModelCheckpoint infers its mode as tf.keras 2.x", "[model_checkpoint]") {
  CHECK(ModelCheckpoint("a.h5", {.monitor = "val_acc"}).maximizes());
  CHECK(ModelCheckpoint("a.h5", {.monitor = "val_accuracy"}).maximizes());
  CHECK(ModelCheckpoint("a.h5", {.monitor = "fmeasure"}).maximizes());
  CHECK_FALSE(ModelCheckpoint("a.h5", {.monitor = "val_loss"}).maximizes());
  CHECK_FALSE(ModelCheckpoint("a.h5", {.monitor = "val_accuracy", .mode = "min"}).maximizes());
  CHECK(ModelCheckpoint("a.h5", {.initial_value_threshold = 0.25}).best() == 0.25);
  CHECK_THROWS_AS(ModelCheckpoint("a.h5", {.save_freq = std::string("often")}), ValueError);
  CHECK_THROWS_AS(ModelCheckpoint("a.h5", {.save_freq = std::int64_t{0}}), ValueError);
}

TEST_CASE("ModelCheckpoint saves every epoch, or only improvements, under formatted names", "[model_checkpoint]") {
  const auto dir = cbtest::temp_dir("ckpt");
  auto m = cbtest::tiny_model();
  ModelCheckpoint all((dir / "all-{epoch:02d}-{val_loss:.2f}.h5").string());
  cbtest::run_epochs(all, m, "val_loss", {0.5, 0.7, 0.25});
  CHECK(fs::exists(dir / "all-01-0.50.h5"));
  CHECK(fs::exists(dir / "all-02-0.70.h5"));
  CHECK(fs::exists(dir / "all-03-0.25.h5"));

  ModelCheckpoint best((dir / "sub/best-{epoch}.h5").string(), {.save_best_only = true});
  cbtest::run_epochs(best, m, "val_loss", {0.5, 0.7, 0.25, 0.3});
  CHECK(fs::exists(dir / "sub/best-1.h5"));
  CHECK_FALSE(fs::exists(dir / "sub/best-2.h5"));
  CHECK(fs::exists(dir / "sub/best-3.h5"));
  CHECK_FALSE(fs::exists(dir / "sub/best-4.h5"));
  CHECK(best.best() == 0.25);

  ModelCheckpoint threshold((dir / "thr-{epoch}.h5").string(), {.save_best_only = true, .initial_value_threshold = 0.4});
  cbtest::run_epochs(threshold, m, "val_loss", {0.5, 0.3});
  CHECK_FALSE(fs::exists(dir / "thr-1.h5"));
  CHECK(fs::exists(dir / "thr-2.h5"));

  ModelCheckpoint acc((dir / "acc-{epoch}.h5").string(), {.monitor = "val_accuracy", .save_best_only = true});
  cbtest::run_epochs(acc, m, "val_accuracy", {0.5, 0.4, 0.6});
  CHECK(fs::exists(dir / "acc-1.h5"));
  CHECK_FALSE(fs::exists(dir / "acc-2.h5"));
  CHECK(fs::exists(dir / "acc-3.h5"));
  fs::remove_all(dir);
}

TEST_CASE("ModelCheckpoint files load back: whole model or weights only - save_freq in batches", "[model_checkpoint]") {
  const auto dir = cbtest::temp_dir("ckpt_fit");
  auto m = cbtest::tiny_model();
  const Tensor x = Tensor::ones({8, 2}), y = Tensor::zeros({8, 1});
  m.fit(x, y, {.batch_size = 2, .epochs = 2, .verbose = 0,
               .callbacks = {ModelCheckpoint((dir / "m-{epoch}.h5").string(), {.monitor = "loss"}),
                             ModelCheckpoint((dir / "w-{epoch}-{batch}.weights.h5").string(),
                                             {.save_weights_only = true, .save_freq = std::int64_t{3}})}});
  auto loaded = models::load_model((dir / "m-2.h5").string());
  CHECK(loaded->get_weights()[0].to_vector<float>() == m.get_weights()[0].to_vector<float>());
  // 4 batches per epoch, every 3 batches across epochs: epoch 1 batch 3, epoch 2 batch 2
  CHECK(fs::exists(dir / "w-1-3.weights.h5"));
  CHECK(fs::exists(dir / "w-2-2.weights.h5"));
  CHECK_FALSE(fs::exists(dir / "w-2-4.weights.h5"));
  auto again = cbtest::tiny_model();
  again.load_weights((dir / "w-2-2.weights.h5").string());
  fs::remove_all(dir);
}
