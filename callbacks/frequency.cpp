#include "callbacks/frequency.hpp"

#include "keras/errors.hpp"

namespace keras::callbacks {

std::int64_t Frequency::batches(const std::string& option) const {
  if (unit_ == "epoch") return 0;
  if (unit_ == "batch") return 1;
  if (!unit_.empty())
    throw ValueError(option + " must be \"epoch\", \"batch\" or a positive number of batches, got '" + unit_ + "'");
  if (batches_ < 1)
    throw ValueError(option + " must be \"epoch\", \"batch\" or a positive number of batches, got " +
                     std::to_string(batches_));
  return batches_;
}

}  // namespace keras::callbacks
