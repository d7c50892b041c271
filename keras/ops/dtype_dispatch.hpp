#pragma once
// The ops' dtype rules: Keras's type promotion (result_dtype), the boolean result type, which dtypes carry
// gradients; visit_dtype (keras/visit_dtype.hpp) runs an op written once as a template on every numeric dtype.
#include <cstdint>
#include <string>

#include "keras/tensor.hpp"
#include "keras/visit_dtype.hpp"

namespace keras::ops::detail {

/// The public helper (keras/visit_dtype.hpp), under the name the ops call it by.
using keras::visit_dtype;

/// The dtype comparisons and logical ops return, and its element type.
using BoolT = bool;
inline constexpr DType kBool = DType::bool_;

/// True for the dtypes a gradient flows through (float32 and float64).
inline bool is_float(DType dtype) { return dtype == DType::float32 || dtype == DType::float64; }

/// Keras's type promotion (backend/common/dtypes.py's lattice) for the dtypes kerascpp has: equal dtypes stay;
/// bool gives way to anything; a float wins over integers (int64 + float32 is float32); the wider float or
/// integer wins (float32 + float64 is float64, uint8 + int32 is int32).
inline DType result_dtype(DType a, DType b) {
  if (a == b) return a;
  auto rank = [](DType d) {
    switch (d) {
      case DType::bool_: return 0;
      case DType::uint8: return 1;
      case DType::int32: return 2;
      case DType::int64: return 3;
      case DType::float32: return 4;
      case DType::float64: return 5;
      case DType::string: break;
    }
    return 0;
  };
  if (a == DType::string || b == DType::string)
    throw ValueError("string tensors take no part in arithmetic (got " + dtype_name(a) + " and " + dtype_name(b) + ")");
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace keras::ops::detail
