#include "keras/trainers/worker_callbacks.hpp"

#include "callbacks/backup_and_restore.hpp"
#include "callbacks/csv_logger.hpp"
#include "callbacks/model_checkpoint.hpp"
#include "callbacks/tensorboard.hpp"

namespace keras {
namespace {

// Restores the chief's backup at the start of training (weights, optimizer, position, random state),
// but never writes or deletes it: the chief does.
class RestoreOnly : public callbacks::Callback {
 public:
  explicit RestoreOnly(std::shared_ptr<callbacks::BackupAndRestore> backup) : backup_(std::move(backup)) {}
  void on_train_begin(Logs& logs) override {
    backup_->set_model(&model());
    backup_->set_params(params());
    backup_->on_train_begin(logs);
  }
  void on_epoch_begin(int epoch, Logs& logs) override { backup_->on_epoch_begin(epoch, logs); }

 private:
  std::shared_ptr<callbacks::BackupAndRestore> backup_;
};

}  // namespace

std::vector<callbacks::CallbackRef> worker_callbacks(const std::vector<callbacks::CallbackRef>& user_callbacks) {
  std::vector<callbacks::CallbackRef> kept;
  for (const auto& ref : user_callbacks) {
    const auto& cb = ref.ptr();
    if (std::dynamic_pointer_cast<callbacks::ModelCheckpoint>(cb) || std::dynamic_pointer_cast<callbacks::CSVLogger>(cb) ||
        std::dynamic_pointer_cast<callbacks::TensorBoard>(cb))
      continue;
    if (auto backup = std::dynamic_pointer_cast<callbacks::BackupAndRestore>(cb))
      kept.emplace_back(std::make_shared<RestoreOnly>(backup));
    else
      kept.push_back(ref);
  }
  return kept;
}

}  // namespace keras
