#pragma once
// keras::json: nlohmann::json whose conversions to integers are range-checked. Configs come from
// files written by strangers; nlohmann converts a float such as 1e300 to int with a plain cast,
// which is undefined behaviour. Every get<int>() / value("axis", -1) / get<std::vector<int>>() on a
// keras::json instead throws nlohmann's out_of_range error (which saving::reading_config turns into
// a keras::ValueError naming the file) when the number is not an integer that fits.
// Booleans are read as Python's json and Keras read them: get<bool>() also takes an integer (1 for True,
// 0 for False, as tf.keras files sometimes hold), while a string or a float stays a type error; a float
// field takes a boolean (True is 1.0).
// The alias itself is in keras/json_fwd.hpp (what public headers include); this header completes it.
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "keras/json_fwd.hpp"

namespace keras {

template <class T, class>  // the default (void) is given in keras/json_fwd.hpp
struct ConfigSerializer : nlohmann::adl_serializer<T> {};

template <class T>
struct ConfigSerializer<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
    : nlohmann::adl_serializer<T> {
  template <class Json>
  static void from_json(const Json& j, T& value) {
    using limits = std::numeric_limits<T>;
    if (j.is_number_float()) {
      const double d = j.template get<double>();
      // Bounds as doubles: min is exact; max + 1 is a power of two, so "< max + 1" is exact too.
      const double lo = static_cast<double>(limits::min()), hi = static_cast<double>(limits::max()) + 1.0;
      if (!(d >= lo && d < hi) || d != std::floor(d))
        throw nlohmann::detail::out_of_range::create(406, fmt::format("{} is not an integer in [{}, {}]", d,
                                                                      limits::min(), limits::max()), &j);
      value = static_cast<T>(d);
      return;
    }
    if (j.is_number_integer() && !j.is_number_unsigned()) {
      const auto v = j.template get_ref<const typename Json::number_integer_t&>();
      if (std::cmp_less(v, limits::min()) || std::cmp_greater(v, limits::max()))
        throw nlohmann::detail::out_of_range::create(406, fmt::format("{} does not fit in [{}, {}]", v, limits::min(),
                                                                      limits::max()), &j);
      value = static_cast<T>(v);
      return;
    }
    if (j.is_number_unsigned()) {
      const auto v = j.template get_ref<const typename Json::number_unsigned_t&>();
      if (std::cmp_greater(v, limits::max()))
        throw nlohmann::detail::out_of_range::create(406, fmt::format("{} does not fit in [{}, {}]", v, limits::min(),
                                                                      limits::max()), &j);
      value = static_cast<T>(v);
      return;
    }
    nlohmann::adl_serializer<T>::from_json(j, value);  // not a number: nlohmann's own type error
  }
};

template <>
struct ConfigSerializer<bool, void> : nlohmann::adl_serializer<bool> {
  template <class Json>
  static void from_json(const Json& j, bool& value) {
    if (j.is_number_integer()) {  // signed or unsigned
      value = j.is_number_unsigned() ? j.template get_ref<const typename Json::number_unsigned_t&>() != 0
                                     : j.template get_ref<const typename Json::number_integer_t&>() != 0;
      return;
    }
    nlohmann::adl_serializer<bool>::from_json(j, value);  // a boolean, or nlohmann's own type error
  }
};

/// A boolean where a float is expected reads as 1.0 or 0.0, as Python's True and False are numbers.
template <class T>
struct ConfigSerializer<T, std::enable_if_t<std::is_floating_point_v<T>>> : nlohmann::adl_serializer<T> {
  template <class Json>
  static void from_json(const Json& j, T& value) {
    if (j.is_boolean()) {
      value = j.template get_ref<const typename Json::boolean_t&>() ? T(1) : T(0);
      return;
    }
    nlohmann::adl_serializer<T>::from_json(j, value);
  }
};

}  // namespace keras
