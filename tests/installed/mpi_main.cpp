// A program using an installed tensor7's MPI component (tests/installed/run.sh
// builds it with pkg-config tensor7_mpi and with CMake's tensor7::mpi, then runs
// it on 2 ranks): an allreduce of a column view and a ring sendrecv of a
// transposed view. Exits non-zero on any wrong value (on every rank).
#include <t7/mpi.hpp>
#include <t7/tensor.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    t7::mpi::Environment env(argc, argv);
    t7::mpi::Communicator world;
    const int p = world.size(), r = world.rank();
    int bad = 0;

    t7::FloatTensor grid(5, 3);
    grid.fill(float(r + 1));
    world.allreduce(grid.select(1, 1)); // a column: strided, reduced in place
    for (int64_t i = 0; i < 5; ++i) {
        bad += grid(i, 1) != float(p * (p + 1) / 2);
        bad += grid(i, 0) != float(r + 1);
    }

    t7::Tensor<int64_t> x = t7::Tensor<int64_t>(3, 4).t(), y(4, 3);
    x.fill(r);
    world.sendrecv(x, (r + 1) % p, y, (r + p - 1) % p);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 3; ++j) bad += y(i, j) != (r + p - 1) % p;

    int any = bad;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (r == 0) std::printf("%d ranks: %s\n", p, any ? "MISMATCH" : "all values correct");
    return any ? 1 : 0;
}
