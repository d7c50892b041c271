#pragma once
// History: every epoch's logs, by metric name (what fit() returns).
#include <map>
#include <string>
#include <vector>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

class History : public Callback {
 public:
  void on_train_begin(Logs& /*logs*/) override { epoch.clear(); history.clear(); }
  void on_epoch_end(int e, Logs& logs) override {
    epoch.push_back(e);
    for (const auto& [k, v] : logs) history[k].push_back(v);
  }

  std::vector<int> epoch;
  std::map<std::string, std::vector<double>> history;
};

}  // namespace keras::callbacks
