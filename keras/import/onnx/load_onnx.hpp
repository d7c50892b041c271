#pragma once
// keras::models::load_onnx: a functional model from an ONNX file, for the op patterns keras::export_onnx
// writes for the common layers (Dense, activations, Conv1D/2D/3D, poolings, folded BatchNormalization,
// Flatten, Reshape, Concatenate, Add, the recurrent ops): a model exported by kerascpp comes back with the same
// predictions. tf2onnx's patterns for the same layers (one-channel NHWC<->NCHW Reshapes, Unsqueeze, MatMul + Add)
// map back too.
#include <memory>
#include <string>

#include "keras/model.hpp"

namespace keras::models {

/// The model the ONNX file at `path` describes. The file's inputs become keras::Input(s) of their names; the
/// channels-first convolutions and poolings between Transposes become Keras's channels-last layers. An ONNX
/// op or pattern without a Keras layer is a ValueError listing every such op of the file.
std::shared_ptr<Model> load_onnx(const std::string& path);

}  // namespace keras::models
