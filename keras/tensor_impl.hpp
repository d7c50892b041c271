#pragma once
// Template definitions for keras/tensor.hpp.
#include <algorithm>
#include <cstring>
#include <type_traits>

namespace keras {

template <class T>
void Tensor::check_dtype() const {
  if (dtype() != dtype_of<T>())
    throw ValueError("Tensor of dtype " + dtype_name(dtype()) + " read as " + dtype_name(dtype_of<T>()) +
                     "; convert it first with astype()");
}

template <class T>
T* Tensor::data() const {
  check_dtype<T>();
  return static_cast<T*>(raw_data());
}

template <class T>
Tensor Tensor::from_vector(const std::vector<T>& values, const Shape& shape) {
  if (static_cast<std::int64_t>(values.size()) != shape_size(shape))
    throw ValueError("from_vector: " + std::to_string(values.size()) + " values do not fill shape " +
                     shape_str(shape));
  Tensor t = empty(shape, dtype_of<T>());
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (!values.empty()) std::memcpy(t.raw_data(), values.data(), values.size() * sizeof(T));
  } else {
    std::copy(values.begin(), values.end(), t.data<T>());
  }
  return t;
}

template <class T>
std::vector<T> Tensor::to_vector() const {
  const T* p = data<T>();
  return std::vector<T>(p, p + size());
}

}  // namespace keras
