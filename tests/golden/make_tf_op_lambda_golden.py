#!/usr/bin/python3
"""Functional model configs holding raw ops, in the forms real Keras files hold them, and their outputs
computed with NumPy.

tf.keras 2.x (TFOpLambda / SlicingOpLambda): the layer config is {"name", "trainable", "dtype", "function"};
the call's first argument is the node's structure (one [layer, node, tensor, kwargs] entry, a list of them
for tf.concat, or ["_CONSTANT_VALUE", -1, value, kwargs] for a constant first operand as in `1.0 - x`), every
other argument is in the kwargs (tensors as [layer, node, tensor], constants as numbers or nested lists);
slice specs use {"start", "stop", "step"}, {"class_name": "__ellipsis__"} and null for tf.newaxis. The forms
follow keras/engine/node.py (Node.serialize) and keras/layers/core/tf_op_layer.py of tf.keras 2.x and
configs of real files (e.g. `{"class_name": "TFOpLambda", "config": {"name": "tf.expand_dims", ...,
"function": "expand_dims"}, "inbound_nodes": [["dense", 0, 0, {"axis": 1}]]}`).

Keras 3 (keras.ops nodes): entries {"module": "keras.src.ops.numpy", "class_name": "Add", "config": {...},
"registered_name": "Add", "name", "inbound_nodes": [{"args": [...], "kwargs": {...}}]} with tensors as
{"class_name": "__keras_tensor__", "config": {"shape", "dtype", "keras_history"}} and slices as
{"class_name": "__slice__", "config": {...}} (keras/src/models/functional.py, saving/serialization_lib.py);
op configs hold the init arguments (`{"name": "mean", "axis": 1, "keepdims": false}`; Keras 3.0-3.6 wrote
`{"newshape": [...]}` with no name).

Writes tests/golden/tf_op_lambda.json. Run with Debian's /usr/bin/python3 (numpy).
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(18)


def tensor(a):
    a = np.asarray(a, dtype=np.float32)
    return {"dtype": "float32", "shape": list(a.shape), "data": a.reshape(-1).astype(float).tolist()}


def input_layer(name, shape):
    return {"class_name": "InputLayer", "name": name, "inbound_nodes": [],
            "config": {"batch_input_shape": [None] + list(shape), "dtype": "float32", "sparse": False,
                       "ragged": False, "name": name}}


def tf_op(function, inbound, name=None, cls="TFOpLambda"):
    name = name or "tf." + function
    return {"class_name": cls, "name": name, "inbound_nodes": [inbound],
            "config": {"name": name, "trainable": True, "dtype": "float32", "function": function}}


def model(name, layers, inputs, outputs):
    return {"class_name": "Functional", "keras_version": "2.9.0", "backend": "tensorflow",
            "config": {"name": name, "layers": layers, "input_layers": [[i, 0, 0] for i in inputs],
                       "output_layers": [[o, 0, 0] for o in outputs]}}


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def case_arithmetic():
    a = rng.uniform(-1, 1, (3, 4))
    b = rng.uniform(0.5, 1.5, (3, 4))
    c = np.array([[0.25, -0.5, 0.75, 1.0]])
    layers = [
        input_layer("input_1", [4]), input_layer("input_2", [4]),
        tf_op("__operators__.add", ["input_1", 0, 0, {"y": ["input_2", 0, 0], "name": None}]),
        tf_op("math.multiply", ["tf.__operators__.add", 0, 0, {"y": 2.0, "name": None}]),
        # 1.0 - x: the constant is the first operand.
        tf_op("math.subtract", ["_CONSTANT_VALUE", -1, 1.0, {"y": ["tf.math.multiply", 0, 0], "name": None}]),
        tf_op("math.truediv", ["tf.math.subtract", 0, 0, {"y": ["input_2", 0, 0], "name": None}]),
        tf_op("math.maximum", ["tf.math.truediv", 0, 0, {"y": -2.0, "name": None}]),
        tf_op("math.minimum", ["tf.math.maximum", 0, 0, {"y": c.tolist(), "name": None}]),
        tf_op("math.add", ["tf.math.minimum", 0, 0, {"y": 0.5, "name": None}]),
    ]
    y = np.minimum(np.maximum((1.0 - (a + b) * 2.0) / b, -2.0), c) + 0.5
    return "arithmetic", model("arith", layers, ["input_1", "input_2"], ["tf.math.add"]), [a, b], [y]


def case_unary():
    x = rng.uniform(0.1, 2.0, (2, 3, 4))
    d = x - 1.0
    ops = [("nn.relu", "tf.math.subtract", np.maximum(d, 0)), ("math.sigmoid", "tf.math.subtract", sigmoid(d)),
           ("math.tanh", "tf.math.subtract", np.tanh(d)), ("math.exp", "input_1", np.exp(x)),
           ("math.log", "input_1", np.log(x)), ("math.sqrt", "input_1", np.sqrt(x)),
           ("math.square", "tf.math.subtract", d * d), ("math.abs", "tf.math.subtract", np.abs(d)),
           ("math.negative", "input_1", -x)]
    layers = [input_layer("input_1", [3, 4]),
              tf_op("math.subtract", ["input_1", 0, 0, {"y": 1.0, "name": None}])]
    outputs, values = [], []
    for function, source, value in ops:
        layers.append(tf_op(function, [source, 0, 0, {"name": None}]))
        outputs.append("tf." + function)
        values.append(value)
    layers.append(tf_op("nn.softmax", ["input_1", 0, 0, {"axis": 1, "name": None}]))
    layers.append(tf_op("nn.softmax", ["input_1", 0, 0, {"name": None}], name="tf.nn.softmax_1"))
    outputs += ["tf.nn.softmax", "tf.nn.softmax_1"]
    values += [softmax(x, 1), softmax(x, -1)]
    return "unary", model("unary", layers, ["input_1"], outputs), [x], values


def case_more():
    """Less common functions seen in real files: relu6, leaky_relu, swish, l2_normalize, clip_by_value,
    reduce_min, comparisons (1.0 / 0.0 here; TensorFlow's bools are cast to float before use), log_softmax."""
    x = rng.uniform(-3, 7, (2, 3, 4))
    y = rng.uniform(-3, 7, (2, 3, 4))
    specs = [
        ("nn.relu6", {"name": None}, np.clip(x, 0, 6)),
        ("nn.leaky_relu", {"alpha": 0.1, "name": None}, np.where(x > 0, x, 0.1 * x)),
        ("nn.silu", {"name": None}, x * sigmoid(x)),
        ("math.l2_normalize", {"axis": -1, "epsilon": 1e-12, "name": None},
         x / np.sqrt(np.maximum((x * x).sum(-1, keepdims=True), 1e-12))),
        ("clip_by_value", {"clip_value_min": -1.0, "clip_value_max": 2.5, "name": None}, np.clip(x, -1.0, 2.5)),
        ("math.reduce_min", {"axis": 1, "keepdims": False, "name": None}, x.min(axis=1)),
        ("__operators__.ne", {"y": ["input_2", 0, 0], "name": None}, (x != y).astype(np.float64)),
        ("math.less", {"y": ["input_2", 0, 0], "name": None}, (x < y).astype(np.float64)),
        ("math.greater_equal", {"y": 1.0, "name": None}, (x >= 1.0).astype(np.float64)),
        ("nn.log_softmax", {"axis": 1, "name": None}, np.log(softmax(x, 1))),
        ("math.rsqrt", {"name": None}, 1.0 / np.sqrt(np.abs(x) + 1.0)),
    ]
    layers = [input_layer("input_1", [3, 4]), input_layer("input_2", [3, 4]),
              tf_op("math.abs", ["input_1", 0, 0, {"name": None}]),
              tf_op("math.add", ["tf.math.abs", 0, 0, {"y": 1.0, "name": None}])]
    for function, kwargs, _ in specs:
        source = "tf.math.add" if function == "math.rsqrt" else "input_1"
        layers.append(tf_op(function, [source, 0, 0, kwargs]))
    return ("more", model("more", layers, ["input_1", "input_2"], ["tf." + s[0] for s in specs]), [x, y],
            [s[2] for s in specs])


def case_shapes():
    a = rng.uniform(-1, 1, (2, 2, 3))
    b = rng.uniform(-1, 1, (2, 2, 3))
    layers = [
        input_layer("input_1", [2, 3]), input_layer("input_2", [2, 3]),
        tf_op("concat", [["input_1", 0, 0, {"axis": -1, "name": None}], ["input_2", 0, 0, {"axis": -1, "name": None}]]),
        tf_op("stack", [["input_1", 0, 0, {"axis": 1, "name": None}], ["input_2", 0, 0, {"axis": 1, "name": None}]]),
        tf_op("reshape", ["tf.concat", 0, 0, {"shape": [-1, 12], "name": None}]),
        tf_op("expand_dims", ["input_1", 0, 0, {"axis": 1}]),
        tf_op("squeeze", ["tf.expand_dims", 0, 0, {"axis": 1, "name": None}]),
        tf_op("compat.v1.transpose", ["input_1", 0, 0, {"perm": [0, 2, 1]}]),
        tf_op("math.reduce_mean", ["input_1", 0, 0, {"axis": -1, "keepdims": True, "name": None}]),
        tf_op("math.reduce_sum", ["input_2", 0, 0, {"axis": [1, 2], "keepdims": False, "name": None}]),
        tf_op("math.reduce_max", ["input_2", 0, 0, {"axis": 1, "name": None}]),
        tf_op("linalg.matmul", ["input_1", 0, 0, {"b": ["tf.compat.v1.transpose", 0, 0], "name": None}]),
        tf_op("cast", ["input_2", 0, 0, {"dtype": "float32"}]),
    ]
    outs = ["tf.stack", "tf.reshape", "tf.squeeze", "tf.math.reduce_mean", "tf.math.reduce_sum",
            "tf.math.reduce_max", "tf.linalg.matmul", "tf.cast"]
    values = [np.stack([a, b], axis=1), np.concatenate([a, b], -1).reshape(-1, 12), a,
              a.mean(-1, keepdims=True), b.sum(axis=(1, 2)), b.max(axis=1), a @ a.transpose(0, 2, 1), b]
    return "shapes", model("shapes", layers, ["input_1", "input_2"], outs), [a, b], values


def case_slicing():
    x = rng.uniform(-1, 1, (2, 4, 5))
    full = {"start": None, "stop": None, "step": None}
    specs = [
        ("tf.__operators__.getitem", [full, 0], x[:, 0]),
        ("tf.__operators__.getitem_1", [{"class_name": "__ellipsis__"}, {"start": 1, "stop": 4, "step": 2}],
         x[..., 1:4:2]),
        ("tf.__operators__.getitem_2", [full, None, -1, {"start": None, "stop": None, "step": -1}], x[:, None, -1, ::-1]),
        ("tf.__operators__.getitem_3", [full, {"start": -2, "stop": None, "step": None}], x[:, -2:]),
        ("tf.__operators__.getitem_4", [{"class_name": "__ellipsis__"}, None], x[..., None]),
    ]
    layers = [input_layer("input_1", [4, 5])]
    for name, spec, _ in specs:
        layers.append(tf_op("__operators__.getitem", ["input_1", 0, 0, {"slice_spec": spec}], name=name,
                            cls="SlicingOpLambda"))
    return ("slicing", model("slicing", layers, ["input_1"], [s[0] for s in specs]), [x], [s[2] for s in specs])


def keras_tensor(layer, shape):
    return {"class_name": "__keras_tensor__",
            "config": {"shape": shape, "dtype": "float32", "keras_history": [layer, 0, 0]}}


def keras3_op(module, cls, name, config, args, kwargs=None):
    return {"module": module, "class_name": cls, "config": config, "registered_name": cls, "name": name,
            "inbound_nodes": [{"args": args, "kwargs": kwargs or {}}]}


def case_keras3_ops():
    a = rng.uniform(-1, 1, (3, 4))
    b = rng.uniform(-1, 1, (3, 4))
    np_ops = "keras.src.ops.numpy"

    def k3_input(name):
        return {"module": "keras.layers", "class_name": "InputLayer", "registered_name": None, "name": name,
                "inbound_nodes": [],
                "config": {"batch_shape": [None, 4], "dtype": "float32", "sparse": False, "name": name}}

    layers = [
        k3_input("input_a"), k3_input("input_b"),
        keras3_op(np_ops, "Add", "add", {"name": "add"},
                  [keras_tensor("input_a", [None, 4]), keras_tensor("input_b", [None, 4])]),
        keras3_op(np_ops, "Multiply", "multiply", {"name": "multiply"}, [keras_tensor("add", [None, 4]), 2.0]),
        keras3_op("keras.src.ops.nn", "Relu", "relu", {"name": "relu"}, [keras_tensor("multiply", [None, 4])]),
        keras3_op(np_ops, "Mean", "mean", {"name": "mean", "axis": 1, "keepdims": True},
                  [keras_tensor("relu", [None, 4])]),
        keras3_op(np_ops, "GetItem", "get_item", {"name": "get_item"},
                  [keras_tensor("input_a", [None, 4]),
                   [{"class_name": "__slice__", "config": {"start": None, "stop": None, "step": None}},
                    {"class_name": "__slice__", "config": {"start": 1, "stop": None, "step": None}}]]),
        keras3_op(np_ops, "Reshape", "reshape", {"newshape": [-1, 3, 1]}, [keras_tensor("get_item", [None, 3])]),
        keras3_op(np_ops, "Subtract", "subtract", {"name": "subtract"},
                  [keras_tensor("input_b", [None, 4]), keras_tensor("mean", [None, 1])]),
        # The Add *layer* beside the Add op: the module tells them apart.
        {"module": "keras.layers", "class_name": "Add", "registered_name": None, "name": "add_layer",
         "config": {"name": "add_layer", "trainable": True, "dtype": "float32"},
         "inbound_nodes": [{"args": [[keras_tensor("subtract", [None, 4]), keras_tensor("input_a", [None, 4])]],
                            "kwargs": {}}]},
    ]
    m = {"module": "keras.src.models.functional", "class_name": "Functional", "registered_name": "Functional",
         "config": {"name": "ops", "trainable": True, "layers": layers,
                    "input_layers": [["input_a", 0, 0], ["input_b", 0, 0]],
                    "output_layers": [["reshape", 0, 0], ["add_layer", 0, 0]]}}
    mean = np.maximum((a + b) * 2.0, 0).mean(axis=1, keepdims=True)
    return "keras3_ops", m, [a, b], [a[:, 1:].reshape(-1, 3, 1), (b - mean) + a]


def main():
    cases = []
    for make in (case_arithmetic, case_unary, case_more, case_shapes, case_slicing, case_keras3_ops):
        name, config, inputs, outputs = make()
        cases.append({"name": name, "model": config, "inputs": [tensor(i) for i in inputs],
                      "outputs": [tensor(o) for o in outputs]})
    with open(os.path.join(HERE, "tf_op_lambda.json"), "w") as f:
        json.dump({"cases": cases}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
