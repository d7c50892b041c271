#pragma once
// keras.ops einsum: Einstein summation over any number of operands, contracted pairwise (left to right) as
// matrix products on oneDNN (matmul / batch_matmul); differentiable.
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// NumPy's einsum: "ij,jk->ik", "bij,bjk->bik", "ii->i" (a diagonal), "ii" (a trace), "...ij,...jk->...ik",
/// and the implicit form without "->" (the letters seen once, in alphabetical order). Ellipses broadcast
/// only between equal sizes. Integer operands are computed in float32 and converted back.
Tensor einsum(const std::string& subscripts, const std::vector<Tensor>& operands);

}  // namespace keras::ops
