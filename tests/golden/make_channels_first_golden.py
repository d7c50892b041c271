"""Writes tests/golden/channels_first.json: spatial layers configured data_format="channels_first", as Keras
configs hold them, with their outputs computed by PyTorch, which is channels_first natively.
Weights are in Keras's layouts (kernel (k..., in, out); transposed (k..., out, in); depthwise
(k..., in, multiplier)) and converted here to PyTorch's. Run: /usr/bin/python3 tests/golden/make_channels_first_golden.py
"""
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(18)


def t(a):
    a = np.asarray(a, dtype=np.float32)
    return {"dtype": "float32", "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


cases = []


def case(name, class_name, config, x, weights, y):
    config = dict(config, name=name, data_format="channels_first")
    cases.append({"name": name, "layer": {"class_name": class_name, "config": config},
                  "input": t(x), "weights": [t(w) for w in weights], "output": t(y)})


def torch_conv(x, k_keras, b, stride, padding, dilation=1):
    nd = x.ndim - 2
    w = torch.from_numpy(np.transpose(k_keras, [nd + 1, nd] + list(range(nd))).copy())
    fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[nd]
    return fn(torch.from_numpy(x), w, torch.from_numpy(b), stride=stride, padding=padding, dilation=dilation).numpy()


# Convolutions.
x = rand(2, 3, 7)
k, b = rand(3, 3, 4), rand(4)
case("conv1d", "Conv1D", {"filters": 4, "kernel_size": 3, "strides": 2, "padding": "valid"}, x, [k, b],
     torch_conv(x, k, b, 2, 0))
x = rand(2, 3, 5, 6)
k, b = rand(3, 3, 3, 4), rand(4)
case("conv2d_same", "Conv2D", {"filters": 4, "kernel_size": [3, 3], "padding": "same", "activation": "relu"}, x, [k, b],
     np.maximum(torch_conv(x, k, b, 1, 1), 0))
x = rand(1, 2, 4, 5, 3)
k, b = rand(2, 2, 2, 2, 3), rand(3)
case("conv3d", "Conv3D", {"filters": 3, "kernel_size": 2}, x, [k, b], torch_conv(x, k, b, 1, 0))

x = rand(2, 3, 4, 5)
k, b = rand(3, 3, 2, 3), rand(2)  # Keras: (kh, kw, out, in)
w = torch.from_numpy(np.transpose(k, [3, 2, 0, 1]).copy())  # PyTorch: (in, out, kh, kw)
case("conv2d_transpose", "Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "valid"}, x,
     [k, b], F.conv_transpose2d(torch.from_numpy(x), w, torch.from_numpy(b), stride=2).numpy())

x = rand(2, 3, 5, 5)
dk, db = rand(3, 3, 3, 2), rand(6)  # (kh, kw, in, multiplier)
dw = torch.from_numpy(np.transpose(dk.reshape(3, 3, 6), [2, 0, 1])[:, None].copy())  # channel c*2+m
depthwise = F.conv2d(torch.from_numpy(x), dw, torch.from_numpy(db), groups=3).numpy()
case("depthwise_conv2d", "DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 2}, x, [dk, db], depthwise)
pk, pb = rand(1, 1, 6, 4), rand(4)
sep = F.conv2d(torch.from_numpy(depthwise - db[None, :, None, None]), torch.from_numpy(np.transpose(pk, [3, 2, 0, 1]).copy()),
               torch.from_numpy(pb)).numpy()
case("separable_conv2d", "SeparableConv2D", {"filters": 4, "kernel_size": 3, "depth_multiplier": 2}, x, [dk, pk, pb], sep)

# Pooling.
x = rand(2, 3, 6, 7)
case("max_pooling2d", "MaxPooling2D", {"pool_size": [2, 2], "padding": "valid"}, x, [],
     F.max_pool2d(torch.from_numpy(x), 2).numpy())
case("average_pooling2d", "AveragePooling2D", {"pool_size": [3, 2], "strides": [1, 2]}, x, [],
     F.avg_pool2d(torch.from_numpy(x), (3, 2), stride=(1, 2)).numpy())
x1 = rand(2, 4, 9)
case("max_pooling1d", "MaxPooling1D", {"pool_size": 3}, x1, [], F.max_pool1d(torch.from_numpy(x1), 3).numpy())
x3 = rand(1, 2, 4, 4, 6)
case("average_pooling3d", "AveragePooling3D", {"pool_size": [2, 2, 2]}, x3, [],
     F.avg_pool3d(torch.from_numpy(x3), 2).numpy())
case("global_average_pooling2d", "GlobalAveragePooling2D", {}, x, [], x.mean(axis=(2, 3)))
case("global_max_pooling2d_keepdims", "GlobalMaxPooling2D", {"keepdims": True}, x, [], x.max(axis=(2, 3), keepdims=True))
case("global_average_pooling1d", "GlobalAveragePooling1D", {}, x1, [], x1.mean(axis=2))

# Reshaping and upsampling.
case("flatten", "Flatten", {}, x, [], np.transpose(x, [0, 2, 3, 1]).reshape(2, -1))  # Keras moves channels last first
case("zero_padding2d", "ZeroPadding2D", {"padding": [[1, 2], [0, 1]]}, x, [],
     F.pad(torch.from_numpy(x), (0, 1, 1, 2)).numpy())
case("cropping2d", "Cropping2D", {"cropping": [[1, 0], [1, 2]]}, x, [], x[:, :, 1:, 1:-2])
case("zero_padding3d", "ZeroPadding3D", {"padding": [1, 0, 2]}, x3, [],
     F.pad(torch.from_numpy(x3), (2, 2, 0, 0, 1, 1)).numpy())
case("up_sampling2d", "UpSampling2D", {"size": [2, 3], "interpolation": "nearest"}, x, [],
     x.repeat(2, axis=2).repeat(3, axis=3))
case("up_sampling3d", "UpSampling3D", {"size": [1, 2, 2]}, x3, [], x3.repeat(2, axis=3).repeat(2, axis=4))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "channels_first.json")
with open(out, "w") as f:
    json.dump({"cases": cases}, f)
print(out, len(cases), "cases")
