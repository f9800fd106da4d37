#!/usr/bin/python3
"""Which Winograd variant could run its products in bf16 and stay near a direct bf16 convolution's error.

For each variant F(m x m, r x r) and set of interpolation points, builds the transforms B^T, G and A^T
from the points (the Cook-Toom construction with the point at infinity, as in Lavin and Gray, "Fast
Algorithms for Convolutional Neural Networks", 2016), checks them against the direct 1-D convolution,
then measures in double precision the error of one output tile summed over 64 input channels when the
transformed inputs V, the transformed kernels U, or both are rounded to bfloat16 (round to nearest
even, as the engine does), beside the direct convolution of bf16-rounded inputs and kernels summed
exactly. Inputs are ReLU'd standard normals, kernels Glorot-uniform. A second table gives the FP32
error of the 3x3 variants' candidate point sets (transforms, products and sums in float32; how
F(7x7, 3x3)'s points were chosen). Figures, not a test: docs/benchmarks.md reads them;
bench/winograd_error.cpp measures the engine's own layers.

usage: /usr/bin/python3 bench/winograd_points.py   (needs numpy)
"""
from fractions import Fraction as Fr

import numpy as np


def bf16(x):
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


def polymul(a, b):
    out = [Fr(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def transforms(points, m, r):
    """A^T (m x n), G (n x r), B^T (n x n) for n = m + r - 1 = len(points) + 1."""
    n = m + r - 1
    pts = [Fr(p) for p in points]
    assert len(pts) == n - 1
    at = [[p ** i for p in pts] + [Fr(int(i == m - 1))] for i in range(m)]
    norms = []
    for j, p in enumerate(pts):
        prod = Fr(1)
        for k, q in enumerate(pts):
            if k != j:
                prod *= p - q
        norms.append(prod)
    g = [[p ** k / norms[j] for k in range(r)] for j, p in enumerate(pts)] + [[Fr(int(k == r - 1)) for k in range(r)]]
    bt = []
    for j in range(len(pts)):
        q = [Fr(1)]
        for k, o in enumerate(pts):
            if k != j:
                q = polymul(q, [-o, Fr(1)])
        bt.append(q + [Fr(0)] * (n - len(q)))
    whole = [Fr(1)]
    for p in pts:
        whole = polymul(whole, [-p, Fr(1)])
    bt.append(whole + [Fr(0)] * (n - len(whole)))
    as_array = lambda rows: np.array([[float(v) for v in row] for row in rows])
    return as_array(at), as_array(g), as_array(bt)


def check(at, g, bt, m, r):
    rng = np.random.default_rng(0)
    d, k = rng.standard_normal(m + r - 1), rng.standard_normal(r)
    direct = np.array([d[i:i + r] @ k for i in range(m)])
    return np.max(np.abs(at @ ((g @ k) * (bt @ d)) - direct))


def fp32_error(at, g, bt, m, r, channels=96, trials=100):
    """Relative rms error of the whole convolution in float32 (tpu-mnist-cnn's third layer has 96
    folded channels), against the same in double precision."""
    n = m + r - 1
    rng = np.random.default_rng(2)
    f = lambda a: a.astype(np.float32)
    at32, g32, bt32 = f(at), f(g), f(bt)
    sq = total = 0.0
    for _ in range(trials):
        d = np.maximum(rng.standard_normal((channels, n, n)), 0.0)
        k = rng.uniform(-1, 1, (channels, r, r)) * np.sqrt(6.0 / (r * r * 2 * channels))
        exact = at @ (np.einsum('ij,cjk,lk->cil', bt, d, bt) * np.einsum('ij,cjk,lk->cil', g, k, g)).sum(0) @ at.T
        v = f(np.einsum('ij,cjk,lk->cil', bt32, f(d), bt32))
        u = f(np.einsum('ij,cjk,lk->cil', g32, f(k), g32))
        y = f(at32 @ f((v * u).sum(0, dtype=np.float32)) @ at32.T)
        sq += ((y - exact) ** 2).sum()
        total += (exact ** 2).sum()
    return np.sqrt(sq / total)


def errors(at, g, bt, m, r, channels=64, trials=200):
    """Relative rms error of bf16 V and U, V only, U only, and of the direct bf16 convolution."""
    n = m + r - 1
    rng = np.random.default_rng(1)
    sq = np.zeros(4)
    total = 0.0
    for _ in range(trials):
        d = np.maximum(rng.standard_normal((channels, n, n)), 0.0)
        k = rng.uniform(-1, 1, (channels, r, r)) * np.sqrt(6.0 / (r * r * 2 * channels))
        v = np.einsum('ij,cjk,lk->cil', bt, d, bt)
        u = np.einsum('ij,cjk,lk->cil', g, k, g)
        exact = at @ (v * u).sum(0) @ at.T
        db, kb = bf16(d), bf16(k)
        direct = np.array([[(db[:, i:i + r, j:j + r] * kb).sum() for j in range(m)] for i in range(m)])
        got = [at @ (a * b).sum(0) @ at.T for a, b in ((bf16(v), bf16(u)), (bf16(v), u), (v, bf16(u)))]
        for i, y in enumerate(got + [direct]):
            sq[i] += ((y - exact) ** 2).sum()
        total += (exact ** 2).sum()
    return np.sqrt(sq / total)


VARIANTS = [
    ("F(4x4, 3x3)", [0, 1, -1, 2, -2], 4, 3),
    ("F(4x4, 3x3)", [0, 1, -1, Fr(1, 2), -Fr(1, 2)], 4, 3),
    ("F(2x2, 3x3)", [0, 1, -1], 2, 3),
    ("F(5x5, 3x3)", [0, 1, -1, 2, -2, Fr(1, 2)], 5, 3),
    ("F(7x7, 3x3)", [0, 1, -1, Fr(1, 2), -Fr(1, 2), Fr(3, 2), -Fr(3, 2), 4], 7, 3),
    ("F(4x4, 5x5)", [0, 1, -1, 2, -2, Fr(1, 2), -Fr(1, 2)], 4, 5),
    ("F(4x4, 5x5)", [0, 1, -1, Fr(1, 2), -Fr(1, 2), Fr(3, 2), -Fr(3, 2)], 4, 5),
    ("F(2x2, 5x5)", [0, 1, -1, 2, -2], 2, 5),
    ("F(2x2, 5x5)", [0, 1, -1, Fr(1, 2), -Fr(1, 2)], 2, 5),
]

print("| variant | points (and infinity) | transforms' error | bf16 V and U | V only | U only | direct bf16 | "
      "bf16 V and U / direct |")
print("|---|---|---|---|---|---|---|---|")
for name, points, m, r in VARIANTS:
    at, g, bt = transforms(points, m, r)
    both, v_only, u_only, direct = errors(at, g, bt, m, r)
    shown = ", ".join(str(p) for p in points)
    print(f"| {name} | {shown} | {check(at, g, bt, m, r):.0e} | {both:.1e} | {v_only:.1e} | {u_only:.1e} | "
          f"{direct:.1e} | {both / direct:.1f} |")

half, three_halves = Fr(1, 2), Fr(3, 2)
FP32_VARIANTS = [
    ("F(4x4, 3x3)", [0, 1, -1, 2, -2], 4),
    ("F(5x5, 3x3)", [0, 1, -1, 2, -2, half], 5),
    ("F(7x7, 3x3)", [0, 1, -1, half, -half, three_halves, -three_halves, 4], 7),
    ("F(7x7, 3x3)", [0, 1, -1, half, -half, three_halves, -three_halves, -4], 7),
    ("F(7x7, 3x3)", [0, 1, -1, half, -half, three_halves, -three_halves, 3], 7),
    ("F(7x7, 3x3)", [0, 1, -1, half, -half, three_halves, -three_halves, 2], 7),
    ("F(7x7, 3x3)", [0, 1, -1, 2, -2, half, -half, Fr(1, 4)], 7),
    ("F(7x7, 3x3)", [0, 1, -1, 2, -2, half, -half, -Fr(1, 4)], 7),
]
print()
print("| variant | points (and infinity) | FP32 error, 96 channels |")
print("|---|---|---|")
for name, points, m in FP32_VARIANTS:
    at, g, bt = transforms(points, m, 3)
    shown = ", ".join(str(p) for p in points)
    print(f"| {name} | {shown} | {fp32_error(at, g, bt, m, 3):.1e} |")
