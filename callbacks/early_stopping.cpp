#include "callbacks/early_stopping.hpp"

#include <cmath>
#include <iostream>
#include <limits>

#include "callbacks/monitor.hpp"
#include "keras/model.hpp"

namespace keras::callbacks {
namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

EarlyStopping::EarlyStopping(EarlyStoppingOptions options) : o_(std::move(options)) {
  const std::string mode = checked_mode(o_.mode, "EarlyStopping");
  // tf.keras 2.x: in auto mode, names ending in "acc", "accuracy" or "auc" are maximized.
  maximize_ = mode == "max" ||
              (mode == "auto" && (ends_with(o_.monitor, "acc") || ends_with(o_.monitor, "accuracy") ||
                                  ends_with(o_.monitor, "auc")));
  min_delta_ = maximize_ ? std::abs(o_.min_delta) : -std::abs(o_.min_delta);
}

bool EarlyStopping::is_improvement(double value, double reference) const {
  return maximize_ ? value - min_delta_ > reference : value - min_delta_ < reference;
}

void EarlyStopping::on_train_begin(Logs&) {
  wait_ = 0;
  stopped_epoch_ = 0;
  best_epoch_ = 0;
  best_ = maximize_ ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  best_weights_.clear();
}

void EarlyStopping::on_epoch_end(int epoch, Logs& logs) {
  const auto current = monitored_value(logs, o_.monitor, "Early stopping");
  if (!current || epoch < o_.start_from_epoch) return;
  if (o_.restore_best_weights && best_weights_.empty()) best_weights_ = model().get_weights();
  ++wait_;
  if (is_improvement(*current, best_)) {
    best_ = *current;
    best_epoch_ = epoch;
    if (o_.restore_best_weights) best_weights_ = model().get_weights();
    // The wait restarts only when the value beats both the previous best and the baseline.
    if (!o_.baseline || is_improvement(*current, *o_.baseline)) wait_ = 0;
  }
  // tf.keras 2.x checks the patience after an improvement too (so a baseline that is never beaten stops
  // training even while the value improves); Keras 3 returns early here.
  if (wait_ >= o_.patience && epoch > 0) {
    stopped_epoch_ = epoch;
    model().stop_training = true;
    if (o_.restore_best_weights && !best_weights_.empty()) {
      if (o_.verbose > 0)
        std::cout << "Restoring model weights from the end of the best epoch: " << best_epoch_ + 1 << ".\n";
      model().set_weights(best_weights_);
    }
  }
}

void EarlyStopping::on_train_end(Logs&) {
  if (stopped_epoch_ > 0 && o_.verbose > 0) std::cout << "Epoch " << stopped_epoch_ + 1 << ": early stopping\n";
}

}  // namespace keras::callbacks
