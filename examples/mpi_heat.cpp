// 2-D heat equation (Jacobi iteration) on a 2-D grid of processes.
//
//   meson setup build -Dmpi=enabled && meson compile -C build examples/mpi_heat
//   mpirun -np 2 build/examples/mpi_heat
//
// The (G+2) x (G+2) grid (a fixed boundary ring around G x G unknowns) is cut
// into blocks, one per rank, on the process grid MPI_Dims_create picks. Each
// rank stores its block with a one-cell halo; every step it exchanges the
// halo rows and columns with its four neighbours by sendrecv of narrow views
// (a column is a strided view: MPI reads and writes it in place through a
// derived datatype, nothing is packed), then updates its interior with one
// fused expression. The blocks are gathered (allgather along columns within a
// process row, gather along rows within a process column) and compared with
// the single-process run of the same solver on rank 0: they must be identical
// to the bit (each point's update is the same float operations in the same
// order). Exits non-zero on a mismatch.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cstdio>

namespace mp = t7::mpi;
using t7::FloatTensor;

namespace {

constexpr int64_t G = 60; // unknowns per side (divisible by 1, 2, 3, 4, 5, 6)
constexpr int steps = 300;

// The initial grid with its boundary: hot top edge, a warm left edge, cold elsewhere.
FloatTensor initial() {
    FloatTensor g(G + 2, G + 2);
    g.zero();
    g.select(0, 0) = 1.0f;
    g.select(1, 0) = 0.5f;
    return g;
}

// Runs the solver on a block (its halo ring included) of rows [r0, r0 + nr) and
// columns [c0, c0 + nc) of the unknowns; `exchange(u)` fills u's halo.
template <class Exchange>
FloatTensor solve(int64_t r0, int64_t nr, int64_t c0, int64_t nc, Exchange exchange) {
    const FloatTensor g = initial();
    FloatTensor buf[2] = {FloatTensor(nr + 2, nc + 2), FloatTensor(nr + 2, nc + 2)};
    for (auto& b : buf) b = g.narrow(0, r0, nr + 2).narrow(1, c0, nc + 2);
    for (int s = 0; s < steps; ++s) {
        FloatTensor& u = buf[s % 2];
        FloatTensor& v = buf[(s + 1) % 2];
        exchange(u);
        FloatTensor inner = v.narrow(0, 1, nr).narrow(1, 1, nc);
        inner = 0.25f * (u.narrow(0, 0, nr).narrow(1, 1, nc) + u.narrow(0, 2, nr).narrow(1, 1, nc) +
                         u.narrow(0, 1, nr).narrow(1, 0, nc) + u.narrow(0, 1, nr).narrow(1, 2, nc));
    }
    return buf[steps % 2].narrow(0, 1, nr).narrow(1, 1, nc).clone();
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    mp::Communicator world;
    const int p = world.size(), rank = world.rank();
    int dims[2] = {0, 0};
    MPI_Dims_create(p, 2, dims);
    if (G % dims[0] != 0 || G % dims[1] != 0) {
        if (rank == 0)
            std::fprintf(stderr, "mpi_heat: %dx%d does not divide %ld\n", dims[0], dims[1],
                         long(G));
        return 2;
    }
    const int pr = rank / dims[1], pc = rank % dims[1]; // row-major process grid
    const int64_t nr = G / dims[0], nc = G / dims[1];
    auto at = [&](int i, int j) {
        return i < 0 || j < 0 || i >= dims[0] || j >= dims[1] ? MPI_PROC_NULL : i * dims[1] + j;
    };
    const int up = at(pr - 1, pc), down = at(pr + 1, pc), left = at(pr, pc - 1),
              right = at(pr, pc + 1);

    // The halo exchange: rows and columns of the block, as views. At the
    // grid's edge the neighbour is MPI_PROC_NULL and the boundary stays.
    auto exchange = [&](const FloatTensor& u) {
        auto row = [&](int64_t i) { return u.select(0, i).narrow(0, 1, nc); };
        auto col = [&](int64_t j) { return u.select(1, j).narrow(0, 1, nr); };
        world.sendrecv(row(1), up, row(nr + 1), down, 1);
        world.sendrecv(row(nr), down, row(0), up, 2);
        world.sendrecv(col(1), left, col(nc + 1), right, 3);
        world.sendrecv(col(nc), right, col(0), left, 4);
    };
    FloatTensor block = solve(int64_t(pr) * nr, nr, int64_t(pc) * nc, nc, exchange);

    // Gather: along columns within the process row, then rows on process row 0.
    mp::Communicator prow = world.split(pr, pc), pcol = world.split(pc, pr);
    FloatTensor strip = prow.allgather(block, 1);
    FloatTensor whole = pcol.gather(strip, 0, 0);

    int ok = 1;
    if (rank == 0) {
        FloatTensor ref = solve(0, G, 0, G, [](const FloatTensor&) {});
        const double diff = double(t7::max(t7::abs(whole - ref)));
        ok = diff == 0.0;
        std::printf("mpi_heat: %d ranks on a %dx%d grid, %ldx%ld points, %d steps: "
                    "sum %.6f, max |parallel - single process| = %g (%s)\n",
                    p, dims[0], dims[1], long(G), long(G), steps, double(t7::sum(whole)), diff,
                    ok ? "identical" : "MISMATCH");
    }
    t7::IntTensor verdict(1);
    verdict(0) = ok;
    world.broadcast(verdict, 0);
    return verdict(0) ? 0 : 1;
}
