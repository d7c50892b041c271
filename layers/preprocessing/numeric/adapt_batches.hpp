#pragma once
// The batches adapt() reads from a Dataset: the first component of each element (the features of an
// (x, y) pair), or the element itself when it is one tensor.
#include <functional>
#include <string>

#include "keras/tensor.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers::preprocessing {

/// Calls `visit` on each batch of `dataset`; a dataset of strings or of nested dicts is a ValueError naming `layer`.
void for_each_adapt_batch(const data::Dataset& dataset, const std::string& layer,
                          const std::function<void(const Tensor&)>& visit);

}  // namespace keras::layers::preprocessing
