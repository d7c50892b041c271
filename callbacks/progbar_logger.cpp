#include "callbacks/progbar_logger.hpp"

#include <iostream>

namespace keras::callbacks {

void ProgbarLogger::start_bar() {
  seen_ = 0;
  std::optional<std::int64_t> target;
  if (params().steps > 0) target = params().steps;
  bar_.emplace(target, utils::ProgbarOptions{.verbose = params().verbose, .out = options_.out});
}

void ProgbarLogger::on_epoch_begin(int epoch, Logs&) {
  if (params().verbose && params().epochs > 1)
    (options_.out ? *options_.out : std::cout) << "Epoch " << epoch + 1 << "/" << params().epochs << '\n' << std::flush;
  start_bar();
}

void ProgbarLogger::on_train_batch_end(std::int64_t batch, Logs& logs) {
  seen_ = batch + 1;
  if (bar_ && params().verbose == 1 && (!params().steps || seen_ < params().steps)) bar_->update(seen_, logs);
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
