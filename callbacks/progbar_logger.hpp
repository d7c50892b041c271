#pragma once
// ProgbarLogger: prints "Epoch 1/5" and a Keras progress bar for fit, evaluate and predict.
#include <memory>
#include <optional>

#include "callbacks/callback.hpp"
#include "keras/utils/progbar.hpp"

namespace keras::callbacks {

struct ProgbarLoggerOptions {
  /// "steps": the bar counts batches; "samples": it counts samples (when fit knows them, else batches).
  std::string count_mode = "steps";
  std::ostream* out = nullptr;  // std::cout when null
};

class ProgbarLogger : public Callback {
 public:
  explicit ProgbarLogger(ProgbarLoggerOptions options = {});

  void on_train_begin(Logs& /*logs*/) override { in_fit_ = true; }
  void on_train_end(Logs& /*logs*/) override { in_fit_ = false; }
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_test_begin(Logs& logs) override;
  void on_test_batch_end(std::int64_t batch, Logs& logs) override;
  void on_test_end(Logs& logs) override;
  void on_predict_begin(Logs& logs) override;
  void on_predict_batch_end(std::int64_t batch, Logs& logs) override;
  void on_predict_end(Logs& logs) override;

 private:
  void start_bar();
  bool counts_samples() const;
  std::int64_t seen_after(std::int64_t batch) const;
  ProgbarLoggerOptions options_;
  std::optional<utils::Progbar> bar_{};
  std::int64_t seen_ = 0;
  bool in_fit_ = false;
};

}  // namespace keras::callbacks
