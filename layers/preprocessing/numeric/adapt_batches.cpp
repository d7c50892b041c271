#include "layers/preprocessing/numeric/adapt_batches.hpp"

#include "data/dataset.hpp"
#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

void for_each_adapt_batch(const data::Dataset& dataset, const std::string& layer,
                          const std::function<void(const Tensor&)>& visit) {
  for (const data::Element& element : dataset) {
    const data::Element* e = &element;
    while (e->is_tuple() && !e->children().empty()) e = &e->children().front();
    if (!e->is_leaf() || e->leaf().is_string())
      throw ValueError(layer + ": adapt() needs a Dataset of numeric tensors or of (features, ...) tuples");
    visit(e->leaf().tensor());
  }
}

}  // namespace keras::layers::preprocessing
