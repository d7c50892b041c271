#pragma once
// Which layers take string tensors (DType::string), and the dtype of their symbolic outputs. A layer called
// on strings must be a container (a model or a wrapper, whose inner layers decide) or of a class registered
// here; any other is refused with a ValueError naming it. The text and lookup layers and InputLayer register
// from their own source files:
//   KERAS_STRING_LAYER(StringLookup, [](const Layer& l, const std::vector<DType>&) { ... return DType::int64; })
// A class may also register only the dtype of its outputs (models: their first output's).
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

#define KERAS_STRING_LAYER(Class, output_dtype)                                   \
  namespace {                                                                     \
  const bool keras_string_layer_##Class = [] {                                    \
    ::keras::register_string_layer(#Class, true, output_dtype);                   \
    return true;                                                                  \
  }();                                                                            \
  }
