#!/usr/bin/python3
"""Writes tests/golden/dense.json: Dense forward values and gradients computed by PyTorch, which
tests/layers/dense_test.cpp compares against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_dense_golden.py

For each activation, y = act(x @ kernel + bias) with Keras's layout (kernel is [in, out]), and the
gradients of sum(y * w) with respect to x, kernel and bias for a fixed weighting w.
"""
import json
import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)

ACTIVATIONS = {
    "linear": lambda z: z,
    "relu": torch.relu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "softmax": lambda z: torch.softmax(z, dim=-1),
    "elu": torch.nn.functional.elu,
    "selu": torch.nn.functional.selu,
    "gelu": torch.nn.functional.gelu,
    "softplus": torch.nn.functional.softplus,
    "softsign": torch.nn.functional.softsign,
    "swish": torch.nn.functional.silu,
    "relu6": torch.nn.functional.relu6,
    "leaky_relu": lambda z: torch.nn.functional.leaky_relu(z, 0.2),
    "hard_sigmoid": lambda z: torch.clamp(0.2 * z + 0.5, 0.0, 1.0),
    "exponential": torch.exp,
}


def flat(t):
    return [float(v) for v in t.detach().reshape(-1)]


cases = []
for name, act in ACTIVATIONS.items():
    # Inputs are drawn in float32 (what the C++ side holds), the math runs in float64.
    x = (torch.rand(4, 5) * 4 - 2).double().requires_grad_()
    kernel = (torch.rand(5, 3) - 0.5).double().requires_grad_()
    bias = (torch.rand(3) - 0.5).double().requires_grad_()
    w = (torch.rand(4, 3) + 0.5).double()
    y = act(x @ kernel + bias)
    (y * w).sum().backward()
    cases.append({
        "activation": name,
        "x": flat(x), "x_shape": list(x.shape),
        "kernel": flat(kernel), "kernel_shape": list(kernel.shape),
        "bias": flat(bias), "w": flat(w),
        "y": flat(y), "dx": flat(x.grad), "dkernel": flat(kernel.grad), "dbias": flat(bias.grad),
    })

with open(os.path.join(OUT, "dense.json"), "w") as f:
    json.dump({"generator": "tests/golden/make_dense_golden.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
print(f"wrote {len(cases)} dense cases")
