"""Writes tests/keras/import/onnx/fixtures/tf2onnx_lenet_patterns.onnx: a LeNet for 28x28 images in the node
patterns that tf2onnx 1.16.1 writes for a tf.keras Sequential (opset 15), with seeded random weights.

The node sequence is the one of a real tf2onnx 1.16.1 file (github.com/qianxyz/mnist-webui, model.onnx, whose
repository carries no licence, so it is not committed here): the input [N, 28, 28] Unsqueezed to [N, 28, 28, 1]
and Reshaped to [N, 1, 28, 28] (tf2onnx folds the NHWC->NCHW Transpose of a one-channel tensor into a
Reshape), Conv (pads for Keras's "same") + Relu + MaxPool twice in NCHW, a Transpose back to NHWC, a Reshape
[-1, 400] for Flatten, then MatMul + Add (+ Relu) per Dense and a final Softmax. Dense widths are smaller than
the original's (32 and 16 instead of 120 and 84) to keep the file small.

Run with /usr/bin/python3 (Debian's python3-onnx and numpy)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(23)


def weight(name, shape, scale):
    return numpy_helper.from_array((rng.uniform(-1, 1, shape) * scale).astype(np.float32), name)


inits = [
    numpy_helper.from_array(np.array([3], np.int64), "const_fold_opt__33"),
    numpy_helper.from_array(np.array([-1, 1, 28, 28], np.int64), "new_shape__30"),
    numpy_helper.from_array(np.array([-1, 400], np.int64), "const_fold_opt__31"),
    weight("sequential_1/conv2d_1/convolution/ReadVariableOp:0", [6, 1, 5, 5], 0.4),
    weight("sequential_1/conv2d_1/Reshape:0", [6], 0.1),
    weight("sequential_1/conv2d_1_2/convolution/ReadVariableOp:0", [16, 6, 5, 5], 0.15),
    weight("sequential_1/conv2d_1_2/Reshape:0", [16], 0.1),
    weight("sequential_1/dense_1/Cast/ReadVariableOp:0", [400, 32], 0.1),
    weight("sequential_1/dense_1/Add/ReadVariableOp:0", [32], 0.1),
    weight("sequential_1/dense_1_2/Cast/ReadVariableOp:0", [32, 16], 0.3),
    weight("sequential_1/dense_1_2/Add/ReadVariableOp:0", [16], 0.1),
    weight("sequential_1/dense_2_1/Cast/ReadVariableOp:0", [16, 10], 0.4),
    weight("sequential_1/dense_2_1/Add/ReadVariableOp:0", [10], 0.1),
]
N = helper.make_node
nodes = [
    N("Unsqueeze", ["input", "const_fold_opt__33"], ["sequential_1/ExpandDims:0"]),
    N("Reshape", ["sequential_1/ExpandDims:0", "new_shape__30"], ["sequential_1/conv2d_1/convolution__9:0"]),
    N("Conv", ["sequential_1/conv2d_1/convolution__9:0", "sequential_1/conv2d_1/convolution/ReadVariableOp:0",
               "sequential_1/conv2d_1/Reshape:0"], ["Conv__26:0"],
      dilations=[1, 1], strides=[1, 1], kernel_shape=[5, 5], pads=[2, 2, 2, 2], group=1),
    N("Relu", ["Conv__26:0"], ["sequential_1/conv2d_1/Relu:0"]),
    N("MaxPool", ["sequential_1/conv2d_1/Relu:0"], ["sequential_1/max_pooling2d_1/MaxPool2d:0"],
      strides=[2, 2], kernel_shape=[2, 2]),
    N("Conv", ["sequential_1/max_pooling2d_1/MaxPool2d:0", "sequential_1/conv2d_1_2/convolution/ReadVariableOp:0",
               "sequential_1/conv2d_1_2/Reshape:0"], ["Conv__28:0"],
      dilations=[1, 1], strides=[1, 1], kernel_shape=[5, 5], group=1),
    N("Relu", ["Conv__28:0"], ["sequential_1/conv2d_1_2/Relu:0"]),
    N("MaxPool", ["sequential_1/conv2d_1_2/Relu:0"], ["sequential_1/max_pooling2d_1_2/MaxPool2d:0"],
      strides=[2, 2], kernel_shape=[2, 2]),
    N("Transpose", ["sequential_1/max_pooling2d_1_2/MaxPool2d:0"], ["sequential_1/max_pooling2d_1_2/MaxPool2d__23:0"],
      perm=[0, 2, 3, 1]),
    N("Reshape", ["sequential_1/max_pooling2d_1_2/MaxPool2d__23:0", "const_fold_opt__31"],
      ["sequential_1/flatten_1/Reshape:0"]),
]
previous = "sequential_1/flatten_1/Reshape:0"
for i, layer in enumerate(["dense_1", "dense_1_2", "dense_2_1"]):
    nodes.append(N("MatMul", [previous, f"sequential_1/{layer}/Cast/ReadVariableOp:0"], [f"sequential_1/{layer}/MatMul:0"]))
    nodes.append(N("Add", [f"sequential_1/{layer}/MatMul:0", f"sequential_1/{layer}/Add/ReadVariableOp:0"],
                   [f"sequential_1/{layer}/Add:0"]))
    previous = f"sequential_1/{layer}/Add:0"
    if i < 2:
        nodes.append(N("Relu", [previous], [f"sequential_1/{layer}/Relu:0"]))
        previous = f"sequential_1/{layer}/Relu:0"
nodes.append(N("Softmax", [previous], ["output"]))

graph = helper.make_graph(
    nodes, "tf2onnx", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["unk__34", 28, 28])],
    [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["unk__35", 10])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)], producer_name="tf2onnx",
                          producer_version="1.16.1 15c810 (node patterns; weights from tests/golden/make_onnx_tf2onnx_patterns.py)")
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)
out = os.path.join(os.path.dirname(__file__), "..", "keras", "import", "onnx", "fixtures", "tf2onnx_lenet_patterns.onnx")
onnx.save(model, out)
print("wrote", out)
