#include "keras/ops/composite_reductions.hpp"

#include <algorithm>

#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {

namespace {
// The shape a keepdims=true reduction over `axes` has without the reduced axes.
Shape without_reduced(const Shape& kept, const Shape& input, std::vector<int> axes) {
  if (axes.empty()) return {};
  Shape out;
  const int rank = static_cast<int>(input.size());
  for (int& a : axes) a = a < 0 ? a + rank : a;
  for (int i = 0; i < rank; ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(kept[static_cast<std::size_t>(i)]);
  return out;
}
}  // namespace

Tensor min(const Tensor& x, std::vector<int> axes, bool keepdims) {
  return negative(max(negative(x), std::move(axes), keepdims));
}

Tensor var(const Tensor& x, std::vector<int> axes, bool keepdims) {
  const Tensor centered = subtract(x, mean(x, axes, true));
  return mean(square(centered), std::move(axes), keepdims);
}

Tensor std(const Tensor& x, std::vector<int> axes, bool keepdims) { return sqrt(var(x, std::move(axes), keepdims)); }

Tensor logsumexp(const Tensor& x, std::vector<int> axes, bool keepdims) {
  const Tensor m = stop_gradient(max(x, axes, true));
  const Tensor kept = add(log(sum(exp(subtract(x, m)), axes, true)), m);
  return keepdims ? kept : reshape(kept, without_reduced(kept.shape(), x.shape(), std::move(axes)));
}

}  // namespace keras::ops
