#!/usr/bin/python3
"""Writes tests/golden/ctc_dice_tversky.json: Keras 3's CTC, Dice and Tversky losses and their gradients,
which tests/losses/ctc_dice_tversky_test.cpp compares against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_ctc_dice_tversky_golden.py

CTC comes from torch.nn.functional.ctc_loss (blank 0, per-sample, on log_softmax of the logits, every
time step used, label lengths = the count of non-zero labels), which is what keras.losses.ctc computes
with the torch backend. Dice and Tversky follow Keras 3's formulas (keras/src/losses/losses.py), written
here in torch so that autograd gives the gradients:
  dice    = 1 - 2 sum(t * p) / (sum(t) + sum(p) + 1e-7), sums over `axis` (all axes when None)
  tversky = 1 - I / (I + alpha * sum((1 - p) * t) + beta * sum(p * (1 - t)) + 1e-7), I = sum(t * p),
            over the flattened tensors.
Inputs are drawn in float32; the maths runs in float64. Gradients are those of sum(loss * w).
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
EPSILON = 1e-7


def tensor(t):
    t = t.detach()
    dtype = "int64" if t.dtype == torch.int64 else "float32"
    return {"dtype": dtype, "shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def draw(shape, lo=0.0, hi=1.0):
    return (torch.rand(shape) * (hi - lo) + lo).float().double()


def dice(t, p, axis):
    dims = tuple(axis) if axis is not None else tuple(range(t.dim()))
    return 1 - 2 * (t * p).sum(dim=dims) / (t.sum(dim=dims) + p.sum(dim=dims) + EPSILON)


def tversky(t, p, alpha, beta):
    t, p = t.reshape(-1), p.reshape(-1)
    i = (t * p).sum()
    return 1 - i / (i + alpha * ((1 - p) * t).sum() + beta * (p * (1 - t)).sum() + EPSILON)


def ctc(labels, logits):
    lengths = (labels != 0).sum(dim=1)
    log_probs = torch.log_softmax(logits, dim=-1).transpose(0, 1)  # [time, batch, classes]
    inputs = torch.full((logits.shape[0],), logits.shape[1], dtype=torch.int64)
    return F.ctc_loss(log_probs, labels, inputs, lengths, blank=0, reduction="none", zero_infinity=False)


def case(name, args, y_true, y_pred, fn):
    y_pred = y_pred.clone().requires_grad_(True)
    loss = fn(y_true, y_pred)
    w = draw(tuple(loss.shape), 0.5, 1.5)
    (g,) = torch.autograd.grad((loss * w).sum(), y_pred)
    return {"loss": name, "args": args, "y_true": tensor(y_true), "y_pred": tensor(y_pred), "w": tensor(w),
            "value": tensor(loss), "grad": tensor(g)}


def main():
    masks = (torch.rand(2, 4, 4, 1) > 0.5).double()
    probs = draw((2, 4, 4, 1), 0.05, 0.95)
    labels = torch.tensor([[1, 2, 2, 3], [3, 1, 0, 0], [2, 0, 0, 0]], dtype=torch.int64)
    logits = draw((3, 7, 4), -2, 2)
    cases = [
        case("dice", {"axis": None}, masks, probs, lambda t, p: dice(t, p, None)),
        case("dice", {"axis": [1, 2, 3]}, masks, probs, lambda t, p: dice(t, p, [1, 2, 3])),
        case("tversky", {"alpha": 0.5, "beta": 0.5}, masks, probs, lambda t, p: tversky(t, p, 0.5, 0.5)),
        case("tversky", {"alpha": 0.7, "beta": 0.3}, masks, probs, lambda t, p: tversky(t, p, 0.7, 0.3)),
        case("ctc", {}, labels, logits, ctc),
    ]
    with open(os.path.join(OUT, "ctc_dice_tversky.json"), "w") as f:
        json.dump({"generator": "tests/golden/make_ctc_dice_tversky_golden.py", "torch": torch.__version__,
                   "cases": cases}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
