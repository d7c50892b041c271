#pragma once
// One batch as a train/test step sees it: one tensor per model input (x) and output (y), and the sample
// weights (none, or one per output; an undefined entry weighs that output's samples equally).
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

struct Batch {
  std::vector<Tensor> x, y, sample_weight;
};

}  // namespace keras
