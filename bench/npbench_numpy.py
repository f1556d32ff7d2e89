"""NumPy twins of bench_npbench.cpp: square GEMM (a @ b) and NPBench's mlp and lenet
programs (deep_learning/mlp, deep_learning/lenet; NPBench's "M" preset, the one whose
lenet has the 8x1936 @ 1936x120 product), written here as NPBench's numpy versions
compute them. Inputs are formulas both sides compute (seq below; NPBench draws them
from default_rng(42)), centred and scaled so that every layer stays of order one.

Prints lines "name ... seconds checksum" (best of REPS) and, per layer of mlp and
lenet, "layer name seconds". With OUTDIR, saves mlp's and lenet's outputs there as
.npy for bench_npbench's comparison. Usage: npbench_numpy.py REPS [OUTDIR]
"""
import os
import sys
import timeit

import numpy as np

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
OUTDIR = sys.argv[2] if len(sys.argv) > 2 else None


def seq(shape, lo, hi, dtype=np.float32):
    """Element k (row-major) is lo + (hi - lo) * frac(k * golden ratio), in blocks."""
    n = int(np.prod(shape))
    out = np.empty(n, dtype=dtype)
    step = 1 << 22
    for s in range(0, n, step):
        f = (np.arange(s, min(n, s + step), dtype=np.float64) * 0.6180339887498949) % 1.0
        out[s:s + step] = lo + (hi - lo) * f
    return out.reshape(shape)


def best(f, inner=1):
    return min(timeit.repeat(f, number=inner, repeat=REPS)) / inner


# ---- square GEMM -------------------------------------------------------------------
for dtype, name in ((np.float32, "float"), (np.float64, "double")):
    for n in (256, 512, 1024, 2048):
        a = seq((n, n), -1, 1, dtype)
        b = seq((n, n), -0.5, 0.5, dtype)[::-1].copy()
        c = a @ b
        t = best(lambda: a @ b, max(1, (1 << 26) // n**3))
        print("gemm", name, n, t, float(np.sum(c, dtype=np.float64)), flush=True)


# ---- NPBench mlp ("M": C_in 3, N 8, S0 30000, S1 10000, S2 10000) --------------------
def relu(x):
    return np.maximum(x, 0)


def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def mlp(input, w1, b1, w2, b2, w3, b3):
    x = relu(input @ w1 + b1)
    x = relu(x @ w2 + b2)
    return softmax(x @ w3 + b3)


C_in, N, S0, S1, S2 = 3, 8, 30000, 10000, 10000
m_in = seq((N, C_in), 0, 1)
w1, b1 = seq((C_in, S0), -1, 1), seq((S0,), -0.5, 0.5)
w2, b2 = seq((S0, S1), -0.01, 0.01), seq((S1,), -0.5, 0.5)
w3, b3 = seq((S1, S2), -0.02, 0.02), seq((S2,), -0.5, 0.5)
out = mlp(m_in, w1, b1, w2, b2, w3, b3)
print("mlp", best(lambda: mlp(m_in, w1, b1, w2, b2, w3, b3)), float(np.sum(out, dtype=np.float64)),
      flush=True)
if OUTDIR:
    np.save(os.path.join(OUTDIR, "mlp.npy"), out)
x1 = relu(m_in @ w1 + b1)
x2 = relu(x1 @ w2 + b2)
print("layer mlp_l1", best(lambda: relu(m_in @ w1 + b1)), flush=True)
print("layer mlp_l2", best(lambda: relu(x1 @ w2 + b2)), flush=True)
print("layer mlp_l3", best(lambda: softmax(x2 @ w3 + b3)), flush=True)
del w1, w2, w3, x1, x2


# ---- NPBench lenet ("M": N 8, H 56, W 56; NHWC, stride 1, 5x5 kernels) ----------------
def conv2d(input, weights):
    K = weights.shape[0]
    H_out = input.shape[1] - K + 1
    W_out = input.shape[2] - K + 1
    output = np.empty((input.shape[0], H_out, W_out, weights.shape[3]), dtype=np.float32)
    for i in range(H_out):
        for j in range(W_out):
            output[:, i, j, :] = np.sum(input[:, i:i + K, j:j + K, :, np.newaxis] *
                                        weights[np.newaxis, :, :, :], axis=(1, 2, 3))
    return output


def maxpool2d(x):
    output = np.empty([x.shape[0], x.shape[1] // 2, x.shape[2] // 2, x.shape[3]], dtype=x.dtype)
    for i in range(x.shape[1] // 2):
        for j in range(x.shape[2] // 2):
            output[:, i, j, :] = np.max(x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :], axis=(1, 2))
    return output


def lenet5(input, conv1, conv1bias, conv2, conv2bias, fc1w, fc1b, fc2w, fc2b, fc3w, fc3b, N,
           C_before_fc1):
    x = relu(conv2d(input, conv1) + conv1bias)
    x = maxpool2d(x)
    x = relu(conv2d(x, conv2) + conv2bias)
    x = maxpool2d(x)
    x = np.reshape(x, (N, C_before_fc1))
    x = relu(x @ fc1w + fc1b)
    x = relu(x @ fc2w + fc2b)
    return x @ fc3w + fc3b


N, H, W = 8, 56, 56
C_before_fc1 = 16 * ((((H - 4) // 2) - 4) // 2) * ((((W - 4) // 2) - 4) // 2)
args = (seq((N, H, W, 1), 0, 1), seq((5, 5, 1, 6), -0.4, 0.4), seq((6,), -0.1, 0.1),
        seq((5, 5, 6, 16), -0.16, 0.16), seq((16,), -0.1, 0.1),
        seq((C_before_fc1, 120), -0.05, 0.05), seq((120,), -0.1, 0.1),
        seq((120, 84), -0.2, 0.2), seq((84,), -0.1, 0.1), seq((84, 10), -0.2, 0.2),
        seq((10,), -0.1, 0.1), N, C_before_fc1)
out = lenet5(*args)
print("lenet", best(lambda: lenet5(*args)), float(np.sum(out, dtype=np.float64)), flush=True)
if OUTDIR:
    np.save(os.path.join(OUTDIR, "lenet.npy"), out)
inp, c1, c1b, c2, c2b, f1w, f1b, f2w, f2b, f3w, f3b = args[:11]
a1 = relu(conv2d(inp, c1) + c1b)
p1 = maxpool2d(a1)
a2 = relu(conv2d(p1, c2) + c2b)
p2 = np.reshape(maxpool2d(a2), (N, C_before_fc1))
f1 = relu(p2 @ f1w + f1b)
f2 = relu(f1 @ f2w + f2b)
for name, f in (("conv1", lambda: relu(conv2d(inp, c1) + c1b)), ("pool1", lambda: maxpool2d(a1)),
                ("conv2", lambda: relu(conv2d(p1, c2) + c2b)),
                ("pool2", lambda: np.reshape(maxpool2d(a2), (N, C_before_fc1))),
                ("fc1", lambda: relu(p2 @ f1w + f1b)), ("fc2", lambda: relu(f1 @ f2w + f2b)),
                ("fc3", lambda: f2 @ f3w + f3b)):
    print("layer lenet_" + name, best(f, 10 if name.startswith("fc") else 1), flush=True)
