#!/usr/bin/python3
"""Writes tests/golden/conv_lstm.json: outputs and final states of ConvLSTM1D, ConvLSTM2D and ConvLSTM3D,
computed in float64 with NumPy (a direct convolution: a sum over kernel offsets) from the formulas
tf.keras 2.x documents, which tests/layers/recurrent/conv_lstm_test.cpp compares against (gradients there
are checked by finite differences).

Run with Debian's Python and NumPy:  /usr/bin/python3 tests/golden/make_conv_lstm_golden.py

Each case holds the layer as Keras serializes it ({"class_name", "config"}), the input
[batch, time, spatial..., channels], the weights in Keras's order and layouts (kernel [k..., in, 4 filters],
recurrent_kernel [k..., filters, 4 filters], bias [4 filters]), the output y and the final h and c ("extra").

Keras semantics reproduced here (tf.keras 2.x ConvLSTMCell): gates i, f, c, o along the last axis of
z = conv(x_t, kernel; strides, padding, dilation) + bias + conv(h, recurrent_kernel; stride 1, "same");
c' = f * c + i * tanh(g), h' = o * tanh(c'), recurrent_activation hard_sigmoid = clip(0.2 x + 0.5, 0, 1);
"same" padding puts the odd element at the end; go_backwards runs the steps last to first (the
sequence output then is in that order, as Keras returns it).
"""
import itertools
import json
import os

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(18)


def tensor(t):
    t = np.asarray(t)
    return {"dtype": "float32", "shape": list(t.shape), "data": [float("%.9g" % v) for v in t.reshape(-1)]}


def rand(*shape, lo=-1.0, hi=1.0):
    # Drawn in float32 (what the C++ side holds); the math runs in float64.
    return rng.uniform(lo, hi, size=shape).astype(np.float32).astype(np.float64)


def hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0.0, 1.0)


def conv_channels_last(x, kernel, strides, padding, dilation):
    # x [n, spatial..., c], kernel [k..., in, out]: out[p] = sum over offsets q of x[p * s + q * d] . kernel[q].
    rank = x.ndim - 2
    size = x.shape[1:-1]
    if padding == "same":
        outs = [-(-n // s) for n, s in zip(size, strides)]
        pads = []
        for a in range(rank):
            total = max((outs[a] - 1) * strides[a] + (kernel.shape[a] - 1) * dilation[a] + 1 - size[a], 0)
            pads.append((total // 2, total - total // 2))  # the odd element at the end, as Keras
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    else:
        outs = [(n - (k - 1) * d - 1) // s + 1 for n, k, d, s in zip(size, kernel.shape[:rank], dilation, strides)]
    y = np.zeros((x.shape[0], *outs, kernel.shape[-1]))
    for q in itertools.product(*(range(k) for k in kernel.shape[:rank])):
        window = tuple(slice(q[a] * dilation[a], q[a] * dilation[a] + (outs[a] - 1) * strides[a] + 1, strides[a])
                       for a in range(rank))
        y += np.einsum("...c,co->...o", x[(slice(None),) + window], kernel[q])
    return y


def conv_lstm(x, kernel, rkernel, bias, filters, strides, padding, dilation, go_backwards, return_sequences):
    rank = x.ndim - 3
    steps = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    ones = (1,) * rank
    h = c = None
    outs = []
    for step in steps:
        z = conv_channels_last(x[:, step], kernel, strides, padding, dilation)
        if bias is not None:
            z = z + bias
        if h is None:
            h = np.zeros((*z.shape[:-1], filters))
            c = np.zeros_like(h)
        z = z + conv_channels_last(h, rkernel, ones, "same", ones)
        i, f, g, o = (z[..., n * filters:(n + 1) * filters] for n in range(4))
        c = hard_sigmoid(f) * c + hard_sigmoid(i) * np.tanh(g)
        h = hard_sigmoid(o) * np.tanh(c)
        outs.append(h)
    y = np.stack(outs, axis=1) if return_sequences else h
    return y, h, c


cases = []


def case(rank, filters, ksize, in_shape, strides=None, padding="valid", dilation=None, go_backwards=False,
         return_sequences=False, use_bias=True):
    strides = strides or (1,) * rank
    dilation = dilation or (1,) * rank
    cin = in_shape[-1]
    s = 0.4
    weights = [rand(*ksize, cin, 4 * filters, lo=-s, hi=s), rand(*ksize, filters, 4 * filters, lo=-s, hi=s)]
    if use_bias:
        weights.append(rand(4 * filters, lo=-s, hi=s))
    class_name = "ConvLSTM%dD" % rank
    config = {"name": "conv_lstm%dd" % rank, "trainable": True, "dtype": "float32",
              "return_sequences": return_sequences, "return_state": True, "go_backwards": go_backwards,
              "stateful": False, "unroll": False, "time_major": False, "filters": filters,
              "kernel_size": list(ksize), "strides": list(strides), "padding": padding,
              "data_format": "channels_last", "dilation_rate": list(dilation), "activation": "tanh",
              "recurrent_activation": "hard_sigmoid", "use_bias": use_bias,
              "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
              "recurrent_initializer": {"class_name": "Orthogonal", "config": {"gain": 1.0, "seed": None}},
              "bias_initializer": {"class_name": "Zeros", "config": {}}, "unit_forget_bias": True,
              "kernel_regularizer": None, "recurrent_regularizer": None, "bias_regularizer": None,
              "activity_regularizer": None, "kernel_constraint": None, "recurrent_constraint": None,
              "bias_constraint": None, "dropout": 0.0, "recurrent_dropout": 0.0}
    x = rand(*in_shape)
    y, h, c = conv_lstm(x, weights[0], weights[1], weights[2] if use_bias else None, filters, strides, padding,
                        dilation, go_backwards, return_sequences)
    cases.append({"layer": {"class_name": class_name, "config": config}, "inputs": [tensor(x)],
                  "weights": [tensor(v) for v in weights], "y": tensor(y), "extra": [tensor(h), tensor(c)]})


case(1, 3, (3,), (2, 4, 7, 2), padding="same", return_sequences=True)
case(1, 2, (2,), (2, 3, 9, 3), strides=(2,), go_backwards=True)
case(1, 2, (3,), (1, 3, 8, 1), dilation=(2,), use_bias=False, return_sequences=True, go_backwards=True)
case(2, 2, (3, 2), (2, 3, 5, 4, 2), padding="same", strides=(2, 1))
case(3, 2, (3, 3, 3), (2, 3, 4, 5, 4, 2), padding="same", return_sequences=True)
case(3, 1, (2, 2, 2), (1, 2, 5, 4, 4, 1), strides=(2, 1, 2), go_backwards=True)
case(3, 2, (2, 3, 2), (1, 2, 5, 6, 5, 2), dilation=(2, 1, 2), use_bias=False)

path = os.path.join(OUT, "conv_lstm.json")
with open(path, "w") as f:
    json.dump({"conv_lstm": cases}, f, separators=(",", ":"))
print("wrote", path, os.path.getsize(path), "bytes")
