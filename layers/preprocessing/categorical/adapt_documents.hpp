#pragma once
// The documents adapt() reads from token data, as Keras's IndexLookup.adapt/update_state split them: an
// array of rank 1 is a column (each token its own document), of rank 2 one document per row; a Dataset
// batch of rank 0 or 1 is one document, of rank 2 one document per row. (Documents matter for tf_idf only.)
#include <functional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"
#include "layers/preprocessing/categorical/lookup_token.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers::preprocessing {

template <class Token>
using DocumentVisitor = std::function<void(const std::vector<typename LookupToken<Token>::View>&)>;

/// Each document of a tensor of tokens (strings, or numbers read as int64); `batch_of_dataset` applies the
/// Dataset rule. A tensor of the wrong kind is a ValueError naming `layer`.
template <class Token>
void for_each_document(const Tensor& data, const std::string& layer, const DocumentVisitor<Token>& visit,
                       bool batch_of_dataset = false);

/// Each batch of a Dataset (the first component of tuple elements).
void for_each_token_batch(const data::Dataset& dataset, const std::string& layer,
                           const std::function<void(const Tensor&)>& visit);

}  // namespace keras::layers::preprocessing
