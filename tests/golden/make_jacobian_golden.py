#!/usr/bin/python3
"""Writes tests/golden/jacobian.json: torch.autograd.functional.jacobian of y = softmax(tanh(x @ w)) (outputs coupled
through the softmax) with respect to x [2, 3], the full Jacobian [2, 4, 2, 3] and its per-sample blocks (what
tf.GradientTape.batch_jacobian returns, [2, 4, 3]), and torch.autograd.functional.hessian of
sum(softplus(x @ w) * c); tests/keras/jacobian_test.cpp compares keras::autodiff::jacobian and batch_jacobian.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_jacobian_golden.py
Inputs are float32 numbers; the maths runs in float64.
"""
import json
import os

import torch
from torch.autograd.functional import hessian, jacobian

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jacobian.json")
torch.manual_seed(5)


def f32(*shape):
    return (torch.rand(*shape) * 2 - 1).float().double()


def flat(t):
    return {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def main():
    x, w, c = f32(2, 3), f32(3, 4), f32(2, 4)
    j = jacobian(lambda x: torch.softmax(torch.tanh(x @ w), dim=-1), x)
    batch = torch.stack([j[b, :, b, :] for b in range(x.shape[0])])
    h = hessian(lambda x: (torch.nn.functional.softplus(x @ w) * c).sum(), x)
    with open(OUT, "w") as f:
        json.dump({"x": flat(x), "w": flat(w), "c": flat(c), "jacobian": flat(j), "batch_jacobian": flat(batch),
                   "hessian": flat(h)}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
