#pragma once
// Which layers take string tensors (DType::string), and the dtype of their symbolic outputs. A layer called
// on strings must be a container (a model or a wrapper, whose inner layers decide) or of a class registered
// here; any other is refused with a ValueError naming it. The text and lookup layers and InputLayer register
// from their own source files:
//   KERAS_STRING_LAYER(StringLookup, [](const Layer& l, const std::vector<DType>&) { ... return DType::int64; })
// A class that computes on numbers but does not output float32 registers only the dtype of its outputs:
//   KERAS_LAYER_OUTPUT_DTYPE(IntegerLookup, [](const Layer& l, const std::vector<DType>&) { ... })
// (models register theirs in model.cpp: their first output's).
#include <functional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

class Layer;

/// The dtype of a layer's symbolic outputs for inputs of these dtypes.
using OutputDTypeFn = std::function<DType(const Layer&, const std::vector<DType>&)>;

/// Registers a class: whether it takes strings, and its output dtype rule (none: float32).
void register_string_layer(const std::string& class_name, bool takes_strings, OutputDTypeFn output_dtype);
/// Throws a ValueError naming the layer when input `index` is a string it cannot take.
void check_string_input(const Layer& layer, DType dtype, std::size_t index);
/// The dtype of the layer's symbolic outputs (float32 unless its class registered a rule).
DType symbolic_output_dtype(const Layer& layer, const std::vector<DType>& input_dtypes);

}  // namespace keras

/// Registers Class as taking strings, with its output dtype rule (a callable or nullptr).
#define KERAS_STRING_LAYER(Class, ...) KERAS_DTYPE_REGISTRATION(Class, true, __VA_ARGS__)
/// Registers only the output dtype rule of Class (it computes on numbers).
#define KERAS_LAYER_OUTPUT_DTYPE(Class, ...) KERAS_DTYPE_REGISTRATION(Class, false, __VA_ARGS__)

#define KERAS_DTYPE_REGISTRATION(Class, takes_strings, ...)                        \
  namespace {                                                                      \
  const bool keras_dtype_registration_##Class = [] {                               \
    ::keras::register_string_layer(#Class, takes_strings, __VA_ARGS__);            \
    return true;                                                                   \
  }();                                                                             \
  }
