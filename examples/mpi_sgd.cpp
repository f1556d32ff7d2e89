// Data-parallel least squares by gradient descent.
//
//   meson setup build -Dmpi=enabled && meson compile -C build examples/mpi_sgd
//   mpirun -np 2 build/examples/mpi_sgd
//
// N samples of d features (a fixed formula, the same on every rank), targets
// y = X w* + small noise. Each rank holds a shard of the rows, computes its
// part of the gradient X_s^T (X_s w - y_s), and the parts are summed with
// allreduce (deterministic mode: rank-order sums, so the model is the same to
// the bit on every rank and every run). The model is checked to be identical
// on every rank and to match the single-process run within rounding (the
// gradient's sum is split differently); exits non-zero otherwise.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cmath>
#include <cstdio>

namespace mp = t7::mpi;
using t7::FloatTensor;

namespace {

constexpr int64_t N = 2400, d = 8;
constexpr int epochs = 200;
constexpr float lr = 0.1f;

// Rows [r0, r0 + n) of the data set.
void data(int64_t r0, int64_t n, FloatTensor& X, FloatTensor& y) {
    X = FloatTensor(n, d);
    y = FloatTensor(n);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t g = r0 + i;
        float t = 0;
        for (int64_t j = 0; j < d; ++j) {
            // a hash of (g, j) in (-1, 1): features that are not collinear
            const float x = float(
                std::fmod(std::sin(double(g) * 12.9898 + double(j) * 78.233) * 43758.5453, 1.0));
            X(i, j) = x;
            t += x * float(j + 1) * 0.25f; // w* = (0.25, 0.5, ..., 2)
        }
        y(i) = t + 0.01f * float(std::cos(double(g)));
    }
}

// Gradient descent on rows [r0, r0 + n); `sum(g)` adds the ranks' gradients.
template <class Sum>
FloatTensor train(int64_t r0, int64_t n, Sum sum) {
    FloatTensor X, y;
    data(r0, n, X, y);
    FloatTensor w(d);
    w.zero();
    for (int e = 0; e < epochs; ++e) {
        FloatTensor residual = t7::mv(X, w) - y;
        FloatTensor g = t7::mv(X.t(), residual);
        sum(g);
        w = w - (lr * 2.0f / float(N)) * g;
    }
    return w;
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    mp::Communicator world;
    world.setDeterministic(true);
    const int p = world.size(), rank = world.rank();
    const int64_t r0 = N * rank / p, r1 = N * (rank + 1) / p;
    FloatTensor w = train(r0, r1 - r0, [&](FloatTensor& g) { world.allreduce(g); });

    // The same model on every rank, to the bit.
    FloatTensor all = world.allgather(w.view(1, d), 0);
    int same = 1;
    for (int q = 1; q < p; ++q)
        for (int64_t j = 0; j < d; ++j) same = same && all(q, j) == all(0, j);

    int ok = same;
    if (rank == 0) {
        FloatTensor ref = train(0, N, [](FloatTensor&) {});
        const double diff = double(t7::max(t7::abs(w - ref)));
        ok = same && diff <= 1e-5;
        std::printf("mpi_sgd: %d ranks, %ld samples x %ld features, %d epochs: w = [", p, long(N),
                    long(d), epochs);
        for (int64_t j = 0; j < d; ++j) std::printf("%s%.4f", j ? " " : "", double(w(j)));
        std::printf("], identical on every rank: %s, max |w - single process| = %.2g (%s)\n",
                    same ? "yes" : "NO", diff, ok ? "ok" : "MISMATCH");
    }
    t7::IntTensor verdict(1);
    verdict(0) = ok;
    world.broadcast(verdict, 0);
    return verdict(0) ? 0 : 1;
}
