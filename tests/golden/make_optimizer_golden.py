#!/usr/bin/python3
"""Writes tests/golden/optimizers.json, the oracle for tests/optimizers/optimizers_test.cpp.

Run from anywhere: /usr/bin/python3 tests/golden/make_optimizer_golden.py
Each case starts from the same two small variables and applies 3 steps of fixed gradients.
SGD runs through torch.optim.SGD (equal to Keras's formulas for a constant learning rate);
Adam and RMSprop run through a NumPy transcription of the tf.keras 2.11+ update rules, in float64.
The file stores the values after every step.
"""
import json
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optimizers.json")
STEPS = 3
SHAPES = [(2, 3), (4,)]


def initial_values():
    rng = np.random.default_rng(1234)
    return [rng.uniform(-1.5, 1.5, size=s) for s in SHAPES]


def gradients():
    rng = np.random.default_rng(5678)
    return [[rng.normal(0.0, 1.0, size=s) for s in SHAPES] for _ in range(STEPS)]


def run_torch_sgd(config, init, grads):
    params = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in init]
    opt = torch.optim.SGD(params, lr=config["learning_rate"], momentum=config.get("momentum", 0.0),
                          nesterov=config.get("nesterov", False))
    history = []
    for step_grads in grads:
        for p, g in zip(params, step_grads):
            p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    return history


def run_numpy_adam(config, init, grads):
    lr, b1, b2 = config["learning_rate"], config.get("beta_1", 0.9), config.get("beta_2", 0.999)
    eps, amsgrad = config.get("epsilon", 1e-7), config.get("amsgrad", False)
    values = [v.copy() for v in init]
    m = [np.zeros_like(v) for v in init]
    v2 = [np.zeros_like(v) for v in init]
    vhat = [np.zeros_like(v) for v in init]
    history = []
    for t, step_grads in enumerate(grads, start=1):
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        for i, g in enumerate(step_grads):
            m[i] = m[i] + (g - m[i]) * (1 - b1)
            v2[i] = v2[i] + (g * g - v2[i]) * (1 - b2)
            denom_v = v2[i]
            if amsgrad:
                vhat[i] = np.maximum(vhat[i], v2[i])
                denom_v = vhat[i]
            values[i] = values[i] - m[i] * alpha / (np.sqrt(denom_v) + eps)
        history.append([v.copy() for v in values])
    return history


def run_numpy_rmsprop(config, init, grads):
    lr, rho = config["learning_rate"], config.get("rho", 0.9)
    momentum, eps, centered = config.get("momentum", 0.0), config.get("epsilon", 1e-7), config.get("centered", False)
    values = [v.copy() for v in init]
    vel = [np.zeros_like(v) for v in init]
    mom = [np.zeros_like(v) for v in init]
    avg = [np.zeros_like(v) for v in init]
    history = []
    for step_grads in grads:
        for i, g in enumerate(step_grads):
            vel[i] = rho * vel[i] + (1 - rho) * g * g
            if centered:
                avg[i] = rho * avg[i] + (1 - rho) * g
                denom = vel[i] - avg[i] ** 2 + eps
            else:
                denom = vel[i] + eps
            increment = lr * g / np.sqrt(denom)
            if momentum > 0:
                mom[i] = momentum * mom[i] + increment
                values[i] = values[i] - mom[i]
            else:
                values[i] = values[i] - increment
        history.append([v.copy() for v in values])
    return history


CASES = [
    ("sgd_plain", "SGD", {"learning_rate": 0.1}, run_torch_sgd),
    ("sgd_momentum", "SGD", {"learning_rate": 0.1, "momentum": 0.9}, run_torch_sgd),
    ("sgd_nesterov", "SGD", {"learning_rate": 0.05, "momentum": 0.8, "nesterov": True}, run_torch_sgd),
    ("adam_plain", "Adam", {"learning_rate": 0.1}, run_numpy_adam),
    ("adam_custom", "Adam", {"learning_rate": 0.05, "beta_1": 0.8, "beta_2": 0.95, "epsilon": 1e-3},
     run_numpy_adam),
    ("adam_amsgrad", "Adam", {"learning_rate": 0.1, "amsgrad": True}, run_numpy_adam),
    ("rmsprop_plain", "RMSprop", {"learning_rate": 0.01}, run_numpy_rmsprop),
    ("rmsprop_momentum", "RMSprop", {"learning_rate": 0.01, "momentum": 0.9}, run_numpy_rmsprop),
    ("rmsprop_centered", "RMSprop", {"learning_rate": 0.01, "rho": 0.8, "centered": True}, run_numpy_rmsprop),
    ("rmsprop_centered_momentum", "RMSprop",
     {"learning_rate": 0.01, "momentum": 0.5, "centered": True, "epsilon": 1e-4}, run_numpy_rmsprop),
]


def flat(arrays):
    return [a.ravel().tolist() for a in arrays]


def main():
    init, grads = initial_values(), gradients()
    cases = []
    for name, class_name, config, run in CASES:
        history = run(config, init, grads)
        cases.append({
            "name": name,
            "optimizer": {"class_name": class_name, "config": config},
            "expected": [flat(step) for step in history],
        })
    out = {
        "shapes": [list(s) for s in SHAPES],
        "initial": flat(init),
        "gradients": [flat(step) for step in grads],
        "cases": cases,
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
