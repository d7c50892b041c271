#include "callbacks/terminate_on_nan.hpp"

#include <cmath>
#include <iostream>

#include "keras/model.hpp"

namespace keras::callbacks {

void TerminateOnNaN::on_train_batch_end(std::int64_t batch, Logs& logs) {
  if (!logs.contains("loss")) return;
  const double loss = logs.at("loss");
  if (std::isnan(loss) || std::isinf(loss)) {
    std::cout << "Batch " << batch << ": Invalid loss, terminating training\n";
    model().stop_training = true;
  }
}

}  // namespace keras::callbacks
