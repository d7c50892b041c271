#pragma once
// TerminateOnNaN: stops training as soon as a batch's loss is NaN or infinite (keras.callbacks.TerminateOnNaN).
#include <cmath>
#include <iostream>

#include "callbacks/callback.hpp"
#include "keras/model.hpp"

namespace keras::callbacks {

class TerminateOnNaN : public Callback {
 public:
  void on_train_batch_end(std::int64_t batch, Logs& logs) override {
    if (!logs.contains("loss")) return;
    const double loss = logs.at("loss");
    if (std::isnan(loss) || std::isinf(loss)) {
      std::cout << "Batch " << batch << ": Invalid loss, terminating training\n";
      model().stop_training = true;
    }
  }
};

}  // namespace keras::callbacks
