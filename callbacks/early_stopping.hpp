#pragma once
// EarlyStopping: stops training when a monitored value stops improving (keras.callbacks.EarlyStopping).
#include <optional>
#include <string>
#include <vector>

#include "callbacks/callback.hpp"
#include "keras/tensor.hpp"

namespace keras::callbacks {

struct EarlyStoppingOptions {
  std::string monitor = "val_loss";
  double min_delta = 0.0;   // a change smaller than this (in absolute value) is no improvement
  int patience = 0;         // epochs without improvement before stopping
  int verbose = 0;
  std::string mode = "auto";  // auto: max for names ending in acc/accuracy/auc, min otherwise
  std::optional<double> baseline{};  // training stops unless the value beats it within `patience` epochs
  bool restore_best_weights = false;  // when stopping, go back to the weights of the best epoch
  int start_from_epoch = 0;  // epochs to wait before watching
};

class EarlyStopping : public Callback {
 public:
  explicit EarlyStopping(EarlyStoppingOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

  /// Epochs since the last improvement; the best value and its epoch; the epoch training stopped at (0: none).
  int wait() const { return wait_; }
  double best() const { return best_; }
  int best_epoch() const { return best_epoch_; }
  int stopped_epoch() const { return stopped_epoch_; }
  /// Whether larger values count as better (from mode, or from the monitor's name with mode "auto").
  bool maximizes() const { return maximize_; }

 private:
  bool is_improvement(double value, double reference) const;
  EarlyStoppingOptions o_;
  bool maximize_ = false;
  double min_delta_ = 0.0;  // signed: positive when maximizing
  int wait_ = 0, stopped_epoch_ = 0, best_epoch_ = 0;
  double best_ = 0.0;
  std::vector<Tensor> best_weights_{};
};

}  // namespace keras::callbacks
