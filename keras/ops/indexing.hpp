#pragma once
// Python/NumPy basic indexing (`x[:, 0]`, `x[..., None]`, `x[1::2]`) as a differentiable op: the indices of
// one key, each an integer, a slice, the Ellipsis or a new axis.
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

/// Python's slice(start, stop, step); an unset field is None (`Slice{}` is `:`, `Slice{.start = 1}` is `1:`).
struct Slice {
  std::optional<std::int64_t> start{}, stop{}, step{};
  bool operator==(const Slice&) const = default;
};
/// Python's `...`: as many full slices as the other indices leave axes.
struct Ellipsis {
  bool operator==(const Ellipsis&) const = default;
};
/// Python's None (tf.newaxis): a new axis of size 1.
struct NewAxis {
  bool operator==(const NewAxis&) const = default;
};
inline constexpr Ellipsis ellipsis{};
inline constexpr NewAxis newaxis{};

/// One index of a key: an integer (negative counts from the end; the axis is dropped), a slice, `...` or a new axis.
using Index = std::variant<std::int64_t, Slice, Ellipsis, NewAxis>;

namespace ops {
/// x[key] with NumPy's basic-indexing rules (integers out of range are an error; slices clip).
Tensor getitem(const Tensor& x, const std::vector<Index>& key);
}  // namespace ops

}  // namespace keras
