#include "callbacks/reduce_lr_on_plateau.hpp"

#include <algorithm>
#include <iostream>
#include <limits>

#include "callbacks/learning_rate_scheduler.hpp"
#include "callbacks/monitor.hpp"
#include "keras/model.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::callbacks {

ReduceLROnPlateau::ReduceLROnPlateau(ReduceLROnPlateauOptions options) : o_(std::move(options)) {
  if (o_.factor >= 1.0)
    throw ValueError("ReduceLROnPlateau does not support a factor >= 1.0. Got " + python_float(o_.factor));
  reset();
}

void ReduceLROnPlateau::reset() {
  o_.mode = checked_mode(o_.mode, "Learning rate reduction");
  // tf.keras 2.x: in auto mode, names containing "acc" are maximized.
  maximize_ = o_.mode == "max" || (o_.mode == "auto" && o_.monitor.find("acc") != std::string::npos);
  best_ = maximize_ ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  cooldown_counter_ = 0;
  wait_ = 0;
}

bool ReduceLROnPlateau::improved(double current) const {
  return maximize_ ? current > best_ + o_.min_delta : current < best_ - o_.min_delta;
}

void ReduceLROnPlateau::on_epoch_end(int epoch, Logs& logs) {
  logs["lr"] = model().optimizer().learning_rate();
  const auto current = monitored_value(logs, o_.monitor, "Learning rate reduction");
  if (!current) return;
  if (cooldown_counter_ > 0) {
    --cooldown_counter_;
    wait_ = 0;
  }
  if (improved(*current)) {
    best_ = *current;
    wait_ = 0;
  } else if (cooldown_counter_ == 0) {
    if (++wait_ < o_.patience) return;
    const double old_lr = settable_learning_rate(model(), "ReduceLROnPlateau");
    if (old_lr > static_cast<double>(static_cast<float>(o_.min_lr))) {  // Keras compares in float32
      const double new_lr = std::max(old_lr * o_.factor, o_.min_lr);
      model().optimizer().set_learning_rate(new_lr);
      if (o_.verbose > 0)
        std::cout << "\nEpoch " << epoch + 1 << ": ReduceLROnPlateau reducing learning rate to " << python_float(new_lr)
                  << ".\n";
      cooldown_counter_ = o_.cooldown;
      wait_ = 0;
    }
  }
}

}  // namespace keras::callbacks
