#!/usr/bin/env python3
"""An independent reader of Keras model files: h5py and NumPy only, knowing nothing of kerascpp.

It reads a legacy HDF5 model (`model_config` + `model_weights`, Keras 2.0 to 3.x) or a `.keras` archive
(zip: `config.json` + `model.weights.h5` in Keras 3's object-path layout, Keras 3.x and tf.keras 2.13+) as
Keras lays them out, and runs the model's forward pass in NumPy (float64), so that what kerascpp reads or
writes can be checked against what Keras's format says the file holds.

  read_keras_h5.py MODEL --predict IN.npy OUT.npy          predictions for IN.npy (single input and output)
  read_keras_h5.py MODEL --predict-many IN... -- OUT...    several inputs and/or outputs, in the model's order
  read_keras_h5.py MODEL --fashion-mnist [DIR]             accuracy on the Fashion-MNIST test images
                                                           (pixels / 255, reshaped to the input shape)
  read_keras_h5.py MODEL --summary                         layers, their classes and weight shapes

Models: Sequential, and functional graphs with several inputs and outputs, shared layers and RNN initial
states given as inputs. Layers: InputLayer, Dense, Conv1D, Conv2D, DepthwiseConv2D, SeparableConv2D,
MaxPooling1D/2D, AveragePooling1D/2D, GlobalAveragePooling1D/2D, GlobalMaxPooling1D/2D, ZeroPadding2D,
Flatten, Reshape, RepeatVector, Permute, Dropout and the other noise layers (identity at inference),
BatchNormalization, LayerNormalization, Activation, ReLU, LeakyReLU, Softmax, Embedding, SimpleRNN, LSTM,
GRU (reset_after either way), Bidirectional, TimeDistributed, Add, Subtract, Multiply, Average, Maximum,
Minimum, Concatenate, Dot, MultiHeadAttention (over axis 1, no mask), TFOpLambda add/multiply. Run with /usr/bin/python3 (Debian's python3-h5py and python3-numpy).
"""
import argparse
import gzip
import io
import json
import os
import re
import sys
import zipfile

import h5py
import numpy as np


def fail(message):
    raise SystemExit(f"read_keras_h5: {message}")


def attr_str(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


# ---------------------------------------------------------------------------------------------------------
# Activations. Keras 2's hard_sigmoid is 0.2x + 0.5; Keras 3's is x/6 + 0.5 (both clipped to [0, 1]).

KERAS3 = False


def activation(name, x):
    if isinstance(name, dict):  # Keras 3 may serialize an activation as an object
        name = name.get("config", {}).get("name", name.get("class_name"))
    if name in (None, "linear"):
        return x
    if name == "relu":
        return np.maximum(x, 0)
    if name == "relu6":
        return np.clip(x, 0, 6)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "hard_sigmoid":
        return np.clip(x / 6 + 0.5, 0, 1) if KERAS3 else np.clip(0.2 * x + 0.5, 0, 1)
    if name == "tanh":
        return np.tanh(x)
    if name == "softmax":
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    if name == "elu":
        return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))
    if name == "selu":
        return 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0)))
    if name == "softplus":
        return np.logaddexp(0, x)
    if name in ("swish", "silu"):
        return x / (1 + np.exp(-x))
    fail(f"activation {name!r} is not supported")


# ---------------------------------------------------------------------------------------------------------
# Weights: a list of arrays per layer, in Keras's order (the legacy `weight_names` order, which is Keras 3's
# vars order: trainable then non-trainable; a Bidirectional layer's forward weights, then its backward ones).

def legacy_weights(f):
    root = f["model_weights"] if "model_weights" in f else f
    stored = [attr_str(n) for n in root.attrs["layer_names"]]

    def get(name):
        if name not in stored:
            return []
        group = root[name]
        return [np.asarray(group[attr_str(n)], dtype=np.float64) for n in group.attrs.get("weight_names", [])]
    return get


def snake_case(name):
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


SUB_OBJECTS = ("cell", "forward_layer", "backward_layer", "layer", "query_dense", "key_dense", "value_dense",
               "output_dense")


def object_path_vars(arrays, path):
    """A layer's arrays in Keras 3's object-path layout: its own <path>/vars/<i>, then those of its sub-objects
    (an RNN's cell, a Bidirectional's two layers, MultiHeadAttention's four projections, with or without the
    leading underscore that tf.keras keeps)."""
    own = sorted((int(k.rsplit("/", 1)[1]), v) for k, v in arrays.items()
                 if k.startswith(path + "/vars/") and k.count("/") == path.count("/") + 2)
    result = [v for _, v in own]
    for child in SUB_OBJECTS:
        for name in (child, "_" + child):
            if any(k.startswith(f"{path}/{name}/") for k in arrays):
                result += object_path_vars(arrays, f"{path}/{name}")
    return result


def archive_weights(f, layers):
    """Keras 3 names a model's layers `layers/<snake_case class>` and, for the 2nd, 3rd... of a class, adds
    `_1`, `_2`... in the order of model.layers (a Sequential model's InputLayer is not among them). tf.keras
    2.13-2.15 on Windows joined these paths with backslashes (`layers\\dense/vars/0`): read as slashes."""
    arrays = {}
    f.visititems(lambda name, obj: arrays.__setitem__(name.replace("\\", "/"), np.asarray(obj, dtype=np.float64))
                 if isinstance(obj, h5py.Dataset) else None)
    used, paths = {}, {}
    for layer in layers:
        base = snake_case(layer["class_name"])
        if base in used:
            used[base] += 1
            paths[layer["config"]["name"]] = f"{base}_{used[base]}"
        else:
            used[base] = 0
            paths[layer["config"]["name"]] = base

    def get(name):
        path = paths.get(name)
        return [] if path is None else object_path_vars(arrays, "layers/" + path)
    return get


# ---------------------------------------------------------------------------------------------------------
# Windows for convolution and pooling.

def same_padding(size, k, s, d=1):
    k = (k - 1) * d + 1
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def windows2d(x, kh, kw, sh, sw, padding, pad_value=0.0, dh=1, dw=1):
    """[n, oh, ow, kh, kw, c] views of x [n, h, w, c] with Keras's valid/same padding."""
    if padding == "same":
        (t, b), (l, r) = same_padding(x.shape[1], kh, sh, dh), same_padding(x.shape[2], kw, sw, dw)
        x = np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=pad_value)
    x = np.ascontiguousarray(x)
    n, h, w, c = x.shape
    oh, ow = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
    st = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, oh, ow, kh, kw, c), (st[0], st[1] * sh, st[2] * sw, st[1] * dh, st[2] * dw, st[3]))


def windows1d(x, k, s, padding, pad_value=0.0, d=1):
    """[n, ot, k, c] views of x [n, t, c]; `causal` pads (k - 1) * d steps on the left."""
    if padding == "same":
        x = np.pad(x, ((0, 0), same_padding(x.shape[1], k, s, d), (0, 0)), constant_values=pad_value)
    elif padding == "causal":
        x = np.pad(x, ((0, 0), ((k - 1) * d, 0), (0, 0)), constant_values=pad_value)
    x = np.ascontiguousarray(x)
    n, t, c = x.shape
    ot = (t - (k - 1) * d - 1) // s + 1
    st = x.strides
    return np.lib.stride_tricks.as_strided(x, (n, ot, k, c), (st[0], st[1] * s, st[1] * d, st[2]))


def pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)


def single(value):
    return value[0] if isinstance(value, (list, tuple)) else value


# ---------------------------------------------------------------------------------------------------------
# Recurrent layers. Gates: LSTM i, f, c, o; GRU z, r, h.

def run_rnn(kind, cfg, weights, x, initial_state=None, mask=None):
    """x [n, t, f] -> (sequence [n, t, u], last output [n, u], final states). Where mask [n, t] is False the
    step keeps the states and repeats the previous output, as Keras's RNN does."""
    units = cfg["units"]
    act = cfg.get("activation", "tanh")
    rec_act = cfg.get("recurrent_activation", "hard_sigmoid" if not KERAS3 else "sigmoid")
    use_bias = cfg.get("use_bias", True)
    kernel, rkernel = weights[0], weights[1]
    bias = weights[2] if use_bias else None
    n, steps = x.shape[0], x.shape[1]
    if cfg.get("go_backwards", False):
        x = x[:, ::-1]
        mask = None if mask is None else mask[:, ::-1]
    if kind == "LSTM":
        h = np.zeros((n, units)) if initial_state is None else initial_state[0]
        c = np.zeros((n, units)) if initial_state is None else initial_state[1]
    else:
        h = np.zeros((n, units)) if initial_state is None else initial_state[0]
    xs = x @ kernel
    if kind == "GRU" and use_bias and bias.ndim == 2:  # reset_after: input bias and recurrent bias
        xs = xs + bias[0]
    elif use_bias:
        xs = xs + bias
    outputs = []
    for t in range(steps):
        xt = xs[:, t]
        h_prev, c_prev = h, (c if kind == "LSTM" else None)
        if kind == "SimpleRNN":
            h = activation(act, xt + h @ rkernel)
        elif kind == "LSTM":
            z = xt + h @ rkernel
            i, f, g, o = np.split(z, 4, axis=-1)
            i, f, o = activation(rec_act, i), activation(rec_act, f), activation(rec_act, o)
            c = f * c + i * activation(act, g)
            h = o * activation(act, c)
        elif kind == "GRU":
            xz, xr, xh = np.split(xt, 3, axis=-1)
            if cfg.get("reset_after", False):
                inner = h @ rkernel
                if use_bias and bias.ndim == 2:
                    inner = inner + bias[1]
                hz, hr, hh = np.split(inner, 3, axis=-1)
                z = activation(rec_act, xz + hz)
                r = activation(rec_act, xr + hr)
                cand = activation(act, xh + r * hh)
            else:
                rz, rr, rh = np.split(rkernel, 3, axis=-1)
                z = activation(rec_act, xz + h @ rz)
                r = activation(rec_act, xr + h @ rr)
                cand = activation(act, xh + (r * h) @ rh)
            h = z * h + (1 - z) * cand
        else:
            fail(f"recurrent layer {kind!r} is not supported")
        if mask is not None:
            keep = ~mask[:, t:t + 1]
            h = np.where(keep, h_prev, h)
            if kind == "LSTM":
                c = np.where(keep, c_prev, c)
        outputs.append(h)
    sequence = np.stack(outputs, axis=1)
    states = [h, c] if kind == "LSTM" else [h]
    return sequence, h, states


def rnn_outputs(kind, cfg, weights, x, initial_state=None, mask=None):
    sequence, last, states = run_rnn(kind, cfg, weights, x, initial_state, mask)
    out = sequence if cfg.get("return_sequences", False) else last
    return [out] + states if cfg.get("return_state", False) else out


def bidirectional(cfg, weights, x, initial_state=None, mask=None):
    inner = cfg["layer"]
    kind, fcfg = inner["class_name"], dict(inner["config"])
    bcfg = dict(cfg.get("backward_layer", {}).get("config", fcfg))
    bcfg["go_backwards"] = not fcfg.get("go_backwards", False)
    half = len(weights) // 2
    nstates = 2 if kind == "LSTM" else 1
    fstate = initial_state[:nstates] if initial_state else None
    bstate = initial_state[nstates:] if initial_state else None
    fseq, flast, fstates = run_rnn(kind, fcfg, weights[:half], x, fstate, mask)
    bseq, blast, bstates = run_rnn(kind, bcfg, weights[half:], x, bstate, mask)
    if fcfg.get("return_sequences", False):
        fo, bo = fseq, bseq[:, ::-1]  # the backward sequence is given back in the forward time order
    else:
        fo, bo = flast, blast
    mode = cfg.get("merge_mode", "concat")
    if mode == "concat":
        out = np.concatenate([fo, bo], axis=-1)
    elif mode == "sum":
        out = fo + bo
    elif mode == "mul":
        out = fo * bo
    elif mode == "ave":
        out = (fo + bo) / 2
    elif mode is None:
        out = [fo, bo]
    else:
        fail(f"Bidirectional merge_mode {mode!r} is not supported")
    if fcfg.get("return_state", False):
        out = (out if isinstance(out, list) else [out]) + fstates + bstates
    return out


# ---------------------------------------------------------------------------------------------------------
# One layer.

MERGE = {"Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot"}
IDENTITY = {"InputLayer", "Dropout", "SpatialDropout1D", "SpatialDropout2D", "GaussianNoise", "GaussianDropout",
            "AlphaDropout", "ActivityRegularization", "Masking"}
RNN = {"SimpleRNN", "LSTM", "GRU", "CuDNNLSTM", "CuDNNGRU"}


def conv_bias(cfg, weights, y, index):
    return y + weights[index] if cfg.get("use_bias", True) else y


def apply(layer, weights, inputs, kwargs=None, mask=None):
    kind, cfg = layer["class_name"], layer["config"]
    x = inputs[0]
    if kind in IDENTITY:
        return x
    if kind in MERGE:
        return merge(kind, cfg, inputs)
    if kind == "Dense":
        y = x @ weights[0]
        return activation(cfg.get("activation"), conv_bias(cfg, weights, y, 1))
    if kind == "Conv2D":
        if cfg.get("groups", 1) != 1 or cfg.get("data_format", "channels_last") != "channels_last":
            fail("Conv2D with groups or channels_first is not supported")
        kernel = weights[0]
        dh, dw = pair(cfg.get("dilation_rate", 1))
        sh, sw = pair(cfg.get("strides", 1))
        win = windows2d(x, kernel.shape[0], kernel.shape[1], sh, sw, cfg.get("padding", "valid"), 0.0, dh, dw)
        y = np.tensordot(win, kernel, axes=([3, 4, 5], [0, 1, 2]))
        return activation(cfg.get("activation"), conv_bias(cfg, weights, y, 1))
    if kind in ("DepthwiseConv2D", "SeparableConv2D"):
        dk = weights[0]  # [kh, kw, c, multiplier]
        dh, dw = pair(cfg.get("dilation_rate", 1))
        sh, sw = pair(cfg.get("strides", 1))
        win = windows2d(x, dk.shape[0], dk.shape[1], sh, sw, cfg.get("padding", "valid"), 0.0, dh, dw)
        y = np.einsum("nhwijc,ijcm->nhwcm", win, dk).reshape(win.shape[0], win.shape[1], win.shape[2], -1)
        if kind == "DepthwiseConv2D":
            return activation(cfg.get("activation"), conv_bias(cfg, weights, y, 1))
        y = np.tensordot(y, weights[1][0, 0], axes=([3], [0]))
        return activation(cfg.get("activation"), conv_bias(cfg, weights, y, 2))
    if kind == "Conv1D":
        if cfg.get("groups", 1) != 1:
            fail("Conv1D with groups is not supported")
        kernel = weights[0]
        win = windows1d(x, kernel.shape[0], single(cfg.get("strides", 1)), cfg.get("padding", "valid"), 0.0,
                        single(cfg.get("dilation_rate", 1)))
        y = np.tensordot(win, kernel, axes=([2, 3], [0, 1]))
        return activation(cfg.get("activation"), conv_bias(cfg, weights, y, 1))
    if kind in ("MaxPooling2D", "AveragePooling2D"):
        ph, pw = pair(cfg.get("pool_size", 2))
        sh, sw = pair(cfg.get("strides") or (ph, pw))
        pad = cfg.get("padding", "valid")
        if kind == "MaxPooling2D":
            return windows2d(x, ph, pw, sh, sw, pad, -np.inf).max(axis=(3, 4))
        ones = windows2d(np.ones_like(x[:1]), ph, pw, sh, sw, pad).sum(axis=(3, 4))
        return windows2d(x, ph, pw, sh, sw, pad).sum(axis=(3, 4)) / ones
    if kind in ("MaxPooling1D", "AveragePooling1D"):
        p = single(cfg.get("pool_size", 2))
        s = single(cfg.get("strides") or p)
        pad = cfg.get("padding", "valid")
        if kind == "MaxPooling1D":
            return windows1d(x, p, s, pad, -np.inf).max(axis=2)
        ones = windows1d(np.ones_like(x[:1]), p, s, pad).sum(axis=2)
        return windows1d(x, p, s, pad).sum(axis=2) / ones
    if kind in ("GlobalAveragePooling2D", "GlobalMaxPooling2D", "GlobalAveragePooling1D", "GlobalMaxPooling1D"):
        axes = (1, 2) if kind.endswith("2D") else (1,)
        if mask is not None and kind == "GlobalAveragePooling1D":  # the mean over the unmasked steps
            m = mask[:, :, None].astype(x.dtype)
            return (x * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-12)
        y = x.mean(axis=axes, keepdims=cfg.get("keepdims", False)) if "Average" in kind else \
            x.max(axis=axes, keepdims=cfg.get("keepdims", False))
        return y
    if kind == "ZeroPadding2D":
        p = cfg.get("padding", 1)
        (t, b), (l, r) = (pair(p[0]), pair(p[1])) if isinstance(p, (list, tuple)) else ((p, p), (p, p))
        return np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)))
    if kind == "Flatten":
        return x.reshape(x.shape[0], -1)
    if kind == "Reshape":
        return x.reshape((x.shape[0],) + tuple(cfg["target_shape"]))
    if kind == "RepeatVector":
        return np.repeat(x[:, None, :], cfg["n"], axis=1)
    if kind == "Permute":
        return np.transpose(x, (0,) + tuple(cfg["dims"]))
    if kind == "BatchNormalization":
        arrays = list(weights)
        gamma = arrays.pop(0) if cfg.get("scale", True) else 1.0
        beta = arrays.pop(0) if cfg.get("center", True) else 0.0
        mean, var = arrays
        axis = single(cfg.get("axis", -1))
        shape = [1] * x.ndim
        shape[axis] = -1
        r = lambda a: np.reshape(a, shape) if np.ndim(a) else a
        return (x - r(mean)) / np.sqrt(r(var) + cfg.get("epsilon", 1e-3)) * r(gamma) + r(beta)
    if kind == "LayerNormalization":
        axes = cfg.get("axis", -1)
        axes = tuple(axes) if isinstance(axes, (list, tuple)) else (axes,)
        mean = x.mean(axis=axes, keepdims=True)
        var = x.var(axis=axes, keepdims=True)
        y = (x - mean) / np.sqrt(var + cfg.get("epsilon", 1e-3))
        arrays = list(weights)
        if cfg.get("scale", True):
            y = y * arrays.pop(0)
        if cfg.get("center", True):
            y = y + arrays.pop(0)
        return y
    if kind == "Activation":
        return activation(cfg["activation"], x)
    if kind == "ReLU":
        y = np.where(x >= cfg.get("threshold", 0.0), x, cfg.get("negative_slope", 0.0) * (x - cfg.get("threshold", 0.0)))
        return np.minimum(y, cfg["max_value"]) if cfg.get("max_value") is not None else y
    if kind == "LeakyReLU":
        slope = cfg.get("negative_slope", cfg.get("alpha", 0.3))
        return np.where(x >= 0, x, slope * x)
    if kind == "Softmax":
        return activation("softmax", x)
    if kind == "Embedding":
        return weights[0][x.astype(np.int64)]
    if kind in RNN:
        state = list(inputs[1:]) or (kwargs or {}).get("initial_state")
        return rnn_outputs(kind.replace("CuDNN", ""), cfg, weights, x, state or None, mask)
    if kind == "Bidirectional":
        state = list(inputs[1:]) or (kwargs or {}).get("initial_state")
        return bidirectional(cfg, weights, x, state or None, mask)
    if kind == "MultiHeadAttention":
        return attention(cfg, weights, x, kwargs)
    if kind in ("TFOpLambda", "SlicingOpLambda"):
        return tf_op(cfg, inputs, kwargs or {})
    if kind == "TimeDistributed":
        inner = cfg["layer"]
        n, t = x.shape[0], x.shape[1]
        y = apply(inner, weights, [x.reshape((n * t,) + x.shape[2:])])
        return y.reshape((n, t) + y.shape[1:])
    fail(f"layer class {kind!r} is not supported")


def attention(cfg, weights, query, kwargs):
    """MultiHeadAttention over axis 1 (no mask): projections [d, heads, dim] with biases [heads, dim]."""
    if cfg.get("attention_axes") not in (None, [1], (1,)) or query.ndim != 3:
        fail("MultiHeadAttention over other axes is not supported")
    value = kwargs.get("value", query)
    key = kwargs.get("key", value)
    arrays = list(weights)
    use_bias = cfg.get("use_bias", True)

    def take(n):
        return [arrays.pop(0) for _ in range(n)]
    wq, bq = take(2) if use_bias else (take(1)[0], 0)
    wk, bk = take(2) if use_bias else (take(1)[0], 0)
    wv, bv = take(2) if use_bias else (take(1)[0], 0)
    wo, bo = take(2) if use_bias else (take(1)[0], 0)
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.einsum("bsd,dnh->bsnh", key, wk) + bk
    v = np.einsum("bsd,dnh->bsnh", value, wv) + bv
    scores = np.einsum("bsnh,btnh->bnts", k, q / np.sqrt(cfg["key_dim"]))
    probs = activation("softmax", scores)
    out = np.einsum("bnts,bsnh->btnh", probs, v)
    return np.einsum("btnh,nhd->btd", out, wo) + bo


def tf_op(cfg, inputs, kwargs):
    """The TensorFlow ops tf.keras 2.x records as TFOpLambda layers (the ones the corpus holds)."""
    fn = cfg["function"]
    x = inputs[0]
    if fn in ("__operators__.add", "math.add"):
        return x + (kwargs["y"] if "y" in kwargs else inputs[1])
    if fn in ("math.multiply",):
        return x * (kwargs["y"] if "y" in kwargs else inputs[1])
    fail(f"TFOpLambda function {fn!r} is not supported")


MASK_KEEPING = IDENTITY | {"Dense", "Activation", "ReLU", "LeakyReLU", "Softmax", "TimeDistributed",
                           "BatchNormalization", "LayerNormalization"}


def output_mask(layer, inputs, mask):
    """The mask a layer's output carries: an Embedding with mask_zero makes one; RNNs that return sequences
    and the element-wise layers pass theirs on; the others drop it."""
    kind, cfg = layer["class_name"], layer["config"]
    if kind == "Embedding":
        return inputs[0] != 0 if cfg.get("mask_zero", False) else None
    if kind in RNN:
        return mask if cfg.get("return_sequences", False) else None
    if kind == "Bidirectional":
        return mask if cfg["layer"]["config"].get("return_sequences", False) else None
    return mask if kind in MASK_KEEPING else None


def merge(kind, cfg, xs):
    if kind == "Add":
        return sum(xs[1:], xs[0])
    if kind == "Subtract":
        return xs[0] - xs[1]
    if kind == "Multiply":
        y = xs[0]
        for v in xs[1:]:
            y = y * v
        return y
    if kind == "Average":
        return sum(xs[1:], xs[0]) / len(xs)
    if kind == "Maximum":
        return np.maximum.reduce(xs)
    if kind == "Minimum":
        return np.minimum.reduce(xs)
    if kind == "Concatenate":
        return np.concatenate(xs, axis=cfg.get("axis", -1))
    if kind == "Dot":
        a, b = xs
        axes = cfg.get("axes", -1)
        ax, bx = (axes, axes) if isinstance(axes, int) else axes
        ax, bx = ax % a.ndim, bx % b.ndim
        if cfg.get("normalize", False):
            a = a / np.maximum(np.linalg.norm(a, axis=ax, keepdims=True), 1e-12)
            b = b / np.maximum(np.linalg.norm(b, axis=bx, keepdims=True), 1e-12)
        if a.ndim == 2 and b.ndim == 2:
            return (a * b).sum(axis=1, keepdims=True)
        return np.stack([np.tensordot(a[i], b[i], axes=([ax - 1], [bx - 1])) for i in range(a.shape[0])])
    fail(f"merge layer {kind!r} is not supported")


# ---------------------------------------------------------------------------------------------------------
# The model: its config, its layers' weights, and the order to run them in.

class Model:
    def __init__(self, path):
        global KERAS3
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                self.config = json.loads(z.read("config.json"))
                meta = json.loads(z.read("metadata.json")) if "metadata.json" in z.namelist() else {}
                weights_file = h5py.File(io.BytesIO(z.read("model.weights.h5")), "r")
            self.version = meta.get("keras_version", "3")
            self.layers = self.layer_list()
            # Keras 3's model.layers (and so the names of their weight groups) leave out a Sequential's InputLayer.
            listed = [l for l in self.layers if not (self.sequential and l["class_name"] == "InputLayer")]
            self.get_weights = archive_weights(weights_file, listed)
        else:
            f = h5py.File(path, "r")
            if "model_config" not in f.attrs:
                fail(f"{path} holds no model_config (a weights-only file)")
            self.config = json.loads(attr_str(f.attrs["model_config"]))
            self.version = attr_str(f.attrs.get("keras_version", "2"))
            self.layers = self.layer_list()
            self.get_weights = legacy_weights(f)
        KERAS3 = self.version.startswith("3")
        self.weights = {l["config"]["name"]: self.get_weights(l["config"]["name"]) for l in self.layers}

    @property
    def sequential(self):
        return self.config["class_name"] == "Sequential"

    def layer_list(self):
        cfg = self.config["config"]
        if self.config["class_name"] not in ("Sequential", "Functional", "Model"):
            fail(f"model class {self.config['class_name']!r} is not supported (a subclassed model?)")
        return cfg["layers"] if isinstance(cfg, dict) else cfg

    def input_shapes(self):
        """The shape (without batch) of each input, in the model's input order."""
        if self.sequential:
            first = self.layers[0]["config"]
            for key in ("batch_shape", "batch_input_shape"):
                if key in first:
                    return [first[key][1:]]
            fail("the Sequential model's first layer gives no input shape")
        by_name = {l["config"]["name"]: l for l in self.layers}
        shapes = []
        for ref in self.refs(self.config["config"]["input_layers"]):
            c = by_name[ref[0]]["config"]
            shapes.append((c.get("batch_shape") or c.get("batch_input_shape"))[1:])
        return shapes

    @staticmethod
    def refs(value):
        """input_layers / output_layers: [name, node, tensor], a list of them, or (Keras 3, a model called on a
        dict) a dict of them, ordered by key as Keras flattens a dict (model.inputs)."""
        if isinstance(value, dict):
            return [value[k] for k in sorted(value)]
        return [value] if value and isinstance(value[0], str) else value

    def consumers_of_inputs(self):
        """For each input, the class and config of the first layer that reads it (to choose valid inputs)."""
        if self.sequential:
            first = [l for l in self.layers if l["class_name"] != "InputLayer"][0]
            return [first]
        result = []
        for ref in self.refs(self.config["config"]["input_layers"]):
            found = None
            for layer in self.layers:
                for node in layer.get("inbound_nodes", []):
                    if any(r[0] == ref[0] for r, _ in node_inputs(node)):
                        found = found or layer
            result.append(found)
        return result

    def predict(self, inputs):
        inputs = [np.asarray(x, dtype=np.float64) for x in inputs]
        if self.sequential:
            y, mask = inputs[0], None
            for layer in self.layers:
                y, mask = apply(layer, self.weights[layer["config"]["name"]], [y], None, mask), \
                    output_mask(layer, [y], mask)
            return [y]
        tensors, masks = {}, {}
        for ref, x in zip(self.refs(self.config["config"]["input_layers"]), inputs):
            tensors[(ref[0], 0, 0)] = x
        pending = [l for l in self.layers if l["class_name"] != "InputLayer"]
        while pending:
            progressed = False
            for layer in list(pending):
                name = layer["config"]["name"]
                nodes = layer.get("inbound_nodes", [])
                done = [i for i in range(len(nodes)) if (name, i, 0) in tensors]
                for i, node in enumerate(nodes):
                    if i in done:
                        continue
                    refs = node_inputs(node)
                    if not all(tuple(r) in tensors for r, _ in refs):
                        continue
                    args = [tensors[tuple(r)] for r, role in refs if role == "arg"]
                    kwargs = {}
                    for r, role in refs:
                        if role == "initial_state":
                            kwargs.setdefault("initial_state", []).append(tensors[tuple(r)])
                        elif role != "arg":
                            kwargs[role] = tensors[tuple(r)]
                    mask = masks.get(tuple(refs[0][0]))
                    out = apply(layer, self.weights[name], args, kwargs, mask)
                    out_mask = output_mask(layer, args, mask)
                    for t, value in enumerate(out if isinstance(out, list) else [out]):
                        tensors[(name, i, t)] = value
                        masks[(name, i, t)] = out_mask if t == 0 else None
                    progressed = True
                if all((name, i, 0) in tensors for i in range(len(nodes))):
                    pending.remove(layer)
            if not progressed:
                fail("the functional graph cannot be run (a layer's inputs are never computed)")
        return [tensors[tuple(r)] for r in self.refs(self.config["config"]["output_layers"])]


def node_inputs(node):
    """A node's input tensors as ([layer, node, tensor], role): legacy nodes are lists of
    [layer, node, tensor, kwargs]; Keras 3 nodes are {"args": [...], "kwargs": {...}} of __keras_tensor__."""
    if isinstance(node, dict):
        found = []

        def walk(value, role):
            if isinstance(value, dict):
                if value.get("class_name") == "__keras_tensor__":
                    found.append((value["config"]["keras_history"][:3], role))
                else:
                    for k, v in value.items():
                        walk(v, role)
            elif isinstance(value, list):
                for v in value:
                    walk(v, role)
        walk(node.get("args", []), "arg")
        for key, value in node.get("kwargs", {}).items():
            walk(value, "initial_state" if key == "initial_state" else key)
        return found
    if node and isinstance(node[0], str):  # tf.keras writes a TFOpLambda's node as one entry
        node = [node]
    result = []
    for entry in node:
        result.append((entry[:3], "arg"))
        extra = entry[3] if len(entry) > 3 and isinstance(entry[3], dict) else {}
        for key, value in extra.items():
            if isinstance(value, list) and value and isinstance(value[0], str):
                result.append((value[:3], key))  # a tensor given by keyword (value=, y=...)
            elif isinstance(value, list):
                result += [(v[:3], key) for v in value if isinstance(v, list) and v and isinstance(v[0], str)]
    return result


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


def predict_batched(model, inputs, batch=500):
    n = len(inputs[0])
    outs = [model.predict([x[i:i + batch] for x in inputs]) for i in range(0, n, batch)]
    return [np.concatenate([o[k] for o in outs]) for k in range(len(outs[0]))]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--predict", nargs=2, metavar=("IN", "OUT"))
    p.add_argument("--predict-many", nargs="+", metavar="FILE")
    p.add_argument("--fashion-mnist", nargs="?", const="/usr/share/datasets/fashion-mnist", metavar="DIR")
    p.add_argument("--summary", action="store_true")
    a = p.parse_args()
    model = Model(a.model)
    if a.summary:
        print(f"{model.config['class_name']} written by Keras {model.version}")
        for layer in model.layers:
            shapes = [w.shape for w in model.weights[layer["config"]["name"]]]
            print(f"  {layer['config']['name']:30} {layer['class_name']:24} {shapes}")
    elif a.predict:
        np.save(a.predict[1], predict_batched(model, [np.load(a.predict[0])])[0].astype(np.float32))
    elif a.predict_many:
        if "--" not in a.predict_many:
            p.error("--predict-many IN... -- OUT...")
        cut = a.predict_many.index("--")
        ins, outs = a.predict_many[:cut], a.predict_many[cut + 1:]
        ys = predict_batched(model, [np.load(i) for i in ins])
        if len(ys) != len(outs):
            fail(f"the model has {len(ys)} outputs, {len(outs)} files were given")
        for y, o in zip(ys, outs):
            np.save(o, y.astype(np.float32))
    elif a.fashion_mnist:
        x = read_idx(os.path.join(a.fashion_mnist, "t10k-images-idx3-ubyte.gz")).astype(np.float32) / 255
        y = read_idx(os.path.join(a.fashion_mnist, "t10k-labels-idx1-ubyte.gz"))
        x = x.reshape([len(x)] + list(model.input_shapes()[0]))
        print(f"accuracy: {np.mean(predict_batched(model, [x])[0].argmax(axis=-1) == y):.4f}")
    else:
        p.error("give --predict IN OUT, --predict-many, --fashion-mnist or --summary")


if __name__ == "__main__":
    sys.exit(main())
