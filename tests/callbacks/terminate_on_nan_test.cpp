#include <iostream>
#include <limits>
#include <sstream>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"

using namespace keras;

namespace {
// Captures std::cout while alive.
struct CoutCapture {
  std::ostringstream out;
  std::streambuf* old = std::cout.rdbuf(out.rdbuf());
  ~CoutCapture() { std::cout.rdbuf(old); }
};
}  // namespace

TEST_CASE("TerminateOnNaN stops at the first batch whose loss is NaN or infinite", "[terminate_on_nan]") {
  auto m = cbtest::tiny_model();
  callbacks::TerminateOnNaN cb;
  cb.set_model(&m);
  Logs ok{{"loss", 1.0}}, nan{{"loss", std::numeric_limits<double>::quiet_NaN()}},
      inf{{"loss", std::numeric_limits<double>::infinity()}}, none{{"mae", 1.0}};
  CoutCapture capture;
  cb.on_train_batch_end(0, ok);
  cb.on_train_batch_end(1, none);
  CHECK_FALSE(m.stop_training);
  cb.on_train_batch_end(7, nan);
  CHECK(m.stop_training);
  CHECK(capture.out.str() == "Batch 7: Invalid loss, terminating training\n");
  m.stop_training = false;
  cb.on_train_batch_end(3, inf);
  CHECK(m.stop_training);
}

TEST_CASE("TerminateOnNaN ends a fit whose loss diverges", "[terminate_on_nan]") {
  auto m = cbtest::tiny_model();
  m.optimizer().set_learning_rate(1e6);  // SGD on MSE diverges to inf, then NaN
  CoutCapture capture;
  auto h = m.fit(Tensor::full({64, 2}, 10.0), Tensor::zeros({64, 1}),
                 {.batch_size = 1, .epochs = 5, .verbose = 0, .callbacks = {callbacks::TerminateOnNaN()}});
  CHECK(h.epoch.size() == 1);
  CHECK(capture.out.str().find(": Invalid loss, terminating training") != std::string::npos);
}

TEST_CASE("LambdaCallback calls the given callables and skips the others", "[lambda_callback]") {
  auto m = cbtest::tiny_model();
  std::vector<std::string> events;
  callbacks::LambdaCallback cb({
      .on_epoch_end = [&](int e, Logs& logs) { events.push_back("epoch " + std::to_string(e)); logs["custom"] = 42; },
      .on_batch_end = [&](std::int64_t b, Logs&) { events.push_back("batch " + std::to_string(b)); },
      .on_train_begin = [&](Logs&) { events.push_back("begin"); },
      .on_train_end = [&](Logs&) { events.push_back("end"); },
  });
  auto h = m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}), {.batch_size = 2, .epochs = 2, .verbose = 0, .callbacks = {cb}});
  CHECK(events == std::vector<std::string>{"begin", "batch 0", "batch 1", "epoch 0", "batch 0", "batch 1", "epoch 1", "end"});
  CHECK(h.history.at("custom") == std::vector<double>{42, 42});
  std::int64_t predicted = 0;
  m.predict(Tensor::ones({5, 2}), {.batch_size = 2, .callbacks = {callbacks::LambdaCallback(
                                                          {.on_predict_batch_end = [&](std::int64_t, Logs&) { ++predicted; }})}});
  CHECK(predicted == 3);
}
