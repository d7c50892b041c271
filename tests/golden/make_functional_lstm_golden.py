#!/usr/bin/python3
"""Expected outputs of ../shared/fixtures/keras-h5/keras2.2.5_functional_lstm.h5, computed by an independent
NumPy forward pass that reads only the file (h5py): its model_config and its stored weights.

Keras 2.2.5 semantics reimplemented here: LSTM gates i, f, c, o in the kernel's columns;
c' = f*c + i*tanh(z_c), h' = o*tanh(c'); recurrent_activation relu / linear / sigmoid / hard_sigmoid
(Keras 2.2.5: clip(0.2*x + 0.5, 0, 1)); return_state gives [output, h, c]; initial_state given as extra inputs
of the call; Bidirectional(merge_mode="concat") runs the backward copy on the reversed sequence and, with
return_sequences, reverses its outputs back before concatenating [forward, backward].

Writes tests/golden/functional_lstm.json: the inputs (seeded), the output names and shapes, the outputs.
Run with Debian's /usr/bin/python3 (numpy, h5py).
"""
import json
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "keras-h5", "keras2.2.5_functional_lstm.h5")

ACTIVATIONS = {
    "tanh": np.tanh,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "hard_sigmoid": lambda x: np.clip(0.2 * x + 0.5, 0.0, 1.0),
    "relu": lambda x: np.maximum(x, 0.0),
    "linear": lambda x: x,
}


def lstm(x, weights, cfg, h0=None, c0=None, go_backwards=False):
    """x [batch, time, in] -> (outputs [batch, time, units], h, c), float64."""
    kernel, recurrent, bias = weights
    units = cfg["units"]
    act, ract = ACTIVATIONS[cfg["activation"]], ACTIVATIONS[cfg["recurrent_activation"]]
    batch, steps = x.shape[0], x.shape[1]
    h = np.zeros((batch, units)) if h0 is None else h0.astype(np.float64)
    c = np.zeros((batch, units)) if c0 is None else c0.astype(np.float64)
    outs = []
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    for t in order:
        z = x[:, t, :] @ kernel + h @ recurrent + bias
        zi, zf, zc, zo = (z[:, k * units:(k + 1) * units] for k in range(4))
        i, f, o = ract(zi), ract(zf), ract(zo)
        c = f * c + i * act(zc)
        h = o * act(c)
        outs.append(h)
    return np.stack(outs, axis=1), h, c


def layer_weights(f, layer, sub=None):
    g = f["model_weights"][layer][layer]
    if sub is not None:
        g = g[sub]
    return [np.array(g[n], dtype=np.float64) for n in ("kernel:0", "recurrent_kernel:0", "bias:0")]


def main():
    f = h5py.File(FIXTURE, "r")
    config = json.loads(f.attrs["model_config"])["config"]
    rng = np.random.RandomState(7)
    batch, free_steps = 2, 5
    values = {}  # (layer, tensor_index) -> array
    inputs = {}
    for name, _, _ in config["input_layers"]:
        layer = next(l for l in config["layers"] if l["name"] == name)
        shape = [batch] + [free_steps if d is None else d for d in layer["config"]["batch_input_shape"][1:]]
        inputs[name] = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
        values[(name, 0)] = inputs[name].astype(np.float64)
    pending = [l for l in config["layers"] if l["class_name"] != "InputLayer"]
    while pending:
        for l in list(pending):
            refs = l["inbound_nodes"][0]
            if not all((r[0], r[2]) in values for r in refs):
                continue
            args = [values[(r[0], r[2])] for r in refs]
            cfg, name = l["config"], l["name"]
            if l["class_name"] == "LSTM":
                h0, c0 = (args[1], args[2]) if len(args) == 3 else (None, None)
                seq, h, c = lstm(args[0], layer_weights(f, name), cfg, h0, c0)
                out = seq if cfg["return_sequences"] else h
                values[(name, 0)] = out
                if cfg["return_state"]:
                    values[(name, 1)], values[(name, 2)] = h, c
            elif l["class_name"] == "Bidirectional":
                inner = cfg["layer"]["config"]
                assert cfg["merge_mode"] == "concat"
                fw, _, _ = lstm(args[0], layer_weights(f, name, "forward_" + inner["name"]), inner)
                bw, _, _ = lstm(args[0], layer_weights(f, name, "backward_" + inner["name"]), inner, go_backwards=True)
                if inner["return_sequences"]:
                    values[(name, 0)] = np.concatenate([fw, bw[:, ::-1, :]], axis=-1)
                else:
                    values[(name, 0)] = np.concatenate([fw[:, -1, :], bw[:, -1, :]], axis=-1)
            else:
                raise SystemExit("unexpected layer " + l["class_name"])
            pending.remove(l)

    def tensor(a):
        a = np.asarray(a, dtype=np.float32)
        return {"dtype": "float32", "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}

    outputs = [values[(r[0], r[2])] for r in config["output_layers"]]
    golden = {
        "source": "keras2.2.5_functional_lstm.h5, NumPy forward pass of make_functional_lstm_golden.py",
        "input_names": [r[0] for r in config["input_layers"]],
        "inputs": [tensor(inputs[r[0]]) for r in config["input_layers"]],
        "output_refs": [[r[0], r[2]] for r in config["output_layers"]],
        "outputs": [tensor(o) for o in outputs],
    }
    with open(os.path.join(HERE, "functional_lstm.json"), "w") as out:
        json.dump(golden, out)


if __name__ == "__main__":
    main()
