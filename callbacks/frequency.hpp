#pragma once
// Keras's save_freq / update_freq: "epoch", "batch", or a number of batches.
#include <cstdint>
#include <string>

namespace keras::callbacks {

class Frequency {
 public:
  Frequency(std::string unit) : unit_(std::move(unit)) {}
  Frequency(const char* unit) : unit_(unit) {}
  Frequency(std::int64_t batches) : batches_(batches) {}
  Frequency(int batches) : batches_(batches) {}

  /// The batches between two events: 0 for "epoch" (at the end of each epoch), 1 for "batch". Another
  /// string or a count below 1 is a ValueError naming `option` ("ModelCheckpoint's save_freq").
  std::int64_t batches(const std::string& option) const;

 private:
  std::string unit_;
  std::int64_t batches_ = 0;
};

}  // namespace keras::callbacks
