#pragma once
// visit_dtype: calls f with a value of the C++ element type of a numeric DType (float, double, std::int32_t,
// std::int64_t, std::uint8_t, bool), so that code written once as a template runs on every numeric dtype:
//   visit_dtype(t.dtype(), [&](auto zero) { using T = decltype(zero); ... t.data<T>() ... }, "my_op");
// A string tensor has no numeric value: a ValueError naming `what` and the fix.
#include <cstdint>
#include <string>

#include "keras/tensor.hpp"

namespace keras {

template <class F>
decltype(auto) visit_dtype(DType dtype, F&& f, const char* what = "this operation") {
  switch (dtype) {
    case DType::float32: return f(float{});
    case DType::int32: return f(std::int32_t{});
    case DType::int64: return f(std::int64_t{});
    case DType::uint8: return f(std::uint8_t{});
    case DType::bool_: return f(bool{});
    case DType::float64: return f(double{});
    case DType::string: break;
  }
  throw ValueError(std::string(what) + " needs a numeric tensor, got a string tensor; map strings to numbers first "
                   "(a StringLookup or Hashing layer)");
}

}  // namespace keras
