"""NumPy twins of bench_workloads.cpp's programs, written as a NumPy user writes them.

Prints one line per workload: its name, the best time in seconds and a checksum
(bench_workloads compares it with its own). Usage: workloads_numpy.py REPS
"""
import sys
import timeit

import numpy as np

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 7


def seq(n, lo, hi, dtype):
    f = (np.arange(n) * 0.6180339887498949) % 1.0
    return (lo + (hi - lo) * f).astype(dtype)


def stencil1d():
    x = seq(1 << 22, -1, 1, np.float64)
    y = x.copy()

    def run():
        y[1:-1] = 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]
        return y
    return run


def jacobi2d():
    u = seq(1024 * 1024, 0, 1, np.float64).reshape(1024, 1024)
    v = u.copy()

    def run():
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        return v
    return run


def stencil3d():
    n = 96
    u = seq(n * n * n, 0, 1, np.float32).reshape(n, n, n)
    v = u.copy()
    c = np.float32(1.0 / 6.0)

    def run():
        v[1:-1, 1:-1, 1:-1] = c * (u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1] + u[1:-1, :-2, 1:-1]
                                   + u[1:-1, 2:, 1:-1] + u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:])
        return v
    return run


def great_circle():
    n = 1 << 20
    lat = seq(n, -1.5, 1.5, np.float64)
    lon = seq(n, -3.1, 3.1, np.float64)[::-1].copy()
    lat0, lon0 = 0.7, -1.2

    def run():
        dlat = lat - lat0
        dlon = lon - lon0
        a = np.sin(dlat / 2) ** 2 + np.cos(lat) * np.cos(lat0) * np.sin(dlon / 2) ** 2
        return 2 * 6371.0 * np.arctan2(np.sqrt(a), np.sqrt(1 - a))
    return run


def nbody():
    n = 1000
    pos = seq(3 * n, -1, 1, np.float64).reshape(n, 3)
    mass = seq(n, 0.5, 1.5, np.float64)

    def run():
        x, y, z = pos[:, 0:1], pos[:, 1:2], pos[:, 2:3]
        dx = x.T - x
        dy = y.T - y
        dz = z.T - z
        inv = (dx ** 2 + dy ** 2 + dz ** 2 + 0.01) ** -1.5
        ax = (dx * inv) @ mass
        ay = (dy * inv) @ mass
        az = (dz * inv) @ mass
        return np.stack([ax, ay, az], axis=1)
    return run


def radial_histogram():
    n = 1024
    img = seq(n * n, 0, 1, np.float64).reshape(n, n)
    yy, xx = np.indices((n, n))
    r = np.sqrt((xx - n / 2) ** 2 + (yy - n / 2) ** 2)
    nbins = 16
    width = r.max() / nbins

    def run():
        out = np.empty(nbins)
        for b in range(nbins):
            sel = img[(r >= b * width) & (r < (b + 1) * width)]
            out[b] = sel.mean()
        return out
    return run


def softmax():
    x = seq(1024 * 1024, -5, 5, np.float32).reshape(1024, 1024)

    def run():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return run


def mlp():
    x = seq(512 * 1024, -1, 1, np.float32).reshape(512, 1024)
    w = seq(1024 * 512, -0.05, 0.05, np.float32).reshape(1024, 512)
    b = seq(512, -0.1, 0.1, np.float32)

    def run():
        return np.maximum(x @ w + b, 0)
    return run


def covariance():
    x = seq(4096 * 256, -1, 1, np.float64).reshape(4096, 256)

    def run():
        xc = x - x.mean(axis=0)
        return xc.T @ xc / (x.shape[0] - 1)
    return run


for name, make in [("stencil1d", stencil1d), ("jacobi2d", jacobi2d), ("stencil3d", stencil3d),
                   ("great_circle", great_circle), ("nbody", nbody),
                   ("radial_histogram", radial_histogram), ("softmax", softmax), ("mlp", mlp),
                   ("covariance", covariance)]:
    run = make()
    check = float(np.sum(run(), dtype=np.float64))
    t = min(timeit.repeat(run, number=1, repeat=REPS))
    print(name, t, check, flush=True)
