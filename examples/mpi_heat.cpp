// 2-D heat equation (Jacobi iteration) on a distributed tensor.
//
//   meson setup build -Dmpi=enabled && meson compile -C build examples/mpi_heat
//   mpirun -np 4 build/examples/mpi_heat          # the process grid MPI_Dims_create picks
//   mpirun -np 3 build/examples/mpi_heat 1 3      # or a given one: 1 x 3
//
// The (G+2) x (G+2) grid (a fixed boundary ring around G x G unknowns) is a
// t7::mpi::DistTensor: split in blocks over a process grid (uneven blocks when
// the ranks do not divide G + 2), each rank holding its block with a one-cell
// halo. The Jacobi step is the same line as the single-process one, on global
// windows; DistTensor exchanges the halos (nonblocking, rows and columns as
// views, corners included) when they are stale, then each rank updates the part
// of the window it owns in one fused pass. The result is gathered on rank 0 and
// compared with the single-process run of the same function on a FloatTensor:
// identical to the bit (each point's update is the same float operations in
// the same order). Exits non-zero on a mismatch.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cstdio>
#include <cstdlib>

namespace mp = t7::mpi;
using t7::FloatTensor;
using S = t7::slice;

namespace {

constexpr int64_t G = 61; // unknowns per side (63 with the ring: uneven on 2, 4, 5 ranks)
constexpr int steps = 300;

// The initial grid with its boundary (hot top edge, a warm left edge, cold
// elsewhere) and the Jacobi iterations: the same lines for a FloatTensor and a
// DistTensor<float>.
template <class Grid>
void initial(Grid& g) {
    g = 0.0f;
    g(0, t7::all) = 1.0f;
    g(t7::all, 0) = 0.5f;
}
template <class Grid>
Grid& solve(Grid (&buf)[2]) {
    for (int s = 0; s < steps; ++s) {
        Grid& u = buf[s % 2];
        Grid& v = buf[(s + 1) % 2];
        v(S(1, -1), S(1, -1)) = 0.25f * (u(S(0, -2), S(1, -1)) + u(S(2), S(1, -1)) +
                                         u(S(1, -1), S(0, -2)) + u(S(1, -1), S(2)));
    }
    return buf[steps % 2];
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    mp::Communicator world;
    const int p = world.size(), rank = world.rank();
    t7::Shape grid; // {} : MPI_Dims_create chooses
    if (argc == 3) grid = {std::atoi(argv[1]), std::atoi(argv[2])};

    mp::DistTensor<float> buf[2] = {mp::DistTensor<float>(world, {G + 2, G + 2}, {1, 1}, grid),
                                    mp::DistTensor<float>(world, {G + 2, G + 2}, {1, 1}, grid)};
    initial(buf[0]);
    buf[1] = buf[0]; // values (the boundary ring)
    const FloatTensor whole = solve(buf).gather(0);

    int ok = 1;
    if (rank == 0) {
        FloatTensor ref[2] = {FloatTensor(G + 2, G + 2), FloatTensor(G + 2, G + 2)};
        initial(ref[0]);
        ref[1] = ref[0];
        const FloatTensor& r = solve(ref);
        const double diff = double(t7::max(t7::abs(whole - r)));
        ok = diff == 0.0;
        const t7::Shape& g = buf[0].grid();
        std::printf("mpi_heat: %d ranks on a %ldx%ld grid, %ldx%ld points, %d steps: "
                    "sum %.6f, max |parallel - single process| = %g (%s)\n",
                    p, long(g[0]), long(g[1]), long(G), long(G), steps, double(t7::sum(whole)),
                    diff, ok ? "identical" : "MISMATCH");
    }
    t7::IntTensor verdict(1);
    verdict(0) = ok;
    world.broadcast(verdict, 0);
    return verdict(0) ? 0 : 1;
}
