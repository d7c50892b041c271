#pragma once
// A run-time row count (1 to `most`) turned into a compile-time one, for register tiles templated on their
// rows: with_rows<12>(rows, [&](auto r) { tile<decltype(r)::value>(...); }).
#include <cstdint>
#include <type_traits>

namespace keras::kernels {

template <int most, class Fn>
void with_rows(std::int64_t rows, Fn&& fn) {
  if constexpr (most > 1) {
    if (rows < most) return with_rows<most - 1>(rows, fn);
  }
  fn(std::integral_constant<int, most>{});
}

}  // namespace keras::kernels
