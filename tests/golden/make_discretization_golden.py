"""Writes tests/golden/discretization_keras.json: Discretization.adapt() boundaries computed by Keras's own
summary functions (summarize, merge_summaries, compress_summary, get_bin_boundaries of
keras/src/layers/preprocessing/discretization.py), run here with NumPy on batches of float32 data, as
Keras's adapt() runs them on a batched Dataset. Keras needs no install: the functions are compiled from
the source file given on the command line (the rest of the module, which imports TensorFlow, is skipped).

  git --git-dir=KERAS_REPO show HEAD:keras/src/layers/preprocessing/discretization.py > /tmp/discretization.py
  /usr/bin/python3 tests/golden/make_discretization_golden.py /tmp/discretization.py

The data have no tied values: NumPy's argsort (not stable, and version dependent) orders ties arbitrarily,
kerascpp keeps them in order, and that alone can move a boundary (see discretization.hpp)."""
import ast
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ("summarize", "merge_summaries", "compress_summary", "get_bin_boundaries")


def keras_functions(path):
    tree = ast.parse(open(path).read())
    module = ast.Module(body=[n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in NAMES], type_ignores=[])
    scope = {"np": np}
    exec(compile(module, path, "exec"), scope)
    missing = [n for n in NAMES if n not in scope]
    if missing:
        sys.exit(f"{path} lacks {missing}")
    return scope


def main():
    k = keras_functions(sys.argv[1])
    rng = np.random.default_rng(1919)
    cases = []
    for kind, n, batch, num_bins, epsilon in [("normal", 4000, 250, 8, 0.01), ("exponential", 2000, 300, 6, 0.02),
                                              ("normal", 1000, 1000, 10, 0.05), ("uniform", 1500, 64, 4, 0.01)]:
        x = {"normal": lambda: rng.normal(2, 3, size=n), "exponential": lambda: rng.exponential(2.0, size=n),
             "uniform": lambda: rng.uniform(-5, 5, size=n)}[kind]().astype("float32")
        assert len(np.unique(x)) == n, "tied values"
        summary = np.array([[], []], dtype="float32")
        for i in range(0, n, batch):
            summary = k["merge_summaries"](k["summarize"](x[i:i + batch], epsilon), summary, epsilon)
        boundaries = k["get_bin_boundaries"](summary, num_bins).tolist()
        cases.append({"data": [float(v) for v in x], "batch_size": batch, "num_bins": num_bins, "epsilon": epsilon,
                      "boundaries": boundaries})
    with open(os.path.join(HERE, "discretization_keras.json"), "w") as f:
        json.dump(cases, f)


if __name__ == "__main__":
    main()
