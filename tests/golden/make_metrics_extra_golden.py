#!/usr/bin/python3
"""Writes tests/golden/metrics_extra.json, the reference values that tests/metrics/metrics_extra_test.cpp
compares the stateful metrics against (AUC, Precision, Recall, the confusion counters, the
sensitivity/specificity family, IoU, F-scores, R2, top-k accuracy, the regression metrics, Sum,
MeanTensor, MeanMetricWrapper and the test's KS metric).

Run with Debian's Python, which has NumPy, scikit-learn and SciPy:
    /usr/bin/python3 tests/golden/make_metrics_extra_golden.py

Each case is a metric (class_name + the full config tf.keras 2.13 writes for it) fed 2-3 batches; the
expected result after each batch comes from every batch so far, so accumulation is what is tested.
Batches shared by several cases are stored once under "data" and named by key in the case.

Oracles:
  * Confusion-matrix metrics: NumPy re-implementations of tf.keras 2.x's update_confusion_matrix_variables
    (y_pred > threshold in float32; for evenly spaced thresholds Keras's buckets
    ceil(clip(p, 0, 1) * (T - 1)) - 1 computed in float32) and of its AUC Riemann sums and PR
    interpolation. These are the primary oracle: the C++ AUC must agree to 1e-9 (exact but for summation
    order). Independent checks, asserted here and stored with each case as "reference":
      - sklearn.metrics.confusion_matrix for the counters, precision_score / recall_score for Precision
        and Recall (exact);
      - sklearn.metrics.roc_auc_score for ROC AUC. Keras's bucketed trapezoid equals the exact AUC of the
        bucketed scores (pairs in one bucket count 1/2), so it differs from the exact AUC by at most
        0.5 * sum_b W+_b W-_b / (W+ W-), the weight of positive-negative pairs sharing a bucket; that
        bound is the stated tolerance. "minoring" / "majoring" bracket the exact AUC.
      - sklearn.metrics.average_precision_score for PR AUC: AP is a step sum, Keras interpolates, so the
        stated tolerance is 0.02 (checked here).
  * F1Score / FBetaScore: sklearn.metrics.fbeta_score (average None/micro/macro/weighted, sample_weight,
    zero_division=0) on Keras's binarized predictions.
  * R2Score: sklearn.metrics.r2_score (uniform_average, variance_weighted, raw_values); the adjusted score
    uses Keras's formula with n = the number of target values seen.
  * IoU family: sklearn.metrics.confusion_matrix with sample_weight, checked against jaccard_score.
  * KS: scipy.stats.ks_2samp on the seed's 101 buckets int(100 * p) of positives and negatives.
  * Everything else (top-k accuracy, Accuracy, RMSE, MAPE, MSLE, log-cosh, cosine similarity, Sum,
    MeanTensor): NumPy in float64 from float32 inputs, following tf.keras 2.x's formulas; MAPE and MSLE
    are also checked against sklearn.
Sample weights follow tf.keras: a weight per sample applies to all of that sample's values.
"""
import json
import os

import numpy as np
from scipy import stats
from sklearn import metrics as skm

OUT = os.path.dirname(os.path.abspath(__file__))
F32 = np.float32
NEG_INF = F32(-1e10)
EPS = 1e-7


def tensor(a, dtype="float32"):
    a = np.asarray(a)
    conv = {"float32": np.float32, "int32": np.int32, "int64": np.int64, "uint8": np.uint8}[dtype]
    a = a.astype(conv)
    data = [float(v) for v in a.ravel()] if dtype == "float32" else [int(v) for v in a.ravel()]
    return {"dtype": dtype, "shape": list(a.shape), "data": data}


def arr(t):
    """A tensor dict back to the float32 NumPy array the C++ test will see."""
    return np.asarray(t["data"], np.float64).reshape(t["shape"]).astype(F32)


def weights_for(batch, shape):
    """The batch's sample weights broadcast as tf.keras does (one per sample, or the values' shape)."""
    w = batch["sample_weight"]
    if w is None:
        return np.ones(shape, np.float64)
    w = arr(w).astype(np.float64)
    if w.ndim + 1 == len(shape):
        w = w.reshape(w.shape + (1,))
    if w.ndim < len(shape) and w.shape == tuple(shape[: w.ndim]):
        w = w.reshape(w.shape + (1,) * (len(shape) - w.ndim))
    return np.broadcast_to(w, shape).astype(np.float64)


def batch(y_true, y_pred, sample_weight=None, true_dtype="float32"):
    return {"y_true": tensor(y_true, true_dtype), "y_pred": tensor(y_pred),
            "sample_weight": None if sample_weight is None else tensor(sample_weight)}


def concat(batches, upto):
    """y_true, y_pred and broadcast weights of batches[0..upto], joined along the first axis."""
    ts, ps, ws = [], [], []
    for b in batches[: upto + 1]:
        t, p = arr(b["y_true"]), arr(b["y_pred"])
        if t.ndim + 1 == p.ndim and p.shape[-1] == 1:
            t = t.reshape(p.shape)
        ts.append(t)
        ps.append(p)
        ws.append(weights_for(b, p.shape))
    return np.concatenate(ts), np.concatenate(ps), np.concatenate(ws)


def case(name, class_name, config, batches, oracle, tolerance=1e-5, reference=None, tensors=None):
    """Expected result() after each batch from oracle(y_true, y_pred, weights) on all batches so far."""
    results, result_tensors = [], []
    for i in range(len(batches)):
        t, p, w = concat(batches, i)
        value = oracle(t, p, w)
        results.append(float(value))
        if tensors is not None:
            result_tensors.append([float(v) for v in np.ravel(tensors(t, p, w))])
    out = {"name": name, "class_name": class_name, "config": config, "batches": batches, "results": results,
           "tolerance": tolerance}
    if tensors is not None:
        out["result_tensors"] = result_tensors
    if reference is not None:
        value, tol, oracle_name = reference
        assert abs(value - results[-1]) <= tol, (name, value, results[-1], tol)
        out["reference"] = {"oracle": oracle_name, "value": float(value), "tolerance": float(tol)}
    return out


def base(name, **fields):
    config = {"name": name, "dtype": "float32"}
    config.update(fields)
    return config


# ------------------------------------------------------------------------------------ confusion matrix
def evenly(thresholds):
    n = len(thresholds)
    if n < 3:
        return False
    return np.allclose(thresholds, np.arange(n, dtype=np.float32) / (n - 1), atol=EPS)


def filter_top_k(p, k):
    """Keras's _filter_top_k: keep the k largest of each row (ties: lower index first), the rest NEG_INF."""
    out = np.full_like(p, NEG_INF)
    rows = p.reshape(-1, p.shape[-1])
    flat = out.reshape(-1, p.shape[-1])
    for r in range(rows.shape[0]):
        order = np.argsort(-rows[r], kind="stable")[:k]
        flat[r, order] = rows[r, order]
    return out


def confusion(t, p, w, thresholds, top_k=None, class_id=None, multi_label=False, label_weights=None,
              evenly_distributed=None):
    """tp, fp, tn, fn of shape (T,) or (T, L), as Keras's update_confusion_matrix_variables."""
    p = p.astype(F32)
    if top_k is not None:
        p = filter_top_k(p, top_k)
    if class_id is not None:
        t, p, w = t[..., class_id:class_id + 1], p[..., class_id:class_id + 1], w[..., class_id:class_id + 1]
    if label_weights is not None and not multi_label:
        w = w * np.broadcast_to(np.asarray(label_weights, np.float64), p.shape)
    if not multi_label:
        t, p, w = t.reshape(-1, 1), p.reshape(-1, 1), w.reshape(-1, 1)
    pos = (t != 0)
    if evenly_distributed is None:
        evenly_distributed = evenly(thresholds)
    T = len(thresholds)
    if evenly_distributed:
        with_eps = thresholds[0] < 0 or thresholds[-1] > 1
        bucket = np.ceil(np.clip(p, F32(0), F32(1)) * F32(T - 1)).astype(np.int64) - 1
        if with_eps:
            bucket = np.maximum(bucket, 0)
        predicted = np.stack([bucket >= i for i in range(T)])
    else:
        th = np.asarray(thresholds, np.float64).astype(F32)
        predicted = np.stack([p > th[i] for i in range(T)])
    tp = (predicted & pos) * w
    fp = (predicted & ~pos) * w
    fn = (~predicted & pos) * w
    tn = (~predicted & ~pos) * w
    counts = [c.sum(axis=1) for c in (tp, fp, tn, fn)]  # (T, L)
    if not multi_label:
        counts = [c[:, 0] for c in counts]
    return counts


def dnn(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))


def auc_thresholds(num_thresholds=200, thresholds=None):
    if thresholds is not None:
        inner = sorted(thresholds)
        return [0.0 - EPS] + inner + [1.0 + EPS], evenly(np.array([0.0] + inner + [1.0]))
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - EPS] + inner + [1.0 + EPS], True


def keras_auc(t, p, w, num_thresholds=200, curve="ROC", summation_method="interpolation", thresholds=None,
              multi_label=False, label_weights=None, from_logits=False):
    if from_logits:
        p = (1.0 / (1.0 + np.exp(-p.astype(np.float64)))).astype(F32)
    ths, even = auc_thresholds(num_thresholds, thresholds)
    tp, fp, tn, fn = confusion(t, p, w, ths, multi_label=multi_label,
                               label_weights=None if multi_label else label_weights, evenly_distributed=even)
    if not multi_label:
        tp, fp, tn, fn = (c[:, None] for c in (tp, fp, tn, fn))
    if curve == "PR" and summation_method == "interpolation":
        dtp = tp[:-1] - tp[1:]
        pp = tp + fp
        dp = pp[:-1] - pp[1:]
        slope = dnn(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * pp[1:]
        ratio = np.where((pp[:-1] > 0) & (pp[1:] > 0), dnn(pp[:-1], np.maximum(pp[1:], 0)), 1.0)
        by_label = dnn(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0)).sum(axis=0)
    else:
        recall = dnn(tp, tp + fn)
        if curve == "ROC":
            x, y = dnn(fp, fp + tn), recall
        else:
            x, y = recall, dnn(tp, tp + fp)
        if summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2
        elif summation_method == "minoring":
            heights = np.minimum(y[:-1], y[1:])
        else:
            heights = np.maximum(y[:-1], y[1:])
        by_label = ((x[:-1] - x[1:]) * heights).sum(axis=0)
    if not multi_label:
        return by_label[0]
    if label_weights is None:
        return by_label.mean()
    lw = np.asarray(label_weights, np.float64)
    return float(dnn((by_label * lw).sum(), lw.sum()))


def same_bucket_bound(t, p, w, num_thresholds):
    """0.5 * weight of positive-negative pairs that share one of Keras's buckets / (W+ W-)."""
    bucket = np.maximum(np.ceil(np.clip(p.ravel(), F32(0), F32(1)) * F32(num_thresholds - 1)).astype(np.int64) - 1, 0)
    pos, w = t.ravel() != 0, w.ravel()
    wp = np.bincount(bucket[pos], weights=w[pos], minlength=num_thresholds)
    wn = np.bincount(bucket[~pos], weights=w[~pos], minlength=num_thresholds)
    return 0.5 * float((wp * wn).sum()) / float(wp.sum() * wn.sum())


def auc_cases(rng):
    cases = []

    def scores(n):
        y = rng.integers(0, 2, size=n)
        p = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).astype(F32)
        return y.astype(np.float32), p

    # Default ROC AUC on 3 batches, the middle one weighted; a few exact 0 and 1 predictions.
    bs = []
    for i, n in enumerate((150, 120, 130)):
        y, p = scores(n)
        p[:3] = [0.0, 1.0, 0.5]
        bs.append(batch(y, p, rng.uniform(0.2, 2.0, size=n) if i == 1 else None))
    t, p, w = concat(bs, 2)
    cases.append(case("AUC ROC default", "AUC",
                      base("auc", num_thresholds=200, curve="ROC", summation_method="interpolation",
                           multi_label=False, num_labels=None, label_weights=None, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w), 1e-9,
                      (skm.roc_auc_score(t, p, sample_weight=w), same_bucket_bound(t, p, w, 200) + 1e-12,
                       "sklearn.roc_auc_score"), ))

    # (N, 1) predictions against (N,) targets, 50 thresholds, minoring and majoring bracket sklearn.
    bs = []
    for n in (90, 110):
        y, p = scores(n)
        bs.append(batch(y, p.reshape(n, 1), rng.uniform(0.5, 1.5, size=n)))
    t, p, w = concat(bs, 1)
    exact = skm.roc_auc_score(t.ravel(), p.ravel(), sample_weight=w.ravel())
    lo = keras_auc(t, p, w, 50, summation_method="minoring")
    hi = keras_auc(t, p, w, 50, summation_method="majoring")
    assert lo - 1e-12 <= exact <= hi + 1e-12, (lo, exact, hi)
    for method in ("minoring", "majoring"):
        cases.append(case(f"AUC ROC {method} 50 thresholds (N, 1)", "AUC",
                          base(f"auc_{method}", num_thresholds=50, curve="ROC", summation_method=method,
                               multi_label=False, num_labels=None, label_weights=None, from_logits=False),
                          bs, lambda t, p, w, m=method: keras_auc(t, p, w, 50, summation_method=m), 1e-9,
                          (exact, hi - lo + 1e-12, "sklearn.roc_auc_score")))

    # PR AUC, interpolation (Davis & Goadrich) and majoring.
    bs = []
    for i, n in enumerate((160, 140, 150)):
        y, p = scores(n)
        bs.append(batch(y, p, rng.uniform(0.5, 2.0, size=n) if i == 2 else None))
    t, p, w = concat(bs, 2)
    ap = skm.average_precision_score(t, p, sample_weight=w)
    cases.append(case("AUC PR interpolation", "AUC",
                      base("pr_auc", num_thresholds=200, curve="PR", summation_method="interpolation",
                           multi_label=False, num_labels=None, label_weights=None, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w, curve="PR"), 1e-9,
                      (ap, 0.02, "sklearn.average_precision_score")))
    cases.append(case("AUC PR majoring 100 thresholds", "AUC",
                      base("auc", num_thresholds=100, curve="PR", summation_method="majoring",
                           multi_label=False, num_labels=None, label_weights=None, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w, 100, curve="PR", summation_method="majoring"), 1e-9))

    # Logits with uneven explicit thresholds (compared one by one), and evenly spaced explicit ones
    # (bucketed, with the -1e-7 / 1 + 1e-7 endpoints).
    bs = []
    for n in (80, 70):
        y = rng.integers(0, 2, size=n).astype(np.float32)
        logits = rng.normal(1.2 * y - 0.6, 1.0).astype(F32)
        bs.append(batch(y, logits))
    uneven = [0.7, 0.1, 0.3, 0.45, 0.9]
    cases.append(case("AUC from_logits uneven thresholds", "AUC",
                      base("auc_logits", num_thresholds=7, curve="ROC", summation_method="interpolation",
                           multi_label=False, num_labels=None, label_weights=None, from_logits=True,
                           thresholds=sorted(uneven)),
                      bs, lambda t, p, w: keras_auc(t, p, w, thresholds=uneven, from_logits=True), 1e-9))
    bs = []
    for n in (60, 75):
        y, p = scores(n)
        bs.append(batch(y, p, rng.uniform(0, 1, size=n)))
    cases.append(case("AUC evenly spaced explicit thresholds", "AUC",
                      base("auc", num_thresholds=5, curve="ROC", summation_method="interpolation",
                           multi_label=False, num_labels=None, label_weights=None, from_logits=False,
                           thresholds=[0.25, 0.5, 0.75]),
                      bs, lambda t, p, w: keras_auc(t, p, w, thresholds=[0.25, 0.5, 0.75]), 1e-9))

    # Multi-label: one AUC per label, averaged with label weights; and flattened multi-label data with
    # label weights on the predictions.
    bs = []
    for i, n in enumerate((100, 90, 80)):
        y = rng.integers(0, 2, size=(n, 3))
        p = np.clip(rng.normal(0.3 + np.array([0.4, 0.2, 0.1]) * y, 0.2), 0, 1).astype(F32)
        bs.append(batch(y.astype(np.float32), p, rng.uniform(0.5, 1.5, size=n) if i != 1 else None))
    lw = [1.0, 2.0, 0.5]
    t, p, w = concat(bs, 2)
    per_label = [skm.roc_auc_score(t[:, j], p[:, j], sample_weight=w[:, j]) for j in range(3)]
    bound = max(same_bucket_bound(t[:, j], p[:, j], w[:, j], 200) for j in range(3))
    cases.append(case("AUC multi_label label_weights", "AUC",
                      base("auc", num_thresholds=200, curve="ROC", summation_method="interpolation",
                           multi_label=True, num_labels=3, label_weights=lw, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w, multi_label=True, label_weights=lw), 1e-9,
                      (np.dot(per_label, lw) / sum(lw), bound + 1e-12, "sklearn.roc_auc_score per label")))
    cases.append(case("AUC multi_label PR, labels from the first batch", "AUC",
                      base("auc", num_thresholds=200, curve="PR", summation_method="interpolation",
                           multi_label=True, num_labels=None, label_weights=None, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w, curve="PR", multi_label=True), 1e-9))
    cases.append(case("AUC flattened with label_weights", "AUC",
                      base("auc", num_thresholds=200, curve="ROC", summation_method="interpolation",
                           multi_label=False, num_labels=None, label_weights=lw, from_logits=False),
                      bs, lambda t, p, w: keras_auc(t, p, w, label_weights=lw), 1e-9))
    return cases


def sk_confusion(t, pred, w):
    tn, fp, fn, tp = skm.confusion_matrix(t.ravel() != 0, pred.ravel(), labels=[False, True],
                                          sample_weight=w.ravel()).ravel()
    return tp, fp, tn, fn


def counter_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((40, 50, 30)):
        y = rng.integers(0, 2, size=n).astype(np.float32)
        p = rng.uniform(0, 1, size=n).astype(F32)
        p[:2] = [0.5, 1.0]
        bs.append(batch(y, p.reshape(n, 1), rng.uniform(0.1, 3.0, size=n) if i != 0 else None))
    t, p, w = concat(bs, 2)
    for cls, key, idx, ths in (("TruePositives", "true_positives", 0, None),
                               ("TrueNegatives", "true_negatives", 2, [0.15, 0.5, 0.85]),
                               ("FalsePositives", "false_positives", 1, [0.0, 0.5, 1.0]),
                               ("FalseNegatives", "false_negatives", 3, 0.3)):
        th_list = [0.5] if ths is None else (ths if isinstance(ths, list) else [ths])
        oracle = lambda t, p, w, th=th_list, i=idx: confusion(t, p, w, th)[i][0]
        tens = lambda t, p, w, th=th_list, i=idx: confusion(t, p, w, th)[i]
        ref = sk_confusion(t, p.ravel() > F32(th_list[0]), w)[idx]
        cases.append(case(f"{cls} thresholds={ths}", cls, base(key, thresholds=ths), bs, oracle,
                          reference=(ref, 1e-9, "sklearn.confusion_matrix"), tensors=tens))
    return cases


def precision_recall_cases(rng):
    cases = []
    # Binary.
    bs = []
    for i, n in enumerate((50, 60, 40)):
        y = rng.integers(0, 2, size=n).astype(np.float32)
        p = rng.uniform(0, 1, size=n).astype(F32)
        bs.append(batch(y, p, rng.uniform(0.1, 2.0, size=n) if i == 1 else None))
    t, p, w = concat(bs, 2)
    for cls, key, idx in (("Precision", "precision", 1), ("Recall", "recall", 3)):
        def value(t, p, w, ths=(0.5,), top_k=None, class_id=None, idx=idx):
            tp, fp, tn, fn = confusion(t, p, w, list(ths), top_k, class_id)
            return dnn(tp, tp + (fp if idx == 1 else fn))
        sk = skm.precision_score if cls == "Precision" else skm.recall_score
        cases.append(case(f"{cls} default", cls, base(key, thresholds=None, top_k=None, class_id=None), bs,
                          lambda t, p, w, v=value: v(t, p, w)[0],
                          reference=(sk(t, p > F32(0.5), sample_weight=w, zero_division=0), 1e-9, f"sklearn.{sk.__name__}")))
        ths = [0.3, 0.5, 0.8]
        cases.append(case(f"{cls} thresholds", cls, base(f"{key}_3", thresholds=ths, top_k=None, class_id=None), bs,
                          lambda t, p, w, v=value: v(t, p, w, ths)[0],
                          tensors=lambda t, p, w, v=value: v(t, p, w, ths)))

    # Multi-label (N, 4): top_k, class_id, both.
    bs = []
    for i, n in enumerate((30, 40, 35)):
        y = (rng.uniform(size=(n, 4)) < 0.35).astype(np.float32)
        p = rng.uniform(0, 1, size=(n, 4)).astype(F32)
        bs.append(batch(y, p, rng.uniform(0.2, 2.0, size=n) if i == 2 else None))
    t, p, w = concat(bs, 2)
    for cls, key, idx in (("Precision", "precision", 1), ("Recall", "recall", 3)):
        def value(t, p, w, ths, top_k=None, class_id=None, idx=idx):
            tp, fp, tn, fn = confusion(t, p, w, list(ths), top_k, class_id)
            return dnn(tp, tp + (fp if idx == 1 else fn))
        sk = skm.precision_score if cls == "Precision" else skm.recall_score
        top2 = filter_top_k(p, 2) > NEG_INF
        cases.append(case(f"{cls} top_k=2", cls, base(key, thresholds=None, top_k=2, class_id=None), bs,
                          lambda t, p, w, v=value: v(t, p, w, [float(NEG_INF)], 2)[0],
                          reference=(sk(t.ravel(), top2.ravel(), sample_weight=w.ravel(), zero_division=0), 1e-9,
                                     f"sklearn.{sk.__name__}")))
        cases.append(case(f"{cls} class_id=1", cls, base(key, thresholds=None, top_k=None, class_id=1), bs,
                          lambda t, p, w, v=value: v(t, p, w, [0.5], None, 1)[0],
                          reference=(sk(t[:, 1], p[:, 1] > F32(0.5), sample_weight=w[:, 1], zero_division=0), 1e-9,
                                     f"sklearn.{sk.__name__}")))
        cases.append(case(f"{cls} top_k=2 class_id=3 threshold 0.4", cls,
                          base(key, thresholds=0.4, top_k=2, class_id=3), bs,
                          lambda t, p, w, v=value: v(t, p, w, [0.4], 2, 3)[0]))
    return cases


def sensitivity_cases(rng):
    cases = []

    def ss_thresholds(n):
        if n == 1:
            return [0.5], False
        return [0.0] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0], True

    def value(t, p, w, kind, target, n, class_id=None):
        ths, even = ss_thresholds(n)
        tp, fp, tn, fn = confusion(t, p, w, ths, class_id=class_id, evenly_distributed=even)
        sens, spec, prec = dnn(tp, tp + fn), dnn(tn, tn + fp), dnn(tp, tp + fp)
        constrained, dependent = {"SensitivityAtSpecificity": (spec, sens), "SpecificityAtSensitivity": (sens, spec),
                                  "PrecisionAtRecall": (sens, prec), "RecallAtPrecision": (prec, sens)}[kind]
        feasible = constrained >= target
        return float(dependent[feasible].max()) if feasible.any() else 0.0

    bs = []
    for i, n in enumerate((60, 50, 70)):
        y = rng.integers(0, 2, size=n)
        p = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).astype(F32)
        bs.append(batch(y.astype(np.float32), p, rng.uniform(0.3, 2.0, size=n) if i == 1 else None))
    for kind, key, target_key, target, n in (("SensitivityAtSpecificity", "sensitivity_at_specificity", "specificity", 0.7, 50),
                                             ("SpecificityAtSensitivity", "specificity_at_sensitivity", "sensitivity", 0.6, 200),
                                             ("PrecisionAtRecall", "precision_at_recall", "recall", 0.5, 100),
                                             ("RecallAtPrecision", "recall_at_precision", "precision", 0.75, 30),
                                             ("RecallAtPrecision", "recall_at_precision", "precision", 0.6, 1)):
        config = base(key, class_id=None, num_thresholds=n)
        config[target_key] = target
        cases.append(case(f"{kind} {target} num_thresholds={n}", kind, config, bs,
                          lambda t, p, w, k=kind, v=target, n=n: value(t, p, w, k, v, n)))
    # class_id on (N, 3) predictions.
    bs = []
    for n in (40, 45):
        y = (rng.uniform(size=(n, 3)) < 0.4).astype(np.float32)
        p = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).astype(F32)
        bs.append(batch(y, p, rng.uniform(0.5, 1.5, size=n)))
    config = base("specificity_at_sensitivity", class_id=2, num_thresholds=200, sensitivity=0.8)
    cases.append(case("SpecificityAtSensitivity class_id=2", "SpecificityAtSensitivity", config, bs,
                      lambda t, p, w: value(t, p, w, "SpecificityAtSensitivity", 0.8, 200, class_id=2)))
    return cases


# ----------------------------------------------------------------------------------------------- IoU
def iou_result(cm, targets):
    rows, cols, tp = cm.sum(axis=1), cm.sum(axis=0), np.diag(cm)
    denominator = rows + cols - tp
    denominator, tp = denominator[targets], tp[targets]
    valid = (denominator != 0).sum()
    return float(dnn(dnn(tp, denominator).sum(), valid))


def cm_of(t, p, w, num_classes, ignore_class=None):
    t, p, w = t.ravel(), p.ravel(), w.ravel()
    if ignore_class is not None:
        keep = t != ignore_class
        t, p, w = t[keep], p[keep], w[keep]
    cm = skm.confusion_matrix(t.astype(np.int64), p.astype(np.int64), labels=list(range(num_classes)), sample_weight=w)
    # Cross-check: IoU per class from jaccard_score.
    present = sorted(set(t.astype(np.int64)) | set(p.astype(np.int64)))
    if present:
        jac = skm.jaccard_score(t.astype(np.int64), p.astype(np.int64), labels=present, average=None, sample_weight=w,
                                zero_division=0)
        rows, cols, tp = cm.sum(axis=1), cm.sum(axis=0), np.diag(cm)
        mine = dnn(tp, rows + cols - tp)[present]
        assert np.allclose(jac, mine), (jac, mine)
    return cm


def iou_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((30, 40, 25)):
        t = rng.integers(0, 4, size=n)
        p = np.where(rng.uniform(size=n) < 0.6, t, rng.integers(0, 4, size=n))
        bs.append(batch(t, p.astype(np.float32), rng.uniform(0.1, 2.0, size=n) if i == 1 else None, "int32"))
    cases.append(case("IoU target_class_ids=[0, 2]", "IoU",
                      base("io_u", num_classes=4, target_class_ids=[0, 2], ignore_class=None, sparse_y_true=True,
                           sparse_y_pred=True, axis=-1),
                      bs, lambda t, p, w: iou_result(cm_of(t, p, w, 4), [0, 2])))
    # MeanIoU over (2, 4, 4) segmentation maps with a void class 255 and per-sample weights.
    bs = []
    for i in range(3):
        t = rng.integers(0, 3, size=(2, 4, 4))
        t[rng.uniform(size=t.shape) < 0.15] = 255
        p = np.where(rng.uniform(size=t.shape) < 0.5, np.minimum(t, 2), rng.integers(0, 3, size=t.shape))
        bs.append(batch(t, p.astype(np.float32), [1.0, 0.5] if i != 0 else None, "int32"))
    cases.append(case("MeanIoU segmentation ignore_class=255", "MeanIoU",
                      base("mean_io_u", num_classes=3, ignore_class=255, sparse_y_true=True, sparse_y_pred=True, axis=-1),
                      bs, lambda t, p, w: iou_result(cm_of(t, p, w, 3, 255), [0, 1, 2])))
    # MeanIoU with a class that never occurs (left out of the mean).
    bs = []
    for n in (20, 20):
        t = rng.integers(0, 3, size=n)
        p = np.where(rng.uniform(size=n) < 0.7, t, rng.integers(0, 3, size=n))
        bs.append(batch(t.astype(np.float32), p.astype(np.float32)))
    cases.append(case("MeanIoU num_classes=5 with absent classes", "MeanIoU",
                      base("miou", num_classes=5, ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1),
                      bs, lambda t, p, w: iou_result(cm_of(t, p, w, 5), [0, 1, 2, 3, 4])))
    # BinaryIoU with threshold 0.3.
    bs = []
    for i, n in enumerate((30, 30)):
        t = rng.integers(0, 2, size=n).astype(np.float32)
        p = rng.uniform(size=n).astype(F32)
        bs.append(batch(t, p, rng.uniform(0.1, 1.0, size=n) if i == 1 else None))
    cases.append(case("BinaryIoU threshold=0.3", "BinaryIoU",
                      {"target_class_ids": [0, 1], "threshold": 0.3, "name": "binary_io_u", "dtype": "float32"},
                      bs, lambda t, p, w: iou_result(cm_of(t, (p >= F32(0.3)).astype(np.float32), w, 2), [0, 1])))
    # One-hot targets and score predictions.
    bs = []
    for i, n in enumerate((25, 30)):
        ids = rng.integers(0, 3, size=n)
        p = rng.uniform(size=(n, 3)).astype(F32)
        bs.append(batch(np.eye(3, dtype=np.float32)[ids], p, rng.uniform(0.2, 1.0, size=n)))
    onehot = lambda t, p, w, targets: iou_result(cm_of(t.argmax(-1), p.argmax(-1), w[:, 0], 3), targets)
    cases.append(case("OneHotIoU target_class_ids=[0, 2]", "OneHotIoU",
                      base("one_hot_io_u", num_classes=3, target_class_ids=[0, 2], ignore_class=None,
                           sparse_y_pred=False, axis=-1),
                      bs, lambda t, p, w: onehot(t, p, w, [0, 2])))
    cases.append(case("OneHotMeanIoU", "OneHotMeanIoU",
                      base("one_hot_mean_io_u", num_classes=3, ignore_class=None, sparse_y_pred=False, axis=-1),
                      bs, lambda t, p, w: onehot(t, p, w, [0, 1, 2])))
    return cases


# ------------------------------------------------------------------------------------------ F-scores
def binarize(p, threshold):
    if threshold is None:
        return (p >= p.max(axis=-1, keepdims=True)) & (np.abs(p) > F32(1e-9))
    return p > F32(threshold)


def fscore_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((30, 25, 35)):
        y = (rng.uniform(size=(n, 4)) < np.array([0.5, 0.3, 0.2, 0.4])).astype(np.float32)
        p = rng.uniform(size=(n, 4)).astype(F32)
        bs.append(batch(y, p, rng.uniform(0.2, 2.0, size=n) if i == 1 else None))
    for cls, beta, average, threshold in (("F1Score", 1.0, None, None), ("F1Score", 1.0, "micro", 0.5),
                                          ("F1Score", 1.0, "macro", 0.5), ("F1Score", 1.0, "weighted", 0.4),
                                          ("FBetaScore", 2.0, None, 0.5), ("FBetaScore", 0.5, "weighted", None),
                                          ("FBetaScore", 2.0, "micro", None)):
        def scores(t, p, w, beta=beta, average=average, threshold=threshold):
            return skm.fbeta_score(t, binarize(p, threshold), beta=beta, average=average, sample_weight=w[:, 0],
                                   zero_division=0)
        oracle = lambda t, p, w, s=scores: float(np.mean(s(t, p, w)))
        if cls == "F1Score":
            config = base("f1_score", average=average, threshold=threshold)
        else:
            config = base("fbeta_score", average=average, beta=beta, threshold=threshold)
        cases.append(case(f"{cls} beta={beta} average={average} threshold={threshold}", cls, config, bs, oracle,
                          tensors=scores))
    return cases


# ---------------------------------------------------------------------------------------------- R2
def r2_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((20, 25, 15)):
        t = rng.normal(size=(n, 3)) * np.array([1.0, 3.0, 0.5])
        p = t + rng.normal(size=(n, 3)) * 0.7
        bs.append(batch(t.astype(F32), p.astype(F32), rng.uniform(0.2, 2.0, size=n) if i != 0 else None))
    for aggregation, sk in (("uniform_average", "uniform_average"), ("variance_weighted_average", "variance_weighted"),
                            (None, "raw_values")):
        score = lambda t, p, w, sk=sk: skm.r2_score(t.astype(np.float64), p.astype(np.float64), sample_weight=w[:, 0],
                                                    multioutput=sk)
        cases.append(case(f"R2Score class_aggregation={aggregation}", "R2Score",
                          base("r2_score", class_aggregation=aggregation, num_regressors=0), bs,
                          lambda t, p, w, s=score: float(np.mean(s(t, p, w))), tensors=score))

    def adjusted(t, p, w, k=2):
        r2 = skm.r2_score(t.astype(np.float64), p.astype(np.float64), sample_weight=w[:, 0])
        n = t.size
        return r2 if k >= n - 1 else 1 - (1 - r2) * (n - 1) / (n - k - 1)
    bs = []
    for n in (6, 8):
        t = rng.normal(size=(n, 1))
        p = t + rng.normal(size=(n, 1)) * 0.5
        bs.append(batch(t.astype(F32), p.astype(F32)))
    cases.append(case("R2Score num_regressors=2", "R2Score", base("adjusted_r2", class_aggregation="uniform_average",
                                                                  num_regressors=2), bs, adjusted))
    return cases


# ----------------------------------------------------------------------------- accuracies, regression
def in_top_k(ids, p, k):
    out = np.zeros(len(ids))
    for r, c in enumerate(ids.astype(np.int64)):
        if 0 <= c < p.shape[-1] and np.isfinite(p[r, c]):
            out[r] = float((p[r] > p[r, c]).sum() < k)
    return out


def weighted_mean(values, w):
    w = np.broadcast_to(w.reshape(w.shape + (1,) * (values.ndim - w.ndim)), values.shape)
    return float((values * w).sum() / w.sum())


def accuracy_cases(rng):
    cases = []
    # Accuracy: int32 ids against float predictions (truncated), (N,) against (N, 1).
    bs = []
    for i, n in enumerate((20, 30, 25)):
        t = rng.integers(0, 3, size=n)
        p = (np.where(rng.uniform(size=n) < 0.6, t, rng.integers(0, 3, size=n)) + rng.uniform(0, 0.9, size=n))
        bs.append(batch(t, p.reshape(n, 1).astype(F32), rng.uniform(0.5, 2.0, size=n) if i == 1 else None, "int32"))
    cases.append(case("Accuracy int32 ids vs truncated float predictions", "Accuracy", base("accuracy"), bs,
                      lambda t, p, w: weighted_mean((t == np.trunc(p)).astype(np.float64), w)))
    # Top-k.
    bs = []
    for i, n in enumerate((20, 25, 30)):
        ids = rng.integers(0, 6, size=n)
        p = rng.normal(size=(n, 6)).astype(F32)
        bs.append(batch(np.eye(6, dtype=np.float32)[ids], p, rng.uniform(0.5, 2.0, size=n) if i == 2 else None))
    cases.append(case("TopKCategoricalAccuracy k=3", "TopKCategoricalAccuracy", base("top3", k=3), bs,
                      lambda t, p, w: weighted_mean(in_top_k(t.argmax(-1), p, 3), w[:, 0])))
    bs = []
    for i, n in enumerate((20, 25)):
        ids = rng.integers(0, 8, size=n)
        p = rng.normal(size=(n, 8)).astype(F32)
        shape = (n,) if i == 0 else (n, 1)
        bs.append(batch(ids.reshape(shape), p, rng.uniform(0.5, 2.0, size=n) if i == 1 else None, "int32"))

    def sparse_oracle(t, p, w):
        return weighted_mean(in_top_k(t.ravel(), p, 5), w[:, 0])
    # concat() cannot join ids shaped (n,) and (n, 1): compute from flat ids, then store the batches as given.
    flat = [dict(b, y_true=tensor(arr(b["y_true"]).ravel(), "int32")) for b in bs]
    c = case("SparseTopKCategoricalAccuracy default k=5, (N,) and (N, 1) ids", "SparseTopKCategoricalAccuracy",
             base("sparse_top_k_categorical_accuracy", k=5), flat, sparse_oracle)
    c["batches"] = bs
    cases.append(c)
    return cases


def regression_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((10, 12, 8)):
        t = rng.uniform(0.5, 3.0, size=(n, 3)).astype(F32)
        p = (t + rng.normal(size=(n, 3)) * 0.4).astype(F32)
        bs.append(batch(t, p, rng.uniform(0.2, 2.0, size=n) if i != 0 else None))
    t64 = lambda a: a.astype(np.float64)
    rmse = lambda t, p, w: np.sqrt(weighted_mean((t64(p) - t64(t)) ** 2, w[:, 0]))
    cases.append(case("RootMeanSquaredError", "RootMeanSquaredError", base("root_mean_squared_error"), bs, rmse))
    mape_fn = lambda t, p: 100 * np.mean(np.abs((t64(t) - t64(p)) / np.maximum(np.abs(t64(t)), EPS)), axis=-1)
    t, p, w = concat(bs, 2)
    cases.append(case("MeanAbsolutePercentageError", "MeanAbsolutePercentageError",
                      base("mean_absolute_percentage_error"), bs, lambda t, p, w: weighted_mean(mape_fn(t, p), w[:, 0]),
                      reference=(100 * skm.mean_absolute_percentage_error(t, p, sample_weight=w[:, 0]), 1e-4,
                                 "sklearn.mean_absolute_percentage_error * 100")))
    msle_fn = lambda t, p: np.mean((np.log(np.maximum(t64(p), EPS) + 1) - np.log(np.maximum(t64(t), EPS) + 1)) ** 2, -1)
    cases.append(case("MeanSquaredLogarithmicError", "MeanSquaredLogarithmicError",
                      base("mean_squared_logarithmic_error"), bs, lambda t, p, w: weighted_mean(msle_fn(t, p), w[:, 0]),
                      reference=(skm.mean_squared_log_error(t, np.maximum(p, 0), sample_weight=w[:, 0]), 1e-5,
                                 "sklearn.mean_squared_log_error")))
    logcosh_fn = lambda t, p: np.mean(np.log(np.cosh(t64(p) - t64(t))), -1)
    cases.append(case("LogCoshError", "LogCoshError", base("logcosh"), bs,
                      lambda t, p, w: weighted_mean(logcosh_fn(t, p), w[:, 0])))

    def cosine(t, p, axis):
        nt = t64(t) / np.sqrt(np.maximum((t64(t) ** 2).sum(axis, keepdims=True), 1e-12))
        np_ = t64(p) / np.sqrt(np.maximum((t64(p) ** 2).sum(axis, keepdims=True), 1e-12))
        return (nt * np_).sum(axis)
    bs2 = []
    for i, n in enumerate((6, 8)):
        t = rng.normal(size=(n, 4)).astype(F32)
        p = rng.normal(size=(n, 4)).astype(F32)
        if i == 0:
            p[0] = 0  # a zero vector: similarity 0
        bs2.append(batch(t, p, rng.uniform(0.2, 2.0, size=n) if i == 1 else None))
    cases.append(case("CosineSimilarity", "CosineSimilarity", base("cosine_similarity", axis=-1), bs2,
                      lambda t, p, w: weighted_mean(cosine(t, p, -1), w[:, 0])))
    # MeanMetricWrapper of a registered function, by name.
    cases.append(case("MeanMetricWrapper fn=mean_squared_error", "MeanMetricWrapper",
                      base("mse_wrapper", fn="mean_squared_error"), bs,
                      lambda t, p, w: weighted_mean(np.mean((t64(p) - t64(t)) ** 2, -1), w[:, 0])))
    return cases


def reduction_cases(rng):
    cases = []
    bs = []
    for i, n in enumerate((5, 4, 6)):
        v = rng.normal(size=(n, 2)).astype(F32)
        bs.append(batch(np.zeros((n, 2), np.float32), v, rng.uniform(0, 2.0, size=n) if i != 1 else None))
    cases.append(case("Sum", "Sum", base("sum"), bs, lambda t, p, w: float((p.astype(np.float64) * w).sum())))
    bs = []
    for i in range(3):
        v = rng.normal(size=(3, 2)).astype(F32)
        bs.append(batch(np.zeros((3, 2), np.float32), v, rng.uniform(0.1, 2.0, size=3) if i != 0 else None))

    def mean_tensor(bs_so_far):
        total = sum(arr(b["y_pred"]).astype(np.float64) * weights_for(b, (3, 2)) for b in bs_so_far)
        count = sum(weights_for(b, (3, 2)) for b in bs_so_far)
        return total / count
    c = case("MeanTensor", "MeanTensor", base("mean_tensor"), bs, lambda t, p, w: 0.0)
    c["results"] = [float(mean_tensor(bs[: i + 1]).mean()) for i in range(3)]
    c["result_tensors"] = [[float(v) for v in mean_tensor(bs[: i + 1]).ravel()] for i in range(3)]
    cases.append(c)
    return cases


def ks_cases(rng):
    """The seed's KS metric: max |CDF(positives) - CDF(negatives)| over 101 buckets int(100 * p)."""
    bs = []
    for n in (80, 60, 70):
        y = rng.integers(0, 2, size=n)
        p = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1).astype(F32)
        bs.append(batch(y.astype(np.float32), p))

    def ks(t, p, w):
        idx = (F32(100) * p.astype(F32)).astype(np.int64).ravel()
        pos = t.ravel() != 0
        return stats.ks_2samp(idx[pos], idx[~pos]).statistic
    return [case("KS (test-defined Metric subclass)", "KS", base("ks"), bs, ks)]


def main():
    rng = np.random.default_rng(20240607)
    cases = []
    for make in (auc_cases, counter_cases, precision_recall_cases, sensitivity_cases, iou_cases, fscore_cases,
                 r2_cases, accuracy_cases, regression_cases, reduction_cases, ks_cases):
        cases += make(rng)
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    # Cases that share their batches name them by key in "data" instead of repeating them.
    data, keys = {}, {}
    for c in cases:
        text = json.dumps(c["batches"], sort_keys=True)
        if text not in keys:
            keys[text] = f"d{len(keys)}"
            data[keys[text]] = c["batches"]
        c["batches"] = keys[text]
    with open(os.path.join(OUT, "metrics_extra.json"), "w") as f:
        json.dump({"generator": "tests/golden/make_metrics_extra_golden.py", "data": data, "cases": cases}, f,
                  separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases")


if __name__ == "__main__":
    main()
