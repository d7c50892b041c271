#!/usr/bin/python3
"""Writes tests/golden/ops.json: forward values and gradients of keras::ops element-wise functions and
reductions computed by PyTorch, which tests/keras/ops/unary_math_and_reductions_test.cpp compares against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_ops_golden.py

Inputs are drawn in float32 (what the C++ side holds) inside each function's domain; the maths runs in
float64. Gradients are those of sum(y * w) for a fixed random weighting w of y's shape.
"""
import json
import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def tensor(t):
    t = t.detach()
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def draw(shape, lo, hi):
    return (torch.rand(*shape) * (hi - lo) + lo).float().double()


def case(name, fn, x, args=None):
    x = x.clone().requires_grad_(True)
    y = fn(x)
    w = torch.rand(tuple(y.shape)).float().double() * 2 - 1
    (g,) = torch.autograd.grad((y * w).sum(), x)
    return {"op": name, "args": args or {}, "x": tensor(x), "w": tensor(w), "y": tensor(y), "grad": tensor(g)}


def main():
    s = (3, 4)
    cases = [
        case("sin", torch.sin, draw(s, -4, 4)),
        case("cos", torch.cos, draw(s, -4, 4)),
        case("tan", torch.tan, draw(s, -1.2, 1.2)),
        case("arcsin", torch.asin, draw(s, -0.95, 0.95)),
        case("arccos", torch.acos, draw(s, -0.95, 0.95)),
        case("arctan", torch.atan, draw(s, -5, 5)),
        case("sinh", torch.sinh, draw(s, -3, 3)),
        case("cosh", torch.cosh, draw(s, -3, 3)),
        case("arcsinh", torch.asinh, draw(s, -5, 5)),
        case("arctanh", torch.atanh, draw(s, -0.95, 0.95)),
        case("sign", torch.sign, torch.tensor([[-2.0, 0.0, 3.5, -0.1]], dtype=torch.float64)),
        case("floor", torch.floor, draw(s, -5, 5)),
        case("ceil", torch.ceil, draw(s, -5, 5)),
        # Halves round to even, as NumPy and Keras.
        case("round", torch.round, torch.tensor([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -3.7]], dtype=torch.float64)),
        case("log1p", torch.log1p, draw(s, -0.9, 5)),
        case("expm1", torch.expm1, draw(s, -3, 3)),
        case("rsqrt", torch.rsqrt, draw(s, 0.1, 4)),
        case("erf", torch.erf, draw(s, -3, 3)),
        case("min", lambda x: torch.amin(x, dim=1), draw(s, -3, 3), {"axes": [1], "keepdims": False}),
        case("min", lambda x: torch.amin(x), draw(s, -3, 3), {"axes": [], "keepdims": False}),
        case("var", lambda x: torch.var(x, dim=0, unbiased=False, keepdim=True), draw(s, -3, 3),
             {"axes": [0], "keepdims": True}),
        case("std", lambda x: torch.std(x, unbiased=False), draw(s, -3, 3), {"axes": [], "keepdims": False}),
        case("std", lambda x: torch.std(x, dim=-1, unbiased=False), draw((2, 3, 4), -3, 3),
             {"axes": [-1], "keepdims": False}),
        case("logsumexp", lambda x: torch.logsumexp(x, dim=-1), draw(s, -3, 3), {"axes": [-1], "keepdims": False}),
        # Large values would overflow a naive log(sum(exp(x))).
        case("logsumexp", lambda x: torch.logsumexp(x, dim=(0, 2), keepdim=True), draw((2, 3, 2), 95, 100),
             {"axes": [0, 2], "keepdims": True}),
    ]
    with open(os.path.join(OUT, "ops.json"), "w") as f:
        json.dump({"generator": "tests/golden/make_ops_golden.py", "torch": torch.__version__, "cases": cases}, f)


if __name__ == "__main__":
    main()
