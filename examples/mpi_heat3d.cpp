// 3-D heat equation (Jacobi iteration, 7-point stencil) on a distributed tensor.
//
//   meson setup build -Dmpi=enabled && meson compile -C build examples/mpi_heat3d
//   mpirun -np 4 build/examples/mpi_heat3d          # the grid MPI_Dims_create picks
//   mpirun -np 3 build/examples/mpi_heat3d 1 3 1    # or a given one
//
// A (G+2)^3 double grid (a fixed boundary shell: one hot face) is a
// t7::mpi::DistTensor over a 3-D process grid (uneven blocks), with a one-cell
// halo. The step is the single-process line on global windows, the same
// function runs on a DoubleTensor on rank 0, and the gathered result must be
// identical to the bit. Exits non-zero on a mismatch.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cstdio>
#include <cstdlib>

namespace mp = t7::mpi;
using t7::DoubleTensor;
using S = t7::slice;

namespace {

constexpr int64_t G = 23; // unknowns per side (25 with the shell: uneven on 2, 3, 4 ranks)
constexpr int steps = 40;

template <class Grid>
void initial(Grid& g) {
    g = 0.0;
    g(0, t7::all, t7::all) = 1.0;   // a hot face
    g(t7::all, t7::all, -1) = 0.25; // a warm one
}
template <class Grid>
Grid& solve(Grid (&buf)[2]) {
    const S in(1, -1), lo(0, -2), hi(2);
    for (int s = 0; s < steps; ++s) {
        Grid& u = buf[s % 2];
        Grid& v = buf[(s + 1) % 2];
        v(in, in, in) = (u(lo, in, in) + u(hi, in, in) + u(in, lo, in) + u(in, hi, in) +
                         u(in, in, lo) + u(in, in, hi)) /
                        6.0;
    }
    return buf[steps % 2];
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    mp::Communicator world;
    const int rank = world.rank();
    t7::Shape grid; // {}: MPI_Dims_create chooses
    if (argc == 4) grid = {std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])};
    const t7::Shape sizes{G + 2, G + 2, G + 2};

    mp::DistTensor<double> buf[2] = {mp::DistTensor<double>(world, sizes, {1, 1, 1}, grid),
                                     mp::DistTensor<double>(world, sizes, {1, 1, 1}, grid)};
    initial(buf[0]);
    buf[1] = buf[0];
    const mp::DistTensor<double>& u = solve(buf);
    const double total = t7::sum(u); // global: every rank gets it
    const DoubleTensor whole = u.gather(0);

    int ok = 1;
    if (rank == 0) {
        DoubleTensor ref[2] = {DoubleTensor(sizes), DoubleTensor(sizes)};
        initial(ref[0]);
        ref[1] = ref[0];
        const DoubleTensor& r = solve(ref);
        const double diff = t7::max(t7::abs(whole - r));
        ok = diff == 0.0;
        const t7::Shape& g = u.grid();
        std::printf("mpi_heat3d: %d ranks on a %ldx%ldx%ld grid, %ld^3 points, %d steps: "
                    "sum %.9f (single process %.9f), max |parallel - single process| = %g (%s)\n",
                    world.size(), long(g[0]), long(g[1]), long(g[2]), long(G), steps, total,
                    double(t7::sum(r)), diff, ok ? "identical" : "MISMATCH");
    }
    t7::IntTensor verdict(1);
    verdict(0) = ok;
    world.broadcast(verdict, 0);
    return verdict(0) ? 0 : 1;
}
