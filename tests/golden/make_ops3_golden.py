#!/usr/bin/python3
"""Writes tests/golden/ops3.json: values and gradients of keras.ops segment_max, slogdet and lu_factor computed by
PyTorch in float64, which tests/keras/ops_factor_segment_test.cpp compares against (in float32 within 1e-5 and in
float64 within 1e-10, the float64 gradients included).

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_ops3_golden.py

Inputs are float32 numbers (what the float32 side holds exactly); the maths runs in float64. Gradients are those of
sum(y * w) for a fixed random weighting w of y's shape.
  * segment_max: torch.Tensor.scatter_reduce(0, ids, data, "amax", include_self=False), whose gradient goes to the
    rows holding the max, shared equally among ties (TensorFlow's unsorted_segment_max does the same); one case has
    a tie. Every segment of these cases has a row (TensorFlow fills an empty one with the dtype's lowest value,
    checked by the C++ test itself).
  * slogdet: torch.linalg.slogdet; the gradient is that of logabsdet (the sign has none).
  * lu_factor: torch.linalg.lu_factor (LAPACK's getrf); its pivots are 1-based there and written 0-based here, as
    Keras's torch backend returns them; the gradient is torch's LU backward.
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops3.json")
torch.manual_seed(3)


def tensor(t):
    t = t.detach()
    dtype = {torch.float64: "float32", torch.int64: "int64", torch.int32: "int32"}[t.dtype]
    return {"dtype": dtype, "shape": list(t.shape), "data": [float(x) for x in t.reshape(-1).double()]}


def draw(*shape, lo=-2.0, hi=2.0):
    return (torch.rand(*shape) * (hi - lo) + lo).float().double()


def case(op, fn, inputs, args=None):
    inputs = [x.clone().requires_grad_(x.is_floating_point()) for x in inputs]
    outputs = fn(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    y = outputs[0]
    w = torch.rand(tuple(y.shape)).float().double() * 2 - 1
    (g,) = torch.autograd.grad((y * w).sum(), [inputs[0]])
    return {"op": op, "args": args or {}, "inputs": [tensor(x) for x in inputs],
            "outputs": [tensor(o) for o in outputs], "w": tensor(w), "grad": tensor(g)}


def segment_max(data, ids, n):
    shape = (n,) + tuple(data.shape[1:])
    index = ids.reshape((-1,) + (1,) * (data.dim() - 1)).expand(data.shape)
    return torch.zeros(shape, dtype=data.dtype).scatter_reduce(0, index, data, "amax", include_self=False)


def main():
    cases = []
    tied = draw(5, 3)
    tied[3, 1] = tied[1, 1] = torch.max(tied[1, 1], tied[3, 1])  # rows 1 and 3 are both segment 0's max there
    for data, ids, n in [(draw(6), [2, 0, 1, 0, 2, 1], 3), (tied, [1, 0, 2, 0, 1], 3),
                         (draw(7, 2, 2), [3, 3, 0, 1, 2, 0, 1], 4)]:
        ids = torch.tensor(ids, dtype=torch.int64)
        cases.append(case("segment_max", lambda d, i, n=n: segment_max(d, i, n), [data, ids], {"num_segments": n}))
    # slogdet as (logabsdet, sign): the weighted gradient is of logabsdet, the first output here.
    for shape in [(3, 3), (2, 4, 4), (1, 1)]:
        x = draw(*shape)
        cases.append(case("slogdet", lambda x: (torch.linalg.slogdet(x)[1], torch.linalg.slogdet(x)[0]), [x]))
    for shape in [(3, 3), (2, 4, 4), (5, 5)]:
        x = draw(*shape)
        cases.append(case("lu_factor",
                          lambda x: (torch.linalg.lu_factor(x)[0], (torch.linalg.lu_factor(x)[1] - 1).long()), [x]))
    with open(OUT, "w") as f:
        json.dump({"cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
