#!/usr/bin/python3
"""Writes tests/golden/losses_extra.json, the reference values that tests/losses/losses_extra_test.cpp
compares against: the tf.keras 2.x losses beyond MSE, MAE and the crossentropies.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_losses_extra_golden.py

Oracles (each case says which in the comment above it):
  * PyTorch in float64 where it has the same loss: huber_loss (Huber), poisson_nll_loss with
    log_input=False, full=False and Keras's epsilon (Poisson), kl_div on Keras's clipped inputs
    (KLDivergence), cosine_similarity negated (CosineSimilarity).
  * NumPy in float32 following tf.keras 2.x's formulas otherwise (MAPE, MSLE, LogCosh, the hinges, the
    focal crossentropies): float32 so that Keras's constants (1e-7, 1 - 1e-7) round exactly as in TensorFlow.
Sample weighting and reductions follow tf.keras, as in make_loss_metric_golden.py (whose helpers this uses).
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True  # leave no __pycache__ beside the goldens
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_loss_metric_golden import EPS, ONE, loss_case, t64, tensor  # noqa: E402

OUT = os.path.dirname(os.path.abspath(__file__))
F32 = np.float32


def f32(a):
    return np.asarray(a, dtype=F32)


# ------------------------------------------------------------------ NumPy float32 forms of Keras's formulas
def np_mape(y, p):
    y, p = f32(y), f32(p)
    diff = np.abs((y - p) / np.maximum(np.abs(y), EPS))
    return F32(100.0) * np.mean(diff, axis=-1)


def np_msle(y, p):
    y, p = f32(y), f32(p)
    first = np.log(np.maximum(p, EPS) + ONE)
    second = np.log(np.maximum(y, EPS) + ONE)
    return np.mean(np.square(first - second), axis=-1)


def np_log_cosh(y, p):
    x = f32(p) - f32(y)
    softplus = np.logaddexp(F32(0.0), F32(-2.0) * x).astype(F32)  # log(1 + exp(-2x)) without overflow
    return np.mean(x + softplus - F32(np.log(2.0)), axis=-1)


def np_hinge_labels(y):
    y = f32(y)
    return F32(2.0) * y - ONE if np.all((y == 0) | (y == 1)) else y


def np_hinge(y, p):
    return np.mean(np.maximum(ONE - np_hinge_labels(y) * f32(p), F32(0.0)), axis=-1)


def np_squared_hinge(y, p):
    return np.mean(np.square(np.maximum(ONE - np_hinge_labels(y) * f32(p), F32(0.0))), axis=-1)


def np_categorical_hinge(y, p):
    y, p = f32(y), f32(p)
    pos = np.sum(y * p, axis=-1)
    neg = np.max((ONE - y) * p, axis=-1)
    return np.maximum(neg - pos + ONE, F32(0.0))


def np_sigmoid(x):
    with np.errstate(over="ignore"):
        return (ONE / (ONE + np.exp(-f32(x)))).astype(F32)


def np_bfce(y, p, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
            axis=-1):
    """keras.losses.binary_focal_crossentropy (tf.keras 2.13), float32."""
    y, p = f32(y), f32(p)
    alpha, gamma, ls = F32(alpha), F32(gamma), F32(label_smoothing)
    if ls:
        y = y * (ONE - ls) + F32(0.5) * ls
    if from_logits:
        sig = np_sigmoid(p)
        bce = np.maximum(p, F32(0.0)) - p * y + np.log1p(np.exp(-np.abs(p)))  # sigmoid_cross_entropy_with_logits
    else:
        sig = p
        q = np.clip(p, EPS, ONE - EPS)
        bce = -(y * np.log(q + EPS) + (ONE - y) * np.log(ONE - q + EPS))
    p_t = y * sig + (ONE - y) * (ONE - sig)
    focal = np.power(ONE - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y * alpha + (ONE - y) * (ONE - alpha)) * focal
    return np.mean(focal.astype(F32), axis=axis)


def np_softmax(x, axis):
    x = f32(x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def np_cfce(y, p, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """keras.losses.categorical_focal_crossentropy (tf.keras 2.13), float32."""
    y, p = f32(y), f32(p)
    alpha, gamma, ls = F32(alpha), F32(gamma), F32(label_smoothing)
    if ls:
        y = y * (ONE - ls) + ls / F32(y.shape[-1])
    if from_logits:
        p = np_softmax(p, axis)
    p = p / np.sum(p, axis=axis, keepdims=True)
    p = np.clip(p, EPS, ONE - EPS)
    cce = -y * np.log(p)
    weighting = np.power(ONE - p, gamma) * alpha
    return np.sum(weighting * cce, axis=axis)


# ------------------------------------------------------------------------------------------------ cases
def make_cases():
    rng = np.random.default_rng(2024)
    cases = []

    def add(name, class_name, config, fn, fn_args, y_true, y_pred, per_sample, sample_weight=None):
        cases.append(loss_case(name, class_name, config, fn, fn_args, y_true, y_pred,
                               np.asarray(per_sample, dtype=np.float64), sample_weight))

    sw3 = tensor([0.5, 2.0, 0.0])
    yt = rng.normal(size=(3, 4)).astype(F32)
    yp = rng.normal(size=(3, 4)).astype(F32)

    # MeanAbsolutePercentageError: NumPy float32 (Keras's formula); one zero target hits the epsilon floor.
    mt = yt.copy()
    mt[1, 2] = 0.0
    add("mape", "MeanAbsolutePercentageError", {}, "mean_absolute_percentage_error", {}, tensor(mt), tensor(yp),
        np_mape(mt, yp))
    add("mape weighted", "MeanAbsolutePercentageError", {"name": "my_mape"}, "mean_absolute_percentage_error", {},
        tensor(yt), tensor(yp), np_mape(yt, yp), sw3)
    col_t = np.array([3, 1, 2, 5], np.int32)
    col_p = rng.uniform(0.5, 5.0, size=(4, 1)).astype(F32)
    add("mape (N,) int32 targets vs (N, 1) predictions", "MeanAbsolutePercentageError", {},
        "mean_absolute_percentage_error", {}, tensor(col_t, "int32"), tensor(col_p), np_mape(col_t.reshape(4, 1), col_p))

    # MeanSquaredLogarithmicError: NumPy float32; negative values are floored at epsilon.
    lt = np.abs(yt) * 3
    lp = np.abs(yp) * 3
    lp[0, 1] = -0.5
    lt[2, 3] = -1.0
    add("msle", "MeanSquaredLogarithmicError", {}, "mean_squared_logarithmic_error", {}, tensor(lt), tensor(lp),
        np_msle(lt, lp))
    add("msle weighted", "MeanSquaredLogarithmicError", {}, "mean_squared_logarithmic_error", {}, tensor(lt),
        tensor(lp), np_msle(lt, lp), tensor([1.0, 0.25, 3.0]))

    # Huber: PyTorch huber_loss, mean over the last axis; errors on both sides of delta.
    ht = yt * 2
    hp = yp * 2
    for delta, w in ((1.0, None), (1.0, sw3), (0.5, tensor([2.0, 1.0, 0.5])), (2.5, None)):
        ps = F.huber_loss(t64(hp), t64(ht), reduction="none", delta=delta).mean(-1).numpy()
        config = {} if delta == 1.0 else {"delta": delta}
        add(f"huber delta={delta}{' weighted' if w else ''}", "Huber", config, "huber", {"delta": delta},
            tensor(ht), tensor(hp), ps, w)
    seq_t = rng.normal(size=(2, 3, 4)).astype(F32) * 2
    seq_p = rng.normal(size=(2, 3, 4)).astype(F32) * 2
    ps = F.huber_loss(t64(seq_p), t64(seq_t), reduction="none").mean(-1).numpy()
    add("huber (2, 3, 4) weight per sample", "Huber", {}, "huber", {"delta": 1.0}, tensor(seq_t), tensor(seq_p), ps,
        tensor([2.0, 0.5]))

    # LogCosh: NumPy float32 (Keras's x + softplus(-2x) - log 2); errors of +-60 would overflow cosh.
    ct = yt.copy()
    cp = yp.copy()
    cp[0, 0], cp[2, 3] = 60.0, -60.0
    add("log_cosh", "LogCosh", {}, "log_cosh", {}, tensor(ct), tensor(cp), np_log_cosh(ct, cp))
    add("log_cosh weighted", "LogCosh", {}, "log_cosh", {}, tensor(yt), tensor(yp), np_log_cosh(yt, yp), sw3)

    # Poisson: PyTorch poisson_nll_loss(log_input=False, full=False, eps=1e-7), mean over the last axis.
    counts = rng.poisson(2.0, size=(3, 4)).astype(np.int32)
    rates = rng.uniform(0.1, 4.0, size=(3, 4)).astype(F32)
    rates[1, 1] = 0.0
    ps = F.poisson_nll_loss(t64(rates), t64(counts), log_input=False, full=False, eps=1e-7,
                            reduction="none").mean(-1).numpy()
    add("poisson int32 counts", "Poisson", {}, "poisson", {}, tensor(counts, "int32"), tensor(rates), ps)
    add("poisson weighted", "Poisson", {}, "poisson", {}, tensor(counts.astype(F32)), tensor(rates), ps,
        tensor([1.0, 3.0, 0.5]))

    # KLDivergence: PyTorch kl_div(log q, p) on Keras's inputs clipped to [1e-7, 1]; zeros on both sides.
    kp = rng.dirichlet(np.ones(4), size=3).astype(F32)
    kq = rng.dirichlet(np.ones(4), size=3).astype(F32)
    kp[0] = [0.0, 0.5, 0.5, 0.0]
    kq[1] = [0.0, 0.2, 0.3, 0.5]
    p_c = np.clip(kp, EPS, ONE)
    q_c = np.clip(kq, EPS, ONE)
    ps = F.kl_div(torch.log(t64(q_c)), t64(p_c), reduction="none").sum(-1).numpy()
    add("kl_divergence", "KLDivergence", {}, "kl_divergence", {}, tensor(kp), tensor(kq), ps)
    add("kl_divergence weighted", "KLDivergence", {"name": "kld"}, "kl_divergence", {}, tensor(kp), tensor(kq), ps,
        tensor([0.0, 1.0, 2.0]))

    # CosineSimilarity: -PyTorch cosine_similarity; a zero target row gives 0 in both.
    zt = yt.copy()
    zt[2] = 0.0
    ps = -F.cosine_similarity(t64(yp), t64(zt), dim=-1).numpy()
    add("cosine_similarity", "CosineSimilarity", {}, "cosine_similarity", {"axis": -1}, tensor(zt), tensor(yp), ps)
    add("cosine_similarity weighted", "CosineSimilarity", {}, "cosine_similarity", {"axis": -1}, tensor(zt),
        tensor(yp), ps, sw3)
    ps = -F.cosine_similarity(t64(yp), t64(yt), dim=0).numpy()
    add("cosine_similarity axis=0", "CosineSimilarity", {"axis": 0}, "cosine_similarity", {"axis": 0}, tensor(yt),
        tensor(yp), ps)
    ps = -F.cosine_similarity(t64(seq_p), t64(seq_t), dim=-1).numpy()
    add("cosine_similarity (2, 3, 4) weight per sample", "CosineSimilarity", {}, "cosine_similarity", {"axis": -1},
        tensor(seq_t), tensor(seq_p), ps, tensor([0.5, 2.0]))

    # Hinge and SquaredHinge: NumPy float32. 0/1 labels are mapped to -1/1; -1/1 labels and labels that are
    # not all 0 or 1 are used as they are.
    hl01 = np.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 0, 0]], np.int32)
    hlpm = (2 * hl01 - 1).astype(F32)
    hlmix = np.array([[1, 0, 2, 0], [0, 0, 1, 1], [1, 1, 0, 0.5]], F32)
    hs = (yp * 1.5).astype(F32)
    for fn, cls, ref in (("hinge", "Hinge", np_hinge), ("squared_hinge", "SquaredHinge", np_squared_hinge)):
        add(f"{fn} 0/1 int32 labels", cls, {}, fn, {}, tensor(hl01, "int32"), tensor(hs), ref(hl01, hs))
        add(f"{fn} -1/1 labels weighted", cls, {}, fn, {}, tensor(hlpm), tensor(hs), ref(hlpm, hs),
            tensor([1.0, 0.5, 2.0]))
        add(f"{fn} labels not all 0/1", cls, {}, fn, {}, tensor(hlmix), tensor(hs), ref(hlmix, hs))
        col_l = np.array([1, 0, 0, 1], F32)
        col_s = rng.normal(size=(4, 1)).astype(F32)
        add(f"{fn} (N,) labels vs (N, 1) scores", cls, {}, fn, {}, tensor(col_l), tensor(col_s),
            ref(col_l.reshape(4, 1), col_s))

    # CategoricalHinge: NumPy float32, one-hot targets.
    oh = np.eye(4, dtype=F32)[[2, 0, 3]]
    add("categorical_hinge", "CategoricalHinge", {}, "categorical_hinge", {}, tensor(oh), tensor(hs),
        np_categorical_hinge(oh, hs))
    add("categorical_hinge weighted", "CategoricalHinge", {}, "categorical_hinge", {}, tensor(oh),
        tensor(np.abs(hs) * 0.2), np_categorical_hinge(oh, np.abs(hs) * F32(0.2)), sw3)

    # BinaryFocalCrossentropy: NumPy float32 (tf.keras 2.13's formula), probabilities with exact 0 and 1,
    # logits of +-100, label smoothing, class balancing, other alpha and gamma, axis 0.
    bt = np.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 0, 0]], F32)
    bp = np.array([[0.9, 0.2, 1.0, 0.0], [0.0, 0.6, 0.35, 1.0], [0.5, 0.999, 0.01, 1e-9]], F32)
    bl = np.array([[100.0, -100.0, 0.0, 2.5], [-100.0, 100.0, -3.0, 0.7], [100.0, 100.0, -100.0, -100.0]], F32)
    variants = [
        ({}, None),
        ({"label_smoothing": 0.2}, tensor([1.0, 0.25, 3.0])),
        ({"apply_class_balancing": True}, None),
        ({"apply_class_balancing": True, "alpha": 0.6, "gamma": 1.5, "label_smoothing": 0.1}, sw3),
        ({"gamma": 0.0}, None),
    ]
    for args, w in variants:
        for from_logits, pred in ((False, bp), (True, bl)):
            full = dict(args, from_logits=from_logits)
            add(f"bfce {json.dumps(full, sort_keys=True)}{' weighted' if w else ''}", "BinaryFocalCrossentropy",
                full, "binary_focal_crossentropy", full, tensor(bt), tensor(pred), np_bfce(bt, pred, **full), w)
    full = {"from_logits": True, "axis": 0, "gamma": 3.0}
    add("bfce logits axis=0 gamma=3", "BinaryFocalCrossentropy", full, "binary_focal_crossentropy", full,
        tensor(bt), tensor(bl * F32(0.05)), np_bfce(bt, bl * F32(0.05), **full))
    col_bt = np.array([1, 0, 1], np.int32)
    col_bp = np.array([[0.8], [0.3], [0.45]], F32)
    add("bfce (N,) int targets vs (N, 1) probabilities", "BinaryFocalCrossentropy", {}, "binary_focal_crossentropy",
        {}, tensor(col_bt, "int32"), tensor(col_bp), np_bfce(col_bt.reshape(3, 1), col_bp))

    # CategoricalFocalCrossentropy: NumPy float32 (tf.keras 2.13's formula); rows that do not sum to 1 and a
    # zero probability, logits of +-100, label smoothing, other alpha and gamma, axis 0, sequences.
    cpb = np.array([[0.1, 0.2, 1.2, 0.5], [0.0, 0.7, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]], F32)
    cl = np.array([[100.0, -100.0, 0.0, 3.0], [-100.0, 100.0, 50.0, -2.0], [0.5, -0.25, 1.5, 0.0]], F32)
    variants = [
        ({}, None),
        ({"label_smoothing": 0.1}, tensor([1.0, 2.0, 0.5])),
        ({"alpha": 1.0, "gamma": 0.0}, None),
        ({"alpha": 0.5, "gamma": 3.0, "label_smoothing": 0.2}, sw3),
    ]
    for args, w in variants:
        for from_logits, pred in ((False, cpb), (True, cl)):
            full = dict(args, from_logits=from_logits)
            add(f"cfce {json.dumps(full, sort_keys=True)}{' weighted' if w else ''}", "CategoricalFocalCrossentropy",
                full, "categorical_focal_crossentropy", full, tensor(oh), tensor(pred), np_cfce(oh, pred, **full), w)
    for from_logits, pred in ((False, cpb), (True, cl * F32(0.05))):
        full = {"from_logits": from_logits, "axis": 0}
        add(f"cfce axis=0 from_logits={from_logits}", "CategoricalFocalCrossentropy", full,
            "categorical_focal_crossentropy", full, tensor(oh), tensor(pred), np_cfce(oh, pred, **full))
    sl = rng.normal(size=(2, 3, 4)).astype(F32) * 3
    st = np.eye(4, dtype=F32)[rng.integers(0, 4, size=(2, 3))]
    full = {"from_logits": True}
    add("cfce logits (2, 3, 4) weight per sample", "CategoricalFocalCrossentropy", full,
        "categorical_focal_crossentropy", full, tensor(st), tensor(sl), np_cfce(st, sl, **full), tensor([2.0, 0.5]))

    return {"generator": "tests/golden/make_losses_extra_golden.py", "torch": torch.__version__,
            "numpy": np.__version__, "cases": cases}


def main():
    with open(os.path.join(OUT, "losses_extra.json"), "w") as f:
        json.dump(make_cases(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
