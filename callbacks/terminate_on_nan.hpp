#pragma once
// TerminateOnNaN: stops training as soon as a batch's loss is NaN or infinite (keras.callbacks.TerminateOnNaN).
#include "callbacks/callback.hpp"

namespace keras::callbacks {

class TerminateOnNaN : public Callback {
 public:
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
};

}  // namespace keras::callbacks
