#!/usr/bin/env python3
"""Floating-point operations per sample of each workload in bench_models.hpp, counted layer by layer
from its shapes (a multiply-add is 2 FLOPs; only matrix products and convolutions are counted, the
element-wise work is left out as in the usual accounting). Training is taken as 3x the forward pass
(the backward pass computes two products per forward product: gradients of inputs and of weights).
    bench/flops_per_sample.py            prints "model: forward_flops training_flops" per workload
    bench/flops_per_sample.py cnn        prints the training FLOPs of one workload
"""
import sys


def dense(n_in, n_out, rows=1):
    return 2 * rows * n_in * n_out


def conv(out_h, out_w, k_h, k_w, c_in, c_out):
    return 2 * out_h * out_w * k_h * k_w * c_in * c_out


def mlp():
    return dense(784, 512) + dense(512, 256) + dense(256, 10)


def cnn():  # 28x28x1 -> conv5x5/32 (24x24) -> pool (12) -> conv3x3/64 (10x10) -> pool (5) -> 1600 -> 1024 -> 10
    return conv(24, 24, 5, 5, 1, 32) + conv(10, 10, 3, 3, 32, 64) + dense(1600, 1024) + dense(1024, 10)


def resnet20():
    total = conv(32, 32, 3, 3, 3, 16)
    size, c_in = 32, 16
    for stage in range(3):
        c_out = 16 << stage
        for block in range(3):
            stride = 2 if stage > 0 and block == 0 else 1
            size //= stride
            total += conv(size, size, 3, 3, c_in, c_out) + conv(size, size, 3, 3, c_out, c_out)
            if stride != 1 or c_in != c_out:
                total += conv(size, size, 1, 1, c_in, c_out)
            c_in = c_out
    return total + dense(64, 10)


def transformer(t=128, d=256, ff=1024):
    projections = 4 * dense(d, d, rows=t)   # query, key, value, output
    attention = 2 * (2 * t * t * d)          # scores q.k and the weighted sum of values, over all heads
    return projections + attention + dense(d, ff, rows=t) + dense(ff, d, rows=t) + dense(d, 10)


def textcnn(t=200):
    return conv(t - 4, 1, 5, 1, 128, 128) + dense(128, 10)


def lstm(t=100, units=128, d=128):
    return t * (dense(d, 4 * units) + dense(units, 4 * units)) + dense(units, 10)


WORKLOADS = {"mlp": mlp, "cnn": cnn, "resnet20": resnet20, "transformer": transformer, "textcnn": textcnn, "lstm": lstm}

if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(3 * WORKLOADS[sys.argv[1]]())
    else:
        for name, f in WORKLOADS.items():
            print(f"{name}: {f()} {3 * f()}")
