#pragma once
// Keras's "valid", "same" and "causal" paddings as the pads of ONNX's Conv and pooling nodes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/export/onnx/graph_builder.hpp"

namespace keras::onnx {

/// A window of `kernel` (dilation included) sliding by `strides` over spatial sizes `in` (-1: unknown).
struct Window {
  std::vector<std::int64_t> in, kernel, strides;
};

/// The ONNX attributes ("pads", or "auto_pad" when a spatial size is unknown) of Keras's `padding` for the
/// window: "same" pads as TensorFlow does (the odd pixel at the end), "causal" pads the start alone.
std::vector<Attribute> padding_attributes(const std::string& padding, const Window& w);

}  // namespace keras::onnx
