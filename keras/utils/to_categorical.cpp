#include "keras/utils/to_categorical.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::utils {

Tensor to_categorical(const Tensor& y, std::optional<std::int64_t> num_classes, const std::string& dtype) {
  if (!y.defined()) throw ValueError("to_categorical: y is an undefined tensor");
  const std::vector<std::int64_t> ids = y.astype(DType::int64).to_vector<std::int64_t>();
  Shape shape = y.shape();
  if (shape.size() > 1 && shape.back() == 1) shape.pop_back();
  std::int64_t k = num_classes.value_or(0);
  if (k < 0) throw ValueError(fmt::format("to_categorical: num_classes must be positive, got {}", k));
  if (k == 0) {
    if (ids.empty()) throw ValueError("to_categorical: y is empty, so num_classes cannot be inferred; give num_classes");
    k = *std::max_element(ids.begin(), ids.end()) + 1;
  }
  Tensor out = Tensor::zeros({static_cast<std::int64_t>(ids.size()), k});
  float* o = out.data<float>();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= k)
      throw ValueError(fmt::format("to_categorical: class index {} (at position {}) is outside [0, {}); class indices "
                                   "run from 0 to num_classes - 1",
                                   ids[i], i, k));
    o[static_cast<std::int64_t>(i) * k + ids[i]] = 1.f;
  }
  shape.push_back(k);
  return out.reshape(shape).astype(dtype_from_name(dtype));
}

Tensor to_categorical(const std::vector<std::int64_t>& y, std::optional<std::int64_t> num_classes, const std::string& dtype) {
  return to_categorical(Tensor::from_vector(y, {static_cast<std::int64_t>(y.size())}), num_classes, dtype);
}

}  // namespace keras::utils
