#pragma once
// CSVLogger: one row per epoch ("epoch" then the log keys in sorted order) streamed to a CSV file
// (keras.callbacks.CSVLogger).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

struct CSVLoggerOptions {
  std::string separator = ",";
  bool append = false;  // append to an existing file (no header when it already has content)
};

class CSVLogger : public Callback {
 public:
  explicit CSVLogger(std::string filename, CSVLoggerOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

 private:
  void write_row(const std::vector<std::string>& fields);
  std::string filename_;
  CSVLoggerOptions o_;
  std::shared_ptr<std::FILE> file_{};
  std::vector<std::string> keys_{};
  bool write_header_ = true;
};

}  // namespace keras::callbacks
