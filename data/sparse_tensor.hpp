#pragma once
// tf.SparseTensor in an Element: named components {"dense_shape", "indices", "values"} (sorted names, as
// tf.nest orders a dict): indices int64 [nnz, rank] in row-major order, values [nnz] (numeric or
// strings), dense_shape int64 [rank]. parse_example's VarLenFeature yields one.
#include "data/element.hpp"

namespace keras::data {

struct SparseTensor {
  Tensor indices;      // int64 [nnz, rank]
  Component values;    // [nnz]
  Tensor dense_shape;  // int64 [rank]

  /// The named-component form an Element carries.
  Element to_element() const;
  /// Throws keras::ValueError (naming what is missing) unless e is such a structure.
  static SparseTensor from_element(const Element& e);
  static bool is_sparse(const Element& e);
  /// tf.sparse.to_dense: the dense tensor, unset positions default_value (numeric) or "" (strings).
  Component to_dense(double default_value = 0) const;
};

}  // namespace keras::data
