#include "callbacks/history.hpp"

namespace keras::callbacks {

void History::on_train_begin(Logs& /*logs*/) {
  epoch.clear();
  history.clear();
}

void History::on_epoch_end(int e, Logs& logs) {
  epoch.push_back(e);
  for (const auto& [k, v] : logs) history[k].push_back(v);
}

}  // namespace keras::callbacks
