#!/usr/bin/env python3
"""Ring-allreduce cost model behind the README's "Past this machine" table.

Per step each of N workers sends (and receives) 2(N-1)/N * S bytes in 2(N-1) messages, so
    T_comm = 2(N-1) * alpha + 2(N-1)/N * S / beta        (S: gradient bytes, beta: link bytes/s)
Efficiency against perfect scaling, for a step of compute T_c of which the backward pass is 2/3:
    no overlap:            T_c / (T_c + T_comm)
    overlap with backward: T_c / (T_c + max(0, T_comm - 2/3 T_c))
The inputs (alpha, compute times) are assumptions stated in the README, not measurements.
"""
ALPHA = 10e-6  # per-message latency over TCP/RoCE, seconds (assumed)
MODELS = [  # name, parameters, compute seconds per step per worker (assumed; see README)
    ("seed CNN (batch 32/worker, 1 core)", 1_669_002, 0.030),
    ("ResNet-101 (batch 64/GPU)", 44_549_160, 0.45),
    ("VGG-16 (batch 32/GPU)", 138_357_544, 0.25),
]


def comm_seconds(workers, gradient_bytes, gbit):
    beta = gbit * 1e9 / 8
    return 2 * (workers - 1) * ALPHA + 2 * (workers - 1) / workers * gradient_bytes / beta


def main():
    print("| model, gradient size | workers | 10 Gbit | 25 Gbit | 100 Gbit |")
    print("|---|---|---|---|---|")
    for name, params, compute in MODELS:
        size = params * 4
        for workers in (8, 64, 512):
            cells = []
            for gbit in (10, 25, 100):
                t = comm_seconds(workers, size, gbit)
                plain = compute / (compute + t)
                overlapped = compute / (compute + max(0.0, t - 2 / 3 * compute))
                cells.append(f"{t * 1e3:.0f} ms: {plain:.0%} / {overlapped:.0%}")
            print(f"| {name}, {size / 1e6:.1f} MB | {workers} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
