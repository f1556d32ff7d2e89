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
// (3) the per-call overhead: a 1-element allreduce, tensor7 minus raw;
// (4) the DistTensor heat step against the hand-written exchange (heat_step below):
//     `mpirun -np 2 build/bench/bench_mpi 9 dist [rows per rank]` runs (4) only.
// Each measurement alternates tensor7 and the reference, `rounds` times (default
// 7), and keeps the best time of each (rank 0's clock, a barrier before each
// batch): the machine is shared, the best run is the least disturbed.
#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace mp = t7::mpi;
using t7::FloatTensor;
using S = t7::slice;

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

// (4) The DistTensor heat step against the hand-written exchange of the old
// examples/mpi_heat: a (2R + 2) x (C + 2) float grid (R = C = 1024: 2^20 points a
// rank) on a 2x1 process grid, halo 1, the 5-point Jacobi step.
//   hand: each rank's block with its halo rows in a FloatTensor; two sendrecv
//         of rows, then the fused update of the interior (the old lines);
//   dist: v(S(1, -1), S(1, -1)) = 0.25f * (u(...) + ...); std::swap(u, v) (the
//         halos are stale after each write: one exchange a step, the interior
//         computed while the rows travel); again with setOverlap(false);
//   exchange alone (u.exchangeHalos()) and the update alone (fresh halos: the
//   step sends no message), to see what the overlap can hide.
void heat_step(const mp::Communicator& world, int rounds, int64_t R) {
    const int64_t C = 1024;
    const int rank = world.rank();
    const int reps = 10;

    // hand-written: rows [rank * R, rank * R + R + 2) of the global grid
    const int up = rank == 0 ? MPI_PROC_NULL : 0, down = rank == 0 ? 1 : MPI_PROC_NULL;
    FloatTensor hb[2] = {FloatTensor(R + 2, C + 2), FloatTensor(R + 2, C + 2)};
    for (auto& b : hb) b.fill(0.5f);
    int hs = 0;
    auto hand = [&] {
        FloatTensor& u = hb[hs % 2];
        FloatTensor& v = hb[(hs + 1) % 2];
        auto row = [&](int64_t i) { return u.select(0, i).narrow(0, 1, C); };
        world.sendrecv(row(1), up, row(R + 1), down, 1);
        world.sendrecv(row(R), down, row(0), up, 2);
        FloatTensor inner = v.narrow(0, 1, R).narrow(1, 1, C);
        inner = 0.25f * (u.narrow(0, 0, R).narrow(1, 1, C) + u.narrow(0, 2, R).narrow(1, 1, C) +
                         u.narrow(0, 1, R).narrow(1, 0, C) + u.narrow(0, 1, R).narrow(1, 2, C));
        ++hs;
    };

    mp::DistTensor<float> u(world, {2 * R + 2, C + 2}, {1, 1}, {2, 1}),
        v(world, {2 * R + 2, C + 2}, {1, 1}, {2, 1});
    u = 0.5f;
    v = 0.5f;
    auto step = [&] {
        v(S(1, -1), S(1, -1)) = 0.25f * (u(S(0, -2), S(1, -1)) + u(S(2), S(1, -1)) +
                                         u(S(1, -1), S(0, -2)) + u(S(1, -1), S(2)));
        std::swap(u, v);
    };

    auto [th, td] = race(rounds, reps, hand, step);
    mp::setOverlap(false);
    auto [th2, tn] = race(rounds, reps, hand, step);
    mp::setOverlap(true);
    // exchange alone; compute alone (fresh halos: the step sends nothing)
    auto [tx, tc] = race(
        rounds, reps,
        [&] {
            u.markStale();
            u.exchangeHalos();
        },
        [&] {
            v(S(1, -1), S(1, -1)) = 0.25f * (u(S(0, -2), S(1, -1)) + u(S(2), S(1, -1)) +
                                             u(S(1, -1), S(0, -2)) + u(S(1, -1), S(2)));
        });
    if (rank == 0) {
        std::printf("\n(4) heat step: 2 ranks, %ldx%ld points a rank, Jacobi step, best of %d "
                    "batches of %d (ms per step)\n",
                    long(R), long(C), rounds, reps);
        std::printf("  hand-written exchange + update     %8.3f\n", th * 1e3);
        std::printf("  DistTensor (overlap)               %8.3f   hand/dist %.3f\n", td * 1e3,
                    th / td);
        std::printf("  DistTensor (no overlap)            %8.3f   hand/dist %.3f\n", tn * 1e3,
                    th2 / tn);
        std::printf("  exchange alone                     %8.3f\n", tx * 1e3);
        std::printf("  update alone (fresh halos)         %8.3f   (exchange + update %.3f)\n",
                    tc * 1e3, (tx + tc) * 1e3);
    }
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
    if (argc > 2 && std::strcmp(argv[2], "dist") == 0) {
        heat_step(world, rounds, argc > 3 ? std::atol(argv[3]) : 1024);
        return 0;
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
    heat_step(world, std::max(rounds, 9), 1024);
    return 0;
}
