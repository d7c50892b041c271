#!/usr/bin/python3
"""Writes tests/golden/layers_extra.json: values and gradients of ThresholdedReLU, RMSNormalization, EinsumDense,
SpectralNormalization, BatchNormalization over several axes and LayerNormalization(rms_scaling=True), computed
with NumPy in float64 (np.einsum for EinsumDense), which tests/layers/layers_extra_test.cpp compares against.
Gradients are float64 central differences of the NumPy forward pass (step 1e-6, error ~1e-9), so no autodiff
code is shared with what is tested.

Run with Debian's Python and NumPy:  /usr/bin/python3 tests/golden/make_layers_extra_golden.py

Each formula is written from Keras's documentation of the layer (Keras 3 for RMSNormalization, EinsumDense,
SpectralNormalization and rms_scaling; tf.keras 2.x's non-fused path for BatchNormalization over several axes:
weights shaped like the input with 1 on the reduced axes, the moving variance following the biased batch
variance). Gradients are those of sum(y * w) for a fixed weighting w.
"""
import json
import os

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)


def tensor(t):
    t = np.asarray(t, dtype=np.float64)
    return {"dtype": "float32", "shape": list(t.shape), "data": [round(float(v), 8) for v in t.reshape(-1)]}


def draw(*shape, lo=-2.0, hi=2.0):
    # Drawn in float32 (what the C++ side holds), the math runs in float64.
    return rng.uniform(lo, hi, size=shape).astype(np.float32).astype(np.float64)


def weighting(y):
    return draw(*y.shape, lo=0.5, hi=1.5)


def grads(f, args, w, step=1e-6):
    """d sum(f(*args) * w) / d args[i] for every array argument, by central differences."""
    out = []
    for i, a in enumerate(args):
        if a is None:
            out.append(None)
            continue
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            saved = a[idx]
            a[idx] = saved + step
            up = (f(*args) * w).sum()
            a[idx] = saved - step
            down = (f(*args) * w).sum()
            a[idx] = saved
            g[idx] = (up - down) / (2 * step)
        out.append(g)
    return out


out = {"generator": "tests/golden/make_layers_extra_golden.py", "numpy": np.__version__}

# ThresholdedReLU: x where x > theta else 0.
cases = []
for theta in [1.0, 0.25]:
    x = draw(3, 5)
    x[0, 0] = theta  # on the threshold: 0 (x > theta is strict)
    f = lambda x: np.where(x > theta, x, 0.0)
    y = f(x)
    w = weighting(y)
    dx = (x > theta) * w  # piecewise linear: the exact derivative away from the threshold
    cases.append({"theta": theta, "x": tensor(x), "w": tensor(w), "y": tensor(y), "dx": tensor(dx)})
out["thresholded_relu"] = cases

# RMSNormalization: x / sqrt(mean(x^2 over axis) + epsilon) * scale.
cases = []
for shape, axis, eps in [((2, 3, 4), -1, 1e-6), ((2, 3, 4), [1, 2], 1e-6), ((4, 5), -1, 1e-2)]:
    x = draw(*shape)
    axes = [axis] if isinstance(axis, int) else axis
    axes = tuple(sorted(a % len(shape) for a in axes))
    scale = draw(*[shape[a] for a in axes], lo=0.5, hi=1.5)
    bshape = [shape[a] if a in axes else 1 for a in range(len(shape))]
    f = lambda x, scale: x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps) * scale.reshape(bshape)
    y = f(x, scale)
    w = weighting(y)
    dx, dscale = grads(f, [x, scale], w)
    cases.append({"axis": axis, "epsilon": eps, "x": tensor(x), "scale": tensor(scale), "w": tensor(w),
                  "y": tensor(y), "dx": tensor(dx), "dscale": tensor(dscale)})
out["rms_normalization"] = cases


# EinsumDense: einsum(equation, x, kernel) + bias, then the activation.
def einsum_case(equation, output_shape, bias_axes, x_shape, kernel_shape, bias_shape, activation="linear"):
    x = draw(*x_shape)
    kernel = draw(*kernel_shape, lo=-0.5, hi=0.5)
    bias = draw(*bias_shape, lo=-0.5, hi=0.5) if bias_shape is not None else None

    def f(x, kernel, bias):
        y = np.einsum(equation, x, kernel)
        if bias is not None:
            y = y + bias
        return np.tanh(y) if activation == "tanh" else y

    y = f(x, kernel, bias)
    w = weighting(y)
    dx, dkernel, dbias = grads(f, [x, kernel, bias], w)
    return {"equation": equation, "output_shape": output_shape, "bias_axes": bias_axes, "activation": activation,
            "x": tensor(x), "kernel": tensor(kernel), "bias": tensor(bias) if bias is not None else None,
            "w": tensor(w), "y": tensor(y), "dx": tensor(dx), "dkernel": tensor(dkernel),
            "dbias": tensor(dbias) if bias is not None else None}


out["einsum_dense"] = [
    einsum_case("ab,bc->ac", 5, "c", (3, 4), (4, 5), (5,)),
    einsum_case("ab,bc->ac", 3, None, (2, 4), (4, 3), None, "tanh"),
    einsum_case("abc,cd->abd", [None, 4], "d", (2, 3, 5), (5, 4), (4,)),
    einsum_case("abc,cde->abde", [None, 2, 3], "de", (2, 3, 4), (4, 2, 3), (2, 3)),
    einsum_case("abc,cde->abde", [3, 2, 3], "b", (2, 3, 4), (4, 2, 3), (3, 1, 1)),
    einsum_case("...b,bc->...c", 4, "c", (2, 3, 2, 5), (5, 4), (4,)),
    einsum_case("abc,cd->adb", [4, None], None, (2, 3, 5), (5, 4), None),
    einsum_case("abc,bcd->ad", 4, "d", (2, 3, 5), (3, 5, 4), (4,)),
    einsum_case("abcd,cde->abe", [None, 3], "e", (2, 3, 4, 2), (4, 2, 3), (3,)),
    einsum_case("ab...,bc->ac...", 4, "c", (2, 3, 2, 2), (3, 4), (4, 1, 1)),
    einsum_case("abc,cd->ad", 4, "d", (2, 3, 5), (5, 4), (4,)),  # b is summed away
]


# SpectralNormalization: the power method from vector_u, then kernel / sigma (NumPy, float64).
def l2_normalize(v):
    return v / max(np.sqrt((v * v).sum()), 1e-7)


cases = []
for kernel_shape, iterations in [((5, 3), 1), ((5, 3), 3), ((2, 2, 3, 4), 2)]:
    kernel = draw(*kernel_shape)
    u = draw(1, kernel_shape[-1], lo=-0.05, hi=0.05)
    weights = kernel.reshape(-1, kernel_shape[-1])
    new_u = u
    for _ in range(iterations):
        v = l2_normalize(new_u @ weights.T)
        new_u = l2_normalize(v @ weights)
    sigma = (v @ weights @ new_u.T).item()
    cases.append({"power_iterations": iterations, "kernel": tensor(kernel), "vector_u": tensor(u),
                  "new_kernel": tensor(kernel / sigma), "new_vector_u": tensor(new_u), "sigma": sigma})
out["spectral_normalization"] = cases

# BatchNormalization over several axes (tf.keras's non-fused path).
cases = []
for shape, axes, momentum, eps in [((4, 3, 2, 5), [1, 3], 0.9, 1e-3), ((3, 4, 2), [1, 2], 0.99, 1e-2)]:
    reduce = tuple(a for a in range(len(shape)) if a not in axes)
    pshape = [shape[a] if a in axes else 1 for a in range(len(shape))]
    x = draw(*shape)
    gamma = draw(*pshape, lo=0.5, hi=1.5)
    beta = draw(*pshape, lo=-0.5, hi=0.5)
    moving_mean = draw(*pshape, lo=-0.5, hi=0.5)
    moving_variance = draw(*pshape, lo=0.5, hi=1.5)

    def f(x, gamma, beta):
        mean = x.mean(axis=reduce, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=reduce, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta

    y = f(x, gamma, beta)
    w = weighting(y)
    dx, dgamma, dbeta = grads(f, [x, gamma, beta], w)
    mean = x.mean(axis=reduce, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=reduce, keepdims=True)
    new_mean = moving_mean - (moving_mean - mean) * (1 - momentum)
    new_var = moving_variance - (moving_variance - var) * (1 - momentum)
    x_test = draw(*shape)
    y_test = (x_test - new_mean) / np.sqrt(new_var + eps) * gamma + beta
    cases.append({"axes": axes, "momentum": momentum, "epsilon": eps, "x": tensor(x), "gamma": tensor(gamma),
                  "beta": tensor(beta), "moving_mean": tensor(moving_mean), "moving_variance": tensor(moving_variance),
                  "w": tensor(w), "y": tensor(y), "dx": tensor(dx), "dgamma": tensor(dgamma),
                  "dbeta": tensor(dbeta), "new_moving_mean": tensor(new_mean),
                  "new_moving_variance": tensor(new_var), "x_test": tensor(x_test), "y_test": tensor(y_test)})
out["batch_norm_axes"] = cases

# LayerNormalization(rms_scaling=True), Keras 3: x / sqrt(var(x) + epsilon) * gamma (no centering of x).
cases = []
for shape, eps in [((3, 6), 1e-3), ((2, 3, 4), 1e-5)]:
    x = draw(*shape)
    gamma = draw(shape[-1], lo=0.5, hi=1.5)

    def f(x, gamma):
        var = ((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True)
        return x / np.sqrt(var + eps) * gamma

    y = f(x, gamma)
    w = weighting(y)
    dx, dgamma = grads(f, [x, gamma], w)
    cases.append({"epsilon": eps, "x": tensor(x), "gamma": tensor(gamma), "w": tensor(w), "y": tensor(y),
                  "dx": tensor(dx), "dgamma": tensor(dgamma)})
out["layer_norm_rms_scaling"] = cases

with open(os.path.join(OUT, "layers_extra.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"))
print("wrote", os.path.join(OUT, "layers_extra.json"))
