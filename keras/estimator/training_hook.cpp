// The Estimator's training callback (see training_hook.hpp).
#include "keras/estimator/training_hook.hpp"

#include <iostream>

#include <fmt/format.h>

#include "callbacks/summary_writer.hpp"
#include "keras/model.hpp"
#include "keras/variable.hpp"

namespace keras::estimator::detail {

TrainingHook::TrainingHook(const RunConfig& config, std::shared_ptr<Variable> global_step,
                           std::function<void(std::int64_t)> save, std::shared_ptr<summary::SummaryWriter> writer)
    : config_(config), global_step_(std::move(global_step)), save_(std::move(save)), writer_(std::move(writer)) {}

std::int64_t TrainingHook::step() const { return static_cast<std::int64_t>(global_step_->value().item()); }

void TrainingHook::on_train_begin(Logs&) {
  last_saved_ = step();
  last_logged_step_ = step();
  last_save_time_ = last_log_time_ = Clock::now();
}

void TrainingHook::on_train_batch_begin(std::int64_t, Logs&) { model().reset_metrics(); }

void TrainingHook::on_train_batch_end(std::int64_t, Logs& logs) {
  const std::int64_t step = this->step() + 1;
  global_step_->assign(Tensor::full({}, static_cast<double>(step), DType::int64));
  trained_ = true;
  if (logs.contains("loss")) last_loss_ = logs.at("loss");
  if (writer_ && config_.save_summary_steps > 0 && step % config_.save_summary_steps == 0) writer_->scalar("loss", last_loss_, step);
  if (config_.log_step_count_steps > 0 && step % config_.log_step_count_steps == 0) {
    const auto now = Clock::now();
    const double secs = std::chrono::duration<double>(now - last_log_time_).count();
    const double rate = secs > 0 ? double(step - last_logged_step_) / secs : 0.0;
    if (writer_) {
      writer_->scalar("global_step/sec", rate, step);
      std::cerr << fmt::format("INFO: loss = {:.6g}, step = {} ({:.3f} sec)\n", last_loss_, step, secs);
    }
    last_log_time_ = now;
    last_logged_step_ = step;
  }
  bool due = false;
  if (config_.save_checkpoints_steps) {
    due = *config_.save_checkpoints_steps > 0 && step % *config_.save_checkpoints_steps == 0;
  } else {
    const double every = config_.save_checkpoints_secs.value_or(600.0);
    due = std::chrono::duration<double>(Clock::now() - last_save_time_).count() >= every;
  }
  if (due) {
    save_(step);
    last_saved_ = step;
    last_save_time_ = Clock::now();
  }
}

void TrainingHook::on_train_end(Logs&) {
  const std::int64_t step = this->step();
  if (step != last_saved_) save_(step);
  if (writer_) writer_->flush();
}

}  // namespace keras::estimator::detail
