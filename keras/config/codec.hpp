#pragma once
// One field of a config, to and from Keras's JSON: numbers, strings and lists as themselves; an unset
// optional, regularizer or constraint as null; initializers, regularizers and constraints as Keras's
// {"class_name", "config"} objects; a pair or triple of sizes (kernel_size) as a list, read from a list
// or from one integer that stands for every axis. write_fields/read_fields apply it to every field
// listed by KERAS_FIELDS (keras/config/fields.hpp). A type of one family (an enum, say) adds an
// overload of encode/decode in its own namespace; they are found by argument-dependent lookup.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "keras/constraints/constraint.hpp"
#include "keras/initializers/initializer.hpp"
#include "keras/json.hpp"
#include "keras/regularizers/regularizer.hpp"

namespace keras::config {

template <class T>
json encode(const T& value) {
  return json(value);
}
template <class T>
void decode(const json& j, T& value) {
  value = j.get<T>();
}

template <class T>
json encode(const std::optional<T>& value) {
  return value ? encode(*value) : json(nullptr);
}
template <class T>
void decode(const json& j, std::optional<T>& value) {
  if (j.is_null()) {
    value.reset();
    return;
  }
  T v{};
  decode(j, v);
  value = std::move(v);
}

template <std::size_t N>
json encode(const std::array<std::int64_t, N>& sizes) {
  return json(std::vector<std::int64_t>(sizes.begin(), sizes.end()));
}
template <std::size_t N>
void decode(const json& j, std::array<std::int64_t, N>& sizes) {
  if (j.is_number()) {
    sizes.fill(j.get<std::int64_t>());
    return;
  }
  const auto v = j.get<std::vector<std::int64_t>>();
  if (v.size() != N)
    throw ValueError("Expected " + std::to_string(N) + " integers, got " + j.dump());
  std::copy(v.begin(), v.end(), sizes.begin());
}

inline json encode(const initializers::InitializerRef& r) { return initializers::serialize(*r); }
/// null keeps the default initializer (Keras writes no null initializer).
inline void decode(const json& j, initializers::InitializerRef& r) {
  if (!j.is_null()) r = initializers::Initializer::deserialize(j);
}
inline json encode(const regularizers::RegularizerRef& r) { return regularizers::serialize(r); }
inline void decode(const json& j, regularizers::RegularizerRef& r) { r = regularizers::deserialize_or_null(j); }
inline json encode(const constraints::ConstraintRef& r) { return constraints::serialize(r); }
inline void decode(const json& j, constraints::ConstraintRef& r) { r = constraints::deserialize_or_null(j); }

/// An options struct seen through the base fields of its family only (the family's
/// `for_each_base_field(visit, options)`, found by argument-dependent lookup), so that write_fields and
/// read_fields apply to them: the base loss and optimizer fields are listed once for every subclass.
template <class Options>
struct BaseFields {
  Options& options;
};
template <class Options, class Visit>
void for_each_field(const BaseFields<Options>& base, Visit&& visit) {
  for_each_base_field(visit, base.options);
}

/// Every field KERAS_FIELDS lists for Options, under its own name.
template <class Options>
void write_fields(json& config, const Options& options) {
  for_each_field(options, [&](const char* key, const auto& value) { config[key] = encode(value); });
}

/// True for the plain value types (numbers, booleans, strings, fixed-size sizes, lists) that cannot hold
/// Keras's None: a null there means "the default", as TensorFlow.js writes null for every unset field.
/// Types that can hold None (std::optional, initializer/regularizer/constraint references, a family's own
/// type with its own decode) receive the null and decide.
template <class T>
inline constexpr bool null_means_default = std::is_arithmetic_v<T> || std::is_same_v<T, std::string>;
template <class T, std::size_t N>
inline constexpr bool null_means_default<std::array<T, N>> = true;
template <class T>
inline constexpr bool null_means_default<std::vector<T>> = true;

/// The listed fields present in `config`; absent keys keep their defaults (older files lack newer fields),
/// and so do null values of fields that cannot hold None (null_means_default). Keys that no field lists
/// are ignored, as Keras ignores what it does not know. A value of the wrong type is a ValueError naming
/// the key; a number where an integer is expected must be integral, and an integer stands for a boolean.
template <class Options>
void read_fields(const json& config, Options& options) {
  for_each_field(options, [&](const char* key, auto& value) {
    auto it = config.find(key);
    if (it == config.end()) return;
    if (it->is_null() && null_means_default<std::remove_cvref_t<decltype(value)>>) return;
    try {
      decode(*it, value);
    } catch (const json::exception& e) {
      throw ValueError(std::string("Config field \"") + key + "\" = " + it->dump() + ": " + e.what());
    } catch (const ValueError& e) {
      throw ValueError(std::string("Config field \"") + key + "\" = " + it->dump() + ": " + e.what());
    }
  });
}

/// Options read from `config`: the family's base fields when it lists them (for_each_base_field: losses,
/// optimizers), else the name alone (layers and metrics, whose other base fields their base reads), then
/// every field KERAS_FIELDS lists. Absent keys keep the defaults.
template <class Options>
Options read_options(const json& config) {
  Options options{};
  if constexpr (requires { for_each_base_field([](const char*, auto&) {}, options); }) {
    BaseFields<Options> base{options};
    read_fields(config, base);
  } else if (auto it = config.find("name"); it != config.end() && it->is_string()) {
    options.name = it->get<std::string>();
  }
  read_fields(config, options);
  return options;
}

/// config[key] read as T, or `fallback` when the key is absent or null (a null is Keras's None, which
/// for a plain value means the default). A value of the wrong type is a ValueError naming the key.
template <class T>
T value_or(const json& config, const char* key, T fallback) {
  auto it = config.find(key);
  if (it == config.end() || it->is_null()) return fallback;
  try {
    T value = fallback;
    decode(*it, value);
    return value;
  } catch (const json::exception& e) {
    throw ValueError(std::string("Config field \"") + key + "\" = " + it->dump() + ": " + e.what());
  }
}

/// config[key] read as T; a ValueError naming the key when it is absent, null or of the wrong type.
template <class T>
T required(const json& config, const char* key) {
  auto it = config.find(key);
  if (it == config.end() || it->is_null())
    throw ValueError(std::string("Config field \"") + key + "\" is required but " +
                     (it == config.end() ? "absent" : "null") + " in " + config.dump().substr(0, 200));
  try {
    T value{};
    decode(*it, value);
    return value;
  } catch (const json::exception& e) {
    throw ValueError(std::string("Config field \"") + key + "\" = " + it->dump() + ": " + e.what());
  }
}

}  // namespace keras::config
