#pragma once
// History: every epoch's logs, by metric name (what fit() returns).
#include <map>
#include <string>
#include <vector>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

class History : public Callback {
 public:
  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int e, Logs& logs) override;

  std::vector<int> epoch;
  std::map<std::string, std::vector<double>> history;
};

}  // namespace keras::callbacks
