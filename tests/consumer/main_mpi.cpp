// Uses tensor7's MPI component from a subproject build (dependency
// 'tensor7_mpi'): a halo column exchanged in a ring and an allreduce; run on 2
// ranks by run.sh. Exits non-zero on any wrong value.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    t7::mpi::Environment env(argc, argv);
    t7::mpi::Communicator world;
    const int p = world.size(), r = world.rank();
    t7::DoubleTensor u(6, 4);
    u.fill(double(r));
    // my last interior column to the next rank, its into my first column
    world.sendrecv(u.select(1, 2), (r + 1) % p, u.select(1, 0), (r + p - 1) % p);
    t7::DoubleTensor total(1);
    total(0) = double(t7::sum(u.select(1, 0)));
    world.allreduce(total);
    // every rank's column 0 holds its left neighbour's rank: the sum is 6 * sum(ranks)
    const bool ok = total(0) == 6.0 * p * (p - 1) / 2;
    if (r == 0)
        std::printf("consumer_mpi: %d ranks, %s\n", p, ok ? "all values correct" : "MISMATCH");
    return ok ? 0 : 1;
}
