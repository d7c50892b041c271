#pragma once
// KERAS_FIELDS: the list of an options struct's fields, written once. It defines
// `for_each_field(options, visit)`, which calls `visit("units", options.units)` for each listed field
// in order; keras/config/codec.hpp turns that into get_config (write_fields) and from_config
// (read_fields), so the two cannot drift apart. Put it in the source file that defines get_config
// (it needs no JSON, but a header that every user includes should not pay for the macro expansion):
//
//   KERAS_FIELDS(DenseOptions, activation, use_bias, kernel_initializer, bias_initializer)
//
// Up to 64 fields. The base-layer fields (name, trainable, input_shape) are not listed: the Layer base
// writes and reads them once for every layer.
#include <type_traits>

#define KERAS_FIELDS(Options, ...)                                                      \
  template <class KerasOptions, class KerasVisit>                                        \
    requires std::is_same_v<std::remove_const_t<KerasOptions>, Options>                 \
  [[maybe_unused]] void for_each_field(KerasOptions& options, KerasVisit&& visit) {      \
    __VA_OPT__(KERAS_PP_EXPAND(KERAS_PP_VISIT_FIELDS(__VA_ARGS__)))                     \
  }

// The preprocessor loop behind it: each KERAS_PP_VISIT_AGAIN is expanded on the next rescan, and
// KERAS_PP_EXPAND rescans 64 times.
#define KERAS_PP_EXPAND(...) KERAS_PP_EXPAND3(KERAS_PP_EXPAND3(KERAS_PP_EXPAND3(KERAS_PP_EXPAND3(__VA_ARGS__))))
#define KERAS_PP_EXPAND3(...) KERAS_PP_EXPAND2(KERAS_PP_EXPAND2(KERAS_PP_EXPAND2(KERAS_PP_EXPAND2(__VA_ARGS__))))
#define KERAS_PP_EXPAND2(...) KERAS_PP_EXPAND1(KERAS_PP_EXPAND1(KERAS_PP_EXPAND1(KERAS_PP_EXPAND1(__VA_ARGS__))))
#define KERAS_PP_EXPAND1(...) __VA_ARGS__
#define KERAS_PP_VISIT_FIELDS(field, ...) \
  visit(#field, options.field);           \
  __VA_OPT__(KERAS_PP_VISIT_AGAIN KERAS_PP_PARENS(__VA_ARGS__))
#define KERAS_PP_PARENS ()
#define KERAS_PP_VISIT_AGAIN() KERAS_PP_VISIT_FIELDS
