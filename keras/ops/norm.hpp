#pragma once
// keras.ops norm (linalg.py): vector and matrix norms, differentiable through the ops they are made of
// (abs, square, sum, max, pow), except the singular-value ones (2, -2, "nuc" on matrices), which are not.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// The `ord` argument of norm: unset (None), a number (2, 1, inf, -inf, 0, any p) or "fro" / "nuc".
struct NormOrd {
  NormOrd() = default;
  NormOrd(int p) : number(p) {}
  NormOrd(double p) : number(p) {}
  NormOrd(const char* name) : name(name) {}
  NormOrd(std::string name) : name(std::move(name)) {}
  std::optional<double> number;
  std::string name;  // "fro" or "nuc" when set
  bool is_none() const { return !number && name.empty(); }
};
inline constexpr double inf = std::numeric_limits<double>::infinity();

/// NumPy's norm: over one axis a vector norm, over two axes a matrix norm. Without axes: the 2-norm of the
/// flattened x when ord is unset, else x must be a vector or a matrix. keepdims keeps the reduced axes as 1.
Tensor norm(const Tensor& x, NormOrd ord = {}, std::vector<int> axes = {}, bool keepdims = false);

}  // namespace keras::ops
