#!/usr/bin/env python3
"""An independent reader of Keras HDF5 model files: h5py and NumPy only, knowing nothing of kerascpp.

It reads `model_config` and `model_weights` as Keras lays them out and runs the model's forward pass in
NumPy, so that a file kerascpp wrote can be checked against what Keras's format says it holds.

  read_keras_h5.py MODEL.h5 --predict IN.npy OUT.npy      predictions of the model for IN.npy
  read_keras_h5.py MODEL.h5 --fashion-mnist [DIR]         accuracy on the Fashion-MNIST test images
                                                          (pixels / 255, reshaped to the input shape)

Layers: InputLayer, Dense, Conv2D, MaxPooling2D, AveragePooling2D, GlobalAveragePooling2D,
GlobalMaxPooling2D, Flatten, Reshape, Dropout, BatchNormalization, Activation, ReLU, Softmax; Sequential
and single-input, single-output functional models. Run with /usr/bin/python3 (Debian's python3-h5py and
python3-numpy).
"""
import argparse
import gzip
import json
import os
import sys

import h5py
import numpy as np


def attr_str(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def activation(name, x):
    if name in (None, "linear"):
        return x
    if name == "relu":
        return np.maximum(x, 0)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "tanh":
        return np.tanh(x)
    if name == "softmax":
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    raise SystemExit(f"read_keras_h5: activation {name!r} is not supported")


def layer_weights(f, name):
    """The layer's arrays in the order of its weight_names attribute."""
    group = f["model_weights"][name]
    names = [attr_str(n) for n in group.attrs.get("weight_names", [])]
    return [np.asarray(group[n]) for n in names]


def same_padding(size, k, s):
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def windows(x, kh, kw, sh, sw, padding, pad_value=0.0):
    """[n, oh, ow, kh, kw, c] views of x [n, h, w, c] with Keras's valid/same padding."""
    if padding == "same":
        (t, b), (l, r) = same_padding(x.shape[1], kh, sh), same_padding(x.shape[2], kw, sw)
        x = np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=pad_value)
    n, h, w, c = x.shape
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    st = x.strides
    return np.lib.stride_tricks.as_strided(x, (n, oh, ow, kh, kw, c), (st[0], st[1] * sh, st[2] * sw, st[1], st[2], st[3]))


def apply(layer, weights, x):
    kind, cfg = layer["class_name"], layer["config"]
    if kind in ("InputLayer", "Dropout"):
        return x
    if kind == "Dense":
        y = x @ weights[0] + (weights[1] if cfg.get("use_bias", True) else 0)
        return activation(cfg.get("activation"), y)
    if kind == "Conv2D":
        if tuple(cfg.get("dilation_rate", (1, 1))) != (1, 1) or cfg.get("groups", 1) != 1:
            raise SystemExit("read_keras_h5: Conv2D with dilation or groups is not supported")
        kernel = weights[0]
        kh, kw = kernel.shape[:2]
        sh, sw = cfg.get("strides", (1, 1))
        win = windows(x, kh, kw, sh, sw, cfg.get("padding", "valid"))
        y = np.tensordot(win, kernel, axes=([3, 4, 5], [0, 1, 2]))
        if cfg.get("use_bias", True):
            y = y + weights[1]
        return activation(cfg.get("activation"), y)
    if kind in ("MaxPooling2D", "AveragePooling2D"):
        ph, pw = cfg.get("pool_size", (2, 2))
        sh, sw = cfg.get("strides") or (ph, pw)
        if kind == "MaxPooling2D":
            return windows(x, ph, pw, sh, sw, cfg.get("padding", "valid"), -np.inf).max(axis=(3, 4))
        ones = windows(np.ones_like(x[:1]), ph, pw, sh, sw, cfg.get("padding", "valid")).sum(axis=(3, 4))
        return windows(x, ph, pw, sh, sw, cfg.get("padding", "valid")).sum(axis=(3, 4)) / ones
    if kind == "GlobalAveragePooling2D":
        return x.mean(axis=(1, 2))
    if kind == "GlobalMaxPooling2D":
        return x.max(axis=(1, 2))
    if kind == "Flatten":
        return x.reshape(x.shape[0], -1)
    if kind == "Reshape":
        return x.reshape((x.shape[0],) + tuple(cfg["target_shape"]))
    if kind == "BatchNormalization":
        arrays = list(weights)
        gamma = arrays.pop(0) if cfg.get("scale", True) else 1.0
        beta = arrays.pop(0) if cfg.get("center", True) else 0.0
        mean, var = arrays
        return (x - mean) / np.sqrt(var + cfg.get("epsilon", 1e-3)) * gamma + beta
    if kind == "Activation":
        return activation(cfg["activation"], x)
    if kind == "ReLU":
        return np.maximum(x, 0)
    if kind == "Softmax":
        return activation("softmax", x)
    raise SystemExit(f"read_keras_h5: layer class {kind!r} is not supported")


def load(path):
    f = h5py.File(path, "r")
    config = json.loads(attr_str(f.attrs["model_config"]))
    layers = config["config"]["layers"] if isinstance(config["config"], dict) else config["config"]
    if config["class_name"] not in ("Sequential", "Functional", "Model"):
        raise SystemExit(f"read_keras_h5: model class {config['class_name']!r} is not supported")
    stored = [attr_str(n) for n in f["model_weights"].attrs["layer_names"]]
    steps = []
    for layer in layers:
        name = layer["config"]["name"]
        steps.append((layer, layer_weights(f, name) if name in stored else []))
    input_shape = None
    first = layers[0]["config"]
    for key in ("batch_input_shape", "batch_shape"):
        if key in first:
            input_shape = first[key][1:]
    return steps, input_shape


def predict(steps, x, batch=500):
    outs = []
    for i in range(0, len(x), batch):
        y = x[i:i + batch].astype(np.float32)
        for layer, weights in steps:
            y = apply(layer, weights, y)
        outs.append(y)
    return np.concatenate(outs)


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--predict", nargs=2, metavar=("IN", "OUT"))
    p.add_argument("--fashion-mnist", nargs="?", const="/usr/share/datasets/fashion-mnist", metavar="DIR")
    a = p.parse_args()
    steps, input_shape = load(a.model)
    if a.predict:
        np.save(a.predict[1], predict(steps, np.load(a.predict[0])))
    elif a.fashion_mnist:
        x = read_idx(os.path.join(a.fashion_mnist, "t10k-images-idx3-ubyte.gz")).astype(np.float32) / 255
        y = read_idx(os.path.join(a.fashion_mnist, "t10k-labels-idx1-ubyte.gz"))
        if input_shape:
            x = x.reshape([len(x)] + list(input_shape))
        print(f"accuracy: {np.mean(predict(steps, x).argmax(axis=-1) == y):.4f}")
    else:
        p.error("give --predict IN OUT or --fashion-mnist")


if __name__ == "__main__":
    sys.exit(main())
