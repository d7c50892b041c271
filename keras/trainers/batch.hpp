#pragma once
// One batch as a train/test step sees it: one tensor per model input (x) and output (y), and the sample
// weights (none, or one per output; an undefined entry weighs that output's samples equally).
#include <cstdint>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

struct Batch {
  std::vector<Tensor> x, y, sample_weight;

  /// Rows [begin, end) of every tensor (views).
  Batch rows(std::int64_t begin, std::int64_t end) const {
    auto slice = [&](const std::vector<Tensor>& ts) {
      std::vector<Tensor> out;
      for (const auto& t : ts) out.push_back(t.defined() ? t.slice(begin, end) : Tensor());
      return out;
    };
    return {slice(x), slice(y), slice(sample_weight)};
  }
};

}  // namespace keras
