#include <algorithm>
#include <sstream>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;

namespace {
class Recorder : public callbacks::Callback {
 public:
  std::vector<std::string> events;
  void on_train_begin(Logs&) override { events.push_back("train_begin"); }
  void on_train_end(Logs&) override { events.push_back("train_end"); }
  void on_epoch_begin(int e, Logs&) override { events.push_back("epoch_begin " + std::to_string(e)); }
  void on_epoch_end(int e, Logs& logs) override {
    events.push_back("epoch_end " + std::to_string(e) + " " + logs.keys_str());
    logs["lr"] = model().optimizer().learning_rate();  // a callback may add entries, as in Keras
  }
  void on_train_batch_begin(std::int64_t b, Logs&) override { events.push_back("batch_begin " + std::to_string(b)); }
  void on_train_batch_end(std::int64_t b, Logs& logs) override {
    events.push_back("batch_end " + std::to_string(b) + " " + logs.keys_str());
  }
  void on_test_begin(Logs&) override { events.push_back("test_begin"); }
  void on_test_end(Logs&) override { events.push_back("test_end"); }
};

class StopAfterBatches : public callbacks::Callback {
 public:
  void on_train_batch_end(std::int64_t batch, Logs&) override {
    if (batch == 1) model().stop_training = true;
  }
};

Sequential tiny() {
  Sequential m({layers::Input({2}), layers::Dense(2)});
  m.compile({.optimizer = "sgd", .loss = "mse", .metrics = {"mae"}});
  return m;
}
}  // namespace

TEST_CASE("callbacks see every hook in Keras's order with params and logs") {
  auto rec = std::make_shared<Recorder>();
  Sequential m = tiny();
  auto h = m.fit(Tensor::ones({6, 2}), Tensor::zeros({6, 2}),
                 {.batch_size = 4, .epochs = 2, .verbose = 0, .callbacks = {rec}, .validation_split = 0.34});
  const std::vector<std::string> expected{
      "train_begin", "epoch_begin 0", "batch_begin 0", "batch_end 0 loss, mae", "test_begin",
      "test_end", "epoch_end 0 loss, mae, val_loss, val_mae", "epoch_begin 1",
      "batch_begin 0", "batch_end 0 loss, mae", "test_begin", "test_end",
      "epoch_end 1 loss, mae, val_loss, val_mae", "train_end"};
  CHECK(rec->events == expected);
  CHECK(rec->params().epochs == 2);
  CHECK(rec->params().steps == 1);
  CHECK(h.history.count("lr") == 1);  // History runs last and sees the entry the recorder added
}

TEST_CASE("stop_training set by a callback ends fit") {
  Sequential m = tiny();
  auto h = m.fit(Tensor::ones({40, 2}), Tensor::zeros({40, 2}),
                 {.batch_size = 4, .epochs = 5, .verbose = 0, .callbacks = {StopAfterBatches()}});
  CHECK(h.epoch.size() == 1);
}

TEST_CASE("Progbar draws Keras's bar and its verbose 2 line") {
  std::ostringstream out;
  utils::Progbar bar(3, {.out = &out, .dynamic_display = true});
  bar.update(1, {{"loss", 0.5}});
  bar.update(3, {{"loss", 0.25}, {"accuracy", 0.0001}});
  const std::string s = out.str();
  CHECK(s.find("\r3/3 [==============================] - 0s") != std::string::npos);
  // The unit follows the measured time (us/step, or ms/step on a loaded machine), as in Keras.
  CHECK(s.find("s/step - loss: 0.2500 - accuracy: 1.0000e-04\n") != std::string::npos);
  CHECK(s.find("1/3 [=========>....................] - ETA: 0s - loss: 0.5000") != std::string::npos);

  std::ostringstream two;
  utils::Progbar line(10, {.verbose = 2, .out = &two});
  line.update(5, {{"loss", 1.0}});
  CHECK(two.str().empty());
  line.update(10, {{"loss", 1.0}});
  CHECK(two.str().rfind("10/10 - 0s - loss: 1.0000 - 0s/epoch - ", 0) == 0);

  CHECK(utils::Progbar::format_time_per_unit(0.0062, "step") == "6ms/step");
  CHECK(utils::Progbar::format_time_per_unit(2.4, "step") == "2s/step");
  CHECK(utils::Progbar::format_time_per_unit(0.00012, "step") == "120us/step");
}

TEST_CASE("fit prints Epoch lines and one finished bar per epoch") {
  std::ostringstream out;
  auto progbar = std::make_shared<callbacks::ProgbarLogger>(callbacks::ProgbarLoggerOptions{.out = &out});
  Sequential m = tiny();
  m.fit(Tensor::ones({8, 2}), Tensor::zeros({8, 2}), {.batch_size = 4, .epochs = 2, .verbose = 0, .callbacks = {progbar}});
  // verbose 0 silences the default bar; this one is the user's own and follows params().verbose == 0.
  CHECK(out.str().empty());
}

TEST_CASE("ProgbarLogger: verbose 2 prints one line per epoch - count_mode samples counts samples", "[progbar]") {
  std::ostringstream out;
  auto steps = std::make_shared<callbacks::ProgbarLogger>(callbacks::ProgbarLoggerOptions{.out = &out});
  Sequential m = tiny();
  m.fit(Tensor::ones({10, 2}), Tensor::zeros({10, 2}), {.batch_size = 4, .epochs = 2, .verbose = 2, .callbacks = {steps}});
  std::string s = out.str();
  CHECK(std::count(s.begin(), s.end(), '\n') == 4);
  CHECK(s.rfind("Epoch 1/2\n3/3 - ", 0) == 0);
  CHECK(s.find("\nEpoch 2/2\n3/3 - ") != std::string::npos);
  CHECK(s.find("/step\n") != std::string::npos);

  std::ostringstream samples_out;
  auto samples = std::make_shared<callbacks::ProgbarLogger>(
      callbacks::ProgbarLoggerOptions{.count_mode = "samples", .out = &samples_out});
  m.fit(Tensor::ones({10, 2}), Tensor::zeros({10, 2}), {.batch_size = 4, .epochs = 1, .verbose = 2, .callbacks = {samples}});
  s = samples_out.str();
  CHECK(s.rfind("10/10 - ", 0) == 0);
  CHECK(s.find("/sample\n") != std::string::npos);
  CHECK_THROWS_AS(callbacks::ProgbarLogger({.count_mode = "batches"}), ValueError);
}
