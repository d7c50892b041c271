#!/usr/bin/python3
"""Writes tests/golden/rnn.json: SimpleRNN, LSTM and GRU outputs, final states and gradients, which
tests/layers/recurrent/*_test.cpp compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_rnn_golden.py

Weights are drawn in Keras's layouts (kernel [in, G*units], recurrent_kernel [units, G*units], bias)
and converted for PyTorch: its LSTM gates are i, f, g, o (Keras i, f, c, o: the same order); its GRU
gates are r, z, n (Keras z, r, h) and it is the reset_after form, with Keras's input bias as bias_ih
and recurrent bias as bias_hh. GRU(reset_after=False), masked sequences and non-default activations
have no PyTorch module: a step loop of the Keras cell equations in float64 autograd is the reference.
Gradients are those of sum(seq * w_seq) + sum(h * w_h) (+ sum(c * w_c)) for fixed weightings.
"""
import json
import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def tensor(t):
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.detach().reshape(-1)]}


def rand(*shape, lo=-1.0, hi=1.0):
    return (torch.rand(*shape, dtype=torch.float32) * (hi - lo) + lo).double()


def hard_sigmoid(x):  # tf.keras 2.x: clip(0.2 x + 0.5, 0, 1)
    return torch.clamp(0.2 * x + 0.5, 0.0, 1.0)


ACT = {"tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu, "hard_sigmoid": hard_sigmoid}


def keras_step(kind, cfg, x, states, k, r, b):
    """One Keras cell step, float64 autograd."""
    act, ract = ACT[cfg.get("activation", "tanh")], ACT[cfg.get("recurrent_activation", "sigmoid")]
    u = r.shape[0]
    if kind == "simple_rnn":
        return [act(x @ k + b + states[0] @ r)]
    if kind == "lstm":
        h, c = states
        z = x @ k + b + h @ r
        i, f, g, o = ract(z[:, :u]), ract(z[:, u:2 * u]), act(z[:, 2 * u:3 * u]), ract(z[:, 3 * u:])
        c = f * c + i * g
        return [o * act(c), c]
    h = states[0]
    if cfg["reset_after"]:
        mx, mh = x @ k + b[0], h @ r + b[1]
        z = ract(mx[:, :u] + mh[:, :u])
        rr = ract(mx[:, u:2 * u] + mh[:, u:2 * u])
        hh = act(mx[:, 2 * u:] + rr * mh[:, 2 * u:])
    else:
        mx = x @ k + b
        z = ract(mx[:, :u] + h @ r[:, :u])
        rr = ract(mx[:, u:2 * u] + h @ r[:, u:2 * u])
        hh = act(mx[:, 2 * u:] + (rr * h) @ r[:, 2 * u:])
    return [z * h + (1 - z) * hh]


def keras_loop(kind, cfg, x, states, k, r, b, mask=None):
    """Keras's RNN loop: go_backwards reverses the input; a masked step keeps the states and repeats the output."""
    if cfg.get("go_backwards"):
        x = torch.flip(x, [1])
        mask = None if mask is None else torch.flip(mask, [1])
    prev = torch.zeros(x.shape[0], r.shape[0])
    outs = []
    for t in range(x.shape[1]):
        new = keras_step(kind, cfg, x[:, t], states, k, r, b)
        out = new[0]
        if mask is not None:
            m = mask[:, t:t + 1]
            out = m * out + (1 - m) * prev
            new = [m * n + (1 - m) * s for n, s in zip(new, states)]
        states, prev = new, out
        outs.append(out)
    return torch.stack(outs, 1), states


def torch_module(kind, cfg, x, states, k, r, b):
    """The same layer through torch.nn (batch_first), weights converted from Keras's layout."""
    i, u = k.shape[0], r.shape[0]
    if kind == "lstm":
        m = torch.nn.LSTM(i, u, batch_first=True)
        wi, wh, bi, bh = k.T, r.T, b, torch.zeros_like(b)
    elif kind == "gru":
        m = torch.nn.GRU(i, u, batch_first=True)
        def rz(t):  # Keras z, r, h → torch r, z, n along the last axis
            return torch.cat([t[..., u:2 * u], t[..., :u], t[..., 2 * u:]], -1)
        wi, wh, bi, bh = rz(k).T, rz(r).T, rz(b[0]), rz(b[1])
    else:
        m = torch.nn.RNN(i, u, batch_first=True, nonlinearity=cfg.get("activation", "tanh"))
        wi, wh, bi, bh = k.T, r.T, b, torch.zeros_like(b)
    m = m.double()
    with torch.no_grad():
        for name, value in {"weight_ih_l0": wi, "weight_hh_l0": wh, "bias_ih_l0": bi, "bias_hh_l0": bh}.items():
            getattr(m, name).copy_(value)
    xin = torch.flip(x, [1]) if cfg.get("go_backwards") else x
    hx = (states[0][None], states[1][None]) if kind == "lstm" else states[0][None]
    seq, hn = m(xin, hx)
    final = [hn[0][0], hn[1][0]] if kind == "lstm" else [hn[0]]

    def keras_grads(loss):
        """Gradients of loss for x, kernel, recurrent_kernel, bias, states (Keras layouts)."""
        gx, gwi, gwh, gbi, gbh, *gs = torch.autograd.grad(
            loss, [x, m.weight_ih_l0, m.weight_hh_l0, m.bias_ih_l0, m.bias_hh_l0] + states)
        if kind == "gru":
            def zr(t):  # torch r, z, n → Keras z, r, h
                return torch.cat([t[..., u:2 * u], t[..., :u], t[..., 2 * u:]], -1)
            return [gx, zr(gwi.T), zr(gwh.T), torch.stack([zr(gbi), zr(gbh)])] + gs
        return [gx, gwi.T, gwh.T, gbi] + gs
    return seq, final, keras_grads


def case(name, kind, cfg, n=2, t=4, i=3, u=5, masked=False, module=True):
    g = {"lstm": 4, "gru": 3, "simple_rnn": 1}[kind]
    x = rand(n, t, i).requires_grad_()
    k = rand(i, g * u, lo=-0.6, hi=0.6).requires_grad_()
    r = rand(u, g * u, lo=-0.6, hi=0.6).requires_grad_()
    b = rand(2, g * u, lo=-0.5, hi=0.5) if kind == "gru" and cfg["reset_after"] else rand(g * u, lo=-0.5, hi=0.5)
    b.requires_grad_()
    states = [rand(n, u).requires_grad_() for _ in range(2 if kind == "lstm" else 1)]
    mask = None
    if masked:  # post-padding in sample 0, a masked step in the middle of sample 1
        mask = torch.ones(n, t)
        mask[0, t - 2:] = 0
        mask[1, 1] = 0
    if module:
        seq, final, keras_grads = torch_module(kind, cfg, x, states, k, r, b)
    else:
        seq, final = keras_loop(kind, cfg, x, states, k, r, b, mask)
    w_seq = rand(*seq.shape, lo=0.5, hi=1.5)
    w_states = [rand(*s.shape, lo=0.5, hi=1.5) for s in final]
    loss = (seq * w_seq).sum() + sum((s * w).sum() for s, w in zip(final, w_states))
    grads = keras_grads(loss) if module else torch.autograd.grad(loss, [x, k, r, b] + states)
    out = {"name": name, "kind": kind, "config": cfg, "x": tensor(x), "kernel": tensor(k),
           "recurrent_kernel": tensor(r), "bias": tensor(b), "initial_state": [tensor(s) for s in states],
           "mask": tensor(mask) if mask is not None else None,
           "w_sequence": tensor(w_seq), "w_states": [tensor(w) for w in w_states],
           "sequence": tensor(seq), "states": [tensor(s) for s in final],
           "grads": {nm: tensor(gr) for nm, gr in zip(["x", "kernel", "recurrent_kernel", "bias"], grads[:4])},
           "grad_states": [tensor(gr) for gr in grads[4:]]}
    # The Keras loop must agree with PyTorch's module wherever both apply.
    if module and not masked:
        seq2, final2 = keras_loop(kind, cfg, x, states, k, r, b)
        assert torch.allclose(seq, seq2, atol=1e-10), name
        loss2 = (seq2 * w_seq).sum() + sum((s * w).sum() for s, w in zip(final2, w_states))
        for g1, g2 in zip(grads, torch.autograd.grad(loss2, [x, k, r, b] + states)):
            assert torch.allclose(g1, g2, atol=1e-10), name
    return out


cases = [
    case("lstm", "lstm", {"go_backwards": False}),
    case("lstm_backwards", "lstm", {"go_backwards": True}),
    case("gru_reset_after", "gru", {"reset_after": True}),
    case("gru_reset_after_backwards", "gru", {"reset_after": True, "go_backwards": True}),
    case("gru_reset_before", "gru", {"reset_after": False}, module=False),
    case("simple_rnn_tanh", "simple_rnn", {"activation": "tanh"}),
    case("simple_rnn_relu", "simple_rnn", {"activation": "relu"}),
    case("lstm_masked", "lstm", {}, masked=True, module=False),
    case("gru_masked_backwards", "gru", {"reset_after": True, "go_backwards": True}, masked=True, module=False),
    case("lstm_hard_sigmoid", "lstm", {"recurrent_activation": "hard_sigmoid"}, module=False),
    case("simple_rnn_masked", "simple_rnn", {"activation": "tanh"}, masked=True, module=False),
    # Units in multiples of 8: training runs kerascpp's own LSTM kernels (keras/kernels/lstm_training.cpp).
    case("lstm_units8", "lstm", {"go_backwards": False}, n=3, t=6, i=4, u=8),
    case("lstm_units16_backwards", "lstm", {"go_backwards": True}, n=5, t=3, i=7, u=16),
]
with open(os.path.join(OUT, "rnn.json"), "w") as f:
    json.dump({"cases": cases}, f)
print("wrote", len(cases), "cases")
