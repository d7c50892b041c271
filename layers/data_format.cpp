#include "layers/data_format.hpp"

#include <numeric>
#include <vector>

#include "keras/errors.hpp"
#include "keras/ops/manipulation.hpp"

namespace keras::layers {

bool is_channels_first(const std::string& data_format, const std::string& owner) {
  if (data_format == "channels_first") return true;
  if (data_format == "channels_last" || data_format.empty()) return false;
  throw ValueError(owner + ": the `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                   "Received: data_format=" + data_format);
}

namespace {
// The permutation moving axis 1 last (to_last) or the last axis to 1 (to first).
std::vector<int> permutation(std::size_t rank, bool to_last) {
  std::vector<int> p(rank);
  std::iota(p.begin(), p.end(), 0);
  if (to_last) {
    for (std::size_t i = 1; i + 1 < rank; ++i) p[i] = static_cast<int>(i + 1);
    p[rank - 1] = 1;
  } else {
    p[1] = static_cast<int>(rank - 1);
    for (std::size_t i = 2; i < rank; ++i) p[i] = static_cast<int>(i - 1);
  }
  return p;
}
Shape permute(const Shape& s, bool to_last) {
  if (s.size() < 3) return s;
  Shape out;
  for (int a : permutation(s.size(), to_last)) out.push_back(s[a]);
  return out;
}
}  // namespace

Tensor to_channels_last(const Tensor& x) {
  return x.ndim() < 3 ? x : ops::transpose(x, permutation(x.ndim(), true));
}
Tensor to_channels_first(const Tensor& x) {
  return x.ndim() < 3 ? x : ops::transpose(x, permutation(x.ndim(), false));
}
Shape to_channels_last(const Shape& s) { return permute(s, true); }
Shape to_channels_first(const Shape& s) { return permute(s, false); }

}  // namespace keras::layers
