"""NumPy twins of bench_npbench_complex.cpp: two NPBench programs on complex numbers,
NumPy's own code (NPBench's numpy implementations), printing for each the best time
in seconds and checksums bench_npbench_complex compares with its own.
Usage: npbench_complex.py REPS
"""
import sys
import timeit

import numpy as np

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


# NPBench mandelbrot1 (numpy)
def mandelbrot1(xmin, xmax, ymin, ymax, xn, yn, maxiter, horizon=2.0):
    X = np.linspace(xmin, xmax, xn, dtype=np.float64)
    Y = np.linspace(ymin, ymax, yn, dtype=np.float64)
    C = X + Y[:, None] * 1j
    N = np.zeros(C.shape, dtype=np.int64)
    Z = np.zeros(C.shape, dtype=np.complex128)
    for n in range(maxiter):
        I = np.less(abs(Z), horizon)
        N[I] = n
        Z[I] = Z[I]**2 + C[I]
    N[N == maxiter - 1] = 0
    return Z, N


# NPBench stockham_fft (numpy)
def stockham_fft(N, R, K, x, y):
    i_coord, j_coord = np.mgrid[0:R, 0:R]
    dft_mat = np.exp(-2.0j * np.pi * i_coord * j_coord / R)
    y[:] = x[:]
    ii_coord, jj_coord = np.mgrid[0:R, 0:R**K]
    for i in range(K):
        yv = np.reshape(y, (R**i, R, R**(K - i - 1)))
        tmp_perm = np.transpose(yv, axes=(1, 0, 2))
        D = np.empty((R, R**i, R**(K - i - 1)), dtype=np.complex128)
        tmp = np.exp(-2.0j * np.pi * ii_coord[:, :R**i] * jj_coord[:, :R**i] / R**(i + 1))
        D[:] = np.repeat(np.reshape(tmp, (R, R**i, 1)), R**(K - i - 1), axis=2)
        tmp_twid = np.reshape(tmp_perm, (N, )) * np.reshape(D, (N, ))
        y[:] = np.reshape(dft_mat @ np.reshape(tmp_twid, (R, R**(K - 1))), (N, ))


def run_mandelbrot1():
    Z, N = mandelbrot1(-2.25, 0.75, -1.25, 1.25, 500, 500, 100)
    return float(np.sum(np.abs(Z))), float(np.sum(N))


R, K = 4, 9
NN = R**K
k = np.arange(NN)
x = (np.sin(0.37 * k) + 1j * np.cos(1.3 * k)).astype(np.complex128)
y = np.empty_like(x)


def run_stockham():
    stockham_fft(NN, R, K, x, y)
    return float(np.sum(y.real)), float(np.sum(np.abs(y)))


for name, run in [("mandelbrot1", run_mandelbrot1), ("stockham_fft", run_stockham)]:
    c1, c2 = run()
    t = min(timeit.repeat(run, number=1, repeat=REPS))
    print(name, t, c1, c2, flush=True)
