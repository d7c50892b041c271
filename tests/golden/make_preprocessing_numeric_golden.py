"""Writes tests/golden/preprocessing_numeric.json: NumPy references for Normalization (population mean and
variance over every axis but the kept ones, and the normalized outputs) and Discretization (np.digitize,
which bins as tf.bucketize: b[i-1] <= x < b[i] -> i). Run with /usr/bin/python3."""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(a, dtype="float32"):
    a = np.asarray(a)
    return {"dtype": dtype, "shape": list(a.shape), "data": [float(v) for v in a.flatten()]}


def main():
    rng = np.random.default_rng(1919)
    data = (rng.normal(3.0, 2.0, size=(40, 5, 3)) * rng.uniform(0.5, 4, size=(1, 5, 3))).astype(np.float32)
    x = rng.normal(2.0, 3.0, size=(4, 5, 3)).astype(np.float32)
    cases = []
    for axis in [[-1], [1], [1, 2], None]:
        keep = [] if axis is None else sorted(a % 3 for a in axis)
        reduce = tuple(d for d in range(3) if d not in keep)
        mean = data.astype(np.float64).mean(axis=reduce, keepdims=True)
        var = data.astype(np.float64).var(axis=reduce, keepdims=True)
        out = (x - mean) / np.maximum(np.sqrt(var), 1e-7)
        kept_shape = [data.shape[d] for d in keep]
        cases.append({"axis": axis, "mean": tensor(mean.reshape(kept_shape)), "variance": tensor(var.reshape(kept_shape)),
                      "output": tensor(out)})
    values = rng.normal(0, 2, size=(6, 7)).astype(np.float32)
    values[0, :4] = [-1.0, 0.0, 1.0, 2.5]  # on the boundaries
    boundaries = [-1.0, 0.0, 1.0, 2.5]
    disc = {"boundaries": boundaries, "input": tensor(values), "output": tensor(np.digitize(values, boundaries, right=False))}
    with open(os.path.join(HERE, "preprocessing_numeric.json"), "w") as f:
        json.dump({"data": tensor(data), "x": tensor(x), "normalization": cases, "discretization": disc}, f)


if __name__ == "__main__":
    main()
