#!/usr/bin/python3
"""Prints the coefficients of keras/kernels/vector_math.hpp's rational tanh: tanh(x) = x P(x^2) / Q(x^2) on
[-9, 9], P of degree 6 and Q of degree 3 with Q(0) = 1, fitted for the least largest relative error.

Run with Debian's Python (python3-mpmath):  /usr/bin/python3 tests/golden/fit_rational_tanh.py

The fit works in 30-digit arithmetic on t = x^2 over 1,200 points (evenly spaced, and denser near 0):
Sanathanan-Koerner iterations (each a linear least-squares solve of P(t) - f(t) Q(t), divided by the last
Q and by f, relative error) with Lawson's reweighting towards the minimax solution. It prints the largest
relative error of the exact rational function; tests/keras/vector_math_test.cpp checks the float code.
"""
import mpmath as mp

mp.mp.dps = 30
LIMIT, P_DEGREE, Q_DEGREE, POINTS, ITERATIONS = 9, 6, 3, 600, 40


def horner(coefficients, t):
    value = mp.mpf(0)
    for a in reversed(coefficients):
        value = value * t + a
    return value


def fit():
    limit = mp.mpf(LIMIT)
    xs = {min(limit, limit * (1 - mp.cos(mp.pi * (i + mp.mpf(0.5)) / POINTS))) for i in range(POINTS)}
    xs |= {limit * i / POINTS for i in range(1, POINTS + 1)}
    ts = [x * x for x in sorted(xs)]
    fs = [mp.tanh(mp.sqrt(t)) / mp.sqrt(t) for t in ts]
    weights, last_q = [mp.mpf(1)] * len(ts), [mp.mpf(1)] * len(ts)
    unknowns = P_DEGREE + 1 + Q_DEGREE
    for iteration in range(ITERATIONS):
        a, b = mp.zeros(unknowns, unknowns), mp.zeros(unknowns, 1)
        for t, f, w, q in zip(ts, fs, weights, last_q):
            row = [t**k for k in range(P_DEGREE + 1)] + [-f * t**k for k in range(1, Q_DEGREE + 1)]
            scale = w / (f * q) ** 2
            for i in range(unknowns):
                b[i] += scale * row[i] * f
                for j in range(unknowns):
                    a[i, j] += scale * row[i] * row[j]
        c = mp.lu_solve(a, b)
        p = [c[i] for i in range(P_DEGREE + 1)]
        q = [mp.mpf(1)] + [c[P_DEGREE + 1 + i] for i in range(Q_DEGREE)]
        last_q = [horner(q, t) for t in ts]
        errors = [abs(horner(p, t) / horner(q, t) / f - 1) for t, f in zip(ts, fs)]
        if iteration >= 5:  # Lawson: weight each point by its error
            total = sum(w * e for w, e in zip(weights, errors))
            weights = [w * e * len(ts) / total for w, e in zip(weights, errors)]
    return p, q, max(errors)


if __name__ == "__main__":
    p, q, worst = fit()
    print("largest relative error of the exact fit:", mp.nstr(worst, 3))
    print("P, highest power first:", ", ".join(mp.nstr(a, 12) for a in reversed(p)))
    print("Q, highest power first:", ", ".join(mp.nstr(a, 12) for a in reversed(q)))
