#!/usr/bin/python3
"""Writes tests/golden/losses.json and tests/golden/metrics.json, the reference values that
tests/losses/losses_test.cpp and tests/metrics/metrics_test.cpp compare against.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_loss_metric_golden.py

Oracles:
  * PyTorch (torch.nn.functional) for mse, mae, binary and categorical crossentropy from logits and
    sparse categorical crossentropy, accuracies (argmax, thresholds).
  * NumPy in float32 for the probability forms, which follow tf.keras 2.x's own formulas (clipping to
    [1e-7, 1 - 1e-7], the extra epsilon inside BCE's logs, CCE's renormalization), because PyTorch
    clips differently. float32 is used so that the clipping constants round exactly as in TensorFlow.
Sample weighting and reductions follow tf.keras: weighted = per_sample * weight (a weight per sample,
broadcast over the other axes); "sum" adds everything; "sum_over_batch_size" divides that sum by the
number of per-sample values. Metrics are weighted means: sum(values * w) / sum(w), accumulated over batches.
"""
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
EPS = np.float32(1e-7)
ONE = np.float32(1.0)


def tensor(a, dtype="float32"):
    a = np.asarray(a)
    conv = {"float32": np.float32, "int32": np.int32, "int64": np.int64, "uint8": np.uint8}[dtype]
    a = a.astype(conv)
    data = [float(v) for v in a.ravel()] if dtype == "float32" else [int(v) for v in a.ravel()]
    return {"dtype": dtype, "shape": list(a.shape), "data": data}


def floats(a):
    return [float(v) for v in np.asarray(a, dtype=np.float64).ravel()]


def t64(a):
    return torch.tensor(np.asarray(a, dtype=np.float64))


# ----------------------------------------------------------------------------------------------- losses
def np_bce_probs(y, p, ls):
    """tf.keras.backend.binary_crossentropy on probabilities, after Keras's label smoothing; float32."""
    y = np.asarray(y, np.float32)
    p = np.asarray(p, np.float32)
    ls = np.float32(ls)
    if ls:
        y = y * (ONE - ls) + np.float32(0.5) * ls
    p = np.clip(p, EPS, ONE - EPS)
    bce = y * np.log(p + EPS) + (ONE - y) * np.log(ONE - p + EPS)
    return -bce


def np_cce_probs(y, p, ls, axis=-1):
    y = np.asarray(y, np.float32)
    p = np.asarray(p, np.float32)
    ls = np.float32(ls)
    if ls:
        y = y * (ONE - ls) + ls / np.float32(y.shape[-1])
    p = p / np.sum(p, axis=axis, keepdims=True)
    p = np.clip(p, EPS, ONE - EPS)
    return -np.sum(y * np.log(p), axis=axis)


def torch_smooth_bce_targets(y, ls):
    y = np.asarray(y, np.float32)
    ls = np.float32(ls)
    return y * (ONE - ls) + np.float32(0.5) * ls if ls else y


def loss_case(name, class_name, config, fn, fn_args, y_true, y_pred, per_sample, sample_weight=None):
    per_sample = np.asarray(per_sample, dtype=np.float64)
    weighted = per_sample
    if sample_weight is not None:
        w = np.asarray(sample_weight["data"], dtype=np.float64).reshape(sample_weight["shape"])
        w = w.reshape(w.shape + (1,) * (per_sample.ndim - w.ndim))
        weighted = per_sample * w
    return {
        "name": name,
        "class_name": class_name,
        "config": config,
        "fn": fn,
        "fn_args": fn_args,
        "y_true": y_true,
        "y_pred": y_pred,
        "sample_weight": sample_weight,
        "per_sample": {"shape": list(per_sample.shape), "data": floats(per_sample)},
        "none": {"shape": list(weighted.shape), "data": floats(weighted)},
        "sum": float(weighted.sum()),
        "sum_over_batch_size": float(weighted.sum() / weighted.size),
    }


def make_losses():
    rng = np.random.default_rng(1234)
    cases = []

    # Regression losses.
    yt = rng.normal(size=(3, 4)).astype(np.float32)
    yp = rng.normal(size=(3, 4)).astype(np.float32)
    sw = tensor([0.5, 2.0, 0.0])
    mse = F.mse_loss(t64(yp), t64(yt), reduction="none").mean(-1).numpy()
    mae = F.l1_loss(t64(yp), t64(yt), reduction="none").mean(-1).numpy()
    cases.append(loss_case("mse", "MeanSquaredError", {}, "mean_squared_error", {}, tensor(yt), tensor(yp), mse))
    cases.append(loss_case("mse weighted", "MeanSquaredError", {"name": "my_mse"}, "mean_squared_error", {},
                           tensor(yt), tensor(yp), mse, sw))
    cases.append(loss_case("mae", "MeanAbsoluteError", {}, "mean_absolute_error", {}, tensor(yt), tensor(yp), mae))
    cases.append(loss_case("mae weighted", "MeanAbsoluteError", {}, "mean_absolute_error", {}, tensor(yt),
                           tensor(yp), mae, sw))
    col_t = rng.normal(size=(4,)).astype(np.float32)
    col_p = rng.normal(size=(4, 1)).astype(np.float32)
    cases.append(loss_case("mse (N,) target vs (N, 1) predictions", "MeanSquaredError", {}, "mean_squared_error", {},
                           tensor(col_t), tensor(col_p),
                           F.mse_loss(t64(col_p[:, 0]), t64(col_t), reduction="none").numpy()))
    int_t = np.array([[1, 0], [3, -2]], np.int32)
    int_p = rng.normal(size=(2, 2)).astype(np.float32)
    cases.append(loss_case("mae int32 targets", "MeanAbsoluteError", {}, "mean_absolute_error", {},
                           tensor(int_t, "int32"), tensor(int_p),
                           F.l1_loss(t64(int_p), t64(int_t), reduction="none").mean(-1).numpy()))

    # Binary crossentropy on probabilities (Keras's clipped formula), including exact 0 and 1.
    bt = np.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 0, 0]], np.float32)
    bp = np.array([[0.9, 0.2, 1.0, 0.0], [0.0, 0.6, 0.35, 1.0], [0.5, 0.999, 0.01, 1e-9]], np.float32)
    for ls, w in ((0.0, None), (0.2, tensor([1.0, 0.25, 3.0]))):
        cases.append(loss_case(f"bce probabilities ls={ls}", "BinaryCrossentropy",
                               {"from_logits": False, "label_smoothing": ls}, "binary_crossentropy",
                               {"from_logits": False, "label_smoothing": ls}, tensor(bt), tensor(bp),
                               np_bce_probs(bt, bp, ls).astype(np.float64).mean(-1), w))

    # Binary crossentropy from logits, with logits of +-100.
    bl = np.array([[100.0, -100.0, 0.0, 2.5], [-100.0, 100.0, -3.0, 0.7], [100.0, 100.0, -100.0, -100.0]], np.float32)
    for ls, w in ((0.0, None), (0.1, tensor([2.0, 0.5, 1.0]))):
        target = torch_smooth_bce_targets(bt, ls)
        ps = F.binary_cross_entropy_with_logits(t64(bl), t64(target), reduction="none").mean(-1).numpy()
        cases.append(loss_case(f"bce logits ls={ls}", "BinaryCrossentropy",
                               {"from_logits": True, "label_smoothing": ls}, "binary_crossentropy",
                               {"from_logits": True, "label_smoothing": ls}, tensor(bt), tensor(bl), ps, w))
    ps = F.binary_cross_entropy_with_logits(t64(bl), t64(bt), reduction="none").mean(0).numpy()
    cases.append(loss_case("bce logits axis=0", "BinaryCrossentropy", {"from_logits": True, "axis": 0},
                           "binary_crossentropy", {"from_logits": True, "axis": 0}, tensor(bt), tensor(bl), ps))
    col_bt = np.array([1, 0, 1], np.int32)
    col_bp = np.array([[0.8], [0.3], [0.45]], np.float32)
    cases.append(loss_case("bce (N,) int targets vs (N, 1) probabilities", "BinaryCrossentropy", {},
                           "binary_crossentropy", {}, tensor(col_bt, "int32"), tensor(col_bp),
                           np_bce_probs(col_bt.reshape(3, 1), col_bp, 0.0)[:, 0].astype(np.float64)))

    # Categorical crossentropy on probabilities: rows that do not sum to 1, and a zero probability.
    ct = np.eye(4, dtype=np.float32)[[2, 0, 3]]
    cp = np.array([[0.1, 0.2, 1.2, 0.5], [0.0, 0.7, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]], np.float32)
    for ls, w in ((0.0, None), (0.1, tensor([1.0, 2.0, 0.5]))):
        cases.append(loss_case(f"cce probabilities ls={ls}", "CategoricalCrossentropy",
                               {"from_logits": False, "label_smoothing": ls}, "categorical_crossentropy",
                               {"from_logits": False, "label_smoothing": ls}, tensor(ct), tensor(cp),
                               np_cce_probs(ct, cp, ls).astype(np.float64), w))

    # Categorical crossentropy from logits (torch's label_smoothing is Keras's CCE smoothing).
    cl = np.array([[100.0, -100.0, 0.0, 3.0], [-100.0, 100.0, 50.0, -2.0], [0.5, -0.25, 1.5, 0.0]], np.float32)
    for ls, w in ((0.0, None), (0.2, tensor([0.5, 1.0, 3.0]))):
        ps = F.cross_entropy(t64(cl), t64(ct), reduction="none", label_smoothing=ls).numpy()
        cases.append(loss_case(f"cce logits ls={ls}", "CategoricalCrossentropy",
                               {"from_logits": True, "label_smoothing": ls}, "categorical_crossentropy",
                               {"from_logits": True, "label_smoothing": ls}, tensor(ct), tensor(cl), ps, w))
    # Over axis 0: the classes run down the columns.
    ps = F.cross_entropy(t64(cl.T), t64(ct.T), reduction="none").numpy()
    cases.append(loss_case("cce logits axis=0", "CategoricalCrossentropy", {"from_logits": True, "axis": 0},
                           "categorical_crossentropy", {"from_logits": True, "axis": 0}, tensor(ct), tensor(cl), ps))
    ps = np_cce_probs(ct, cp, 0.0, axis=0).astype(np.float64)
    cases.append(loss_case("cce probabilities axis=0", "CategoricalCrossentropy", {"axis": 0},
                           "categorical_crossentropy", {"axis": 0}, tensor(ct), tensor(cp), ps))
    # Sequences: (batch, time, classes), a weight per sample broadcast over time.
    sl = rng.normal(size=(2, 3, 4)).astype(np.float32) * 3
    st = np.eye(4, dtype=np.float32)[rng.integers(0, 4, size=(2, 3))]
    ps = F.cross_entropy(t64(sl).reshape(6, 4), t64(st).reshape(6, 4), reduction="none").reshape(2, 3).numpy()
    cases.append(loss_case("cce logits (2, 3, 4)", "CategoricalCrossentropy", {"from_logits": True},
                           "categorical_crossentropy", {"from_logits": True}, tensor(st), tensor(sl), ps,
                           tensor([2.0, 0.5])))

    # Sparse categorical crossentropy from logits: int32 (N,), float (N, 1), int64 (2, 3) labels.
    labels = np.array([0, 1, 2], np.int64)
    ps = F.cross_entropy(t64(cl), torch.tensor(labels), reduction="none").numpy()
    cases.append(loss_case("scce logits int32 labels", "SparseCategoricalCrossentropy", {"from_logits": True},
                           "sparse_categorical_crossentropy", {"from_logits": True}, tensor(labels, "int32"),
                           tensor(cl), ps))
    labels = np.array([1, 0, 3], np.int64)
    ps = F.cross_entropy(t64(cl), torch.tensor(labels), reduction="none").numpy()
    cases.append(loss_case("scce logits float (N, 1) labels weighted", "SparseCategoricalCrossentropy",
                           {"from_logits": True}, "sparse_categorical_crossentropy", {"from_logits": True},
                           tensor(labels.reshape(3, 1).astype(np.float32)), tensor(cl), ps, tensor([1.0, 0.0, 2.0])))
    labels = rng.integers(0, 4, size=(2, 3))
    ps = F.cross_entropy(t64(sl).reshape(6, 4), torch.tensor(labels.reshape(6)), reduction="none").reshape(2, 3).numpy()
    cases.append(loss_case("scce logits (2, 3, 4) int64 labels", "SparseCategoricalCrossentropy",
                           {"from_logits": True}, "sparse_categorical_crossentropy", {"from_logits": True},
                           tensor(labels, "int64"), tensor(sl), ps))
    # On probabilities Keras takes log(clip(p)) as logits, so the softmax renormalizes them.
    labels = np.array([2, 0, 1], np.uint8)
    logits = np.log(np.clip(cp, EPS, ONE - EPS))
    ps = F.cross_entropy(t64(logits), torch.tensor(labels.astype(np.int64)), reduction="none").numpy()
    cases.append(loss_case("scce probabilities uint8 labels", "SparseCategoricalCrossentropy", {},
                           "sparse_categorical_crossentropy", {"from_logits": False}, tensor(labels, "uint8"),
                           tensor(cp), ps))
    return {"generator": "tests/golden/make_loss_metric_golden.py", "torch": torch.__version__, "cases": cases}


# ---------------------------------------------------------------------------------------------- metrics
def metric_case(name, class_name, config, fn, fn_args, batches, values_fn):
    total, count, results, out = 0.0, 0.0, [], []
    for b in batches:
        values = np.asarray(values_fn(b), dtype=np.float64)
        if b.get("sample_weight") is not None:
            w = np.asarray(b["sample_weight"]["data"], dtype=np.float64).reshape(b["sample_weight"]["shape"])
            w = np.broadcast_to(w.reshape(w.shape + (1,) * (values.ndim - w.ndim)), values.shape)
        else:
            w = np.ones_like(values)
        total += float((values * w).sum())
        count += float(w.sum())
        results.append(total / count)
        out.append(dict(b, values=floats(values)))
    return {"name": name, "class_name": class_name, "config": config, "fn": fn, "fn_args": fn_args,
            "batches": out, "results": results}


def batch(y_true, y_pred, sample_weight=None):
    return {"y_true": y_true, "y_pred": y_pred, "sample_weight": sample_weight}


def tt(t):
    """A torch tensor from a JSON tensor."""
    return torch.tensor(np.asarray(t["data"], dtype=np.float64).reshape(t["shape"]))


def make_metrics():
    rng = np.random.default_rng(99)
    cases = []

    def binary_values(threshold):
        def f(b):
            t, p = tt(b["y_true"]), tt(b["y_pred"])
            if t.dim() + 1 == p.dim():
                t = t.reshape(p.shape)
            return ((p > threshold).double() == t).double().mean(-1).numpy()
        return f

    b1 = batch(tensor([[1], [0], [1], [0]]), tensor([[0.7], [0.2], [0.4], [0.5]]))
    b2 = batch(tensor([1, 1, 0], "int32"), tensor([[0.9], [0.51], [0.8]]), tensor([1.0, 3.0, 0.5]))
    cases.append(metric_case("binary_accuracy", "BinaryAccuracy", {}, "binary_accuracy", {"threshold": 0.5},
                             [b1, b2], binary_values(0.5)))
    b1 = batch(tensor([[1, 0], [0, 1], [1, 1]]), tensor([[0.8, 0.1], [0.6, 0.75], [0.65, 0.9]]))
    b2 = batch(tensor([[0, 0], [1, 0]]), tensor([[0.71, 0.2], [0.95, 0.3]]), tensor([2.0, 1.0]))
    cases.append(metric_case("binary_accuracy threshold 0.7", "BinaryAccuracy", {"name": "ba", "threshold": 0.7},
                             "binary_accuracy", {"threshold": 0.7}, [b1, b2], binary_values(0.7)))

    def categorical_values(b):
        return (tt(b["y_true"]).argmax(-1) == tt(b["y_pred"]).argmax(-1)).double().numpy()

    def probs(n, c):
        return rng.dirichlet(np.ones(c), size=n).astype(np.float32)

    oh = np.eye(3, dtype=np.float32)
    b1 = batch(tensor(oh[[0, 2, 1, 1]]), tensor(probs(4, 3)))
    b2 = batch(tensor(oh[[2, 0, 1]]), tensor(probs(3, 3)), tensor([0.5, 1.0, 2.0]))
    cases.append(metric_case("categorical_accuracy", "CategoricalAccuracy", {}, "categorical_accuracy", {},
                             [b1, b2], categorical_values))

    def sparse_values(b):
        t, p = tt(b["y_true"]), tt(b["y_pred"])
        return (t.reshape(p.shape[:-1]) == p.argmax(-1).double()).double().numpy()

    b1 = batch(tensor([0, 2, 1, 1, 0], "int32"), tensor(probs(5, 3)))
    b2 = batch(tensor([[2], [0], [1]]), tensor(probs(3, 3)), tensor([3.0, 1.0, 0.0]))
    b3 = batch(tensor([1, 2], "uint8"), tensor(probs(2, 3)))
    cases.append(metric_case("sparse_categorical_accuracy", "SparseCategoricalAccuracy", {},
                             "sparse_categorical_accuracy", {}, [b1, b2, b3], sparse_values))

    def mae_values(b):
        return F.l1_loss(tt(b["y_pred"]), tt(b["y_true"]), reduction="none").mean(-1).numpy()

    def mse_values(b):
        return F.mse_loss(tt(b["y_pred"]), tt(b["y_true"]), reduction="none").mean(-1).numpy()

    b1 = batch(tensor(rng.normal(size=(3, 2))), tensor(rng.normal(size=(3, 2))))
    b2 = batch(tensor(rng.normal(size=(2, 2))), tensor(rng.normal(size=(2, 2))), tensor([0.25, 4.0]))
    cases.append(metric_case("mean_absolute_error", "MeanAbsoluteError", {}, "mean_absolute_error", {}, [b1, b2],
                             mae_values))
    cases.append(metric_case("mean_squared_error", "MeanSquaredError", {}, "mean_squared_error", {}, [b1, b2],
                             mse_values))
    return {"generator": "tests/golden/make_loss_metric_golden.py", "torch": torch.__version__, "cases": cases}


def main():
    for name, content in (("losses.json", make_losses()), ("metrics.json", make_metrics())):
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(content, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
