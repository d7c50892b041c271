#!/usr/bin/python3
"""Writes tests/golden/norm.json: BatchNormalization and LayerNormalization values and gradients
computed by PyTorch, which tests/layers/normalization_test.cpp compares against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_norm_golden.py

Keras layout is channels last; PyTorch's batch_norm wants channels at axis 1, so inputs are moved
there and back. Keras momentum m is PyTorch momentum 1 - m. PyTorch's running_var follows the
Bessel-corrected batch variance, as tf.keras 2.x's fused batch norm does. Gradients are those of
sum(y * w) for a fixed weighting w.
"""
import json
import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def tensor(t):
    t = t.detach()
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def draw(*shape, lo=-2.0, hi=2.0):
    # Drawn in float32 (what the C++ side holds), the math runs in float64.
    return (torch.rand(*shape) * (hi - lo) + lo).double()


def channels_first(x):
    return x.movedim(-1, 1) if x.dim() > 2 else x


def channels_last(x):
    return x.movedim(1, -1) if x.dim() > 2 else x


batch_norm = []
for shape, momentum, eps in [((6, 4), 0.9, 1e-3), ((2, 3, 3, 5), 0.99, 1e-3), ((5, 3), 0.5, 1e-2)]:
    c = shape[-1]
    x = draw(*shape).requires_grad_()
    gamma = draw(c, lo=0.5, hi=1.5).requires_grad_()
    beta = draw(c, lo=-0.5, hi=0.5).requires_grad_()
    moving_mean = draw(c, lo=-0.5, hi=0.5)
    moving_variance = draw(c, lo=0.5, hi=1.5)
    w = draw(*shape, lo=0.5, hi=1.5)
    running_mean, running_var = moving_mean.clone(), moving_variance.clone()
    y = channels_last(torch.nn.functional.batch_norm(channels_first(x), running_mean, running_var, gamma, beta,
                                                     training=True, momentum=1 - momentum, eps=eps))
    (y * w).sum().backward()
    x_test = draw(*shape)
    y_test = channels_last(torch.nn.functional.batch_norm(channels_first(x_test), running_mean, running_var, gamma,
                                                          beta, training=False, eps=eps))
    batch_norm.append({
        "momentum": momentum, "epsilon": eps,
        "x": tensor(x), "gamma": tensor(gamma), "beta": tensor(beta),
        "moving_mean": tensor(moving_mean), "moving_variance": tensor(moving_variance), "w": tensor(w),
        "y": tensor(y), "dx": tensor(x.grad), "dgamma": tensor(gamma.grad), "dbeta": tensor(beta.grad),
        "new_moving_mean": tensor(running_mean), "new_moving_variance": tensor(running_var),
        "x_test": tensor(x_test), "y_test": tensor(y_test),
    })

layer_norm = []
for shape, axes, eps in [((4, 6), [-1], 1e-3), ((2, 3, 5), [-1], 1e-3), ((2, 3, 4), [-2, -1], 1e-2)]:
    pshape = shape[len(shape) - len(axes):]
    x = draw(*shape).requires_grad_()
    gamma = draw(*pshape, lo=0.5, hi=1.5).requires_grad_()
    beta = draw(*pshape, lo=-0.5, hi=0.5).requires_grad_()
    w = draw(*shape, lo=0.5, hi=1.5)
    y = torch.nn.functional.layer_norm(x, pshape, gamma, beta, eps=eps)
    (y * w).sum().backward()
    layer_norm.append({
        "axis": axes, "epsilon": eps, "x": tensor(x), "gamma": tensor(gamma), "beta": tensor(beta), "w": tensor(w),
        "y": tensor(y), "dx": tensor(x.grad), "dgamma": tensor(gamma.grad), "dbeta": tensor(beta.grad),
    })

with open(os.path.join(OUT, "norm.json"), "w") as f:
    json.dump({"generator": "tests/golden/make_norm_golden.py", "torch": torch.__version__,
               "batch_norm": batch_norm, "layer_norm": layer_norm}, f, indent=1)
print(f"wrote {len(batch_norm)} batch norm and {len(layer_norm)} layer norm cases")
