#!/usr/bin/python3
"""A weights file in the layout of Keras's published application files (tf.keras save_weights HDF5: root attributes
layer_names, backend, keras_version; one group per layer, weightless layers included, with weight_names such as
"conv_dw_1/depthwise_kernel:0" and the datasets under those paths), written with h5py for
MobileNet(alpha=0.125, include_top=False, input_shape=(32, 32, 3), pooling="avg") with random weights, and the
model's output on two images computed independently with PyTorch (TensorFlow's "same" padding, explicit
ZeroPadding2D, batch norm in inference with epsilon 1e-3, ReLU6, global average pooling).

    /usr/bin/python3 tests/golden/make_applications_weights_golden.py

writes tests/golden/applications_mobilenet_0.125_no_top.h5 and applications_mobilenet.json.
"""
import json
import os

import h5py
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2024)
ALPHA = 0.125

# The layers of Keras's MobileNet without top, in model.layers order (tests/golden/applications.json, from Keras's
# source), with the weightless ones.
names = [n for n, _ in json.load(open(os.path.join(HERE, "applications.json")))["models"]["MobileNet"]["notop"]["layers"]]
names[0] = "input_1"
names.append("global_average_pooling2d")

weights = {}  # layer -> [(weight name, array)]


def conv(name, shape):
    weights[name] = [("kernel", (rng.standard_normal(shape) * np.sqrt(2.0 / np.prod(shape[:3]))).astype(np.float32))]


def depthwise(name, shape):
    weights[name] = [("depthwise_kernel", (rng.standard_normal(shape) * 0.4).astype(np.float32))]


def bn(name, c):
    weights[name] = [("gamma", rng.uniform(0.5, 1.5, c).astype(np.float32)),
                     ("beta", rng.uniform(-0.2, 0.2, c).astype(np.float32)),
                     ("moving_mean", rng.uniform(-0.3, 0.3, c).astype(np.float32)),
                     ("moving_variance", rng.uniform(0.5, 2.0, c).astype(np.float32))]


filters = [int(f * ALPHA) for f in [64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024]]
strides = [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]
c = int(32 * ALPHA)
conv("conv1", (3, 3, 3, c))
bn("conv1_bn", c)
for i, (f, s) in enumerate(zip(filters, strides), start=1):
    depthwise(f"conv_dw_{i}", (3, 3, c, 1))
    bn(f"conv_dw_{i}_bn", c)
    conv(f"conv_pw_{i}", (1, 1, c, f))
    bn(f"conv_pw_{i}_bn", f)
    c = f

path = os.path.join(HERE, "applications_mobilenet_0.125_no_top.h5")
with h5py.File(path, "w") as h5:
    h5.attrs["layer_names"] = np.array([n.encode() for n in names])
    h5.attrs["backend"] = b"tensorflow"
    h5.attrs["keras_version"] = b"2.1.5"
    for n in names:
        g = h5.create_group(n)
        ws = weights.get(n, [])
        g.attrs["weight_names"] = np.array([f"{n}/{w}:0".encode() for w, _ in ws], dtype="S")
        for w, a in ws:
            g.create_dataset(f"{n}/{w}:0", data=a)


# ---- the forward pass, NCHW in PyTorch --------------------------------------------------------------------------
def t(a):
    return torch.from_numpy(a)


def same_pad(x, k, s):
    # TensorFlow's "same": total padding max((out - 1) * s + k - in, 0), the larger half after
    h = x.shape[2]
    out = -(-h // s)
    total = max((out - 1) * s + k - h, 0)
    return F.pad(x, (total // 2, total - total // 2, total // 2, total - total // 2))


def batch_norm(x, name):
    g, b, m, v = (t(a) for _, a in weights[name])
    return F.batch_norm(x, m, v, g, b, training=False, eps=1e-3)


def relu6(x):
    return torch.clamp(x, 0.0, 6.0)


x_np = rng.uniform(-1, 1, (2, 32, 32, 3)).astype(np.float32)
with torch.no_grad():
    x = t(x_np).permute(0, 3, 1, 2)
    k = t(weights["conv1"][0][1]).permute(3, 2, 0, 1)
    x = relu6(batch_norm(F.conv2d(same_pad(x, 3, 2), k, stride=2), "conv1_bn"))
    for i, s in enumerate(strides, start=1):
        dk = t(weights[f"conv_dw_{i}"][0][1])  # (3, 3, c, 1)
        c = dk.shape[2]
        dk = dk.permute(2, 3, 0, 1)  # (c, 1, 3, 3)
        x = same_pad(x, 3, 1) if s == 1 else F.pad(x, (0, 1, 0, 1))  # ZeroPadding2D(((0, 1), (0, 1)))
        x = relu6(batch_norm(F.conv2d(x, dk, stride=s, groups=c), f"conv_dw_{i}_bn"))
        pk = t(weights[f"conv_pw_{i}"][0][1]).permute(3, 2, 0, 1)
        x = relu6(batch_norm(F.conv2d(x, pk), f"conv_pw_{i}_bn"))
    y = x.mean(dim=(2, 3))

with open(os.path.join(HERE, "applications_mobilenet.json"), "w") as f:
    json.dump({"input": {"dtype": "float32", "shape": list(x_np.shape), "data": x_np.ravel().tolist()},
               "output": {"dtype": "float32", "shape": list(y.shape), "data": y.numpy().ravel().tolist()}}, f)
print(path, os.path.getsize(path), "bytes; output", tuple(y.shape))
