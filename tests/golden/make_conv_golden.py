#!/usr/bin/python3
"""Writes tests/golden/conv.json: Conv2D and 2-D pooling forward values and gradients computed by
PyTorch, which tests/layers/conv2d_test.cpp and tests/layers/pooling_test.cpp compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_conv_golden.py

Tensors are stored in Keras's layouts: images NHWC, conv kernels [kh, kw, in, out]. PyTorch works
in NCHW / OIHW, so the script permutes. Keras's "same" padding puts the odd pixel at the bottom and
right, which PyTorch's symmetric `padding` cannot express: the script pads explicitly with F.pad.
Keras's "same" average pooling excludes the padding from each window's count; max pooling never
picks the padding. Gradients are those of sum(y * w) for a fixed weighting w.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def flat(t):
    return [float(v) for v in t.detach().reshape(-1)]


def keras_padding(size, k, stride, padding, dilation=1):
    """(before, after) along one axis, as Keras/TensorFlow compute them."""
    if padding == "valid":
        return 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def rand(*shape, lo=-1.0, hi=1.0):
    # Drawn in float32 (what the C++ side holds); the math runs in float64.
    return (torch.rand(*shape) * (hi - lo) + lo).double()


def conv_case(name, x_shape, k_shape, strides=(1, 1), padding="valid", dilation=(1, 1), use_bias=True,
              activation="linear"):
    n, h, w, c = x_shape
    kh, kw, _, oc = k_shape
    x = rand(*x_shape).requires_grad_()
    kernel = rand(*k_shape, lo=-0.5, hi=0.5).requires_grad_()
    bias = rand(oc, lo=-0.5, hi=0.5).requires_grad_() if use_bias else None
    ph = keras_padding(h, kh, strides[0], padding, dilation[0])
    pw = keras_padding(w, kw, strides[1], padding, dilation[1])
    xt = F.pad(x.permute(0, 3, 1, 2), (pw[0], pw[1], ph[0], ph[1]))
    y = F.conv2d(xt, kernel.permute(3, 2, 0, 1), bias, stride=strides, dilation=dilation).permute(0, 2, 3, 1)
    if activation == "relu":
        y = torch.relu(y)
    wgt = rand(*y.shape, lo=0.5, hi=1.5)
    (y * wgt).sum().backward()
    return {
        "name": name, "strides": list(strides), "padding": padding, "dilation_rate": list(dilation),
        "activation": activation,
        "x": flat(x), "x_shape": list(x_shape), "kernel": flat(kernel), "kernel_shape": list(k_shape),
        "bias": flat(bias) if use_bias else None, "w": flat(wgt),
        "y": flat(y), "y_shape": list(y.shape),
        "dx": flat(x.grad), "dkernel": flat(kernel.grad), "dbias": flat(bias.grad) if use_bias else None,
    }


def pool_case(name, kind, x_shape, pool, strides, padding):
    n, h, w, c = x_shape
    x = rand(*x_shape).requires_grad_()
    ph = keras_padding(h, pool[0], strides[0], padding)
    pw = keras_padding(w, pool[1], strides[1], padding)
    pad = (pw[0], pw[1], ph[0], ph[1])
    xt = x.permute(0, 3, 1, 2)
    if kind == "max":
        y = F.max_pool2d(F.pad(xt, pad, value=float("-inf")), pool, strides)
    else:
        total = F.avg_pool2d(F.pad(xt, pad), pool, strides)
        count = F.avg_pool2d(F.pad(torch.ones_like(xt), pad), pool, strides)
        y = total / count
    y = y.permute(0, 2, 3, 1)
    wgt = rand(*y.shape, lo=0.5, hi=1.5)
    (y * wgt).sum().backward()
    return {
        "name": name, "kind": kind, "pool_size": list(pool), "strides": list(strides), "padding": padding,
        "x": flat(x), "x_shape": list(x_shape), "w": flat(wgt), "y": flat(y), "y_shape": list(y.shape),
        "dx": flat(x.grad),
    }


conv = [
    conv_case("valid", (2, 5, 6, 3), (3, 3, 3, 4)),
    conv_case("same_even_kernel", (2, 5, 6, 3), (2, 4, 3, 4), padding="same"),
    conv_case("same_stride2_odd", (1, 7, 6, 2), (3, 3, 2, 3), strides=(2, 2), padding="same"),
    conv_case("valid_stride2", (2, 7, 8, 3), (3, 2, 3, 2), strides=(2, 2)),
    conv_case("valid_dilation2", (1, 7, 8, 2), (3, 3, 2, 3), dilation=(2, 2)),
    conv_case("same_dilation_2_3", (1, 6, 7, 2), (2, 2, 2, 3), padding="same", dilation=(2, 3)),
    conv_case("no_bias_relu", (2, 6, 5, 3), (3, 3, 3, 4), padding="same", use_bias=False, activation="relu"),
    conv_case("pointwise_stride_1_2", (1, 5, 7, 4), (1, 1, 4, 3), strides=(1, 2)),
]
pool = []
for kind in ("max", "avg"):
    pool += [
        pool_case(kind + "_valid_2x2", kind, (2, 6, 7, 3), (2, 2), (2, 2), "valid"),
        pool_case(kind + "_same_3x3_s2", kind, (1, 7, 6, 2), (3, 3), (2, 2), "same"),
        pool_case(kind + "_same_2x2_s1", kind, (1, 5, 5, 2), (2, 2), (1, 1), "same"),
        pool_case(kind + "_valid_3x2_s12", kind, (2, 5, 6, 2), (3, 2), (1, 2), "valid"),
        pool_case(kind + "_same_2x2_s2_odd", kind, (1, 5, 7, 3), (2, 2), (2, 2), "same"),
    ]



def winograd_case(name, x_shape, k_shape, **options):
    """A case for our Winograd kernels (keras/kernels/winograd.cpp: 3 x 3, unit stride; tests/layers/
    conv2d_test.cpp calls them directly on it), whose 5 x 5 and 3 x 3 outputs leave 4 x 4 blocks overhanging
    the edge. The inputs are multiples of 1/64 (exact in float32) and the results rounded to 9 significant
    digits, to keep the file small."""
    global rand
    plain = rand
    rand = lambda *shape, lo=-1.0, hi=1.0: (plain(*shape, lo=lo, hi=hi) * 64).round() / 64
    try:
        case = conv_case(name, x_shape, k_shape, **options)
    finally:
        rand = plain
    for key in ("y", "dx", "dkernel", "dbias"):
        if case[key] is not None:
            case[key] = [float(f"{v:.9g}") for v in case[key]]
    return case


conv += [
    winograd_case("winograd_same", (8, 5, 5, 32), (3, 3, 32, 32), padding="same"),
    winograd_case("winograd_valid_relu", (4, 5, 5, 32), (3, 3, 32, 32), use_bias=False, activation="relu"),
    # channels that are no multiple of a vector's 8 or 16 floats, in and out
    winograd_case("winograd_same_odd_channels", (2, 6, 6, 20), (3, 3, 20, 24), padding="same"),
]

with open(os.path.join(OUT, "conv.json"), "w") as f:
    json.dump({"generator": "tests/golden/make_conv_golden.py", "torch": torch.__version__, "conv": conv,
               "pool": pool}, f)
print(f"wrote {len(conv)} convolution and {len(pool)} pooling cases")
