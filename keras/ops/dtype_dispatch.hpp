#pragma once
// visit_dtype: calls f with a value of the C++ element type of a DType (float, std::int32_t, ...), so that an
// op written once as a template runs on every numeric dtype. Internal to the ops.
#include <cstdint>
#include <string>

#include "keras/tensor.hpp"

namespace keras::ops::detail {

template <class F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::float32: return f(float{});
    case DType::int32: return f(std::int32_t{});
    case DType::int64: return f(std::int64_t{});
    case DType::uint8: return f(std::uint8_t{});
  }
  throw ValueError("unsupported dtype " + dtype_name(dtype));
}

/// The dtype comparisons and logical ops return, and its element type.
using BoolT = std::uint8_t;
inline constexpr DType kBool = DType::uint8;

/// True for the dtypes a gradient flows through.
inline bool is_float(DType dtype) { return dtype == DType::float32; }

/// Keras's type promotion (backend/common/dtypes.py's lattice) for the dtypes kerascpp has: equal dtypes stay;
/// a float wins over integers (int64 + float32 is float32); the wider integer wins (uint8 + int32 is int32).
inline DType result_dtype(DType a, DType b) {
  if (a == b) return a;
  auto rank = [](DType d) {
    switch (d) {
      case DType::uint8: return 1;
      case DType::int32: return 2;
      case DType::int64: return 3;
      case DType::float32: return 4;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace keras::ops::detail
