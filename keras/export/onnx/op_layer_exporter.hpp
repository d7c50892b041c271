#pragma once
// The exporter of op layers: tf.keras 2.x's TFOpLambda (`tf.math.multiply(x, 2.0)`) and Keras 3's keras.ops
// nodes (`keras.ops.add(a, b)`), whose class names ("Add", "Maximum") are also merging layers' and so are
// dispatched by type before the registry. Elementwise unary and binary ops export (their constant operands as
// initializers), and x[key] (SlicingOpLambda, Keras 3's GetItem); any other op is a ValueError naming it.
#include <string>
#include <vector>

#include "keras/export/onnx/layer_exporters.hpp"

namespace keras::layers {
class OpLayer;
}

namespace keras::onnx {

std::vector<std::string> export_op_layer(GraphBuilder& g, const layers::OpLayer& layer, const LayerCall& call);

}  // namespace keras::onnx
