#!/usr/bin/python3
"""Writes tests/golden/attention.json: forward values and gradients of Attention, AdditiveAttention,
MultiHeadAttention, LocallyConnected1D/2D and ConvLSTM2D, computed in float64 with PyTorch from the
formulas tf.keras 2.x documents, which tests/layers/{attention,multi_head_attention,locally_connected}_test.cpp
and tests/layers/recurrent/conv_lstm2d_test.cpp compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_attention_golden.py

Each case holds the layer as Keras serializes it ({"class_name", "config"}), the call arguments
(masks, use_causal_mask, return_attention_scores), inputs and weights in Keras's layouts and order,
the output y, and the gradients of sum(y * w) for a fixed w with respect to every input and weight;
"extra" holds the second outputs (attention scores, or ConvLSTM2D's final h and c).

Keras semantics reproduced here (tf.keras 2.x):
- Attention: scores = q k^T (* scale); "concat": concat_score_weight * sum(tanh((q + k) * scale));
  masked scores get -1e9; softmax over Tv; output = probs v, times the query mask.
- AdditiveAttention: scores = sum(scale * tanh(q + k)), scale [dim].
- MultiHeadAttention: per-head projections by kernels [d, heads, key_dim] (einsum), the query scaled by
  1/sqrt(key_dim), softmax jointly over the attention axes (masked with -1e9), output kernel
  [heads, value_dim, out]; scores returned before dropout, shaped [batch, other axes, heads, T..., S...].
- LocallyConnected (implementation 1): kernel [positions, prod(kernel) * in, filters], each window
  flattened as (kernel axes..., channels), bias [out spatial..., filters].
- ConvLSTM2D: gates i, f, c, o; input conv with strides/padding/dilation, recurrent conv stride 1
  "same"; recurrent_activation hard_sigmoid = clip(0.2 x + 0.5, 0, 1).
"""
import json
import math
import os

import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(3)


def tensor(t):
    t = torch.as_tensor(t).detach()
    return {"dtype": "float32", "shape": list(t.shape), "data": [float("%.9g" % float(v)) for v in t.reshape(-1)]}


def rand(*shape, lo=-1.0, hi=1.0):
    # Drawn in float32 (what the C++ side holds); the math runs in float64.
    return (torch.rand(*shape) * (hi - lo) + lo).double()


def binary(*shape, keep_first=True):
    m = (torch.rand(*shape) > 0.35).double()
    if keep_first:  # at least one visible position per row
        m[..., 0] = 1.0
    return m


cases = {"attention": [], "multi_head_attention": [], "locally_connected": [], "conv_lstm2d": []}


def add(group, class_name, config, inputs, weights, fn, call=None, extra_names=()):
    inputs = [x.clone().requires_grad_() for x in inputs]
    weights = [w.clone().requires_grad_() for w in weights]
    outs = fn(*inputs, *weights)
    if not isinstance(outs, tuple):
        outs = (outs,)
    y = outs[0]
    w = rand(*y.shape, lo=0.5, hi=1.5)
    (y * w).sum().backward()
    entry = {
        "layer": {"class_name": class_name, "config": config},
        "call": call or {},
        "inputs": [tensor(x) for x in inputs], "weights": [tensor(v) for v in weights],
        "w": tensor(w), "y": tensor(y),
        "input_grads": [tensor(x.grad) for x in inputs], "weight_grads": [tensor(v.grad) for v in weights],
        "extra": [tensor(e) for e in outs[1:]],
    }
    cases[group].append(entry)


# ---------------------------------------------------------------- Attention / AdditiveAttention

def dense_attention(scores, v, q_mask, v_mask, causal):
    keep = torch.ones_like(scores)
    if v_mask is not None:
        keep = keep * v_mask[:, None, :]
    if causal:
        tq, tv = scores.shape[-2:]
        keep = keep * torch.tril(torch.ones(tq, tv, dtype=scores.dtype))[None]
    probs = torch.softmax(scores - 1e9 * (1.0 - keep), dim=-1)
    out = probs @ v
    if q_mask is not None:
        out = out * q_mask[:, :, None]
    return out, probs


def attention_case(config, shapes, weights, scores_fn, q_mask=None, v_mask=None, causal=False, scores=False,
                   class_name="Attention"):
    inputs = [rand(*s) for s in shapes]
    call = {"mask": [tensor(q_mask) if q_mask is not None else None, tensor(v_mask) if v_mask is not None else None]
            if (q_mask is not None or v_mask is not None) else [],
            "use_causal_mask": causal, "return_attention_scores": scores}

    def fn(*args):
        q, v = args[0], args[1]
        k = args[2] if len(shapes) == 3 else v
        ws = args[len(shapes):]
        out, probs = dense_attention(scores_fn(q, k, *ws), v, q_mask, v_mask, causal)
        return (out, probs) if scores else out

    add("attention", class_name, config, inputs, weights, fn, call)


def dot_scores(q, k, *ws):
    s = q @ k.transpose(-1, -2)
    return s * ws[0] if ws else s


def concat_scores(use_scale):
    def f(q, k, *ws):
        x = q[:, :, None, :] + k[:, None, :, :]
        if use_scale:
            x = x * ws[0]
            return ws[1] * torch.tanh(x).sum(-1)
        return ws[0] * torch.tanh(x).sum(-1)
    return f


def additive_scores(q, k, *ws):
    t = torch.tanh(q[:, :, None, :] + k[:, None, :, :])
    return (t * ws[0]).sum(-1) if ws else t.sum(-1)


base = {"name": "attention", "trainable": True, "dtype": "float32", "dropout": 0.0}
attention_case(dict(base, use_scale=False, score_mode="dot"), [(2, 3, 4), (2, 5, 4)], [], dot_scores)
attention_case(dict(base, use_scale=True, score_mode="dot"), [(2, 3, 4), (2, 5, 6), (2, 5, 4)],
               [torch.tensor(0.7, dtype=torch.float64)], dot_scores)
attention_case(dict(base, use_scale=True, score_mode="concat"), [(2, 3, 4), (2, 4, 4)],
               [torch.tensor(0.8, dtype=torch.float64), torch.tensor(1.3, dtype=torch.float64)], concat_scores(True))
attention_case(dict(base, use_scale=False, score_mode="concat"), [(1, 2, 3), (1, 3, 3)],
               [torch.tensor(0.6, dtype=torch.float64)], concat_scores(False))
attention_case(dict(base, use_scale=False, score_mode="dot"), [(2, 4, 3), (2, 4, 3)], [], dot_scores,
               q_mask=binary(2, 4), v_mask=binary(2, 4), causal=True, scores=True)
attention_case(dict(base, use_scale=True, score_mode="dot"), [(2, 3, 4), (2, 5, 4)],
               [torch.tensor(1.4, dtype=torch.float64)], dot_scores, v_mask=binary(2, 5), scores=True)
additive = {"name": "additive_attention", "trainable": True, "dtype": "float32", "dropout": 0.0}
attention_case(dict(additive, use_scale=True), [(2, 3, 4), (2, 5, 4)], [rand(4)], additive_scores,
               class_name="AdditiveAttention")
attention_case(dict(additive, use_scale=True), [(2, 3, 4), (2, 5, 4), (2, 5, 4)], [rand(4)], additive_scores,
               q_mask=binary(2, 3), v_mask=binary(2, 5), scores=True, class_name="AdditiveAttention")
attention_case(dict(additive, use_scale=False), [(1, 4, 2), (1, 4, 2)], [], additive_scores, causal=True,
               class_name="AdditiveAttention")


# ---------------------------------------------------------------- MultiHeadAttention

def mha(query, value, key, wq, bq, wk, bk, wv, bv, wo, bo, heads, key_dim, axes, attention_mask=None):
    r = query.dim()
    mid = list(range(1, r - 1))
    others = [a for a in mid if a not in axes]
    # index letters: b batch, o.. other axes, t.. target axes, s.. source axes, h heads, k/d features
    o_letters = {a: "opq"[i] for i, a in enumerate(others)}
    t_letters = {a: "tuv"[i] for i, a in enumerate(axes)}
    s_letters = {a: "swx"[i] for i, a in enumerate(axes)}
    q_idx = "b" + "".join(o_letters.get(a) or t_letters[a] for a in mid)
    s_idx = "b" + "".join(o_letters.get(a) or s_letters[a] for a in mid)
    q = torch.einsum(f"{q_idx}d,dhk->{q_idx}hk", query, wq)
    k = torch.einsum(f"{s_idx}d,dhk->{s_idx}hk", key, wk)
    v = torch.einsum(f"{s_idx}d,dhk->{s_idx}hk", value, wv)
    if bq is not None:
        q, k, v = q + bq, k + bk, v + bv
    q = q / math.sqrt(key_dim)
    o_str = "".join(o_letters[a] for a in others)
    t_str = "".join(t_letters[a] for a in axes)
    s_str = "".join(s_letters[a] for a in axes)
    score_idx = "b" + o_str + "h" + t_str + s_str
    scores = torch.einsum(f"{q_idx}hk,{s_idx}hk->{score_idx}", q, k)
    n_s = len(axes)
    flat = scores.reshape(*scores.shape[:scores.dim() - n_s], -1)
    if attention_mask is not None:
        m = attention_mask.reshape(*attention_mask.shape[:attention_mask.dim() - n_s], -1)
        m = m.unsqueeze(1 + len(others))  # the heads axis
        flat = flat - 1e9 * (1.0 - m)
    probs = torch.softmax(flat, dim=-1).reshape(scores.shape)
    ctx = torch.einsum(f"{score_idx},{s_idx}hk->{q_idx}hk", probs, v)
    out_letters = "ef"[: wo.dim() - 2]
    out = torch.einsum(f"{q_idx}hk,hk{out_letters}->{q_idx}{out_letters}", ctx, wo)
    if bo is not None:
        out = out + bo
    return out, probs


def mha_case(num_heads, key_dim, q_shape, v_shape, k_shape=None, value_dim=None, use_bias=True, output_shape=None,
             attention_axes=None, attention_mask=None, causal=False, scores=False, name="multi_head_attention"):
    value_dim = value_dim or key_dim
    dq, dv = q_shape[-1], v_shape[-1]
    dk = (k_shape or v_shape)[-1]
    out = [dq] if output_shape is None else ([output_shape] if isinstance(output_shape, int) else list(output_shape))
    s = 0.6
    weights = [rand(dq, num_heads, key_dim, lo=-s, hi=s)]
    if use_bias:
        weights.append(rand(num_heads, key_dim, lo=-s, hi=s))
    weights.append(rand(dk, num_heads, key_dim, lo=-s, hi=s))
    if use_bias:
        weights.append(rand(num_heads, key_dim, lo=-s, hi=s))
    weights.append(rand(dv, num_heads, value_dim, lo=-s, hi=s))
    if use_bias:
        weights.append(rand(num_heads, value_dim, lo=-s, hi=s))
    weights.append(rand(num_heads, value_dim, *out, lo=-s, hi=s))
    if use_bias:
        weights.append(rand(*out, lo=-s, hi=s))
    shapes = [q_shape, v_shape] + ([k_shape] if k_shape else [])
    inputs = [rand(*sh) for sh in shapes]
    r = len(q_shape)
    axes = list(range(1, r - 1)) if attention_axes is None else list(attention_axes)
    mask = attention_mask
    if causal:
        tri = torch.tril(torch.ones(q_shape[1], v_shape[1], dtype=torch.float64))[None]
        mask = tri if mask is None else mask * tri
    config = {"name": name, "trainable": True, "dtype": "float32", "num_heads": num_heads, "key_dim": key_dim,
              "value_dim": value_dim, "dropout": 0.0, "use_bias": use_bias, "output_shape": output_shape,
              "attention_axes": attention_axes,
              "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
              "bias_initializer": {"class_name": "Zeros", "config": {}},
              "kernel_regularizer": None, "bias_regularizer": None, "activity_regularizer": None,
              "kernel_constraint": None, "bias_constraint": None,
              "query_shape": None, "value_shape": None, "key_shape": None}
    call = {"attention_mask": tensor(attention_mask) if attention_mask is not None else None,
            "use_causal_mask": causal, "return_attention_scores": scores}

    def fn(*args):
        n = len(shapes)
        q, v = args[0], args[1]
        k = args[2] if n == 3 else v
        ws = list(args[n:])
        if use_bias:
            wq, bq, wk, bk, wv, bv, wo, bo = ws
        else:
            (wq, wk, wv, wo), bq, bk, bv, bo = ws, None, None, None, None
        o, p = mha(q, v, k, wq, bq, wk, bk, wv, bv, wo, bo, num_heads, key_dim, axes, mask)
        return (o, p) if scores else o

    add("multi_head_attention", "MultiHeadAttention", config, inputs, weights, fn, call)


mha_case(2, 3, (2, 4, 5), (2, 6, 7), value_dim=4)
mha_case(2, 3, (2, 4, 5), (2, 6, 7), attention_mask=binary(2, 4, 6), scores=True)
mha_case(3, 2, (1, 5, 4), (1, 5, 3), k_shape=(1, 5, 6), use_bias=False, output_shape=6, causal=True, scores=True)
mha_case(2, 2, (2, 2, 3, 4), (2, 2, 3, 4), scores=True)                         # default axes (1, 2) jointly
mha_case(2, 2, (1, 3, 4, 3), (1, 3, 2, 5), attention_axes=[2], output_shape=[2, 3], scores=True)


# ---------------------------------------------------------------- LocallyConnected1D / 2D

def locally_connected(x, kernel, bias, ksize, strides, activation):
    rank = len(ksize)
    spatial = x.shape[1:-1]
    outs = [(spatial[a] - ksize[a]) // strides[a] + 1 for a in range(rank)]
    rows = []
    for pos in range(math.prod(outs)):
        idx = []
        rem = pos
        for a in reversed(range(rank)):
            idx.insert(0, rem % outs[a])
            rem //= outs[a]
        sl = [slice(None)] + [slice(idx[a] * strides[a], idx[a] * strides[a] + ksize[a]) for a in range(rank)]
        window = x[tuple(sl)].reshape(x.shape[0], -1)  # (kernel axes..., channels) row-major
        rows.append(window @ kernel[pos])
    y = torch.stack(rows, dim=1).reshape(x.shape[0], *outs, -1)
    if bias is not None:
        y = y + bias
    return torch.tanh(y) if activation == "tanh" else y


def lc_case(cls, filters, ksize, strides, in_shape, use_bias=True, activation="linear"):
    rank = len(ksize)
    outs = [(in_shape[1 + a] - ksize[a]) // strides[a] + 1 for a in range(rank)]
    weights = [rand(math.prod(outs), math.prod(ksize) * in_shape[-1], filters, lo=-0.5, hi=0.5)]
    if use_bias:
        weights.append(rand(*outs, filters, lo=-0.5, hi=0.5))
    config = {"name": cls.lower(), "trainable": True, "dtype": "float32", "filters": filters,
              "kernel_size": list(ksize), "strides": list(strides), "padding": "valid", "data_format": "channels_last",
              "activation": activation, "use_bias": use_bias,
              "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
              "bias_initializer": {"class_name": "Zeros", "config": {}},
              "kernel_regularizer": None, "bias_regularizer": None, "activity_regularizer": None,
              "kernel_constraint": None, "bias_constraint": None, "implementation": 1}
    add("locally_connected", cls, config, [rand(*in_shape)], weights,
        lambda x, k, b=None: locally_connected(x, k, b, ksize, strides, activation))


lc_case("LocallyConnected1D", 3, (3,), (2,), (2, 9, 4))
lc_case("LocallyConnected1D", 2, (2,), (1,), (1, 5, 3), use_bias=False, activation="tanh")
lc_case("LocallyConnected2D", 2, (2, 3), (2, 1), (2, 5, 6, 3))
lc_case("LocallyConnected2D", 3, (3, 3), (2, 2), (1, 7, 6, 2), activation="tanh")


# ---------------------------------------------------------------- ConvLSTM2D

def hard_sigmoid(x):
    return torch.clamp(0.2 * x + 0.5, 0.0, 1.0)


def conv_nhwc(x, kernel, strides, padding, dilation):
    # x [n, h, w, c], kernel [kh, kw, in, out] (Keras) → torch NCHW / OIHW; Keras's "same" padding.
    xt = x.permute(0, 3, 1, 2)
    w = kernel.permute(3, 2, 0, 1)
    if padding == "same":
        pads = []
        for a in (1, 0):  # F.pad wants the last axis first
            n, k, s, d = x.shape[1 + a], kernel.shape[a], strides[a], dilation[a]
            out = -(-n // s)
            total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
            pads += [total // 2, total - total // 2]
        xt = F.pad(xt, pads)
    return F.conv2d(xt, w, stride=strides, dilation=dilation).permute(0, 2, 3, 1)


def conv_lstm(x, kernel, rkernel, bias, filters, strides, padding, dilation, go_backwards, return_sequences):
    b, t = x.shape[:2]
    steps = range(t - 1, -1, -1) if go_backwards else range(t)
    h = c = None
    outs = []
    for step in steps:
        z = conv_nhwc(x[:, step], kernel, strides, padding, dilation)
        if bias is not None:
            z = z + bias
        if h is None:
            h = torch.zeros(*z.shape[:3], filters, dtype=x.dtype)
            c = torch.zeros_like(h)
        z = z + conv_nhwc(h, rkernel, (1, 1), "same", (1, 1))
        i, f, g, o = (z[..., n * filters:(n + 1) * filters] for n in range(4))
        c = hard_sigmoid(f) * c + hard_sigmoid(i) * torch.tanh(g)
        h = hard_sigmoid(o) * torch.tanh(c)
        outs.append(h)
    y = torch.stack(outs, dim=1) if return_sequences else h
    return y, h, c


def conv_lstm_case(filters, ksize, in_shape, strides=(1, 1), padding="valid", dilation=(1, 1), go_backwards=False,
                   return_sequences=False, use_bias=True):
    cin = in_shape[-1]
    s = 0.4
    weights = [rand(*ksize, cin, 4 * filters, lo=-s, hi=s), rand(*ksize, filters, 4 * filters, lo=-s, hi=s)]
    if use_bias:
        weights.append(rand(4 * filters, lo=-s, hi=s))
    config = {"name": "conv_lstm2d", "trainable": True, "dtype": "float32", "return_sequences": return_sequences,
              "return_state": True, "go_backwards": go_backwards, "stateful": False, "unroll": False,
              "time_major": False, "filters": filters, "kernel_size": list(ksize), "strides": list(strides),
              "padding": padding, "data_format": "channels_last", "dilation_rate": list(dilation),
              "activation": "tanh", "recurrent_activation": "hard_sigmoid", "use_bias": use_bias,
              "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
              "recurrent_initializer": {"class_name": "Orthogonal", "config": {"gain": 1.0, "seed": None}},
              "bias_initializer": {"class_name": "Zeros", "config": {}}, "unit_forget_bias": True,
              "kernel_regularizer": None, "recurrent_regularizer": None, "bias_regularizer": None,
              "activity_regularizer": None, "kernel_constraint": None, "recurrent_constraint": None,
              "bias_constraint": None, "dropout": 0.0, "recurrent_dropout": 0.0}

    def fn(x, k, rk, b=None):
        return conv_lstm(x, k, rk, b, filters, strides, padding, dilation, go_backwards, return_sequences)

    add("conv_lstm2d", "ConvLSTM2D", config, [rand(*in_shape)], weights, fn)


conv_lstm_case(2, (3, 3), (2, 3, 4, 4, 2), padding="same", return_sequences=True)
conv_lstm_case(2, (3, 3), (1, 2, 5, 5, 2), strides=(2, 2), go_backwards=True)
conv_lstm_case(1, (2, 2), (1, 2, 5, 4, 1), dilation=(2, 2), use_bias=False, return_sequences=True)

with open(os.path.join(OUT, "attention.json"), "w") as f:
    json.dump(cases, f, separators=(",", ":"))
print("wrote", os.path.join(OUT, "attention.json"), os.path.getsize(os.path.join(OUT, "attention.json")), "bytes")
