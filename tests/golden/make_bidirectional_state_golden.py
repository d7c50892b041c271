#!/usr/bin/python3
"""Golden values for Bidirectional(LSTM) started from initial states, computed by PyTorch's own bidirectional
LSTM (torch.nn.LSTM(bidirectional=True), float64), independent of kerascpp.

Keras semantics mapped onto torch: Bidirectional(LSTM(units)) called with initial_state=[h_f, c_f, h_b, c_b]
gives the first half to the forward layer and the second half to the backward one (torch: h0 = [h_f, h_b],
c0 = [c_f, c_b]). Keras's kernel [in, 4u] is torch's weight_ih.T, recurrent_kernel [u, 4u] is weight_hh.T, gates
i, f, c, o in both; Keras has one bias (torch: bias_ih = bias, bias_hh = 0). With return_sequences, Keras re-reverses
the backward sequence so step t of both lines up, as torch's output does; without it the backward output is the
one after the backward pass reached step 0 (torch: output[:, 0, u:]). return_state: [output, h_f, c_f, h_b, c_b].

Each case: the inputs, the six weights in Keras's order (forward kernel, recurrent_kernel, bias, then backward),
the outputs, and the gradients of sum(output * w) (w fixed, given) with respect to x, the four initial states and
the six weights. Writes tests/golden/bidirectional_state.json. Run with Debian's /usr/bin/python3 (torch, numpy).
"""
import json
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(a):
    a = np.asarray(a, dtype=np.float64)
    return {"dtype": "float32", "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


def case(rng, batch, steps, features, units, return_sequences, merge_mode):
    f32 = lambda *shape: rng.uniform(-0.8, 0.8, size=shape).astype(np.float32).astype(np.float64)
    x = f32(batch, steps, features)
    states = [f32(batch, units) for _ in range(4)]  # h_f, c_f, h_b, c_b
    weights = []
    for _ in range(2):
        weights += [f32(features, 4 * units), f32(units, 4 * units), f32(4 * units)]

    lstm = torch.nn.LSTM(features, units, batch_first=True, bidirectional=True).double()
    with torch.no_grad():
        for suffix, (kernel, recurrent, bias) in (("", weights[0:3]), ("_reverse", weights[3:6])):
            getattr(lstm, "weight_ih_l0" + suffix).copy_(torch.from_numpy(kernel.T.copy()))
            getattr(lstm, "weight_hh_l0" + suffix).copy_(torch.from_numpy(recurrent.T.copy()))
            getattr(lstm, "bias_ih_l0" + suffix).copy_(torch.from_numpy(bias))
            getattr(lstm, "bias_hh_l0" + suffix).zero_()
    xt = torch.from_numpy(x).requires_grad_()
    st = [torch.from_numpy(s).requires_grad_() for s in states]
    h0 = torch.stack([st[0], st[2]])
    c0 = torch.stack([st[1], st[3]])
    seq, (hn, cn) = lstm(xt, (h0, c0))
    if return_sequences:
        fw, bw = seq[:, :, :units], seq[:, :, units:]
    else:
        fw, bw = seq[:, -1, :units], seq[:, 0, units:]
    merged = {"concat": lambda: torch.cat([fw, bw], dim=-1), "sum": lambda: fw + bw, "mul": lambda: fw * bw,
              "ave": lambda: (fw + bw) / 2}[merge_mode]()
    w = rng.uniform(0.5, 1.5, size=tuple(merged.shape)).astype(np.float32).astype(np.float64)
    (merged * torch.from_numpy(w)).sum().backward()

    weight_grads = []
    for suffix in ("", "_reverse"):
        weight_grads += [getattr(lstm, "weight_ih_l0" + suffix).grad.numpy().T,
                         getattr(lstm, "weight_hh_l0" + suffix).grad.numpy().T,
                         getattr(lstm, "bias_ih_l0" + suffix).grad.numpy()]
    d = lambda t: t.detach().numpy()
    return {
        "units": units, "return_sequences": return_sequences, "merge_mode": merge_mode,
        "x": tensor(x), "initial_state": [tensor(s) for s in states], "weights": [tensor(v) for v in weights],
        "output": tensor(d(merged)),
        "states": [tensor(d(hn[0])), tensor(d(cn[0])), tensor(d(hn[1])), tensor(d(cn[1]))],
        "w": tensor(w),
        "grad_x": tensor(xt.grad.numpy()),
        "grad_initial_state": [tensor(s.grad.numpy()) for s in st],
        "grad_weights": [tensor(g) for g in weight_grads],
    }


def main():
    rng = np.random.RandomState(2024)
    golden = {
        "source": "torch.nn.LSTM(bidirectional=True) float64, make_bidirectional_state_golden.py",
        "cases": [case(rng, 2, 5, 4, 3, True, "concat"), case(rng, 3, 4, 2, 3, False, "ave")],
    }
    with open(os.path.join(HERE, "bidirectional_state.json"), "w") as out:
        json.dump(golden, out)


if __name__ == "__main__":
    main()
