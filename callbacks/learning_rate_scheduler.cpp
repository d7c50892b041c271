#include "callbacks/learning_rate_scheduler.hpp"

#include <cmath>
#include <iostream>

#include "callbacks/monitor.hpp"
#include "keras/model.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::callbacks {

double settable_learning_rate(const Model& model, const char* owner) {
  const auto& opt = model.optimizer();
  if (opt.learning_rate_schedule())
    throw ValueError(std::string(owner) + " cannot change the learning rate of optimizer '" + opt.name() +
                     "', which follows a LearningRateSchedule; compile with a constant learning rate to use it");
  return opt.learning_rate();
}

LearningRateScheduler::LearningRateScheduler(std::function<double(int, double)> schedule, int verbose)
    : schedule_(std::move(schedule)), verbose_(verbose) {
  if (!schedule_) throw ValueError("LearningRateScheduler needs a schedule function");
}

LearningRateScheduler::LearningRateScheduler(std::function<double(int)> schedule, int verbose) : verbose_(verbose) {
  if (!schedule) throw ValueError("LearningRateScheduler needs a schedule function");
  schedule_ = [s = std::move(schedule)](int epoch, double) { return s(epoch); };
}

void LearningRateScheduler::on_epoch_begin(int epoch, Logs&) {
  const double lr = schedule_(epoch, settable_learning_rate(model(), "LearningRateScheduler"));
  if (!std::isfinite(lr))
    throw ValueError("The learning rate the schedule returned for epoch " + std::to_string(epoch) + " is not finite (" +
                     python_float(lr) + ")");
  model().optimizer().set_learning_rate(lr);
  if (verbose_ > 0)
    std::cout << "\nEpoch " << epoch + 1 << ": LearningRateScheduler setting learning rate to " << python_float(lr)
              << ".\n";
}

void LearningRateScheduler::on_epoch_end(int, Logs& logs) { logs["lr"] = model().optimizer().learning_rate(); }

}  // namespace keras::callbacks
