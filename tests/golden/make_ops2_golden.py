#!/usr/bin/python3
"""Writes tests/golden/ops2.json: forward values and gradients of the keras::ops index, shape, sorting,
cumulative, diagonal, selection, binary-math, softmax, einsum and linear-algebra ops computed by PyTorch, which
tests/keras/ops_numpy_test.cpp compares against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_ops2_golden.py

Float inputs are drawn in float32 (what the C++ side holds); the maths runs in float64. Gradients are those of
sum(y * w) for a fixed random weighting w of y's shape, with respect to every float input ("grads" holds null
for integer inputs). Ops whose output is an integer tensor have no gradient ("w" is null). Index outputs are int32, as Keras's.
"""
import json
import math
import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def tensor(t):
    t = t.detach()
    dtype = {torch.float64: "float32", torch.float32: "float32", torch.int64: "int64", torch.int32: "int32",
             torch.bool: "bool"}[t.dtype]
    # JSON has no NaN or infinities: those are written as the strings "nan", "inf", "-inf".
    data = [v if math.isfinite(v) else str(v) for v in (float(x) for x in t.reshape(-1).double())]
    return {"dtype": dtype, "shape": list(t.shape), "data": data}


def draw(*shape, lo=-2.0, hi=2.0):
    return (torch.rand(*shape) * (hi - lo) + lo).float().double()


def ints(values):
    return torch.tensor(values, dtype=torch.int64)


def case(op, fn, inputs, args=None, differentiable=True):
    inputs = [x.clone().requires_grad_(x.is_floating_point()) for x in inputs]
    y = fn(*inputs)
    c = {"op": op, "args": args or {}, "inputs": [tensor(x) for x in inputs], "y": tensor(y), "w": None, "grads": None}
    if differentiable and y.is_floating_point() and any(x.is_floating_point() for x in inputs):
        w = torch.rand(tuple(y.shape)).float().double() * 2 - 1
        float_inputs = [x for x in inputs if x.is_floating_point()]
        grads = torch.autograd.grad((y * w).sum(), float_inputs, allow_unused=True)
        it = iter(grads)
        c["w"] = tensor(w)
        c["grads"] = []
        for x in inputs:
            if not x.is_floating_point():
                c["grads"].append(None)
                continue
            g = next(it)
            c["grads"].append(tensor(g if g is not None else torch.zeros_like(x)))
    return c


def prod_axes(x, axes, keepdims):
    keep = [d for d in range(x.dim()) if d not in axes]
    moved = x.permute(*(keep + list(axes))).reshape(*[x.shape[d] for d in keep], -1)
    p = moved.prod(-1)
    if keepdims:
        p = p.reshape([1 if d in axes else x.shape[d] for d in range(x.dim())])
    return p


def index_cases():
    x = draw(3, 4, 2)
    return [
        case("take", lambda x, i: x.reshape(-1)[i], [x, ints([[0, 5], [23, -1]])], {"axis": None}),
        case("take", lambda x, i: x[:, i], [x, ints([[3, 0, 3], [1, -2, 2]])], {"axis": 1}),
        case("take", lambda x, i: x[..., i], [draw(2, 3), ints([2, 2, 0])], {"axis": -1}),
        case("take_along_axis", lambda x, i: torch.take_along_dim(x, i, 1), [draw(3, 4), ints([[0, 3], [1, 1], [2, 0]])],
             {"axis": 1}),
        case("take_along_axis", lambda x, i: torch.take_along_dim(x, i, 0), [draw(3, 4), ints([[2, 0, 1, 1]])],
             {"axis": 0}),
        case("gather_nd", lambda x, i: x[i[..., 0], i[..., 1]], [x, ints([[0, 1], [2, 3], [0, 1]])]),
        case("gather_nd", lambda x, i: x[i[..., 0]], [draw(3, 2), ints([[[2], [0]]])]),
        case("scatter", lambda i, v: torch.zeros(4, 3, dtype=v.dtype).index_put((i[:, 0],), v, accumulate=True),
             [ints([[1], [3], [1]]), draw(3, 3)], {"shape": [4, 3]}),
        case("scatter", lambda i, v: torch.zeros(3, 4, dtype=v.dtype).index_put((i[:, 0], i[:, 1]), v, accumulate=True),
             [ints([[0, 1], [2, 3], [0, 1]]), draw(3)], {"shape": [3, 4]}),
        case("scatter_update", lambda x, i, v: x.index_put((i[:, 0], i[:, 1]), v),
             [draw(3, 4), ints([[0, 1], [2, 3]]), draw(2)]),
        case("segment_sum", lambda d, s: torch.zeros(4, 2, dtype=d.dtype).index_add(0, s, d),
             [draw(5, 2), ints([0, 0, 3, 1, 3])], {"num_segments": 4}),
    ]


def shape_cases():
    def unstack_weighted(x):
        return torch.stack([u * (i + 1) for i, u in enumerate(torch.unbind(x, 1))], 0)

    def split_weighted(x, sections_or_points, axis):
        if isinstance(sections_or_points, int):
            pieces = torch.tensor_split(x, sections_or_points, axis)
        else:
            pieces = torch.tensor_split(x, sections_or_points, axis)
        return torch.cat([p * (i + 1) for i, p in enumerate(pieces)], axis)

    return [
        case("broadcast_to", lambda x: torch.broadcast_to(x, (2, 3, 4)), [draw(3, 1)], {"shape": [2, 3, 4]}),
        case("tile", lambda x: torch.tile(x, (2, 1, 3)), [draw(2, 3)], {"reps": [2, 1, 3]}),
        case("tile", lambda x: torch.tile(x, (2,)), [draw(2, 3)], {"reps": [2]}),
        case("stack", lambda a, b, c: torch.stack([a, b, c], 1), [draw(2, 3), draw(2, 3), draw(2, 3)], {"axis": 1}),
        case("stack", lambda a, b: torch.stack([a, b], -1), [draw(2, 3), draw(2, 3)], {"axis": -1}),
        case("unstack", unstack_weighted, [draw(2, 3, 2)], {"axis": 1}),
        case("split", lambda x: split_weighted(x, 3, 1), [draw(2, 6)], {"sections": 3, "axis": 1}),
        case("split", lambda x: split_weighted(x, [1, 3], 0), [draw(5, 2)], {"indices": [1, 3], "axis": 0}),
        case("squeeze", lambda x: x.squeeze(), [draw(1, 3, 1, 2)], {"axes": []}),
        case("squeeze", lambda x: x.squeeze(2), [draw(1, 3, 1, 2)], {"axes": [-2]}),
        case("flip", lambda x: torch.flip(x, (0, 2)), [draw(2, 3, 4)], {"axes": [0, 2]}),
        case("flip", lambda x: torch.flip(x, (0, 1)), [draw(2, 3)], {"axes": []}),
        case("roll", lambda x: torch.roll(x, 2, 1), [draw(2, 5)], {"shift": 2, "axis": 1}),
        case("roll", lambda x: torch.roll(x, -3), [draw(2, 5)], {"shift": -3, "axis": None}),
        case("permute_axes", lambda x: x.permute(2, 0, 1), [draw(2, 3, 4)], {"perm": [2, 0, 1]}),
    ]


def sorting_cases():
    x = torch.tensor([[3.0, -1.0, 2.0, -1.0, 0.5], [0.0, 4.0, 4.0, -2.0, 1.0]], dtype=torch.float64)
    return [
        case("sort", lambda x: torch.sort(x, dim=-1, stable=True).values, [x], {"axis": -1}),
        case("sort", lambda x: torch.sort(x, dim=0, stable=True).values, [draw(4, 3)], {"axis": 0}),
        case("argsort", lambda x: torch.sort(x, dim=-1, stable=True).indices.int(), [x], {"axis": -1}),
        case("argsort", lambda x: torch.sort(x, dim=0, stable=True).indices.int(), [x], {"axis": 0}),
        case("top_k_values", lambda x: torch.topk(x, 3).values, [draw(3, 6)], {"k": 3}),
        case("top_k_indices", lambda x: torch.topk(x, 2).indices.int(), [draw(3, 6)], {"k": 2}),
        case("argmin", lambda x: torch.argmin(x, 1).int(), [draw(3, 5)], {"axis": 1}),
        case("argmin", lambda x: torch.argmin(x, 0).int(), [draw(3, 5)], {"axis": 0}),
    ]


def cumulative_cases():
    with_zero = draw(3, 5)
    with_zero[1, 2] = 0.0
    with_zero[2, 0] = 0.0
    with_zero[2, 3] = 0.0
    return [
        case("cumsum", lambda x: torch.cumsum(x, 1), [draw(3, 4)], {"axis": 1}),
        case("cumsum", lambda x: torch.cumsum(x.reshape(-1), 0), [draw(3, 4)], {"axis": None}),
        case("cumprod", lambda x: torch.cumprod(x, 0), [draw(4, 3, lo=0.5, hi=1.5)], {"axis": 0}),
        case("cumprod", lambda x: torch.cumprod(x, 1), [with_zero], {"axis": 1}),
        case("prod", lambda x: prod_axes(x, [1], False), [draw(3, 4)], {"axes": [1], "keepdims": False}),
        case("prod", lambda x: prod_axes(x, [0, 2], True), [draw(2, 3, 2)], {"axes": [0, 2], "keepdims": True}),
        case("prod", lambda x: prod_axes(x, [1], False), [with_zero], {"axes": [1], "keepdims": False}),
        case("prod", lambda x: x.prod(), [draw(2, 3, lo=0.5, hi=1.5)], {"axes": [], "keepdims": False}),
    ]


def diagonal_cases():
    return [
        case("diag", lambda x: torch.diag(x, 1), [draw(3)], {"k": 1}),
        case("diag", lambda x: torch.diag(x, -1), [draw(3, 4)], {"k": -1}),
        case("diagonal", lambda x: torch.diagonal(x, 1, 0, 2), [draw(3, 2, 4)], {"offset": 1, "axis1": 0, "axis2": 2}),
        case("trace", lambda x: torch.diagonal(x, 0, 1, 2).sum(-1), [draw(2, 3, 3)], {"offset": 0, "axis1": 1, "axis2": 2}),
        case("trace", lambda x: torch.trace(x), [draw(4, 4)], {"offset": 0, "axis1": 0, "axis2": 1}),
        case("tril", lambda x: torch.tril(x), [draw(2, 3, 3)], {"k": 0}),
        case("triu", lambda x: torch.triu(x, 1), [draw(3, 4)], {"k": 1}),
    ]


def math_cases():
    zero_base = draw(2, 3, lo=0.2, hi=2.0)
    zero_base[0, 1] = 0.0
    return [
        case("where", lambda c, a, b: torch.where(c, a, b), [torch.tensor([[True], [False]]), draw(2, 3), draw(3)]),
        case("where", lambda c, a, b: torch.where(c != 0, a, b), [ints([1, 0, 2]), draw(2, 3), draw(2, 1)]),
        case("power", torch.pow, [draw(2, 3, lo=0.2, hi=2.0), draw(2, 3)]),
        case("power", torch.pow, [zero_base, draw(1, 3, lo=1.0, hi=2.0)]),
        case("mod", torch.remainder, [draw(2, 3, lo=-5, hi=5), torch.tensor([1.5, -2.0, 0.7], dtype=torch.float64)]),
        case("floor_divide", lambda a, b: torch.div(a, b, rounding_mode="floor"),
             [ints([[7, -7, 7, -7]]), ints([2, 2, -2, -2])]),
        case("mod", torch.remainder, [ints([[7, -7, 7, -7]]), ints([2, 2, -2, -2])]),
        case("softmax", lambda x: torch.softmax(x, 1), [draw(2, 3, 4)], {"axis": 1}),
        case("softmax", lambda x: torch.softmax(x, 0), [draw(3, 4)], {"axis": 0}),
        case("log_softmax", lambda x: torch.log_softmax(x, 0), [draw(2, 3, 4)], {"axis": 0}),
    ]


def einsum_cases():
    e = lambda eq: (lambda *xs: torch.einsum(eq, *xs))
    return [
        case("einsum", e("ij,jk->ik"), [draw(2, 3), draw(3, 4)], {"eq": "ij,jk->ik"}),
        case("einsum", e("ij,jk"), [draw(2, 3), draw(3, 4)], {"eq": "ij,jk"}),
        case("einsum", e("bij,bjk->bik"), [draw(2, 2, 3), draw(2, 3, 2)], {"eq": "bij,bjk->bik"}),
        case("einsum", e("bhqd,bhkd->bhqk"), [draw(2, 2, 3, 4), draw(2, 2, 5, 4)], {"eq": "bhqd,bhkd->bhqk"}),
        case("einsum", e("ii->i"), [draw(3, 3)], {"eq": "ii->i"}),
        case("einsum", e("ii"), [draw(3, 3)], {"eq": "ii"}),
        case("einsum", e("ij->ji"), [draw(2, 3)], {"eq": "ij->ji"}),
        case("einsum", e("ij,ij->"), [draw(2, 3), draw(2, 3)], {"eq": "ij,ij->"}),
        case("einsum", e("i,j->ij"), [draw(3), draw(2)], {"eq": "i,j->ij"}),
        case("einsum", e("...ij,...jk->...ik"), [draw(2, 2, 3), draw(2, 3, 2)], {"eq": "...ij,...jk->...ik"}),
        case("einsum", e("abc,cd,de->abe"), [draw(2, 3, 2), draw(2, 4), draw(4, 3)], {"eq": "abc,cd,de->abe"}),
        case("einsum", e("ijk->j"), [draw(2, 3, 4)], {"eq": "ijk->j"}),
    ]


def creation_cases():
    return [
        case("arange", lambda: torch.arange(2, 11, 3, dtype=torch.int32), [], {"start": 2, "stop": 11, "step": 3}),
        case("arange", lambda: torch.arange(0.5, 2.0, 0.25, dtype=torch.float64), [], {"start": 0.5, "stop": 2.0, "step": 0.25}),
        case("linspace", lambda: torch.linspace(-1, 2, 7, dtype=torch.float64), [], {"start": -1, "stop": 2, "num": 7}),
        case("eye", lambda: torch.eye(3, 4, dtype=torch.float64), [], {"n": 3, "m": 4}),
    ]


def spd(n, batch=()):
    b = draw(*batch, n, n)
    return (b @ b.transpose(-1, -2) + n * torch.eye(n, dtype=torch.float64)).float().double()


def linalg_cases():
    inf = float("inf")
    with_zero_row = draw(3, 4)
    return [
        case("inv", torch.linalg.inv, [spd(3) - 2 * draw(3, 3, lo=0, hi=1)]),
        case("inv", torch.linalg.inv, [spd(2, (2,))]),
        case("det", torch.linalg.det, [draw(3, 3)]),
        case("det", torch.linalg.det, [draw(2, 2, 2)]),
        case("solve", torch.linalg.solve, [spd(3) - draw(3, 3, lo=0, hi=1), draw(3, 2)]),
        case("solve", torch.linalg.solve, [spd(3, (2,)), draw(2, 3)]),
        case("cholesky", torch.linalg.cholesky, [spd(3)]),
        case("cholesky", torch.linalg.cholesky, [spd(2, (2,))]),
        case("matrix_transpose", lambda x: x.transpose(-1, -2), [draw(2, 3, 4)]),
        case("norm", lambda x: torch.linalg.vector_norm(x.reshape(-1)), [draw(2, 3)], {"ord": None, "axes": []}),
        case("norm", lambda x: torch.linalg.vector_norm(x, 2, -1), [draw(2, 3)], {"ord": 2, "axes": [-1]}),
        case("norm", lambda x: torch.linalg.vector_norm(x, 1, 0, keepdim=True), [draw(2, 3)],
             {"ord": 1, "axes": [0], "keepdims": True}),
        case("norm", lambda x: torch.linalg.vector_norm(x, inf, 1), [draw(2, 3)], {"ord": "inf", "axes": [1]}),
        case("norm", lambda x: torch.linalg.vector_norm(x, -inf, 1), [draw(2, 3)], {"ord": "-inf", "axes": [1]}),
        case("norm", lambda x: torch.linalg.vector_norm(x, 3, 1), [draw(2, 3)], {"ord": 3, "axes": [1]}),
        case("norm", lambda x: torch.linalg.vector_norm(x, 0, 1), [with_zero_row.masked_fill(with_zero_row > 1, 0)],
             {"ord": 0, "axes": [1]}),
        case("norm", lambda x: torch.linalg.matrix_norm(x), [draw(2, 3, 4)], {"ord": "fro", "axes": [-2, -1]}),
        case("norm", lambda x: torch.linalg.matrix_norm(x, 1), [draw(3, 4)], {"ord": 1, "axes": []}),
        case("norm", lambda x: torch.linalg.matrix_norm(x, -1, dim=(1, 0)), [draw(3, 4)], {"ord": -1, "axes": [1, 0]}),
        case("norm", lambda x: torch.linalg.matrix_norm(x, inf, keepdim=True), [draw(2, 3, 4)],
             {"ord": "inf", "axes": [1, 2], "keepdims": True}),
        case("norm", lambda x: torch.linalg.matrix_norm(x, "nuc"), [draw(3, 4)], {"ord": "nuc", "axes": [0, 1]}, False),
        case("norm", lambda x: torch.linalg.matrix_norm(x, 2), [draw(2, 4, 3)], {"ord": 2, "axes": [1, 2]}, False),
        case("norm", lambda x: torch.linalg.matrix_norm(x, -2), [draw(4, 3)], {"ord": -2, "axes": [0, 1]}, False),
        case("svd_s", lambda x: torch.linalg.svdvals(x), [draw(2, 4, 3)], {}, False),
        case("svd_s", lambda x: torch.linalg.svdvals(x), [draw(3, 5)], {}, False),
        case("eigh_w", lambda x: torch.linalg.eigvalsh(x), [spd(4, (2,)) - 3 * torch.eye(4, dtype=torch.float64)], {}, False),
        case("qr_r_abs", lambda x: torch.linalg.qr(x).R.abs(), [draw(4, 3)], {}, False),
        case("qr_r_abs", lambda x: torch.linalg.qr(x, "complete").R.abs(), [draw(2, 3, 4)], {"mode": "complete"}, False),
    ]


def logic_cases():
    a = torch.tensor([[1.0, float("nan"), -2.0], [0.0, 3.0, float("inf")]], dtype=torch.float64)
    b = torch.tensor([1.0, 2.0, -float("inf")], dtype=torch.float64)
    i = ints([[1, 0, 3], [0, 0, 5]])
    return [
        case("equal", torch.eq, [a, b]),
        case("not_equal", torch.ne, [a, b]),
        case("less", torch.lt, [a, b]),
        case("less_equal", torch.le, [i, ints([0, 0, 4])]),
        case("greater", torch.gt, [i, b]),
        case("greater_equal", torch.ge, [a, torch.tensor(0.0, dtype=torch.float64)]),
        case("isnan", torch.isnan, [a]),
        case("isinf", torch.isinf, [a]),
        case("isfinite", torch.isfinite, [a]),
        case("isfinite", torch.isfinite, [i]),
        case("logical_and", torch.logical_and, [i, a]),
        case("logical_or", torch.logical_or, [i, ints([0, 0, 1])]),
        case("logical_xor", torch.logical_xor, [i, ints([1, 0, 1])]),
        case("logical_not", torch.logical_not, [a]),
        case("any", lambda x: torch.any(x != 0, 1), [i], {"axes": [1], "keepdims": False}),
        case("any", lambda x: torch.any(x != 0), [ints([[0, 0], [0, 0]])], {"axes": [], "keepdims": False}),
        case("all", lambda x: torch.all(x != 0, 0, keepdim=True), [i], {"axes": [0], "keepdims": True}),
        case("all", lambda x: torch.all(x != 0), [a], {"axes": [], "keepdims": False}),
    ]


def main():
    cases = (index_cases() + shape_cases() + sorting_cases() + cumulative_cases() + diagonal_cases() + math_cases()
             + einsum_cases() + creation_cases() + linalg_cases() + logic_cases())
    with open(os.path.join(OUT, "ops2.json"), "w") as f:
        json.dump({"generator": "tests/golden/make_ops2_golden.py", "torch": torch.__version__, "cases": cases}, f)


if __name__ == "__main__":
    main()
