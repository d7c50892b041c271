#!/usr/bin/python3
"""Writes tests/golden/second_order.json: gradients of gradients of composite functions computed by
PyTorch (torch.autograd.grad with create_graph=True), which tests/keras/autodiff/second_order_test.cpp
compares with nested keras::GradientTape.

Run with Debian's Python, which has PyTorch:  /usr/bin/python3 tests/golden/make_second_order_golden.py

Each case names a function f(inputs) -> scalar that the C++ test builds from the same ops. Inputs are
drawn in float32 (what the C++ side holds); the maths runs in float64. Protocols:
  "hvp":     g = df/dinputs; hv = d(sum_i <g_i, v_i>)/dinputs (a Hessian-vector product) for fixed v.
  "penalty": g = df/dx (x = inputs[0], f summed over a batch); the WGAN-GP penalty
             p = mean_rows((|g_row|_2 - 1)^2) and dp/d(other inputs) (null where p does not depend on one).
  "third":   the third directional derivative: d/dx <d/dx <df/dx, v>, v>.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def tensor(t):
    t = t.detach()
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def draw(shape, lo=-1.0, hi=1.0):
    return (torch.rand(*shape) * (hi - lo) + lo).float().double()


# The functions, each the twin of one in second_order_test.cpp.
def elementwise(x, y):
    return (torch.exp(x) * torch.log(y) + torch.sqrt(y) * torch.square(x) - x / y + torch.pow(y, 1.5) * torch.tanh(x)
            + torch.sigmoid(x * y) - torch.maximum(x, 0.5 * y) + torch.abs(x) * x).sum()


def trigonometric(x):
    return (torch.sin(x) * torch.cos(2 * x) + torch.atan(x) * torch.erf(x) + torch.log1p(x * x) + torch.sinh(x) * torch.cosh(0.5 * x)
            + torch.expm1(x) * torch.rsqrt(x + 2) + torch.asin(0.5 * x) + torch.asinh(x) + torch.arctanh(0.5 * x)
            + torch.tan(0.5 * x) + torch.acos(0.4 * x)).sum()


def activations(x):
    return (torch.relu(x) ** 2 + F.elu(x) * x + F.gelu(x) + F.gelu(x, approximate="tanh") * x + F.silu(x)
            + F.softplus(x) * x + F.leaky_relu(x, 0.2) * x + F.hardtanh(x, 0.0, 6.0) * x + torch.sigmoid(x) * x
            + torch.tanh(x) * x).sum()


def mlp(x, w1, b1, w2, b2):
    h = torch.tanh(x @ w1 + b1)
    r = torch.relu(h @ w2 + b2)
    o = torch.sigmoid(r)
    return (o * o).mean() + (h @ w2).sum() * 0.1


def softmax_losses(x, w):
    logits = x @ w
    labels = torch.tensor([0, 2, 1, 2])
    ce = F.cross_entropy(logits, labels)
    p = torch.softmax(logits, dim=-1)
    ls = torch.log_softmax(2 * logits, dim=-1)
    return ce + (p * p).sum() + (ls * p.detach()).sum() * 0.3 + torch.logsumexp(logits, dim=1).sum() * 0.2


def shapes(x):
    t = x.permute(2, 0, 1)                      # [4, 2, 3]
    r = t.reshape(8, 3)
    m = r.mean(dim=0) * x.amax(dim=(0, 2))      # [3]
    c = torch.cat([x[:, 1:, :], x[:, :2, :] * 2], dim=1)   # slices and concatenation
    p = F.pad(x, (1, 0, 0, 2))                   # zeros after axis 1, before axis 2
    rep = torch.repeat_interleave(x, 2, dim=2)
    v = torch.var(x, dim=1, unbiased=False)
    return (m * m).sum() + (c ** 3).sum() + (p.sum(dim=(1,)) ** 2).sum() * 0.1 + (rep * rep.sum(dim=2, keepdim=True)).sum() * 0.01 + (v * x[:, 0, :]).sum()


def convolution(x, k, b, kt):
    y = torch.tanh(F.conv2d(x.permute(0, 3, 1, 2), k.permute(3, 2, 0, 1), b, padding="same"))
    # A transposed convolution on top (Keras kernel [kh, kw, out, in] -> torch [in, out, kh, kw]).
    t = F.conv_transpose2d(y, kt.permute(3, 2, 0, 1), stride=2)
    return (y * y).mean() + torch.sigmoid(t).sum() * 0.05


def batch_matmul(a, b):
    return torch.tanh(a @ b).sum() + ((a.transpose(1, 2) @ a) ** 2).sum() * 0.01


def embedding(table, w):
    rows = table[torch.tensor([2, 0, 2, 3])]
    return (torch.tanh(rows @ w) ** 2).sum()


def critic(x, w1, b1, w2, b2):
    h = F.leaky_relu(x @ w1 + b1, 0.2)
    h = torch.tanh(h)
    return (h @ w2 + b2).sum()


def third(x):
    return (torch.sin(x) * x ** 3 + torch.exp(0.5 * x) + torch.tanh(x) * torch.square(x)).sum()


FUNCTIONS = {"elementwise": elementwise, "trigonometric": trigonometric, "activations": activations, "mlp": mlp,
             "softmax_losses": softmax_losses, "shapes": shapes, "convolution": convolution,
             "batch_matmul": batch_matmul, "embedding": embedding, "critic": critic, "third": third}


def hvp_case(name, inputs):
    inputs = [t.clone().requires_grad_(True) for t in inputs]
    vs = [draw(tuple(t.shape)) for t in inputs]
    f = FUNCTIONS[name](*inputs)
    grads = torch.autograd.grad(f, inputs, create_graph=True)
    s = sum((g * v).sum() for g, v in zip(grads, vs))
    hv = torch.autograd.grad(s, inputs)
    return {"function": name, "protocol": "hvp", "inputs": [tensor(t) for t in inputs], "v": [tensor(v) for v in vs],
            "value": float(f), "grad": [tensor(g) for g in grads], "hv": [tensor(h) for h in hv]}


def penalty_case(name, inputs):
    inputs = [t.clone().requires_grad_(True) for t in inputs]
    f = FUNCTIONS[name](*inputs)
    (g,) = torch.autograd.grad(f, inputs[0], create_graph=True)
    norm = torch.sqrt((g * g).sum(dim=1))
    p = ((norm - 1) ** 2).mean()
    dp = torch.autograd.grad(p, inputs[1:], allow_unused=True)  # None: p does not depend on it (a last bias)
    return {"function": name, "protocol": "penalty", "inputs": [tensor(t) for t in inputs], "value": float(p),
            "grad": [None if d is None else tensor(d) for d in dp]}


def third_case(name, x):
    x = x.clone().requires_grad_(True)
    v = draw(tuple(x.shape))
    f = FUNCTIONS[name](x)
    (g1,) = torch.autograd.grad(f, x, create_graph=True)
    (g2,) = torch.autograd.grad((g1 * v).sum(), x, create_graph=True)
    (g3,) = torch.autograd.grad((g2 * v).sum(), x)
    return {"function": name, "protocol": "third", "inputs": [tensor(x)], "v": [tensor(v)], "grad": [tensor(g3)]}


def main():
    cases = [
        hvp_case("elementwise", [draw((3, 4)), draw((3, 4), 0.5, 2.0)]),
        hvp_case("trigonometric", [draw((3, 4))]),
        hvp_case("activations", [draw((4, 5), -3, 3)]),
        hvp_case("mlp", [draw((4, 3)), draw((3, 5)), draw((5,)), draw((5, 2)), draw((2,), 0.1, 0.5)]),
        hvp_case("softmax_losses", [draw((4, 3)), draw((3, 3))]),
        hvp_case("shapes", [draw((2, 3, 4))]),
        hvp_case("convolution", [draw((2, 5, 5, 2)), draw((3, 3, 2, 3), -0.5, 0.5), draw((3,)),
                                 draw((2, 2, 2, 3), -0.5, 0.5)]),
        hvp_case("batch_matmul", [draw((2, 3, 4)), draw((2, 4, 2))]),
        hvp_case("embedding", [draw((4, 3)), draw((3, 2))]),
        penalty_case("critic", [draw((5, 4)), draw((4, 6)), draw((6,)), draw((6, 1)), draw((1,))]),
        third_case("third", draw((2, 3))),
    ]
    with open(os.path.join(OUT, "second_order.json"), "w") as f:
        json.dump({"generator": "tests/golden/make_second_order_golden.py", "torch": torch.__version__,
                   "cases": cases}, f)
        f.write("\n")


if __name__ == "__main__":
    torch.set_default_dtype(torch.float64)
    main()
