#!/usr/bin/python3
"""Writes tests/golden/optimizers.json and tests/golden/optimizers_schedules.json, the oracles for
tests/optimizers/*_test.cpp.

Run from anywhere: /usr/bin/python3 tests/golden/make_optimizer_golden.py  (needs torch and numpy)

Two problems, 20 steps each:
  * "quadratic": f = 0.5 * sum(a * (x - c)^2) over two variables; the gradient a * (x - c) is recomputed
    from the current values at every step (closed loop), in float64 here and in float32 by the C++ test.
  * "mlp": a tiny tanh MLP (Dense 4->8 tanh, Dense 8->3, MSE) trained by torch with plain SGD for 20 steps;
    its 20 gradient sets are recorded once and every optimizer case is fed the same sequence from the same
    initial weights (open loop), so the C++ test needs no autodiff to replay them.
Initial values, curvatures, centres and gradients are float32 numbers (written in their shortest float32
form), so the C++ test reads exactly the values the references start from.

Oracles (the "oracle" field of each case says which one produced it):
  * "torch": torch.optim run directly in float64, where its update is algebraically the same as Keras's
    (SGD with/without (Nesterov) momentum and a constant learning rate; Adadelta). For Adam, AdamW, Adamax,
    RMSprop and Adagrad the two libraries differ only in where epsilon goes, so extra "*_torch_eps0" cases run
    torch with epsilon = 0 against our optimizer with epsilon = 0: an independent check of the NumPy
    transcriptions below.
  * "numpy": a float64 NumPy transcription of the tf.keras 2.11+ (keras/optimizers/*.py) update rules, used
    where Keras's formula differs from PyTorch's:
      - Adam / AdamW / Adamax: Keras adds epsilon to sqrt(v) (or u) *before* the bias correction is folded
        into the step size ("epsilon hat"); torch adds it after dividing by sqrt(1 - beta_2^t).
      - RMSprop: Keras takes sqrt(v + epsilon), torch sqrt(v) + epsilon.
      - Adagrad: Keras takes sqrt(acc + epsilon), torch sqrt(acc) + epsilon (and starts acc at 0 by default).
      - Nadam: Keras's momentum cache u_t = beta_1 (1 - 0.5 * 0.96^t) with u_product(t+1) = u_product(t) *
        u_(t+1); torch 1.13 uses 0.96^(0.004 t) by default and multiplies mu_t into the next product twice.
      - Weight decay (every optimizer but AdamW): Keras decays decoupled, var -= var * wd * lr before the
        update; torch folds it into the gradient (L2). AdamW decays the same way in both (before the update),
        so only its epsilon needs NumPy.
      - Ftrl, Lion, EMA (use_ema / ema_overwrite_frequency), learning-rate schedules and gradient clipping
        have no torch counterpart with Keras's semantics.
Schedules (optimizers_schedules.json): plain-Python transcriptions of keras/optimizers/schedules/
learning_rate_schedule.py evaluated at several steps.
"""
import json
import math
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "optimizers.json")
OUT_SCHEDULES = os.path.join(HERE, "optimizers_schedules.json")
STEPS = 20
CHECKPOINTS = [1, 2, 3, 5, 10, 20]  # steps whose values are stored (keeps the file small)

torch.set_default_dtype(torch.float64)


def f32(a):
    """float32 values as float64 arrays (the numbers the C++ side reads exactly)."""
    return np.asarray(a, dtype=np.float32).astype(np.float64)


# ----------------------------------------------------------------------------------------------- problems
class Quadratic:
    name = "quadratic"
    shapes = [(2, 3), (4,)]

    def __init__(self):
        rng = np.random.default_rng(1234)
        self.initial = [f32(rng.uniform(-1.5, 1.5, size=s)) for s in self.shapes]
        self.curvature = [f32(rng.uniform(0.5, 2.0, size=s)) for s in self.shapes]
        # Centres at least 0.3 away from the start so that no gradient changes sign early (Lion takes signs).
        self.center = [f32(x0 + np.sign(rng.uniform(-1, 1, size=s)) * rng.uniform(0.3, 1.0, size=s))
                       for x0, s in zip(self.initial, self.shapes)]

    def gradients(self, step, values):
        return [a * (x - c) for a, x, c in zip(self.curvature, values, self.center)]

    def to_json(self):
        return {"shapes": [list(s) for s in self.shapes], "initial": flat32(self.initial),
                "curvature": flat32(self.curvature), "center": flat32(self.center), "steps": STEPS}


class MLP:
    name = "mlp"
    shapes = [(4, 8), (8,), (8, 3), (3,)]  # Keras layout: kernel [in, out], bias [out]

    def __init__(self):
        rng = np.random.default_rng(42)
        x = torch.tensor(f32(rng.normal(size=(16, 4))))
        y = torch.tensor(f32(rng.normal(size=(16, 3))))
        self.initial = [f32(rng.uniform(-0.7, 0.7, size=s)) for s in self.shapes]
        params = [torch.tensor(v.astype(np.float32), dtype=torch.float32, requires_grad=True) for v in self.initial]
        x, y = x.float(), y.float()
        opt = torch.optim.SGD(params, lr=0.2)
        self.grads = []
        for _ in range(STEPS):
            w1, b1, w2, b2 = params
            out = torch.tanh(x @ w1 + b1) @ w2 + b2
            loss = ((out - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            self.grads.append([f32(p.grad.numpy()) for p in params])
            opt.step()
        assert all(np.all(g != 0) for step in self.grads for g in step), "a zero gradient would break eps=0 cases"

    def gradients(self, step, values):
        return [g.copy() for g in self.grads[step]]

    def to_json(self):
        return {"shapes": [list(s) for s in self.shapes], "initial": flat32(self.initial),
                "gradients": [flat32(step) for step in self.grads], "steps": STEPS}


# ---------------------------------------------------------------------------------- learning-rate schedules
def schedule_value(spec, step):
    """keras.optimizers.schedules.<class_name>(**config)(step), in float64."""
    cls, c = spec["class_name"], spec["config"]
    step = float(step)
    if cls == "ExponentialDecay":
        p = step / c["decay_steps"]
        if c.get("staircase", False):
            p = math.floor(p)
        return c["initial_learning_rate"] * c["decay_rate"] ** p
    if cls == "InverseTimeDecay":
        p = step / c["decay_steps"]
        if c.get("staircase", False):
            p = math.floor(p)
        return c["initial_learning_rate"] / (1 + c["decay_rate"] * p)
    if cls == "PiecewiseConstantDecay":
        b, v = c["boundaries"], c["values"]
        if step <= b[0]:
            return v[0]
        if step > b[-1]:
            return v[-1]
        for low, high, value in zip(b[:-1], b[1:], v[1:-1]):
            if low < step <= high:
                return value
        return v[0]
    if cls == "PolynomialDecay":
        init, end = c["initial_learning_rate"], c.get("end_learning_rate", 1e-4)
        power, decay_steps = c.get("power", 1.0), float(c["decay_steps"])
        if c.get("cycle", False):
            decay_steps *= 1.0 if step == 0 else math.ceil(step / decay_steps)
        else:
            step = min(step, decay_steps)
        return (init - end) * (1 - step / decay_steps) ** power + end
    if cls == "CosineDecay":
        init, decay_steps, alpha = c["initial_learning_rate"], float(c["decay_steps"]), c.get("alpha", 0.0)
        target, warmup = c.get("warmup_target"), float(c.get("warmup_steps", 0))

        def decay(s, start):
            cosine = 0.5 * (1 + math.cos(math.pi * s / decay_steps))
            return start * ((1 - alpha) * cosine + alpha)

        if target is None:
            return decay(min(step, decay_steps), init)
        step = min(step, decay_steps + warmup)
        if step < warmup:
            return (target - init) * (step / warmup) + init
        return decay(step - warmup, target)
    if cls == "CosineDecayRestarts":
        init, first = c["initial_learning_rate"], float(c["first_decay_steps"])
        t_mul, m_mul, alpha = c.get("t_mul", 2.0), c.get("m_mul", 1.0), c.get("alpha", 0.0)
        fraction = step / first
        if t_mul == 1.0:
            i_restart = math.floor(fraction)
            fraction -= i_restart
        else:
            i_restart = math.floor(math.log(1.0 - fraction * (1.0 - t_mul)) / math.log(t_mul))
            sum_r = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
            fraction = (fraction - sum_r) / t_mul ** i_restart
        cosine = 0.5 * m_mul ** i_restart * (1.0 + math.cos(math.pi * fraction))
        return init * ((1 - alpha) * cosine + alpha)
    raise ValueError(cls)


def learning_rate_at(config, iteration):
    lr = config.get("learning_rate", None)
    if isinstance(lr, dict):
        return schedule_value(lr, iteration)
    return lr


# ------------------------------------------------------------- NumPy transcriptions of tf.keras 2.11+ optimizers
class KerasOptimizer:
    """Optimizer.apply_gradients of tf.keras 2.11+: learning rate at `iterations`, gradient clipping
    (clipnorm, else global_clipnorm, else clipvalue), decoupled weight decay, update_step, EMA.
    With Keras 3's gradient_accumulation_steps = n (keras/src/optimizers/base_optimizer.py): `iterations`
    counts every call; the learning rate (`self.learning_rate`, the schedule at `_iterations`) reads that
    count, the local step and EMA overwrite read `optimizer.iterations` = iterations // n; a call adds
    the gradients to accumulators, every n-th call updates with (gradient + accumulated) / n (then clipping,
    weight decay, update_step) and empties them; the EMA follows every call."""

    defaults = {}

    def __init__(self, config, values):
        self.c = dict(self.defaults)
        self.c.update(config)
        self.iterations = 0
        self.average = [v.copy() for v in values]
        self.build(values)

    def build(self, values):
        pass

    def clip(self, grads):
        c = self.c
        if c.get("clipnorm"):
            return [g * c["clipnorm"] / max(np.sqrt(np.sum(g * g)), c["clipnorm"]) for g in grads]
        if c.get("global_clipnorm"):
            norm = np.sqrt(sum(np.sum(g * g) for g in grads))
            return [g * c["global_clipnorm"] / max(norm, c["global_clipnorm"]) for g in grads]
        if c.get("clipvalue"):
            return [np.clip(g, -c["clipvalue"], c["clipvalue"]) for g in grads]
        return grads

    def apply(self, values, grads):
        n = self.c.get("gradient_accumulation_steps")
        iterations = self.iterations // n if n else self.iterations  # Keras 3's `optimizer.iterations`
        lr = learning_rate_at(self.c, self.iterations)  # Keras 3: the schedule at _iterations (every call)
        updates = True
        if n:
            if not hasattr(self, "accumulated"):
                self.accumulated = [np.zeros_like(g) for g in grads]
            updates = (self.iterations + 1) % n == 0
            if updates:
                grads = [(g + a) / n for g, a in zip(grads, self.accumulated)]
                self.accumulated = [np.zeros_like(g) for g in grads]
            else:
                self.accumulated = [a + g for a, g in zip(self.accumulated, grads)]
        if updates:
            grads = self.clip(grads)
            wd = self.c.get("weight_decay")
            if wd:
                values = [v - v * wd * lr for v in values]
            t = iterations + 1
            values = [self.update(i, v, g, lr, t) for i, (v, g) in enumerate(zip(values, grads))]
        if self.c.get("use_ema"):
            mom = self.c.get("ema_momentum", 0.99)
            self.average = [mom * a + (1 - mom) * v for a, v in zip(self.average, values)]
            freq = self.c.get("ema_overwrite_frequency")
            if freq and (iterations + 1) % freq == 0:
                values = [a.copy() for a in self.average]
        self.iterations += 1
        return values


class SGD(KerasOptimizer):
    defaults = {"learning_rate": 0.01, "momentum": 0.0, "nesterov": False}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        mu = self.c["momentum"]
        if mu == 0:
            return v - lr * g
        self.m[i] = mu * self.m[i] - lr * g
        return v + (mu * self.m[i] - lr * g if self.c["nesterov"] else self.m[i])


class Adam(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]
        self.v = [np.zeros_like(v) for v in values]
        self.vhat = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        b1, b2 = self.c["beta_1"], self.c["beta_2"]
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        self.m[i] = self.m[i] + (g - self.m[i]) * (1 - b1)
        self.v[i] = self.v[i] + (g * g - self.v[i]) * (1 - b2)
        denom = self.v[i]
        if self.c["amsgrad"]:
            self.vhat[i] = np.maximum(self.vhat[i], self.v[i])
            denom = self.vhat[i]
        return v - self.m[i] * alpha / (np.sqrt(denom) + self.c["epsilon"])


class AdamW(Adam):
    defaults = dict(Adam.defaults, weight_decay=0.004)


class Adamax(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]
        self.u = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        b1, b2 = self.c["beta_1"], self.c["beta_2"]
        self.m[i] = self.m[i] + (g - self.m[i]) * (1 - b1)
        self.u[i] = np.maximum(b2 * self.u[i], np.abs(g))
        return v - lr * self.m[i] / ((1 - b1 ** t) * (self.u[i] + self.c["epsilon"]))


class Nadam(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]
        self.v = [np.zeros_like(v) for v in values]
        self.u_product, self.u_product_step = 1.0, 0

    def update(self, i, v, g, lr, t):
        b1, b2 = self.c["beta_1"], self.c["beta_2"]
        u_t = b1 * (1 - 0.5 * 0.96 ** t)
        u_t1 = b1 * (1 - 0.5 * 0.96 ** (t + 1))
        if self.u_product_step != t:  # once per iteration, shared by all variables
            self.u_product *= u_t
            self.u_product_step = t
        u_prod_t, u_prod_t1 = self.u_product, self.u_product * u_t1
        self.m[i] = self.m[i] + (g - self.m[i]) * (1 - b1)
        self.v[i] = self.v[i] + (g * g - self.v[i]) * (1 - b2)
        m_hat = u_t1 * self.m[i] / (1 - u_prod_t1) + (1 - u_t) * g / (1 - u_prod_t)
        v_hat = self.v[i] / (1 - b2 ** t)
        return v - m_hat * lr / (np.sqrt(v_hat) + self.c["epsilon"])


class RMSprop(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-7, "centered": False}

    def build(self, values):
        self.vel = [np.zeros_like(v) for v in values]
        self.mom = [np.zeros_like(v) for v in values]
        self.avg = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        rho, eps = self.c["rho"], self.c["epsilon"]
        self.vel[i] = rho * self.vel[i] + (1 - rho) * g * g
        if self.c["centered"]:
            self.avg[i] = rho * self.avg[i] + (1 - rho) * g
            denom = self.vel[i] - self.avg[i] ** 2 + eps
        else:
            denom = self.vel[i] + eps
        increment = lr * g / np.sqrt(denom)
        if self.c["momentum"] > 0:
            self.mom[i] = self.c["momentum"] * self.mom[i] + increment
            return v - self.mom[i]
        return v - increment


class Adagrad(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "initial_accumulator_value": 0.1, "epsilon": 1e-7}

    def build(self, values):
        self.acc = [np.full_like(v, self.c["initial_accumulator_value"]) for v in values]

    def update(self, i, v, g, lr, t):
        self.acc[i] = self.acc[i] + g * g
        return v - lr * g / np.sqrt(self.acc[i] + self.c["epsilon"])


class Adadelta(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-7}

    def build(self, values):
        self.acc_g = [np.zeros_like(v) for v in values]
        self.acc_d = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        rho, eps = self.c["rho"], self.c["epsilon"]
        self.acc_g[i] = rho * self.acc_g[i] + (1 - rho) * g * g
        delta = -np.sqrt(self.acc_d[i] + eps) * g / np.sqrt(self.acc_g[i] + eps)
        self.acc_d[i] = rho * self.acc_d[i] + (1 - rho) * delta * delta
        return v + lr * delta


class Ftrl(KerasOptimizer):
    defaults = {"learning_rate": 0.001, "learning_rate_power": -0.5, "initial_accumulator_value": 0.1,
                "l1_regularization_strength": 0.0, "l2_regularization_strength": 0.0,
                "l2_shrinkage_regularization_strength": 0.0, "beta": 0.0}

    def build(self, values):
        self.acc = [np.full_like(v, self.c["initial_accumulator_value"]) for v in values]
        self.linear = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        c = self.c
        power = c["learning_rate_power"]
        l2 = c["l2_regularization_strength"] + c["beta"] / (2.0 * lr)
        l1 = c["l1_regularization_strength"]
        grad_to_use = g + 2 * c["l2_shrinkage_regularization_strength"] * v
        new_acc = self.acc[i] + g * g
        self.linear[i] = self.linear[i] + grad_to_use - (new_acc ** -power - self.acc[i] ** -power) / lr * v
        quadratic = new_acc ** -power / lr + 2 * l2
        self.acc[i] = new_acc
        return (np.clip(self.linear[i], -l1, l1) - self.linear[i]) / quadratic


class Lion(KerasOptimizer):
    defaults = {"learning_rate": 0.0001, "beta_1": 0.9, "beta_2": 0.99}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        b1, b2 = self.c["beta_1"], self.c["beta_2"]
        out = v - lr * np.sign(self.m[i] * b1 + g * (1 - b1))
        self.m[i] = self.m[i] * b2 + g * (1 - b2)
        return out


class Lamb(KerasOptimizer):
    """Keras 3's Lamb (keras/src/optimizers/lamb.py): Adam's bias-corrected step times |var| / |step|."""
    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}

    def build(self, values):
        self.m = [np.zeros_like(v) for v in values]
        self.v = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        b1, b2, eps = self.c["beta_1"], self.c["beta_2"], self.c["epsilon"]
        self.m[i] = self.m[i] + (g - self.m[i]) * (1 - b1)
        self.v[i] = self.v[i] + (g * g - self.v[i]) * (1 - b2)
        step = (self.m[i] / (1 - b1 ** t)) / (np.sqrt(self.v[i] / (1 - b2 ** t)) + eps)
        w_norm, s_norm = np.sqrt(np.sum(v * v)), np.sqrt(np.sum(step * step))
        ratio = w_norm / s_norm if w_norm > 0 and s_norm > 0 else 1.0
        return v - ratio * lr * step


class Adafactor(KerasOptimizer):
    """Keras 3's Adafactor (keras/src/optimizers/adafactor.py): for rank >= 2 the second moment is the outer
    product of running row means r and column means c of g^2 + epsilon_1, normalized by mean(r); the update
    g / sqrt(v) is clipped by its RMS and scaled by max(epsilon_2, rms(var)) * min(lr, 1 / sqrt(t))."""
    defaults = {"learning_rate": 0.001, "beta_2_decay": -0.8, "epsilon_1": 1e-30, "epsilon_2": 1e-3,
                "clip_threshold": 1.0, "relative_step": True}

    def build(self, values):
        self.r = [np.zeros(v.shape[:-1]) if v.ndim >= 2 else None for v in values]
        self.col = [np.zeros(v.shape[:-2] + v.shape[-1:]) if v.ndim >= 2 else None for v in values]
        self.v = [np.zeros_like(v) for v in values]

    def update(self, i, v, g, lr, t):
        def rms(x):
            return np.sqrt(np.mean(x * x))

        c = self.c
        rho = min(lr, 1 / np.sqrt(t))  # relative_step or not: Keras's two branches give the same
        alpha = max(c["epsilon_2"], rms(v)) * rho
        square = g * g + c["epsilon_1"]
        beta = 1 - t ** c["beta_2_decay"]
        if v.ndim >= 2:
            self.r[i] = beta * self.r[i] + (1 - beta) * square.mean(axis=-1)
            self.col[i] = beta * self.col[i] + (1 - beta) * square.mean(axis=-2)
            self.v[i] = (self.r[i] / self.r[i].mean(axis=-1, keepdims=True))[..., None] * self.col[i][..., None, :]
        else:
            self.v[i] = beta * self.v[i] + (1 - beta) * square
        u = g / np.sqrt(self.v[i])
        u = u / max(1.0, rms(u) / c["clip_threshold"])
        return v - alpha * u


NUMPY = {cls.__name__: cls for cls in [SGD, Adam, AdamW, Adamax, Nadam, RMSprop, Adagrad, Adadelta, Ftrl, Lion,
                                       Lamb, Adafactor]}


def run_numpy(class_name, config, problem):
    values = [v.copy() for v in problem.initial]
    opt = NUMPY[class_name](config, values)
    history = []
    for step in range(STEPS):
        values = opt.apply(values, problem.gradients(step, values))
        history.append([v.copy() for v in values])
    return history


# --------------------------------------------------------------------------------------------- torch oracle
def torch_optimizer(class_name, config, params):
    c = config
    if class_name == "SGD":
        return torch.optim.SGD(params, lr=c["learning_rate"], momentum=c.get("momentum", 0.0),
                               nesterov=c.get("nesterov", False))
    if class_name == "Adadelta":
        return torch.optim.Adadelta(params, lr=c["learning_rate"], rho=c.get("rho", 0.95), eps=c.get("epsilon", 1e-7))
    # The epsilon = 0 cross-checks: with no epsilon the two libraries' formulas coincide.
    assert c.get("epsilon") == 0.0, "torch differs from Keras unless epsilon = 0"
    betas = (c.get("beta_1", 0.9), c.get("beta_2", 0.999))
    if class_name == "Adam":
        return torch.optim.Adam(params, lr=c["learning_rate"], betas=betas, eps=0.0, amsgrad=c.get("amsgrad", False))
    if class_name == "AdamW":
        return torch.optim.AdamW(params, lr=c["learning_rate"], betas=betas, eps=0.0,
                                 weight_decay=c.get("weight_decay", 0.004), amsgrad=c.get("amsgrad", False))
    if class_name == "Adamax":
        return torch.optim.Adamax(params, lr=c["learning_rate"], betas=betas, eps=0.0)
    if class_name == "RMSprop":
        return torch.optim.RMSprop(params, lr=c["learning_rate"], alpha=c.get("rho", 0.9), eps=0.0,
                                   momentum=c.get("momentum", 0.0), centered=c.get("centered", False))
    if class_name == "Adagrad":
        return torch.optim.Adagrad(params, lr=c["learning_rate"], eps=0.0,
                                   initial_accumulator_value=c.get("initial_accumulator_value", 0.1))
    raise ValueError(class_name)


def run_torch(class_name, config, problem):
    params = [torch.tensor(v, requires_grad=True) for v in problem.initial]
    opt = torch_optimizer(class_name, config, params)
    history = []
    for step in range(STEPS):
        values = [p.detach().numpy().copy() for p in params]
        for p, g in zip(params, problem.gradients(step, values)):
            p.grad = torch.tensor(g)
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    return history


# ----------------------------------------------------------------------------------------------------- cases
EXP_DECAY = {"class_name": "ExponentialDecay",
             "config": {"initial_learning_rate": 0.05, "decay_steps": 4, "decay_rate": 0.5, "staircase": False}}
PIECEWISE = {"class_name": "PiecewiseConstantDecay", "config": {"boundaries": [3, 8], "values": [0.1, 0.03, 0.01]}}

CASES = [
    # name, class_name, config, oracle
    ("sgd_plain", "SGD", {"learning_rate": 0.1}, "torch"),
    ("sgd_momentum", "SGD", {"learning_rate": 0.1, "momentum": 0.9}, "torch"),
    ("sgd_nesterov", "SGD", {"learning_rate": 0.05, "momentum": 0.8, "nesterov": True}, "torch"),
    ("sgd_momentum_weight_decay", "SGD", {"learning_rate": 0.1, "momentum": 0.5, "weight_decay": 0.05}, "numpy"),
    ("sgd_ema", "SGD", {"learning_rate": 0.1, "momentum": 0.5, "use_ema": True, "ema_momentum": 0.8}, "numpy"),
    ("sgd_ema_overwrite", "SGD", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.7,
                                  "ema_overwrite_frequency": 4}, "numpy"),
    ("sgd_piecewise_schedule", "SGD", {"learning_rate": PIECEWISE, "momentum": 0.3}, "numpy"),
    ("adam_plain", "Adam", {"learning_rate": 0.1}, "numpy"),
    ("adam_custom", "Adam", {"learning_rate": 0.05, "beta_1": 0.8, "beta_2": 0.95, "epsilon": 1e-3}, "numpy"),
    ("adam_amsgrad", "Adam", {"learning_rate": 0.1, "amsgrad": True}, "numpy"),
    ("adam_clipnorm", "Adam", {"learning_rate": 0.05, "clipnorm": 0.5}, "numpy"),
    ("adam_global_clipnorm", "Adam", {"learning_rate": 0.05, "global_clipnorm": 0.7}, "numpy"),
    ("adam_clipvalue", "Adam", {"learning_rate": 0.05, "clipvalue": 0.3}, "numpy"),
    ("adam_exponential_schedule", "Adam", {"learning_rate": EXP_DECAY}, "numpy"),
    ("adam_torch_eps0", "Adam", {"learning_rate": 0.05, "epsilon": 0.0}, "torch"),
    ("adam_amsgrad_torch_eps0", "Adam", {"learning_rate": 0.05, "epsilon": 0.0, "amsgrad": True}, "torch"),
    ("adamw_default_decay", "AdamW", {"learning_rate": 0.05}, "numpy"),
    ("adamw_strong_decay", "AdamW", {"learning_rate": 0.05, "weight_decay": 0.2, "beta_1": 0.85}, "numpy"),
    ("adamw_schedule", "AdamW", {"learning_rate": EXP_DECAY, "weight_decay": 0.3}, "numpy"),
    ("adamw_torch_eps0", "AdamW", {"learning_rate": 0.05, "weight_decay": 0.2, "epsilon": 0.0}, "torch"),
    ("adamax_plain", "Adamax", {"learning_rate": 0.05}, "numpy"),
    ("adamax_custom", "Adamax", {"learning_rate": 0.02, "beta_1": 0.7, "beta_2": 0.9, "epsilon": 1e-3}, "numpy"),
    ("adamax_torch_eps0", "Adamax", {"learning_rate": 0.05, "epsilon": 0.0}, "torch"),
    ("nadam_plain", "Nadam", {"learning_rate": 0.05}, "numpy"),
    ("nadam_custom", "Nadam", {"learning_rate": 0.02, "beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-4}, "numpy"),
    ("nadam_weight_decay", "Nadam", {"learning_rate": 0.02, "weight_decay": 0.1}, "numpy"),
    ("rmsprop_plain", "RMSprop", {"learning_rate": 0.01}, "numpy"),
    ("rmsprop_momentum", "RMSprop", {"learning_rate": 0.01, "momentum": 0.9}, "numpy"),
    ("rmsprop_centered", "RMSprop", {"learning_rate": 0.01, "rho": 0.8, "centered": True}, "numpy"),
    ("rmsprop_centered_momentum", "RMSprop",
     {"learning_rate": 0.01, "momentum": 0.5, "centered": True, "epsilon": 1e-4}, "numpy"),
    ("rmsprop_torch_eps0", "RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "epsilon": 0.0}, "torch"),
    ("rmsprop_centered_torch_eps0", "RMSprop",
     {"learning_rate": 0.01, "rho": 0.8, "centered": True, "epsilon": 0.0}, "torch"),
    ("adagrad_plain", "Adagrad", {"learning_rate": 0.1}, "numpy"),
    ("adagrad_custom", "Adagrad", {"learning_rate": 0.05, "initial_accumulator_value": 0.5, "epsilon": 1e-3}, "numpy"),
    ("adagrad_torch_eps0", "Adagrad", {"learning_rate": 0.1, "epsilon": 0.0}, "torch"),
    ("adadelta_plain", "Adadelta", {"learning_rate": 1.0}, "torch"),
    ("adadelta_custom", "Adadelta", {"learning_rate": 0.5, "rho": 0.8, "epsilon": 1e-4}, "torch"),
    ("adadelta_default_numpy", "Adadelta", {}, "numpy"),
    ("ftrl_plain", "Ftrl", {"learning_rate": 0.1}, "numpy"),
    ("ftrl_regularized", "Ftrl", {"learning_rate": 0.2, "learning_rate_power": -0.7, "initial_accumulator_value": 0.3,
                                  "l1_regularization_strength": 0.01, "l2_regularization_strength": 0.05,
                                  "l2_shrinkage_regularization_strength": 0.02, "beta": 0.1}, "numpy"),
    ("lion_plain", "Lion", {"learning_rate": 0.01}, "numpy"),
    ("lion_custom", "Lion", {"learning_rate": 0.003, "beta_1": 0.8, "beta_2": 0.95, "weight_decay": 0.5}, "numpy"),
    ("lamb_plain", "Lamb", {"learning_rate": 0.01}, "numpy"),
    ("lamb_custom", "Lamb", {"learning_rate": 0.02, "beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-4,
                             "weight_decay": 0.1, "clipnorm": 1.0}, "numpy"),
    # Keras 3's Adafactor: rho = lr until 1/sqrt(t) falls below it (lr 0.5: from t = 5 on).
    ("adafactor_default", "Adafactor", {}, "numpy"),
    ("adafactor_relative", "Adafactor", {"learning_rate": 0.5}, "numpy"),
    ("adafactor_custom", "Adafactor", {"learning_rate": 0.1, "beta_2_decay": -0.6, "epsilon_2": 0.01,
                                       "clip_threshold": 0.5, "relative_step": False, "weight_decay": 0.05},
     "numpy"),
    # Keras 3's gradient_accumulation_steps: updates on every n-th call with the mean of the n gradients.
    ("sgd_accumulate3", "SGD", {"learning_rate": 0.1, "momentum": 0.5, "gradient_accumulation_steps": 3}, "numpy"),
    ("adam_accumulate2_schedule_ema", "Adam", {"learning_rate": EXP_DECAY, "gradient_accumulation_steps": 2,
                                               "clipnorm": 0.5, "use_ema": True, "ema_momentum": 0.8,
                                               "ema_overwrite_frequency": 3}, "numpy"),
    ("adafactor_accumulate4", "Adafactor", {"learning_rate": 0.2, "gradient_accumulation_steps": 4,
                                            "weight_decay": 0.01}, "numpy"),
]

SCHEDULES = [
    ("exponential", {"class_name": "ExponentialDecay",
                     "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.9}}),
    ("exponential_staircase", {"class_name": "ExponentialDecay",
                               "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5,
                                          "staircase": True, "name": "stairs"}}),
    ("piecewise", {"class_name": "PiecewiseConstantDecay",
                   "config": {"boundaries": [10, 25, 60], "values": [1.0, 0.5, 0.1, 0.01]}}),
    ("polynomial", {"class_name": "PolynomialDecay",
                    "config": {"initial_learning_rate": 0.1, "decay_steps": 50}}),
    ("polynomial_power", {"class_name": "PolynomialDecay",
                          "config": {"initial_learning_rate": 0.2, "decay_steps": 40, "end_learning_rate": 0.01,
                                     "power": 2.5}}),
    ("polynomial_cycle", {"class_name": "PolynomialDecay",
                          "config": {"initial_learning_rate": 0.1, "decay_steps": 30, "end_learning_rate": 0.001,
                                     "power": 0.5, "cycle": True}}),
    ("inverse_time", {"class_name": "InverseTimeDecay",
                      "config": {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5}}),
    ("inverse_time_staircase", {"class_name": "InverseTimeDecay",
                                "config": {"initial_learning_rate": 0.1, "decay_steps": 7, "decay_rate": 2.0,
                                           "staircase": True}}),
    ("cosine", {"class_name": "CosineDecay", "config": {"initial_learning_rate": 0.1, "decay_steps": 80}}),
    ("cosine_alpha", {"class_name": "CosineDecay",
                      "config": {"initial_learning_rate": 0.1, "decay_steps": 80, "alpha": 0.1}}),
    ("cosine_warmup", {"class_name": "CosineDecay",
                       "config": {"initial_learning_rate": 0.0, "decay_steps": 60, "alpha": 0.05,
                                  "warmup_target": 0.2, "warmup_steps": 20}}),
    ("cosine_restarts", {"class_name": "CosineDecayRestarts",
                         "config": {"initial_learning_rate": 0.1, "first_decay_steps": 10}}),
    ("cosine_restarts_custom", {"class_name": "CosineDecayRestarts",
                                "config": {"initial_learning_rate": 0.1, "first_decay_steps": 12, "t_mul": 1.5,
                                           "m_mul": 0.7, "alpha": 0.05}}),
    ("cosine_restarts_tmul1", {"class_name": "CosineDecayRestarts",
                               "config": {"initial_learning_rate": 0.1, "first_decay_steps": 9, "t_mul": 1.0,
                                          "m_mul": 0.5}}),
]
SCHEDULE_STEPS = [0, 1, 2, 5, 9, 10, 11, 15, 20, 24, 25, 26, 29, 30, 31, 33, 40, 45, 50, 59, 60, 61, 70, 79, 80,
                  81, 90, 100, 150, 1000]


# ---------------------------------------------------------------------------------------------------- output
def short(x):
    return float(f"{x:.12g}")


def flat32(arrays):
    """float32-exact values in their shortest float32 decimal form."""
    return [[float(repr(np.float32(x))) for x in a.ravel()] for a in arrays]


def main():
    problems = [Quadratic(), MLP()]
    cases = []
    for name, class_name, config, oracle in CASES:
        for problem in problems:
            history = (run_torch if oracle == "torch" else run_numpy)(class_name, config, problem)
            if oracle == "torch":
                # Cross-check: the NumPy transcription (with epsilon = 0 where that matters) agrees with torch.
                mine = run_numpy(class_name, config, problem)
                for a, b in zip(history, mine):
                    for x, y in zip(a, b):
                        np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-12, err_msg=name)
            assert all(np.all(np.isfinite(v)) for step in history for v in step), name
            cases.append({
                "name": f"{name}/{problem.name}",
                "problem": problem.name,
                "oracle": oracle,
                "optimizer": {"class_name": class_name, "config": config},
                "checkpoints": CHECKPOINTS,
                "expected": [[[short(x) for x in v.ravel()] for v in history[s - 1]] for s in CHECKPOINTS],
            })
    with open(OUT, "w") as f:
        json.dump({"problems": {p.name: p.to_json() for p in problems}, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")

    schedules = []
    for name, spec in SCHEDULES:
        schedules.append({"name": name, "schedule": spec, "steps": SCHEDULE_STEPS,
                          "values": [schedule_value(spec, s) for s in SCHEDULE_STEPS]})
    with open(OUT_SCHEDULES, "w") as f:
        json.dump({"schedules": schedules}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
