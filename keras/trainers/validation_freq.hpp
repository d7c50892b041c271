#pragma once
// fit()'s validation_freq: after which epochs the validation data is evaluated, as Keras's argument.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "keras/errors.hpp"

namespace keras {

/// Every n-th epoch (`.validation_freq = 2` validates after epochs 2, 4, …), or after the listed epochs,
/// counted from 1 (`.validation_freq = {1, 5, 10}`), as Keras. The default validates after every epoch.
class ValidationFreq {
 public:
  ValidationFreq(int every = 1) : every_(every) {  // NOLINT: an int converts, as Keras's argument
    if (every < 1)
      throw ValueError("fit(): validation_freq must be a positive int or a list of epochs (counted from 1), got " +
                       std::to_string(every));
  }
  ValidationFreq(std::initializer_list<int> epochs) : every_(0), epochs_(epochs) {}
  ValidationFreq(std::vector<int> epochs) : every_(0), epochs_(std::move(epochs)) {}  // NOLINT

  /// Whether validation runs after `epoch` (0-based, as fit's loop counts).
  bool runs_after(int epoch) const {
    if (every_ >= 1) return (epoch + 1) % every_ == 0;
    for (int e : epochs_)
      if (e == epoch + 1) return true;
    return false;
  }

 private:
  int every_;
  std::vector<int> epochs_;
};

}  // namespace keras
