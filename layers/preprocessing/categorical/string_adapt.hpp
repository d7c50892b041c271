#pragma once
// The documents adapt() reads from string data, as Keras's IndexLookup.adapt/update_state split them: an
// array of rank 1 is a column (each string its own document), of rank 2 one document per row; a Dataset
// batch of rank 0 or 1 is one document, of rank 2 one document per row. (Documents matter for tf_idf only.)
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers::preprocessing {

using DocumentVisitor = std::function<void(const std::vector<std::string_view>&)>;

/// Each document of a string tensor; `batch_of_dataset` applies the Dataset rule. A numeric tensor is a
/// ValueError naming `layer`.
void for_each_document(const Tensor& strings, const std::string& layer, const DocumentVisitor& visit,
                       bool batch_of_dataset = false);

/// Each string batch of a Dataset (the first component of tuple elements).
void for_each_string_batch(const data::Dataset& dataset, const std::string& layer,
                           const std::function<void(const Tensor&)>& visit);

}  // namespace keras::layers::preprocessing
