"""Writes tests/golden/utils.json: references for the keras.utils data helpers.
- timeseries_dataset_from_array: the windows and targets by NumPy fancy indexing, from the documented rule
  (window i = data[start + p_i + k * sampling_rate], p_i = i * sequence_stride, target = targets[start + p_i]).
- pad_sequences: PyTorch's nn.utils.rnn.pad_sequence (which pads at the back; "pre" padding pads the reversed
  sequences and reverses back), after cutting each sequence with Python slices.
- normalize: x / np.linalg.norm(x, ord, axis) with zero norms replaced by 1.
- Discretization.adapt on fewer values than 1/epsilon: np.quantile(method="interpolated_inverted_cdf") at
  1/num_bins, 2/num_bins, ... (linear interpolation of the empirical CDF, which Keras's summary reduces to).
Run with /usr/bin/python3."""
import json
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(a, dtype="float32"):
    a = np.asarray(a)
    return {"dtype": dtype, "shape": list(a.shape), "data": [float(v) for v in a.flatten()]}


def timeseries_cases(rng):
    data = rng.normal(size=(37, 3)).astype(np.float32)
    targets = rng.normal(size=(37,)).astype(np.float32)
    cases = []
    # (sequence_length, sequence_stride, sampling_rate, start_index, end_index, batch_size, with targets)
    for L, stride, rate, start, end, batch, with_targets in [
        (5, 1, 1, None, None, 8, True),
        (10, 3, 2, None, None, 4, True),
        (4, 2, 3, 5, 30, 3, True),
        (6, 5, 1, 2, None, 0, False),
        (3, 4, 2, 7, 36, 128, True),
    ]:
        s = start or 0
        e = end or len(data)
        num = e - s - (L - 1) * rate
        if with_targets:
            num = min(num, len(targets))
        positions = np.arange(0, num, stride)
        windows = data[s:e][positions[:, None] + np.arange(L)[None, :] * rate]
        case = {"sequence_length": L, "sequence_stride": stride, "sampling_rate": rate, "start_index": start,
                "end_index": end, "batch_size": batch, "windows": tensor(windows)}
        if with_targets:
            case["targets"] = tensor(targets[s:e][positions])
        cases.append(case)
    return {"data": tensor(data), "targets": tensor(targets), "cases": cases}


def pad_cases(rng):
    seqs = [list(map(int, rng.integers(1, 100, size=n))) for n in [3, 0, 7, 1, 5, 9]]
    cases = []
    for maxlen, padding, truncating, value, dtype in [
        (None, "pre", "pre", 0, "int32"),
        (None, "post", "pre", -1, "int32"),
        (4, "pre", "pre", 0, "int64"),
        (4, "post", "post", 7, "int32"),
        (4, "pre", "post", 0.5, "float32"),
        (12, "post", "pre", 0, "float32"),
        (0, "pre", "pre", 0, "int32"),
    ]:
        n = maxlen if maxlen is not None else max(len(s) for s in seqs)
        cut = [s[-n:] if (truncating == "pre" and n > 0) else s[:n] for s in seqs]
        torch_dtype = {"int32": torch.float64, "int64": torch.float64, "float32": torch.float64}[dtype]
        rows = [torch.tensor(c, dtype=torch_dtype) for c in cut] + [torch.zeros(n, dtype=torch_dtype)]
        if padding == "pre":
            rows = [r.flip(0) for r in rows]
        np_value = np.array(value).astype(dtype).item()  # the padding value cast as np.full casts it
        padded = torch.nn.utils.rnn.pad_sequence(rows, batch_first=True, padding_value=float(np_value))[:-1]
        if padding == "pre":
            padded = padded.flip(1)
        cases.append({"maxlen": maxlen, "padding": padding, "truncating": truncating, "value": value, "dtype": dtype,
                      "output": tensor(padded.numpy().astype(dtype), dtype)})
    return {"sequences": seqs, "cases": cases}


def normalize_cases(rng):
    x = rng.normal(size=(3, 4, 5)).astype(np.float32)
    x[1, 2, :] = 0  # a zero vector along the last axis
    x[0, :, 1] = 0  # and along axis 1
    cases = []
    for axis in [-1, 1, 0]:
        for order in [2, 1, 3, np.inf, -np.inf, 0]:
            norm = np.atleast_1d(np.linalg.norm(x.astype(np.float64), order, axis))
            norm[norm == 0] = 1
            cases.append({"axis": axis, "order": "inf" if order == np.inf else "-inf" if order == -np.inf else order,
                          "output": tensor(x / np.expand_dims(norm, axis))})
    return {"x": tensor(x), "cases": cases}


def discretization_cases(rng):
    cases = []
    for n, num_bins in [(8, 4), (50, 5), (73, 10), (20, 3)]:
        values = rng.normal(size=(n,)).astype(np.float32)
        q = [i / num_bins for i in range(1, num_bins)]
        b = np.quantile(values.astype(np.float64), q, method="interpolated_inverted_cdf")
        cases.append({"input": tensor(values), "num_bins": num_bins, "epsilon": 0.01, "boundaries": [float(v) for v in b]})
    return cases


def main():
    rng = np.random.default_rng(2019)
    out = {"timeseries": timeseries_cases(rng), "pad_sequences": pad_cases(rng), "normalize": normalize_cases(rng),
           "discretization": discretization_cases(rng)}
    with open(os.path.join(HERE, "utils.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
