#!/usr/bin/python3
"""Writes tests/golden/conv_nd.json: forward values and input/weight gradients, computed by PyTorch,
of the 1-, 2- and 3-D convolution layers (Conv1D/2D/3D with groups and causal padding,
Conv1D/2D/3DTranspose, DepthwiseConv1D/2D, SeparableConv1D/2D) and of 1-D and 3-D pooling, which
tests/layers/conv_nd_test.cpp and tests/layers/pooling_nd_test.cpp compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_conv_nd_golden.py

Each case holds the Keras class name and config, the input, the weights in Keras's order and layouts
(channels_last; Conv kernel [k..., in / groups, out]; transposed kernel [k..., out, in]; depthwise
kernel [k..., in, depth_multiplier]; pointwise kernel [1..., in * depth_multiplier, out]), the
output and the gradients of sum(y * w) for a fixed weighting w. PyTorch works channels-first with
kernels [out, in / groups, k...] and transposed kernels [in, out, k...]: the script permutes.
Keras's "same" padding puts the odd element at the end and "causal" pads only the start, which
PyTorch's symmetric `padding` cannot express: the script pads explicitly with F.pad. A transposed
convolution is computed without padding and then cropped as TensorFlow's conv_transpose does.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
MAX = {1: F.max_pool1d, 3: F.max_pool3d}
AVG = {1: F.avg_pool1d, 3: F.avg_pool3d}


def flat(t):
    return [round(float(v), 7) for v in t.detach().reshape(-1)]


def tensor(t):
    return {"shape": list(t.shape), "data": flat(t)}


def rand(*shape, lo=-1.0, hi=1.0):
    # Drawn in float32 (what the C++ side holds); the math runs in float64.
    return (torch.rand(*shape) * (hi - lo) + lo).double()


def keras_padding(size, k, stride, padding, dilation=1):
    """(before, after) along one axis, as Keras/TensorFlow compute them."""
    if padding == "causal":
        return (k - 1) * dilation, 0
    if padding == "valid":
        return 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def deconv_length(size, k, stride, padding, output_padding, dilation):
    k = (k - 1) * dilation + 1
    if output_padding is None:
        return size * stride if padding == "same" else size * stride + max(k - stride, 0)
    pad = k // 2 if padding == "same" else 0
    return (size - 1) * stride + k - 2 * pad + output_padding


def to_first(x, rank):  # [n, s..., c] -> [n, c, s...]
    return x.permute(0, rank + 1, *range(1, rank + 1))


def to_last(y, rank):
    return y.permute(0, *range(2, rank + 2), 1)


def torch_kernel(k, rank):  # [k..., a, b] -> [b, a, k...]
    return k.permute(rank + 1, rank, *range(rank))


def pad_spec(pads):  # [(before, after)] per axis -> F.pad's reversed flat list
    out = []
    for before, after in reversed(pads):
        out += [before, after]
    return out


def conv_forward(x, kernel, bias, rank, strides, padding, dilation, groups):
    pads = [keras_padding(x.shape[i + 1], kernel.shape[i], strides[i], padding, dilation[i]) for i in range(rank)]
    xt = F.pad(to_first(x, rank), pad_spec(pads))
    return to_last(CONV[rank](xt, torch_kernel(kernel, rank), bias, stride=strides, dilation=dilation,
                              groups=groups), rank)


def depthwise_as_grouped(k):  # [k..., in, m] -> [k..., 1, in * m]
    shape = list(k.shape)
    return k.reshape(shape[:-2] + [1, shape[-2] * shape[-1]])


def finish(case, x, weights, y):
    wgt = rand(*y.shape, lo=0.5, hi=1.5)
    (y * wgt).sum().backward()
    case.update({"x": tensor(x), "weights": [tensor(w) for w in weights], "w": tensor(wgt), "y": tensor(y),
                 "dx": tensor(x.grad), "dweights": [tensor(w.grad) for w in weights]})
    return case


def base_config(rank, kernel_size, strides, padding, dilation, activation, use_bias):
    return {"kernel_size": list(kernel_size), "strides": list(strides), "padding": padding,
            "data_format": "channels_last", "dilation_rate": list(dilation), "activation": activation,
            "use_bias": use_bias}


def act(y, activation):
    return {"linear": y, "relu": torch.relu(y), "tanh": torch.tanh(y), "softplus": F.softplus(y)}[activation]


def conv_case(name, x_shape, kernel_size, filters, strides=None, padding="valid", dilation=None, groups=1,
              use_bias=True, activation="linear"):
    rank = len(x_shape) - 2
    strides = strides or [1] * rank
    dilation = dilation or [1] * rank
    x = rand(*x_shape).requires_grad_()
    kernel = rand(*kernel_size, x_shape[-1] // groups, filters, lo=-0.5, hi=0.5).requires_grad_()
    bias = rand(filters, lo=-0.5, hi=0.5).requires_grad_() if use_bias else None
    y = act(conv_forward(x, kernel, bias, rank, strides, padding, dilation, groups), activation)
    config = dict(base_config(rank, kernel_size, strides, padding, dilation, activation, use_bias),
                  filters=filters, groups=groups)
    return finish({"name": name, "class_name": f"Conv{rank}D", "config": config}, x, [kernel] + ([bias] if use_bias else []), y)


def transpose_case(name, x_shape, kernel_size, filters, strides=None, padding="valid", output_padding=None,
                   dilation=None, use_bias=True, activation="linear"):
    rank = len(x_shape) - 2
    strides = strides or [1] * rank
    dilation = dilation or [1] * rank
    x = rand(*x_shape).requires_grad_()
    kernel = rand(*kernel_size, filters, x_shape[-1], lo=-0.5, hi=0.5).requires_grad_()
    bias = rand(filters, lo=-0.5, hi=0.5).requires_grad_() if use_bias else None
    full = CONV_T[rank](to_first(x, rank), torch_kernel(kernel, rank), None, stride=strides, dilation=dilation)
    pads = []
    for i in range(rank):
        op = None if output_padding is None else output_padding[i]
        out = deconv_length(x_shape[i + 1], kernel_size[i], strides[i], padding, op, dilation[i])
        covered = (x_shape[i + 1] - 1) * strides[i] + (kernel_size[i] - 1) * dilation[i] + 1
        before = max(covered - out, 0) // 2 if padding == "same" else 0
        pads.append((-before, out - (covered - before)))  # negative pads crop
    y = to_last(F.pad(full, pad_spec(pads)), rank)
    if use_bias:
        y = y + bias
    y = act(y, activation)
    config = dict(base_config(rank, kernel_size, strides, padding, dilation, activation, use_bias), filters=filters,
                  groups=1, output_padding=output_padding)
    return finish({"name": name, "class_name": f"Conv{rank}DTranspose", "config": config}, x,
                  [kernel] + ([bias] if use_bias else []), y)


def depthwise_case(name, x_shape, kernel_size, depth_multiplier, strides=None, padding="valid", dilation=None,
                   use_bias=True, activation="linear", pointwise_filters=None):
    rank = len(x_shape) - 2
    strides = strides or [1] * rank
    dilation = dilation or [1] * rank
    c = x_shape[-1]
    x = rand(*x_shape).requires_grad_()
    dk = rand(*kernel_size, c, depth_multiplier, lo=-0.5, hi=0.5).requires_grad_()
    out = pointwise_filters or c * depth_multiplier
    bias = rand(out, lo=-0.5, hi=0.5).requires_grad_() if use_bias else None
    config = dict(base_config(rank, kernel_size, strides, padding, dilation, activation, use_bias),
                  depth_multiplier=depth_multiplier)
    if pointwise_filters is None:
        y = conv_forward(x, depthwise_as_grouped(dk), bias, rank, strides, padding, dilation, c)
        weights, cls = [dk], f"DepthwiseConv{rank}D"
    else:
        pk = rand(*([1] * rank), c * depth_multiplier, pointwise_filters, lo=-0.5, hi=0.5).requires_grad_()
        z = conv_forward(x, depthwise_as_grouped(dk), None, rank, strides, padding, dilation, c)
        y = conv_forward(z, pk, bias, rank, [1] * rank, "valid", [1] * rank, 1)
        weights, cls = [dk, pk], f"SeparableConv{rank}D"
        config["filters"] = pointwise_filters
    y = act(y, activation)
    return finish({"name": name, "class_name": cls, "config": config}, x, weights + ([bias] if use_bias else []), y)


def pool_case(name, kind, x_shape, pool, strides, padding):
    rank = len(x_shape) - 2
    x = rand(*x_shape).requires_grad_()
    pads = pad_spec([keras_padding(x_shape[i + 1], pool[i], strides[i], padding) for i in range(rank)])
    xt = to_first(x, rank)
    if kind == "max":
        y = MAX[rank](F.pad(xt, pads, value=float("-inf")), pool, strides)
    else:
        total = AVG[rank](F.pad(xt, pads), pool, strides)
        count = AVG[rank](F.pad(torch.ones_like(xt), pads), pool, strides)
        y = total / count
    y = to_last(y, rank)
    cls = ("MaxPooling" if kind == "max" else "AveragePooling") + f"{rank}D"
    config = {"pool_size": list(pool), "strides": list(strides), "padding": padding, "data_format": "channels_last"}
    return finish({"name": name, "class_name": cls, "config": config}, x, [], y)


conv = [
    conv_case("conv1d_valid", (2, 7, 3), [3], 4),
    conv_case("conv1d_same_stride2", (2, 8, 3), [4], 2, strides=[2], padding="same"),
    conv_case("conv1d_causal_dilation2", (2, 7, 2), [3], 3, padding="causal", dilation=[2]),
    conv_case("conv1d_causal_stride2_relu", (1, 9, 2), [2], 3, strides=[2], padding="causal", activation="relu"),
    conv_case("conv1d_groups2_nobias", (2, 6, 4), [3], 6, groups=2, use_bias=False, padding="same"),
    conv_case("conv2d_groups3_tanh", (1, 5, 6, 6), [3, 2], 3, groups=3, padding="same", activation="tanh"),
    conv_case("conv3d_valid", (2, 4, 5, 4, 2), [2, 3, 2], 3),
    conv_case("conv3d_same_stride_softplus", (1, 5, 4, 5, 2), [3, 2, 3], 2, strides=[2, 1, 2], padding="same",
              activation="softplus"),
    conv_case("conv3d_dilation_groups2", (1, 5, 5, 5, 4), [2, 2, 2], 4, dilation=[2, 1, 2], groups=2),
    transpose_case("conv1d_transpose_valid", (2, 5, 3), [3], 2),
    transpose_case("conv1d_transpose_same_stride2", (2, 5, 3), [3], 2, strides=[2], padding="same"),
    transpose_case("conv1d_transpose_valid_k_lt_stride", (1, 4, 2), [2], 3, strides=[3]),
    transpose_case("conv1d_transpose_output_padding", (1, 4, 2), [3], 2, strides=[3], padding="same",
                   output_padding=[2]),
    transpose_case("conv2d_transpose_valid_stride2", (2, 3, 4, 3), [3, 3], 2, strides=[2, 2]),
    transpose_case("conv2d_transpose_same_stride2_relu", (1, 4, 3, 2), [4, 3], 3, strides=[2, 2], padding="same",
                   activation="relu"),
    transpose_case("conv2d_transpose_output_padding", (1, 3, 3, 2), [3, 3], 2, strides=[2, 2], padding="valid",
                   output_padding=[1, 0]),
    transpose_case("conv2d_transpose_dilation_nobias", (1, 4, 4, 2), [3, 2], 2, padding="same", dilation=[2, 2],
                   use_bias=False),
    transpose_case("conv3d_transpose_same_stride2", (1, 3, 2, 3, 2), [3, 2, 2], 2, strides=[2, 2, 1], padding="same"),
    transpose_case("conv3d_transpose_valid", (2, 2, 3, 2, 2), [2, 2, 3], 3),
    depthwise_case("depthwise1d_dm2", (2, 7, 3), [3], 2),
    depthwise_case("depthwise1d_causal", (1, 6, 2), [3], 1, padding="causal", activation="relu"),
    depthwise_case("depthwise2d_same_stride2", (2, 6, 5, 3), [3, 3], 2, strides=[2, 2], padding="same"),
    depthwise_case("depthwise2d_dilation_nobias", (1, 7, 6, 2), [2, 3], 3, dilation=[2, 1], use_bias=False),
    depthwise_case("separable1d_same", (2, 7, 3), [3], 2, padding="same", pointwise_filters=4),
    depthwise_case("separable2d_valid_relu", (2, 6, 5, 3), [3, 2], 1, pointwise_filters=5, activation="relu"),
    depthwise_case("separable2d_stride2_nobias", (1, 7, 6, 2), [3, 3], 2, strides=[2, 2], padding="same",
                   use_bias=False, pointwise_filters=3),
]
pool = []
for kind in ("max", "avg"):
    pool += [
        pool_case(kind + "1d_valid_2", kind, (2, 7, 3), [2], [2], "valid"),
        pool_case(kind + "1d_same_3_s2", kind, (2, 8, 2), [3], [2], "same"),
        pool_case(kind + "1d_same_2_s1", kind, (1, 5, 2), [2], [1], "same"),
        pool_case(kind + "3d_valid_2", kind, (2, 4, 5, 4, 2), [2, 2, 2], [2, 2, 2], "valid"),
        pool_case(kind + "3d_same_3_s2", kind, (1, 5, 4, 5, 2), [3, 2, 3], [2, 2, 2], "same"),
    ]

with open(os.path.join(OUT, "conv_nd.json"), "w") as f:
    json.dump({"generator": "tests/golden/make_conv_nd_golden.py", "torch": torch.__version__, "conv": conv,
               "pool": pool}, f, separators=(",", ":"))
print(f"wrote {len(conv)} convolution and {len(pool)} pooling cases")
