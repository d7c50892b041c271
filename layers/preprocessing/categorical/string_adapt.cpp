#include "layers/preprocessing/categorical/string_adapt.hpp"

#include <fmt/format.h>

#include "data/dataset.hpp"
#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

void for_each_document(const Tensor& strings, const std::string& layer, const DocumentVisitor& visit,
                       bool batch_of_dataset) {
  if (strings.dtype() != DType::string)
    throw ValueError(fmt::format("{}: adapt() needs string data, received {}", layer, dtype_name(strings.dtype())));
  if (strings.ndim() > 2)
    throw ValueError(fmt::format("{}: adapt() takes strings of rank 1 or 2, received shape {}", layer,
                                 shape_str(strings.shape())));
  const auto* p = strings.data<std::string>();
  const std::int64_t n = strings.size();
  const bool one_document = strings.ndim() == 0 || (batch_of_dataset && strings.ndim() == 1);
  const std::int64_t per = one_document ? n : (strings.ndim() == 2 ? strings.dim(1) : 1);
  std::vector<std::string_view> doc;
  if (per == 0) {  // rows without tokens: empty documents
    for (std::int64_t r = 0; r < (strings.ndim() == 2 ? strings.dim(0) : 0); ++r) visit(doc);
    return;
  }
  for (std::int64_t start = 0; start < n; start += per) {
    doc.assign(p + start, p + start + per);
    visit(doc);
  }
}

void for_each_string_batch(const data::Dataset& dataset, const std::string& layer,
                           const std::function<void(const Tensor&)>& visit) {
  for (const data::Element& element : dataset) {
    const data::Element* e = &element;
    while (e->is_tuple() && !e->children().empty()) e = &e->children().front();
    if (!e->is_leaf())
      throw ValueError(layer + ": adapt() needs a Dataset of string tensors or of (strings, ...) tuples");
    visit(e->leaf().tensor());
  }
}

}  // namespace keras::layers::preprocessing
