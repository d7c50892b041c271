#include "layers/preprocessing/categorical/adapt_documents.hpp"

#include <fmt/format.h>

#include "data/dataset.hpp"
#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

template <class Token>
void for_each_document(const Tensor& data, const std::string& layer, const DocumentVisitor<Token>& visit,
                       bool batch_of_dataset) {
  using Traits = LookupToken<Token>;
  if (!Traits::holds_tokens(data.dtype()))
    throw ValueError(fmt::format("{}: adapt() needs {}, received {}", layer, Traits::kind, dtype_name(data.dtype())));
  if (data.ndim() > 2)
    throw ValueError(fmt::format("{}: adapt() takes tokens of rank 1 or 2, received shape {}", layer,
                                 shape_str(data.shape())));
  const Tensor tokens = data.dtype() == Traits::dtype ? data : data.astype(Traits::dtype);
  const auto* p = tokens.data<Token>();
  const std::int64_t n = tokens.size();
  const bool one_document = tokens.ndim() == 0 || (batch_of_dataset && tokens.ndim() == 1);
  const std::int64_t per = one_document ? n : (tokens.ndim() == 2 ? tokens.dim(1) : 1);
  std::vector<typename Traits::View> doc;
  if (per == 0) {  // rows without tokens: empty documents
    for (std::int64_t r = 0; r < (tokens.ndim() == 2 ? tokens.dim(0) : 0); ++r) visit(doc);
    return;
  }
  for (std::int64_t start = 0; start < n; start += per) {
    doc.assign(p + start, p + start + per);
    visit(doc);
  }
}

template void for_each_document<std::string>(const Tensor&, const std::string&, const DocumentVisitor<std::string>&,
                                             bool);
template void for_each_document<std::int64_t>(const Tensor&, const std::string&,
                                              const DocumentVisitor<std::int64_t>&, bool);

void for_each_token_batch(const data::Dataset& dataset, const std::string& layer,
                           const std::function<void(const Tensor&)>& visit) {
  for (const data::Element& element : dataset) {
    const data::Element* e = &element;
    while (e->is_tuple() && !e->children().empty()) e = &e->children().front();
    if (!e->is_leaf())
      throw ValueError(layer + ": adapt() needs a Dataset of token tensors or of (tokens, ...) tuples");
    visit(e->leaf().tensor());
  }
}

}  // namespace keras::layers::preprocessing
