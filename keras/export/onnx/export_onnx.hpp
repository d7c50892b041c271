#pragma once
// keras::export_onnx: writes a model as an ONNX file (https://onnx.ai) that ONNX Runtime, TensorRT,
// OpenVINO and the other ONNX runtimes load. The graph keeps the model's input and output names, leaves
// the batch dimension dynamic and holds the weights as float32 initializers; layers stay channels-last as
// in Keras (convolutions and poolings are wrapped in Transposes, which runtimes fold away).
#include <string>

namespace keras {

class Model;

struct ExportOnnxOptions {
  /// The ONNX operator set the graph uses (13 to 17; 17 is what ONNX 1.12, Debian 12's, knows last).
  int opset = 17;
};

/// Writes `model` (functional or Sequential, built) to `path` in the inference form (Dropout and the noise
/// layers are identities, BatchNormalization uses its moving statistics). A layer ONNX cannot express is a
/// keras::ValueError naming it and the reason; a layer class of one's own is exported by registering an
/// exporter for it (keras/export/onnx/layer_exporters.hpp). Written to a temporary file first: a failure
/// keeps the old file.
void export_onnx(const Model& model, const std::string& path, ExportOnnxOptions options = {});

}  // namespace keras
