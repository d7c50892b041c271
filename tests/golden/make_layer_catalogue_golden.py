#!/usr/bin/python3
"""Writes tests/golden/layer_catalogue.json: forward values and gradients of the merging, reshaping,
activation and normalization layers, regularizer penalties and constraint projections, computed by
PyTorch (float64) and NumPy, which tests/layers/layer_catalogue_test.cpp and tests/keras/regularizers_test.cpp
compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_layer_catalogue_golden.py

Each layer case holds the layer as Keras serializes it ({"class_name", "config"}), its inputs and
weights in Keras's layouts (channels last), the output, and the gradients of sum(y * w) for a fixed
weighting w with respect to every input and weight. Keras conventions reproduced here: merge layers
insert axes of size 1 after the batch axis for lower-rank inputs; Dot is a batch dot product;
UpSampling2D "bilinear" is tf.image.resize with half-pixel centres (PyTorch's align_corners=False);
GroupNormalization uses the biased variance; UnitNormalization divides by sqrt(max(sum x², 1e-12)).
"""
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def tensor(t):
    t = torch.as_tensor(t).detach()
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def rand(*shape, lo=-1.0, hi=1.0):
    # Drawn in float32 (what the C++ side holds); the math runs in float64.
    return (torch.rand(*shape) * (hi - lo) + lo).double()


layers = []


KINKS = (0.0, 0.2, 0.3, 0.5, 0.8)  # where the ReLU-like cases bend


def away_from_kinks(x):
    # Finite differences (step 1e-3 in the C++ test) must not straddle a kink.
    for k in KINKS:
        x = torch.where((x - k).abs() < 0.01, x + 0.03, x)
    return x


def case(class_name, config, input_shapes, fn, weights=(), lo=-1.0, hi=1.0):
    inputs = [away_from_kinks(rand(*s, lo=lo, hi=hi)).requires_grad_() for s in input_shapes]
    weights = [w.clone().requires_grad_() for w in weights]
    y = fn(*inputs, *weights)
    w = rand(*y.shape, lo=0.5, hi=1.5)
    (y * w).sum().backward()
    layers.append({
        "layer": {"class_name": class_name, "config": config},
        "inputs": [tensor(x) for x in inputs], "weights": [tensor(v) for v in weights],
        "w": tensor(w), "y": tensor(y),
        "input_grads": [tensor(x.grad) for x in inputs], "weight_grads": [tensor(v.grad) for v in weights],
    })


def expand_after_batch(xs):
    rank = max(x.dim() for x in xs)
    out = []
    for x in xs:
        while x.dim() < rank:
            x = x.unsqueeze(1)
        out.append(x)
    return out


def batch_dot(a, b, axes):
    a = a.movedim(axes[0], -1)
    b = b.movedim(axes[1], 1)
    n = a.shape[0]
    out = torch.bmm(a.reshape(n, -1, a.shape[-1]), b.reshape(n, b.shape[1], -1))
    shape = list(a.shape[:-1]) + list(b.shape[2:])
    if len(shape) == 1:
        shape.append(1)
    return out.reshape(shape)


def l2_normalize(x, axis):
    return x / torch.sqrt(torch.clamp((x * x).sum(dim=axis, keepdim=True), min=1e-12))


def channels_first(x):
    return x.movedim(-1, 1)


def channels_last(x):
    return x.movedim(1, -1)


# Merging.
case("Add", {}, [(2, 3, 4)] * 3, lambda a, b, c: a + b + c)
case("Add", {}, [(2, 3, 4), (2, 4)], lambda a, b: sum(expand_after_batch([a, b])))
case("Subtract", {}, [(2, 5), (2, 5)], lambda a, b: a - b)
case("Multiply", {}, [(2, 3)] * 3, lambda a, b, c: a * b * c)
case("Average", {}, [(2, 4, 3)] * 2, lambda a, b: (a + b) / 2)
case("Maximum", {}, [(3, 4)] * 3, lambda a, b, c: torch.maximum(torch.maximum(a, b), c))
case("Minimum", {}, [(3, 4)] * 2, lambda a, b: torch.minimum(a, b))
case("Concatenate", {"axis": -1}, [(2, 3, 4), (2, 3, 2)], lambda a, b: torch.cat([a, b], -1))
case("Concatenate", {"axis": 1}, [(2, 3, 4), (2, 1, 4), (2, 2, 4)], lambda a, b, c: torch.cat([a, b, c], 1))
case("Dot", {"axes": 1, "normalize": False}, [(3, 5), (3, 5)], lambda a, b: batch_dot(a, b, (1, 1)))
case("Dot", {"axes": [2, 1], "normalize": False}, [(2, 3, 4), (2, 4, 5)], lambda a, b: batch_dot(a, b, (2, 1)))
case("Dot", {"axes": -1, "normalize": False}, [(2, 3, 4), (2, 5, 4)], lambda a, b: batch_dot(a, b, (2, 2)))
case("Dot", {"axes": [1, 1], "normalize": True}, [(2, 4, 3), (2, 4, 2)],
     lambda a, b: batch_dot(l2_normalize(a, 1), l2_normalize(b, 1), (1, 1)))
case("Dot", {"axes": 1, "normalize": True}, [(3, 6), (3, 6)],
     lambda a, b: batch_dot(l2_normalize(a, 1), l2_normalize(b, 1), (1, 1)))

# Reshaping.
case("Permute", {"dims": [2, 1]}, [(2, 3, 4)], lambda x: x.permute(0, 2, 1))
case("Permute", {"dims": [3, 1, 2]}, [(2, 3, 4, 5)], lambda x: x.permute(0, 3, 1, 2))
case("RepeatVector", {"n": 3}, [(2, 4)], lambda x: x.unsqueeze(1).repeat(1, 3, 1))
case("Cropping1D", {"cropping": [1, 2]}, [(2, 6, 3)], lambda x: x[:, 1:-2])
case("Cropping2D", {"cropping": [[1, 0], [2, 1]], "data_format": "channels_last"}, [(2, 5, 6, 3)],
     lambda x: x[:, 1:, 2:-1])
case("Cropping3D", {"cropping": [[1, 1], [0, 1], [1, 0]], "data_format": "channels_last"}, [(1, 4, 3, 3, 2)],
     lambda x: x[:, 1:-1, 0:-1, 1:])
case("ZeroPadding1D", {"padding": [2, 1]}, [(2, 3, 2)], lambda x: F.pad(x, (0, 0, 2, 1)))
case("ZeroPadding2D", {"padding": [[1, 2], [0, 1]], "data_format": "channels_last"}, [(2, 3, 3, 2)],
     lambda x: F.pad(x, (0, 0, 0, 1, 1, 2)))
case("ZeroPadding3D", {"padding": [[1, 0], [0, 1], [1, 1]], "data_format": "channels_last"}, [(1, 2, 2, 2, 2)],
     lambda x: F.pad(x, (0, 0, 1, 1, 0, 1, 1, 0)))
case("UpSampling1D", {"size": 3}, [(2, 3, 2)], lambda x: x.repeat_interleave(3, dim=1))
case("UpSampling2D", {"size": [2, 3], "data_format": "channels_last", "interpolation": "nearest"}, [(2, 2, 3, 2)],
     lambda x: x.repeat_interleave(2, dim=1).repeat_interleave(3, dim=2))
case("UpSampling2D", {"size": [2, 2], "data_format": "channels_last", "interpolation": "bilinear"}, [(1, 3, 4, 2)],
     lambda x: channels_last(F.interpolate(channels_first(x), size=(6, 8), mode="bilinear", align_corners=False)))
case("UpSampling2D", {"size": [3, 2], "data_format": "channels_last", "interpolation": "bilinear"}, [(2, 2, 3, 1)],
     lambda x: channels_last(F.interpolate(channels_first(x), size=(6, 6), mode="bilinear", align_corners=False)))
case("UpSampling3D", {"size": [2, 1, 2], "data_format": "channels_last"}, [(1, 2, 2, 2, 2)],
     lambda x: x.repeat_interleave(2, dim=1).repeat_interleave(2, dim=3))

# Activations.
case("Softmax", {"axis": -1}, [(3, 5)], lambda x: torch.softmax(x, -1), lo=-3, hi=3)
case("Softmax", {"axis": 1}, [(2, 3, 4)], lambda x: torch.softmax(x, 1), lo=-3, hi=3)
case("ReLU", {"max_value": None, "negative_slope": 0.0, "threshold": 0.0}, [(4, 5)], lambda x: torch.relu(x))
case("ReLU", {"max_value": 0.5, "negative_slope": 0.0, "threshold": 0.0}, [(4, 5)], lambda x: torch.clamp(x, 0, 0.5))
case("ReLU", {"max_value": None, "negative_slope": 0.1, "threshold": 0.0}, [(4, 5)],
     lambda x: F.leaky_relu(x, 0.1))
case("ReLU", {"max_value": 0.8, "negative_slope": 0.1, "threshold": 0.2}, [(4, 5)],
     lambda x: torch.where(x > 0.2, torch.clamp(x, max=0.8), 0.1 * (x - 0.2)))
case("ReLU", {"max_value": None, "negative_slope": 0.0, "threshold": 0.3}, [(4, 5)],
     lambda x: torch.where(x > 0.3, x, torch.zeros_like(x)))
case("LeakyReLU", {"alpha": 0.2}, [(3, 4)], lambda x: F.leaky_relu(x, 0.2))
case("ELU", {"alpha": 0.7}, [(3, 4)], lambda x: F.elu(x, 0.7), lo=-2, hi=2)
case("PReLU", {"alpha_initializer": {"class_name": "Zeros", "config": {}}, "shared_axes": [1, 2]}, [(2, 3, 3, 4)],
     lambda x, a: torch.relu(x) - a * torch.relu(-x), weights=[rand(1, 1, 4, lo=0.05, hi=0.5)])
case("PReLU", {"shared_axes": None}, [(2, 3, 4)],
     lambda x, a: torch.relu(x) - a * torch.relu(-x), weights=[rand(3, 4, lo=0.05, hi=0.5)])

# Normalization.
case("GroupNormalization", {"groups": 2, "axis": -1, "epsilon": 1e-3}, [(2, 3, 4)],
     lambda x, g, b: channels_last(F.group_norm(channels_first(x), 2, g, b, eps=1e-3)),
     weights=[rand(4, lo=0.5, hi=1.5), rand(4, lo=-0.5, hi=0.5)], lo=-2, hi=2)
case("GroupNormalization", {"groups": 3, "axis": -1, "epsilon": 1e-2}, [(2, 2, 2, 6)],
     lambda x, g, b: channels_last(F.group_norm(channels_first(x), 3, g, b, eps=1e-2)),
     weights=[rand(6, lo=0.5, hi=1.5), rand(6, lo=-0.5, hi=0.5)], lo=-2, hi=2)
case("GroupNormalization", {"groups": 2, "axis": 1, "epsilon": 1e-3, "center": False}, [(2, 4, 3)],
     lambda x, g: F.group_norm(x, 2, g, None, eps=1e-3), weights=[rand(4, lo=0.5, hi=1.5)], lo=-2, hi=2)
case("UnitNormalization", {"axis": -1}, [(3, 4)], lambda x: l2_normalize(x, -1))
case("UnitNormalization", {"axis": [1, 2]}, [(2, 3, 4)], lambda x: l2_normalize(x, (1, 2)))

# AlphaDropout with a fixed keep mask (SELU constants; a and b keep mean and variance).
alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
alpha_p = -alpha * scale
rate = 0.3
x = rand(4, 5).numpy()
keep = (np.random.RandomState(0).rand(4, 5) >= rate).astype(np.float64)
a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
b = -a * alpha_p * rate
alpha_dropout = {"rate": rate, "x": tensor(x), "keep": tensor(keep),
                 "y": tensor(a * (x * keep + alpha_p * (1 - keep)) + b)}

# Regularizers: penalty and gradient.
regularizers = []
for cls, cfg in [("L1", {"l1": 0.01}), ("L2", {"l2": 0.02}), ("L1L2", {"l1": 0.003, "l2": 0.05})]:
    x = rand(3, 4, lo=-2, hi=2).numpy()
    l1, l2 = cfg.get("l1", 0.0), cfg.get("l2", 0.0)
    regularizers.append({"regularizer": {"class_name": cls, "config": cfg}, "x": tensor(x),
                         "penalty": float(l1 * np.abs(x).sum() + l2 * (x * x).sum()),
                         "grad": tensor(l1 * np.sign(x) + 2 * l2 * x)})

# Constraints: the projected weights.
constraints = []


def norms(w, axis):
    return np.sqrt((w * w).sum(axis=axis, keepdims=True))


for cls, cfg, shape in [("MaxNorm", {"max_value": 2.0, "axis": 0}, (3, 4)),
                        ("MaxNorm", {"max_value": 1.0, "axis": [0, 1, 2]}, (2, 2, 3, 4)),
                        ("MinMaxNorm", {"min_value": 0.5, "max_value": 1.5, "rate": 0.7, "axis": 0}, (5, 4)),
                        ("UnitNorm", {"axis": 0}, (3, 4)),
                        ("UnitNorm", {"axis": 1}, (3, 4)),
                        ("NonNeg", {}, (3, 4))]:
    w = rand(*shape, lo=-2, hi=2).numpy()
    axis = tuple(cfg["axis"]) if isinstance(cfg.get("axis"), list) else cfg.get("axis")
    if cls == "MaxNorm":
        n = norms(w, axis)
        out = w * (np.clip(n, 0, cfg["max_value"]) / (1e-7 + n))
    elif cls == "MinMaxNorm":
        n = norms(w, axis)
        desired = cfg["rate"] * np.clip(n, cfg["min_value"], cfg["max_value"]) + (1 - cfg["rate"]) * n
        out = w * (desired / (1e-7 + n))
    elif cls == "UnitNorm":
        out = w / (1e-7 + norms(w, axis))
    else:
        out = w * (w >= 0)
    constraints.append({"constraint": {"class_name": cls, "config": cfg}, "w": tensor(w), "out": tensor(out)})

with open(os.path.join(OUT, "layer_catalogue.json"), "w") as f:
    json.dump({"layers": layers, "alpha_dropout": alpha_dropout, "regularizers": regularizers,
               "constraints": constraints}, f, separators=(",", ":"))
