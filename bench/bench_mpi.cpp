// tensor7's MPI layer against raw MPI on the same buffers (run on 2 ranks):
//
//   mpirun -np 2 build/bench/bench_mpi [rounds]
//
// (1) allreduce (sum, in place) of 2^10, 2^16, 2^20, 2^24 floats: world.allreduce(x)
//     against MPI_Allreduce(MPI_IN_PLACE, x.data(), ...), and the deterministic
//     mode (setDeterministic(true)) for its cost;
// (2) a halo exchange of a column of a 4096 x 4096 float grid (one sendrecv each
//     way between the two ranks): world.sendrecv(u.select(1, 1), ..., u.select(1, 0))
//     against (a) packing the column into a buffer, MPI_Sendrecv of the buffer,
//     unpacking, and (b) MPI_Sendrecv with a hand-built MPI_Type_vector;
// (3) the per-call overhead: a 1-element allreduce, tensor7 minus raw.
// Each measurement alternates tensor7 and the reference, `rounds` times (default
// 7), and keeps the best time of each (rank 0's clock, a barrier before each
// batch): the machine is shared, the best run is the least disturbed.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace mp = t7::mpi;
using t7::FloatTensor;

namespace {

// Seconds per call of f (reps calls), best of `rounds` batches; a and b alternate.
template <class A, class B>
std::pair<double, double> race(int rounds, int reps, A a, B b) {
    double ta = 1e30, tb = 1e30;
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < 2; ++k) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            for (int i = 0; i < reps; ++i) k == 0 ? a() : b();
            MPI_Barrier(MPI_COMM_WORLD);
            double t = (MPI_Wtime() - t0) / reps;
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            (k == 0 ? ta : tb) = std::min(k == 0 ? ta : tb, t);
        }
    }
    return {ta, tb};
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    mp::Communicator world;
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
    const int rank = world.rank(), peer = 1 - rank;
    if (world.size() != 2) {
        if (rank == 0) std::fprintf(stderr, "bench_mpi: run on 2 ranks (mpirun -np 2)\n");
        return 2;
    }
    auto say = [&](auto... a) {
        if (rank == 0) std::printf(a...);
    };

    say("(1) allreduce, sum in place, float: us per call (ratio raw/t7: >= 1 is t7 as fast)\n");
    say("%10s %12s %12s %8s %14s %8s\n", "n", "raw", "t7", "raw/t7", "t7 determ.", "raw/det");
    for (int lg : {10, 16, 20, 24}) {
        const int64_t n = int64_t(1) << lg;
        FloatTensor x(n);
        x.fill(1.0f);
        const int reps = std::max(3, int((int64_t(1) << 24) / n));
        auto [raw, t7] = race(
            rounds, reps,
            [&] {
                MPI_Allreduce(MPI_IN_PLACE, x.data(), int(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            },
            [&] { world.allreduce(x); });
        world.setDeterministic(true);
        auto [raw2, det] = race(
            std::max(3, rounds / 2), reps,
            [&] {
                MPI_Allreduce(MPI_IN_PLACE, x.data(), int(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            },
            [&] { world.allreduce(x); });
        world.setDeterministic(false);
        (void)raw2;
        say("%10ld %12.2f %12.2f %8.3f %14.2f %8.3f\n", long(n), raw * 1e6, t7 * 1e6, raw / t7,
            det * 1e6, raw / det);
    }

    {
        const int64_t g = 4096;
        FloatTensor u(g, g);
        u.fill(float(rank));
        auto send = u.select(1, 1), recv = u.select(1, 0);
        std::vector<float> sbuf(g), rbuf(g);
        MPI_Datatype column;
        MPI_Type_vector(int(g), 1, int(g), MPI_FLOAT, &column);
        MPI_Type_commit(&column);
        float* base = u.data();
        const int reps = 200;
        auto t7_halo = [&] { world.sendrecv(send, peer, recv, peer); };
        auto packed = [&] {
            for (int64_t i = 0; i < g; ++i) sbuf[size_t(i)] = base[i * g + 1];
            MPI_Sendrecv(sbuf.data(), int(g), MPI_FLOAT, peer, 0, rbuf.data(), int(g), MPI_FLOAT,
                         peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int64_t i = 0; i < g; ++i) base[i * g] = rbuf[size_t(i)];
        };
        auto vec = [&] {
            MPI_Sendrecv(base + 1, 1, column, peer, 0, base, 1, column, peer, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        };
        auto [tp, t1] = race(rounds, reps, packed, t7_halo);
        auto [tv, t2] = race(rounds, reps, vec, t7_halo);
        // Each ratio is against the t7 batches alternated with that reference.
        say("\n(2) halo: a column of a %ldx%ld float grid, sendrecv both ways: us per exchange\n",
            long(g), long(g));
        say("    (a) pack + MPI_Sendrecv + unpack %8.2f, t7 sendrecv of the views %8.2f: "
            "pack/t7 %.3f\n",
            tp * 1e6, t1 * 1e6, tp / t1);
        say("    (b) MPI_Sendrecv of a hand-built MPI_Type_vector %8.2f, t7 %8.2f: vector/t7 "
            "%.3f\n",
            tv * 1e6, t2 * 1e6, tv / t2);
        MPI_Type_free(&column);
    }

    {
        FloatTensor one(1);
        one.fill(1.0f);
        auto [raw, t7] = race(
            rounds * 3, 20000,
            [&] { MPI_Allreduce(MPI_IN_PLACE, one.data(), 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); },
            [&] { world.allreduce(one); });
        say("\n(3) 1-element allreduce: raw %.3f us, t7 %.3f us, overhead %+.3f us per call\n",
            raw * 1e6, t7 * 1e6, (t7 - raw) * 1e6);
    }
    return 0;
}
