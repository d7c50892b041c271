#!/usr/bin/python3
"""Layer names (in model.layers order), classes and parameter counts of keras.applications, read from Keras's own
source: each keras/src/applications/<model>.py (and the real imagenet_utils.py) is executed unchanged against a
small stand-in for keras.src.layers that records every layer call and counts its weights from the input shapes,
and the functional graph is ordered with Keras's map_graph rule (decreasing depth, then first DFS visit from the
outputs). Keras itself (and TensorFlow) is not installed here, so this is how the expected names are derived.

    /usr/bin/python3 tests/golden/make_applications_golden.py [KERAS_GIT_DIR]

writes tests/golden/applications.json. KERAS_GIT_DIR defaults to the keras-team/keras mirror; the commit read
is recorded in the JSON.
"""
import json
import math
import os
import re
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
GIT_DIR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/keras-team+keras/repo"


def source(path):
    return subprocess.check_output(["git", "--git-dir", GIT_DIR, "show", "HEAD:" + path], text=True)


COMMIT = subprocess.check_output(["git", "--git-dir", GIT_DIR, "rev-parse", "HEAD"], text=True).strip()

# ---- symbolic tensors and layers -------------------------------------------------------------------------------

UIDS = {}


def snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def auto_name(prefix):
    # Keras's backend.get_uid / uniquify: "conv2d", "conv2d_1", ...
    UIDS[prefix] = UIDS.get(prefix, 0) + 1
    n = UIDS[prefix]
    return prefix if n == 1 else f"{prefix}_{n - 1}"


class Node:
    def __init__(self, layer, inputs):
        self.layer = layer
        self.inputs = inputs  # list of T


class T:
    def __init__(self, shape, node):
        self.shape = tuple(shape)
        self.node = node
        self.dtype = "float32"


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def conv_out(size, k, s, padding):
    if size is None:
        return None
    if padding.lower() == "same":
        return -(-size // s)
    return (size - k) // s + 1


class Layer:
    auto_prefix = None

    def __init__(self, *args, name=None, **kwargs):
        self.args = args
        self.kwargs = kwargs
        self.name = name if name else auto_name(self.auto_prefix or snake(type(self).__name__))
        self.trainable_params = 0
        self.non_trainable_params = 0
        self.built = False

    def __call__(self, inputs, **unused):
        xs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        shape = self.compute(xs)
        self.built = True
        return T(shape, Node(self, xs))

    def compute(self, xs):
        return xs[0].shape


class InputLayer(Layer):
    pass


def Input(shape=None, tensor=None, **kwargs):
    layer = InputLayer(name=kwargs.get("name") or auto_name("input_layer"))
    return T((None,) + tuple(shape), Node(layer, []))


class Conv2D(Layer):
    def compute(self, xs):
        filters, k = self.args[0], pair(self.args[1] if len(self.args) > 1 else self.kwargs["kernel_size"])
        s = pair(self.kwargs.get("strides", 1))
        pad = self.kwargs.get("padding", "valid")
        n, h, w, c = xs[0].shape
        self.trainable_params = k[0] * k[1] * c * filters + (filters if self.kwargs.get("use_bias", True) else 0)
        return (n, conv_out(h, k[0], s[0], pad), conv_out(w, k[1], s[1], pad), filters)


class DepthwiseConv2D(Layer):
    def compute(self, xs):
        k = pair(self.args[0] if self.args else self.kwargs["kernel_size"])
        s = pair(self.kwargs.get("strides", 1))
        pad = self.kwargs.get("padding", "valid")
        m = self.kwargs.get("depth_multiplier", 1)
        n, h, w, c = xs[0].shape
        self.trainable_params = k[0] * k[1] * c * m + (c * m if self.kwargs.get("use_bias", True) else 0)
        return (n, conv_out(h, k[0], s[0], pad), conv_out(w, k[1], s[1], pad), c * m)


class SeparableConv2D(Layer):
    def compute(self, xs):
        filters, k = self.args[0], pair(self.args[1])
        s = pair(self.kwargs.get("strides", 1))
        pad = self.kwargs.get("padding", "valid")
        m = self.kwargs.get("depth_multiplier", 1)
        n, h, w, c = xs[0].shape
        self.trainable_params = (k[0] * k[1] * c * m + c * m * filters +
                                 (filters if self.kwargs.get("use_bias", True) else 0))
        return (n, conv_out(h, k[0], s[0], pad), conv_out(w, k[1], s[1], pad), filters)


class BatchNormalization(Layer):
    def compute(self, xs):
        c = xs[0].shape[self.kwargs.get("axis", -1)]
        self.trainable_params = c * (self.kwargs.get("center", True) + self.kwargs.get("scale", True))
        self.non_trainable_params = 2 * c
        return xs[0].shape


class Dense(Layer):
    def compute(self, xs):
        units = self.args[0]
        self.trainable_params = xs[0].shape[-1] * units + (units if self.kwargs.get("use_bias", True) else 0)
        return xs[0].shape[:-1] + (units,)


class Normalization(Layer):
    def compute(self, xs):
        c = xs[0].shape[self.kwargs.get("axis", -1)]
        self.non_trainable_params = 2 * c + 1  # mean, variance, count
        return xs[0].shape


class Pooling2D(Layer):
    def compute(self, xs):
        k = pair(self.args[0] if self.args else self.kwargs.get("pool_size", 2))
        s = self.kwargs.get("strides", self.args[1] if len(self.args) > 1 else None)
        s = k if s is None else pair(s)
        pad = self.kwargs.get("padding", "valid")
        n, h, w, c = xs[0].shape
        return (n, conv_out(h, k[0], s[0], pad), conv_out(w, k[1], s[1], pad), c)


class MaxPooling2D(Pooling2D):
    pass


class AveragePooling2D(Pooling2D):
    pass


class GlobalPooling2D(Layer):
    def compute(self, xs):
        n, h, w, c = xs[0].shape
        return (n, 1, 1, c) if self.kwargs.get("keepdims", False) else (n, c)


class GlobalAveragePooling2D(GlobalPooling2D):
    pass


class GlobalMaxPooling2D(GlobalPooling2D):
    pass


class ZeroPadding2D(Layer):
    def compute(self, xs):
        p = self.kwargs.get("padding", self.args[0] if self.args else 1)
        if isinstance(p, int):
            p = ((p, p), (p, p))
        p = [pair(a) for a in p]
        n, h, w, c = xs[0].shape
        return (n, None if h is None else h + sum(p[0]), None if w is None else w + sum(p[1]), c)


class Flatten(Layer):
    def compute(self, xs):
        return (xs[0].shape[0], math.prod(xs[0].shape[1:]))


class Reshape(Layer):
    def compute(self, xs):
        return (xs[0].shape[0],) + tuple(self.args[0])


class Concatenate(Layer):
    def compute(self, xs):
        axis = self.kwargs.get("axis", self.args[0] if self.args else -1)
        s = list(xs[0].shape)
        s[axis] = sum(x.shape[axis] for x in xs)
        return tuple(s)


class Merge(Layer):
    def compute(self, xs):
        return tuple(max(d) if None not in d else None for d in zip(*(x.shape for x in xs)))


class Add(Merge):
    pass


class Multiply(Merge):
    pass


class Activation(Layer):
    pass


class ReLU(Layer):
    auto_prefix = "re_lu"


class Dropout(Layer):
    pass


class Rescaling(Layer):
    pass


def functional(cls):
    def apply(inputs, **kwargs):
        return cls(**kwargs)(inputs)
    return apply


layers_mod = types.ModuleType("keras.src.layers")
for cls in [Conv2D, DepthwiseConv2D, SeparableConv2D, BatchNormalization, Dense, Normalization, MaxPooling2D,
            AveragePooling2D, GlobalAveragePooling2D, GlobalMaxPooling2D, ZeroPadding2D, Flatten, Reshape,
            Concatenate, Add, Multiply, Activation, ReLU, Dropout, Rescaling]:
    setattr(layers_mod, cls.__name__, cls)
layers_mod.Input = Input
layers_mod.add = functional(Add)
layers_mod.multiply = functional(Multiply)
layers_mod.concatenate = lambda inputs, axis=-1, **kw: Concatenate(axis=axis, **kw)(inputs)

# ---- Keras's map_graph ordering ------------------------------------------------------------------------------


def ordered_layers(inputs, outputs):
    finished, in_progress, order, indices = set(), set(), [], {}

    def visit(t):
        node = t.node
        if id(node) in finished:
            return
        layer = node.layer
        if layer not in indices:
            indices[layer] = len(indices)
        in_progress.add(id(node))
        for x in node.inputs:
            visit(x)
        finished.add(id(node))
        in_progress.discard(id(node))
        order.append(node)

    for t in outputs:
        visit(t)
    node_depth, layer_depth = {}, {}
    for node in reversed(order):
        depth = node_depth.setdefault(id(node), 0)
        depth = max(depth, layer_depth.get(node.layer, 0))
        layer_depth[node.layer] = depth
        node_depth[id(node)] = depth
        for x in node.inputs:
            node_depth[id(x.node)] = max(depth + 1, node_depth.get(id(x.node), 0))
    for t in inputs:
        if t.node.layer not in layer_depth:
            layer_depth[t.node.layer] = 0
            indices[t.node.layer] = -1
    by_depth = {}
    for layer, d in layer_depth.items():
        by_depth.setdefault(d, []).append(layer)
    result = []
    for d in sorted(by_depth, reverse=True):
        result.extend(sorted(by_depth[d], key=lambda l: indices[l]))
    return result


class Functional:
    def __init__(self, inputs, outputs, name=None):
        ins = inputs if isinstance(inputs, (list, tuple)) else [inputs]
        outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
        self.layers = ordered_layers(ins, outs)
        self.name = name
        self.output_shape = outs[0].shape

    def load_weights(self, path):
        raise AssertionError("weights are not loaded here")


# ---- the rest of keras.src that the application modules import -----------------------------------------------

def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


backend = module("keras.src.backend", image_data_format=lambda: "channels_last", is_keras_tensor=lambda t: isinstance(t, T),
                 floatx=lambda: "float32")
activations = module("keras.src.activations", get=lambda a: a)
module("keras", src=module("keras.src"))
sys.modules["keras.src.layers"] = layers_mod
module("keras.src.api_export", keras_export=lambda *a, **k: (lambda f: f))
module("keras.src.models", Functional=Functional)
operation_utils = module("keras.src.ops.operation_utils", get_source_inputs=lambda t: t)
module("keras.src.ops", operation_utils=operation_utils)
file_utils = module("keras.src.utils.file_utils", exists=lambda p: False, get_file=None)
module("keras.src.utils", file_utils=file_utils)
apps = module("keras.src.applications")
src = sys.modules["keras.src"]
src.backend, src.layers, src.activations = backend, layers_mod, activations
src.ops = sys.modules["keras.src.ops"]


def load(name):
    m = module("keras.src.applications." + name)
    m.__file__ = "keras/src/applications/%s.py" % name
    exec(compile(source(m.__file__), m.__file__, "exec"), m.__dict__)
    setattr(apps, name, m)
    return m


load("imagenet_utils")
mods = {n: load(n) for n in ["vgg16", "resnet", "resnet_v2", "mobilenet", "mobilenet_v2", "inception_v3",
                              "xception", "densenet", "efficientnet"]}

CASES = [
    ("VGG16", mods["vgg16"].VGG16),
    ("ResNet50", mods["resnet"].ResNet50),
    ("ResNet50V2", mods["resnet_v2"].ResNet50V2),
    ("MobileNet", mods["mobilenet"].MobileNet),
    ("MobileNetV2", mods["mobilenet_v2"].MobileNetV2),
    ("InceptionV3", mods["inception_v3"].InceptionV3),
    ("Xception", mods["xception"].Xception),
    ("DenseNet121", mods["densenet"].DenseNet121),
    ("EfficientNetB0", mods["efficientnet"].EfficientNetB0),
]


def describe(model):
    trainable = sum(l.trainable_params for l in model.layers)
    non_trainable = sum(l.non_trainable_params for l in model.layers)
    return {
        "name": model.name,
        "layers": [[l.name, type(l).__name__] for l in model.layers],
        "total_params": trainable + non_trainable,
        "trainable_params": trainable,
        "output_shape": [-1 if d is None else d for d in model.output_shape],
    }


out = {"keras_commit": COMMIT, "models": {}}
for name, fn in CASES:
    entry = {}
    UIDS.clear()  # a fresh session (keras.backend.clear_session()) for each model
    entry["top"] = describe(fn(weights=None))
    UIDS.clear()
    entry["notop"] = describe(fn(weights=None, include_top=False))
    out["models"][name] = entry
    print(f"{name}: {entry['top']['total_params']:,} params ({entry['top']['trainable_params']:,} trainable), "
          f"{len(entry['top']['layers'])} layers; no top {entry['notop']['total_params']:,}")

with open(os.path.join(HERE, "applications.json"), "w") as f:
    json.dump(out, f, indent=0, separators=(",", ":"))
    f.write("\n")
