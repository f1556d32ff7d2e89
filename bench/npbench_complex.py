"""NumPy twins of bench_npbench_complex.cpp: the five NPBench programs on complex numbers,
NumPy's own code (NPBench's numpy implementations; mandelbrot2 is N. P. Rougier's, BSD,
as NPBench has it), printing for each the best time in seconds and checksums
bench_npbench_complex compares with its own. Inputs are formulas both sides compute
(NPBench draws them from default_rng(42)), in complex128.
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


# NPBench mandelbrot2 (numpy): the points that have not diverged, compacted each step
def mandelbrot2(xmin, xmax, ymin, ymax, xn, yn, itermax, horizon=2.0):
    Xi, Yi = np.mgrid[0:xn, 0:yn]
    X = np.linspace(xmin, xmax, xn, dtype=np.float64)[Xi]
    Y = np.linspace(ymin, ymax, yn, dtype=np.float64)[Yi]
    C = X + Y * 1j
    N_ = np.zeros(C.shape, dtype=np.int64)
    Z_ = np.zeros(C.shape, dtype=np.complex128)
    Xi.shape = Yi.shape = C.shape = xn * yn

    Z = np.zeros(C.shape, np.complex128)
    for i in range(itermax):
        if not len(Z):
            break
        np.multiply(Z, Z, Z)
        np.add(Z, C, Z)
        I = abs(Z) > horizon
        N_[Xi[I], Yi[I]] = i + 1
        Z_[Xi[I], Yi[I]] = Z[I]
        np.logical_not(I, I)
        Z = Z[I]
        Xi, Yi = Xi[I], Yi[I]
        C = C[I]
    return Z_.T, N_.T


# NPBench contour_integral (numpy)
def contour_integral(NR, NM, slab_per_bc, Ham, int_pts, Y):
    P0 = np.zeros((NR, NM), dtype=np.complex128)
    P1 = np.zeros((NR, NM), dtype=np.complex128)
    for z in int_pts:
        Tz = np.zeros((NR, NR), dtype=np.complex128)
        for n in range(slab_per_bc + 1):
            zz = np.power(z, slab_per_bc / 2 - n)
            Tz += zz * Ham[n]
        if NR == NM:
            X = np.linalg.inv(Tz)
        else:
            X = np.linalg.solve(Tz, Y)
        if abs(z) < 1.0:
            X = -X
        P0 += X
        P1 += z * X
    return P0, P1


# NPBench scattering_self_energies (numpy)
def scattering_self_energies(neigh_idx, dH, G, D, Sigma):
    for k in range(G.shape[0]):
        for E in range(G.shape[1]):
            for q in range(D.shape[0]):
                for w in range(D.shape[1]):
                    for i in range(D.shape[-2]):
                        for j in range(D.shape[-1]):
                            for a in range(neigh_idx.shape[0]):
                                for b in range(neigh_idx.shape[1]):
                                    if E - w >= 0:
                                        dHG = G[k, E - w, neigh_idx[a, b]] @ dH[a, b, i]
                                        dHD = dH[a, b, j] * D[q, w, a, b, i, j]
                                        Sigma[k, E, a] += dHG @ dHD


def filled(shape, f):
    """Element k (row-major) is f(k) + 1j f(k + 0.5): the inputs both sides compute."""
    k = np.arange(int(np.prod(shape)), dtype=np.float64)
    return (f(k) + 1j * f(k + 0.5)).reshape(shape)


def run_mandelbrot2():
    Z, N = mandelbrot2(-2.0, 0.5, -1.25, 1.25, 500, 500, 80)
    return float(np.sum(np.abs(Z))), float(np.sum(N))


CI = dict(NR=200, NM=400, slab_per_bc=2, num_int_pts=32)
ci_Ham = filled((CI["slab_per_bc"] + 1, CI["NR"], CI["NR"]), lambda k: np.sin(0.7 * k))
ci_Ham[:, np.arange(CI["NR"]), np.arange(CI["NR"])] += 4.0  # solvable at every point
ci_pts = filled((CI["num_int_pts"], ), lambda k: 0.6 + 0.5 * np.cos(1.9 * k))
ci_Y = filled((CI["NR"], CI["NM"]), lambda k: np.cos(0.3 * k))


def run_contour_integral():
    P0, P1 = contour_integral(CI["NR"], CI["NM"], CI["slab_per_bc"], ci_Ham, ci_pts, ci_Y)
    return float(np.sum(np.abs(P0))), float(np.sum(np.abs(P1)))


SS = dict(Nkz=3, NE=5, Nqz=3, Nw=2, N3D=2, NA=10, NB=3, Norb=4)
ss_neigh = np.ndarray([SS["NA"], SS["NB"]], dtype=np.int32)
for i in range(SS["NA"]):
    ss_neigh[i] = np.positive(np.arange(i - SS["NB"] / 2, i + SS["NB"] / 2) % SS["NA"])
ss_dH = filled([SS["NA"], SS["NB"], SS["N3D"], SS["Norb"], SS["Norb"]], lambda k: np.sin(0.11 * k))
ss_G = filled([SS["Nkz"], SS["NE"], SS["NA"], SS["Norb"], SS["Norb"]], lambda k: np.cos(0.13 * k))
ss_D = filled([SS["Nqz"], SS["Nw"], SS["NA"], SS["NB"], SS["N3D"], SS["N3D"]],
              lambda k: np.sin(0.17 * k + 1.0))


def run_scattering():
    Sigma = np.zeros([SS["Nkz"], SS["NE"], SS["NA"], SS["Norb"], SS["Norb"]], dtype=np.complex128)
    scattering_self_energies(ss_neigh, ss_dH, ss_G, ss_D, Sigma)
    return float(np.sum(Sigma.real)), float(np.sum(np.abs(Sigma)))


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


programs = [("mandelbrot1", run_mandelbrot1), ("mandelbrot2", run_mandelbrot2),
            ("contour_integral", run_contour_integral), ("scattering_self_energies", run_scattering),
            ("stockham_fft", run_stockham)]
for name, run in programs:
    c1, c2 = run()
    t = min(timeit.repeat(run, number=1, repeat=REPS))
    print(name, t, c1, c2, flush=True)
