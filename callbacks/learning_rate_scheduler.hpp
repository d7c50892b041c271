#pragma once
// LearningRateScheduler: sets the learning rate at the start of each epoch from schedule(epoch, lr)
// and logs it as "lr" (keras.callbacks.LearningRateScheduler).
#include <functional>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

class LearningRateScheduler : public Callback {
 public:
  /// schedule(epoch (0-based), current learning rate) → the learning rate for this epoch.
  explicit LearningRateScheduler(std::function<double(int, double)> schedule, int verbose = 0);
  /// schedule(epoch) → learning rate (Keras also accepts one-argument schedules).
  explicit LearningRateScheduler(std::function<double(int)> schedule, int verbose = 0);

  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

 private:
  std::function<double(int, double)> schedule_;
  int verbose_;
};

/// The optimizer's current learning rate; throws when it follows a LearningRateSchedule, which a callback
/// cannot set (as in Keras, where the schedule's learning rate is not a settable variable).
double settable_learning_rate(const Model& model, const char* owner);

}  // namespace keras::callbacks
