#pragma once
// ReduceLROnPlateau: multiplies the learning rate by `factor` when a monitored value has not improved
// for `patience` epochs, then waits `cooldown` epochs (keras.callbacks.ReduceLROnPlateau). Logs "lr".
#include <string>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

struct ReduceLROnPlateauOptions {
  std::string monitor = "val_loss";
  double factor = 0.1;  // new_lr = lr * factor (must be < 1)
  int patience = 10;
  int verbose = 0;
  std::string mode = "auto";  // auto: max when the name contains "acc", min otherwise
  double min_delta = 1e-4;    // a smaller change is no improvement
  int cooldown = 0;           // epochs to wait after a reduction before counting again
  double min_lr = 0.0;        // the learning rate never goes below this
};

class ReduceLROnPlateau : public Callback {
 public:
  explicit ReduceLROnPlateau(ReduceLROnPlateauOptions options = {});

  void on_train_begin(Logs& /*logs*/) override { reset(); }
  void on_epoch_end(int epoch, Logs& logs) override;

  int wait() const { return wait_; }
  int cooldown_counter() const { return cooldown_counter_; }
  double best() const { return best_; }
  bool maximizes() const { return maximize_; }

 private:
  void reset();
  bool improved(double current) const;
  ReduceLROnPlateauOptions o_;
  bool maximize_ = false;
  double best_ = 0.0;
  int wait_ = 0, cooldown_counter_ = 0;
};

}  // namespace keras::callbacks
