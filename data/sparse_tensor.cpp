#include "data/sparse_tensor.hpp"

#include <fmt/format.h>

namespace keras::data {

Element SparseTensor::to_element() const {
  return Element::dict({{"dense_shape", Element(dense_shape)}, {"indices", Element(indices)}, {"values", Element(values)}});
}

bool SparseTensor::is_sparse(const Element& e) {
  return e.is_dict() && e.keys() == std::vector<std::string>{"dense_shape", "indices", "values"};
}

SparseTensor SparseTensor::from_element(const Element& e) {
  if (!is_sparse(e))
    throw ValueError("Expected a sparse tensor (named components dense_shape, indices, values), got " + spec_str(spec_of(e)));
  SparseTensor s{e["indices"].leaf().tensor(), e["values"].leaf(), e["dense_shape"].leaf().tensor()};
  if (s.indices.dtype() != DType::int64 || s.dense_shape.dtype() != DType::int64 || s.indices.shape().size() != 2 ||
      s.dense_shape.shape().size() != 1 || s.indices.shape()[1] != s.dense_shape.shape()[0] || s.values.shape().size() != 1 ||
      s.values.shape()[0] != s.indices.shape()[0])
    throw ValueError(fmt::format("Malformed sparse tensor: indices {} {}, values {}, dense_shape {} {}; need int64 [nnz, rank], "
                                 "[nnz] and int64 [rank]",
                                 dtype_name(s.indices.dtype()), shape_str(s.indices.shape()), shape_str(s.values.shape()),
                                 dtype_name(s.dense_shape.dtype()), shape_str(s.dense_shape.shape())));
  return s;
}

Component SparseTensor::to_dense(double default_value) const {
  const Shape shape = dense_shape.to_vector<std::int64_t>();
  const std::int64_t rank = static_cast<std::int64_t>(shape.size()), nnz = indices.shape()[0];
  const auto idx = indices.to_vector<std::int64_t>();
  auto offset = [&](std::int64_t k) {
    std::int64_t off = 0;
    for (std::int64_t d = 0; d < rank; ++d) {
      const std::int64_t i = idx[static_cast<std::size_t>(k * rank + d)];
      if (i < 0 || i >= shape[static_cast<std::size_t>(d)])
        throw ValueError(fmt::format("sparse to_dense: index {} of entry {} is outside dense_shape {}", i, k, shape_str(shape)));
      off = off * shape[static_cast<std::size_t>(d)] + i;
    }
    return off;
  };
  if (values.is_string()) {
    std::vector<std::string> out(static_cast<std::size_t>(shape_size(shape)));
    const auto v = values.string_values();
    for (std::int64_t k = 0; k < nnz; ++k) out[static_cast<std::size_t>(offset(k))] = v[static_cast<std::size_t>(k)];
    return Component::strings(std::move(out), shape);
  }
  if (values.tensor().dtype() == DType::int64) {  // exactly, beyond 2^53 too
    const auto v = values.tensor().to_vector<std::int64_t>();
    std::vector<std::int64_t> out(static_cast<std::size_t>(shape_size(shape)), static_cast<std::int64_t>(default_value));
    for (std::int64_t k = 0; k < nnz; ++k) out[static_cast<std::size_t>(offset(k))] = v[static_cast<std::size_t>(k)];
    return Tensor::from_vector<std::int64_t>(out, shape);
  }
  const Tensor src = values.tensor().astype(DType::float64);
  const auto v = src.to_vector<double>();
  std::vector<double> out(static_cast<std::size_t>(shape_size(shape)), default_value);
  for (std::int64_t k = 0; k < nnz; ++k) out[static_cast<std::size_t>(offset(k))] = v[static_cast<std::size_t>(k)];
  return Tensor::from_vector<double>(out, shape).astype(values.tensor().dtype());
}

}  // namespace keras::data
