#pragma once
// History: every epoch's logs, by metric name (what fit() returns).
#include <map>
#include <string>
#include <vector>

#include "callbacks/callback.hpp"
// Not used here. keras/model.hpp includes this header just before keras/training/structure.hpp, whose
// serialize_structure template needs the complete keras::json, which it used to get through
// keras/registry.hpp. Remove this include once structure.hpp includes keras/json.hpp itself (or no
// longer defines json code inline).
#include "keras/json.hpp"

namespace keras::callbacks {

class History : public Callback {
 public:
  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int e, Logs& logs) override;

  std::vector<int> epoch;
  std::map<std::string, std::vector<double>> history;
};

}  // namespace keras::callbacks
