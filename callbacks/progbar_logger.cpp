#include "callbacks/progbar_logger.hpp"

#include <algorithm>
#include <iostream>

namespace keras::callbacks {

ProgbarLogger::ProgbarLogger(ProgbarLoggerOptions options) : options_(std::move(options)) {
  if (options_.count_mode != "steps" && options_.count_mode != "samples")
    throw ValueError("Unknown `count_mode`: " + options_.count_mode + ". Expected values are [\"samples\", \"steps\"]");
}

bool ProgbarLogger::counts_samples() const {
  return options_.count_mode == "samples" && in_fit_ && params().samples > 0 && params().batch_size > 0;
}

std::int64_t ProgbarLogger::seen_after(std::int64_t batch) const {
  return counts_samples() ? std::min((batch + 1) * params().batch_size, params().samples) : batch + 1;
}

void ProgbarLogger::start_bar() {
  seen_ = 0;
  std::optional<std::int64_t> target;
  if (counts_samples()) target = params().samples;
  else if (params().steps > 0) target = params().steps;
  bar_.emplace(target, utils::ProgbarOptions{.verbose = params().verbose,
                                             .unit_name = counts_samples() ? "sample" : "step",
                                             .out = options_.out});
}

void ProgbarLogger::on_epoch_begin(int epoch, Logs&) {
  if (params().verbose && params().epochs > 1)
    (options_.out ? *options_.out : std::cout) << "Epoch " << epoch + 1 << "/" << params().epochs << '\n' << std::flush;
  start_bar();
}

void ProgbarLogger::on_train_batch_end(std::int64_t batch, Logs& logs) {
  seen_ = seen_after(batch);
  const std::int64_t target = counts_samples() ? params().samples : params().steps;
  if (bar_ && params().verbose == 1 && (!target || seen_ < target)) bar_->update(seen_, logs);
}

void ProgbarLogger::on_epoch_end(int, Logs& logs) {
  if (bar_) bar_->update(seen_, logs, true);
  bar_.reset();
}

void ProgbarLogger::on_test_begin(Logs&) {
  if (!in_fit_) start_bar();
}

void ProgbarLogger::on_test_batch_end(std::int64_t batch, Logs& logs) {
  if (in_fit_ || !bar_) return;
  seen_ = batch + 1;
  if (!params().steps || seen_ < params().steps) bar_->update(seen_, logs);
}

void ProgbarLogger::on_test_end(Logs& logs) {
  if (in_fit_ || !bar_) return;
  bar_->update(seen_, logs, true);
  bar_.reset();
}

void ProgbarLogger::on_predict_begin(Logs& logs) { start_bar(); }

void ProgbarLogger::on_predict_batch_end(std::int64_t batch, Logs&) {
  seen_ = batch + 1;
  if (bar_ && (!params().steps || seen_ < params().steps)) bar_->update(seen_);
}

void ProgbarLogger::on_predict_end(Logs&) {
  if (bar_) bar_->update(seen_, {}, true);
  bar_.reset();
}

}  // namespace keras::callbacks
