// t7::mpi::DistTensor (include/t7/mpi/dist_tensor.hpp), run by meson test under
// mpirun on 1, 2, 3 and 4 ranks (tests/meson.build). Every rank runs every case,
// on every process grid its rank count allows (1x1, 2x1, 1x2, 3x1, 1x3, 4x1,
// 1x4, 2x2; uneven blocks), and checks its block against the same computation
// done by one process on the whole tensor: bit-identical. Its own main creates
// the Environment; a failure on any rank fails every rank.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <unistd.h>
#include <vector>

using namespace t7;
namespace mp = t7::mpi;
using S = t7::slice;

namespace {

// Every 2-D grid of p ranks (the grid sizes p allows), plus {} (MPI chooses).
std::vector<Shape> grids2(int p) {
    std::vector<Shape> g;
    for (int a = 1; a <= p; ++a)
        if (p % a == 0) g.push_back(Shape{a, p / a});
    g.push_back(Shape{});
    return g;
}

// A value per global index that is not exactly representable in most cases.
template <class T>
T f2(int64_t i, int64_t j) {
    return T((i * 131 + j * 71) % 97) / T(7) - T(3);
}
template <class T>
T f3(int64_t i, int64_t j, int64_t k) {
    return T((i * 131 + j * 71 + k * 29) % 89) / T(9) - T(2);
}

template <class T>
Tensor<T> reference2(int64_t n0, int64_t n1) {
    Tensor<T> x(n0, n1);
    for (int64_t i = 0; i < n0; ++i)
        for (int64_t j = 0; j < n1; ++j) x(i, j) = f2<T>(i, j);
    return x;
}

// Fills u's block from f2 through local() (then the halos are stale).
template <class T>
void fill2(mp::DistTensor<T>& u) {
    Tensor<T> l = u.local();
    const Shape& o = u.offset();
    for (int64_t i = 0; i < l.size(0); ++i)
        for (int64_t j = 0; j < l.size(1); ++j) l(i, j) = f2<T>(o[0] + i, o[1] + j);
    u.markStale();
}

// The same bits (NaN never occurs here).
template <class T>
bool same_bits(const Tensor<T>& a, const Tensor<T>& b) {
    if (a.sizes() != b.sizes()) return false;
    const auto u = a.toVector(), v = b.toVector();
    return u.empty() || std::memcmp(u.data(), v.data(), u.size() * sizeof(T)) == 0;
}

// This rank's block of the whole tensor ref.
template <class T>
Tensor<T> block(const mp::DistTensor<T>& u, const Tensor<T>& ref) {
    Tensor<T> v = ref;
    for (int64_t d = 0; d < u.dim(); ++d)
        v.set(v.narrow(d, u.offset()[size_t(d)], u.localSizes()[size_t(d)]));
    return v;
}

// True on every rank when it is true on every rank.
bool everywhere(bool ok) {
    int v = ok;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return v == 1;
}

// A 9-point stencil reaching 2 cells away, diagonals included, with a function:
// the same lines on a Tensor (the single-process reference) and a DistTensor.
template <class T, class X>
auto wide(const X& u) {
    return T(0.5) * u(S(2, -2), S(2, -2)) +
           T(0.125) * (u(S(0, -4), S(2, -2)) + u(S(4), S(2, -2)) + u(S(2, -2), S(0, -4))) +
           T(0.0625) * (u(S(1, -3), S(3, -1)) + u(S(3, -1), S(1, -3))) +
           T(0.03125) * t7::sin(u(S(4), S(4)) - u(S(0, -4), S(0, -4)));
}
// The 5-point Jacobi step (halo 1).
template <class T, class X>
auto jacobi(const X& u) {
    return T(0.25) *
           (u(S(0, -2), S(1, -1)) + u(S(2), S(1, -1)) + u(S(1, -1), S(0, -2)) + u(S(1, -1), S(2)));
}

// Swaps two Tensor handles (Tensor's assignment writes values).
template <class T>
void swap_handles(Tensor<T>& a, Tensor<T>& b) {
    Tensor<T> t;
    t.set(a);
    a.set(b);
    b.set(t);
}

} // namespace

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    doctest::Context ctx(argc, argv);
    const int rc = ctx.run();
    int failed = rc != 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return failed;
}

TEST_CASE("blocks: sizes, offsets and grids (uneven blocks: the first size % grid get one more)") {
    mp::Communicator world;
    const int p = world.size();
    for (const Shape& g : grids2(p)) {
        mp::DistTensor<float> u(world, {13, 11}, {1, 2}, g);
        CHECK(u.sizes() == Shape{13, 11});
        CHECK(u.halo() == Shape{1, 2});
        CHECK(u.grid().numel() == p);
        if (!g.empty()) CHECK(u.grid() == g);
        for (size_t d = 0; d < 2; ++d) {
            const int64_t n = u.sizes()[d], q = u.grid()[d], c = u.coords()[d];
            CHECK(u.offset()[d] == c * (n / q) + std::min(c, n % q));
            CHECK(u.localSizes()[d] == n / q + (c < n % q ? 1 : 0));
        }
        CHECK(u.local().sizes() == u.localSizes());
        CHECK(u.localWithHalo().sizes() == Shape{u.localSizes()[0] + 2, u.localSizes()[1] + 4});
        // the blocks tile the tensor: element counts add up, and each global
        // index is owned by exactly one rank
        Tensor<int32_t> owned(13, 11);
        owned.zero();
        Tensor<int32_t> mine = owned;
        for (int64_t d = 0; d < 2; ++d)
            mine.set(mine.narrow(d, u.offset()[size_t(d)], u.localSizes()[size_t(d)]));
        mine.fill(1);
        world.allreduce(owned);
        CHECK(int64_t(t7::min(owned)) == 1);
        CHECK(int64_t(t7::max(owned)) == 1);
    }
    // a dimension of size 1 gets one rank when MPI chooses
    mp::DistTensor<double> row(world, {1, 4 * p});
    CHECK(row.grid() == Shape{1, p});
}

TEST_CASE("exchangeHalos fills the halos, corners included (halo 1 and 2)") {
    mp::Communicator world;
    const int p = world.size();
    for (int h = 1; h <= 2; ++h)
        for (const Shape& g : grids2(p)) {
            mp::DistTensor<double> u(world, {13, 11}, {h, h}, g);
            fill2(u);
            CHECK(u.stale());
            u.exchangeHalos();
            CHECK(!u.stale());
            const Tensor<double> w = u.localWithHalo();
            bool ok = true;
            int64_t checked = 0;
            for (int64_t i = 0; i < w.size(0); ++i)
                for (int64_t j = 0; j < w.size(1); ++j) {
                    const int64_t gi = u.offset()[0] + i - h, gj = u.offset()[1] + j - h;
                    if (gi < 0 || gj < 0 || gi >= 13 || gj >= 11) continue; // outside: unused
                    const bool inside_block =
                        i >= h && j >= h && i < h + u.localSizes()[0] && j < h + u.localSizes()[1];
                    ok = ok && w(i, j) == f2<double>(gi, gj);
                    checked += !inside_block;
                }
            CHECK(ok);
            // halo cells were checked wherever the rank has a neighbour
            if (u.grid()[0] > 1 || u.grid()[1] > 1) CHECK(everywhere(checked > 0));
        }
}

TEST_CASE_TEMPLATE("a fused stencil over windows is bit-identical to one process", T, float,
                   double) {
    mp::Communicator world;
    const int p = world.size();
    constexpr int64_t n0 = 17, n1 = 14;
    const Tensor<T> init = reference2<T>(n0, n1);
    // single-process: 3 steps of each stencil on whole tensors
    Tensor<T> r1 = init.clone(), r1b = init.clone();
    Tensor<T> r2 = init.clone(), r2b = init.clone();
    for (int s = 0; s < 3; ++s) {
        r1b(S(1, -1), S(1, -1)) = jacobi<T>(r1);
        swap_handles(r1, r1b);
        r2b(S(2, -2), S(2, -2)) = wide<T>(r2);
        swap_handles(r2, r2b);
    }
    // the interior computed while the halos travel (the default; in one
    // assignment or in pieces of 8 elements, testing the messages between
    // them), or after them
    const int64_t default_piece = mp::detail::progress_piece_elements();
    for (const int mode : {0, 1, 2})
        for (const Shape& g : grids2(p)) {
            CAPTURE(g);
            CAPTURE(mode);
            mp::setOverlap(mode < 2);
            mp::detail::progress_piece_elements() = mode == 1 ? 8 : default_piece;
            // halo 1, Jacobi
            auto u = mp::DistTensor<T>::scatter(world, init, 0, {1, 1}, g);
            mp::DistTensor<T> v(world, {n0, n1}, {1, 1}, u.grid());
            v() = u();
            for (int s = 0; s < 3; ++s) {
                v(S(1, -1), S(1, -1)) = jacobi<T>(u);
                CHECK(v.stale());
                // read through its halo: exchanged just before, unless no dimension
                // is split (then every shift reads the rank's own block)
                CHECK(u.stale() == (u.grid() == Shape{1, 1}));
                std::swap(u, v);
            }
            CHECK(same_bits(Tensor<T>(u.local().clone()), Tensor<T>(block(u, r1).clone())));
            const Tensor<T> all1 = u.gather(0);
            if (world.rank() == 0)
                CHECK(same_bits(all1, r1));
            else
                CHECK(all1.nElement() == 0);
            // halo 2, the wide stencil (shifts of 2, diagonals)
            mp::DistTensor<T> a(world, {n0, n1}, {2, 2}, g), b(world, {n0, n1}, {2, 2}, g);
            fill2(a);
            b = a;
            for (int s = 0; s < 3; ++s) {
                b(S(2, -2), S(2, -2)) = wide<T>(a);
                std::swap(a, b);
            }
            CHECK(same_bits(Tensor<T>(a.local().clone()), Tensor<T>(block(a, r2).clone())));
            const Tensor<T> all2 = a.gather(world.size() - 1);
            if (world.rank() == world.size() - 1) CHECK(same_bits(all2, r2));
        }
    mp::setOverlap(true);
    mp::detail::progress_piece_elements() = default_piece;
}

TEST_CASE("windows with integer indices, in place, scalars, other element types") {
    mp::Communicator world;
    const int p = world.size();
    for (const Shape& g : grids2(p)) {
        CAPTURE(g);
        Tensor<float> ref = reference2<float>(12, 9);
        mp::DistTensor<float> u(world, {12, 9}, {1, 1}, g);
        fill2(u);
        mp::DistTensor<double> w(world, {12, 9}, {0, 0}, g);
        // rows and columns: dimensions dropped by an integer
        u(0, t7::all) = 1.5f;
        ref(0, t7::all) = 1.5f;
        u(-1, S(2, 5)) = u(-2, S(1, 4)) * 2.0f;
        ref(-1, S(2, 5)) = ref(-2, S(1, 4)) * 2.0f;
        u(S(1, -1), 3) = u(S(0, -2), 4) - u(S(2), 2);
        ref(S(1, -1), 3) = ref(S(0, -2), 4) - ref(S(2), 2);
        // in place, reading its own shifted window (alias-safe as a Tensor)
        u(S(1), t7::all) = u(S(0, -1), t7::all) + u(S(1), t7::all);
        ref(S(1), t7::all) = ref(S(0, -1), t7::all) + ref(S(1), t7::all);
        // another element type, no halo: same windows only
        w = u() * 0.5f;
        Tensor<double> refw(12, 9);
        refw = ref * 0.5f;
        w(S(3, 7), S(2, 8)) = t7::exp(w(S(3, 7), S(2, 8))) + u(S(3, 7), S(2, 8));
        refw(S(3, 7), S(2, 8)) = t7::exp(refw(S(3, 7), S(2, 8))) + ref(S(3, 7), S(2, 8));
        CHECK(same_bits(Tensor<float>(u.local().clone()), Tensor<float>(block(u, ref).clone())));
        CHECK(same_bits(Tensor<double>(w.local().clone()), Tensor<double>(block(w, refw).clone())));
    }
}

TEST_CASE("3-D and 1-D: corners through three exchanges") {
    mp::Communicator world;
    constexpr int64_t n = 9;
    Tensor<double> ref(n, n, n);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t k = 0; k < n; ++k) ref(i, j, k) = f3<double>(i, j, k);
    auto u = mp::DistTensor<double>::scatter(world, ref, 0, {1, 1, 1});
    CHECK(u.grid().numel() == world.size());
    mp::DistTensor<double> v(world, {n, n, n}, {}, u.grid());
    auto st = [](const auto& x) {
        const S in(1, -1), lo(0, -2), hi(2);
        return (x(lo, in, in) + x(hi, in, in) + x(in, lo, in) + x(in, hi, in) + x(in, in, lo) +
                x(in, in, hi)) /
                   6.0 +
               0.01 * x(lo, lo, lo) - 0.02 * x(hi, lo, hi); // a corner: all three halos
    };
    v(S(1, -1), S(1, -1), S(1, -1)) = st(u);
    Tensor<double> refv(n, n, n);
    refv.zero();
    refv(S(1, -1), S(1, -1), S(1, -1)) = st(ref);
    CHECK(same_bits(Tensor<double>(v.local().clone()), Tensor<double>(block(v, refv).clone())));

    // 1-D, halo 2, uneven
    const int64_t m = 5 * world.size() + 3;
    Tensor<float> r(m);
    for (int64_t i = 0; i < m; ++i) r(i) = float(i % 7) / 3.0f;
    auto a = mp::DistTensor<float>::scatter(world, r, 0, {2});
    auto b = mp::DistTensor<float>::scatter(world, r, 0, {2});
    b(S(2, -2)) = a(S(0, -4)) - 2.0f * a(S(2, -2)) + a(S(4));
    r(S(2, -2)) = Tensor<float>(r(S(0, -4)) - 2.0f * r(S(2, -2)) + r(S(4)));
    const Tensor<float> all = b.gather(0);
    if (world.rank() == 0) CHECK(same_bits(all, r));
}

TEST_CASE("global reductions: every rank gets the value") {
    mp::Communicator world;
    for (const Shape& g : grids2(world.size())) {
        CAPTURE(g);
        const Tensor<double> ref = reference2<double>(13, 11);
        auto u = mp::DistTensor<double>::scatter(world, ref, 0, {1, 1}, g);
        CHECK(t7::max(u) == t7::max(ref));
        CHECK(t7::min(u) == t7::min(ref));
        CHECK(t7::sum(u) == doctest::Approx(t7::sum(ref)).epsilon(1e-12));
        CHECK(t7::mean(u) == doctest::Approx(t7::mean(ref)).epsilon(1e-12));
        CHECK(t7::norm(u) == doctest::Approx(t7::norm(ref)).epsilon(1e-12));
        CHECK(t7::norm(u, 1) == doctest::Approx(t7::norm(ref, 1)).epsilon(1e-12));
        CHECK(t7::norm(u, 3) == doctest::Approx(t7::norm(ref, 3)).epsilon(1e-12));
        // a window, and an expression of shifted windows (reads through the halo)
        CHECK(t7::max(u(S(2, 9), 4)) == t7::max(ref(S(2, 9), 4)));
        CHECK(t7::min(u(S(1, -1), S(1, -1)) - u(S(0, -2), S(2))) ==
              t7::min(ref(S(1, -1), S(1, -1)) - ref(S(0, -2), S(2))));
        CHECK(
            t7::sum(u(S(1, -1), S(1, -1)) * u(S(2), S(0, -2))) ==
            doctest::Approx(t7::sum(ref(S(1, -1), S(1, -1)) * ref(S(2), S(0, -2)))).epsilon(1e-12));
        // integers: exact
        mp::DistTensor<int32_t> k(world, {13, 11}, {}, g);
        Tensor<int32_t> kl = k.local();
        for (int64_t i = 0; i < kl.size(0); ++i)
            for (int64_t j = 0; j < kl.size(1); ++j)
                kl(i, j) = int32_t((u.offset()[0] + i) * 100 + u.offset()[1] + j);
        CHECK(int64_t(t7::sum(k)) == int64_t(13 * 11 * (6 * 100 + 5)));
        CHECK(int64_t(t7::max(k(S(0, 5), t7::all))) == 410);
        // every rank the same bits (deterministic mode: the rank-order sum)
        u.communicator().setDeterministic(true);
        double s = t7::sum(u() * 0.0 + u(t7::all, t7::all)), smax = s, smin = s;
        MPI_Allreduce(MPI_IN_PLACE, &smax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &smin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        CHECK(smax == smin);
    }
}

TEST_CASE("gather and scatter round trip, with halos, on every root") {
    mp::Communicator world;
    const Tensor<float> ref = reference2<float>(10, 7);
    for (const Shape& g : grids2(world.size()))
        for (int root = 0; root < world.size(); ++root) {
            Tensor<float> x = world.rank() == root ? ref : Tensor<float>();
            auto u = mp::DistTensor<float>::scatter(world, x, root, {1, 1}, g);
            CHECK(u.sizes() == Shape{10, 7});
            CHECK(
                same_bits(Tensor<float>(u.local().clone()), Tensor<float>(block(u, ref).clone())));
            const Tensor<float> back = u.gather(root);
            if (world.rank() == root) CHECK(same_bits(back, ref));
        }
}

TEST_CASE("bad input throws on every rank before any message; the ranks go on") {
    mp::Communicator world;
    const int p = world.size();
    mp::DistTensor<float> u(world, {12, 10}, {1, 1}), v(world, {12, 10}, {1, 1});
    mp::DistTensor<float> other(world, {12, 11}, {1, 1});
    // a shift beyond the halo width (along a split dimension)
    if (u.grid()[0] > 1) CHECK_THROWS_AS(v(S(2), t7::all) = u(S(0, -2), t7::all), ShapeError);
    // operands of different global sizes, windows of different sizes
    CHECK_THROWS_AS(v(S(0, 5), S(0, 5)) = other(S(0, 5), S(0, 5)), ShapeError);
    CHECK_THROWS_AS(v(S(0, 5), S(0, 5)) = u(S(0, 5), S(0, 4)), ShapeError);
    CHECK_THROWS_AS(v(S(0, 5), 1) = u(1, S(0, 5)), ShapeError);
    // windows outside the global sizes, bad steps
    CHECK_THROWS_AS(u(12, 0), IndexError);
    CHECK_THROWS_AS(u(S(0, 13), t7::all), IndexError);
    CHECK_THROWS_AS(u(0, 0, 0), IndexError);
    CHECK_THROWS_AS(u(S(0, 12, 2), t7::all), IndexError);
    // another distribution of the same sizes
    if (p > 1) {
        mp::DistTensor<float> a(world, {12, 10}, {1, 1}, {1, p}),
            b(world, {12, 10}, {1, 1}, {p, 1});
        CHECK_THROWS_AS(a() = b(), ShapeError);
        CHECK_THROWS_AS(t7::sum(a() + b()), ShapeError);
    }
    // constructions
    CHECK_THROWS_AS(mp::DistTensor<float>(world, {12, 10}, {1, 1}, {p + 1, 1}), ShapeError);
    if (p > 1) CHECK_THROWS_AS(mp::DistTensor<float>(world, {12, 10}, {7, 0}, {p, 1}), ShapeError);
    CHECK_THROWS_AS(mp::DistTensor<float>(world, {12, 10}, {1}), ShapeError);
    CHECK_THROWS_AS(mp::DistTensor<float>(world, {}), ShapeError);
    if (p > 1) CHECK_THROWS_AS(mp::DistTensor<float>(world, {1, 1}), ShapeError);
    if (p > 1) CHECK_THROWS_AS(mp::DistTensor<float>(world, {p - 1, 10}, {}, {p, 1}), ShapeError);
    // CUDA tensors are refused at run time
    alignas(Tensor<float, CUDA>) unsigned char room[sizeof(Tensor<float, CUDA>)];
    const auto& gpu = *new (room) Tensor<float, CUDA>();
    CHECK_THROWS_AS(mp::DistTensor<float>::scatter(world, gpu, 0), DeviceError);
    // nothing was left half-sent: a collective still works
    fill2(u);
    v(S(1, -1), S(1, -1)) = jacobi<float>(u);
    const Tensor<float> ref = reference2<float>(12, 10);
    Tensor<float> rv(12, 10);
    rv.zero();
    rv(S(1, -1), S(1, -1)) = jacobi<float>(ref);
    CHECK(same_bits(Tensor<float>(v.local().clone()), Tensor<float>(block(v, rv).clone())));
}

TEST_CASE_TEMPLATE("one .npy file written and read in parallel (MPI-IO)", T, float, int32_t) {
    mp::Communicator world;
    const int p = world.size();
    // one path for every rank: rank 0's process id
    long pid = long(getpid());
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    const std::string path = "/tmp/t7_test_mpi_dist_" + std::to_string(pid) + ".npy";
    Tensor<T> ref(11, 7, 3);
    for (int64_t i = 0; i < ref.nElement(); ++i) ref.data()[i] = T((i * 37) % 101) / T(3);
    {
        const Shape g{p, 1, 1};
        auto u = mp::DistTensor<T>::scatter(world, ref, 0, {1, 0, 1}, g);
        mp::saveNpy(path, u);
        world.barrier();
        // the same bytes t7::saveNpy writes: t7::loadNpy reads them on one rank
        if (world.rank() == 0) CHECK(same_bits(t7::loadNpy<T>(path), ref));
        // read back on another distribution, with other halos
        auto v = mp::loadNpy<T>(world, path, {0, 1, 0}, {1, p, 1});
        CHECK(v.sizes() == Shape{11, 7, 3});
        CHECK(v.grid() == Shape{1, p, 1});
        CHECK(v.stale());
        CHECK(same_bits(Tensor<T>(v.local().clone()), Tensor<T>(block(v, ref).clone())));
        world.barrier();
    }
    // a file t7::saveNpy wrote on rank 0
    if (world.rank() == 0) t7::saveNpy(path, Tensor<T>(ref(S(2, 9), 3, t7::all).clone()));
    world.barrier();
    auto w = mp::loadNpy<T>(world, path);
    CHECK(w.sizes() == Shape{7, 3});
    CHECK(same_bits(Tensor<T>(w.local().clone()),
                    Tensor<T>(block(w, Tensor<T>(ref(S(2, 9), 3, t7::all).clone())).clone())));
    if constexpr (!std::is_same_v<T, float>) { // the errors once (float)
        world.barrier();
        if (world.rank() == 0) std::remove(path.c_str());
        return;
    }
    // another dtype, not a .npy file, no file: IOError on every rank
    world.barrier();
    if (world.rank() == 0) t7::saveNpy(path, Tensor<int8_t>(4, 4).fill(1));
    world.barrier();
    CHECK_THROWS_AS(mp::loadNpy<T>(world, path), IOError);
    world.barrier();
    if (world.rank() == 0) {
        std::FILE* fp = std::fopen(path.c_str(), "wb");
        std::fputs("not numpy at all", fp);
        std::fclose(fp);
    }
    world.barrier();
    CHECK_THROWS_AS(mp::loadNpy<T>(world, path), IOError);
    world.barrier();
    if (world.rank() == 0) std::remove(path.c_str());
    world.barrier();
    CHECK_THROWS_AS(mp::loadNpy<T>(world, path), IOError);
    CHECK_THROWS_AS(mp::saveNpy("/nonexistent-dir/x.npy", mp::DistTensor<T>(world, {4, 4})),
                    IOError);
}
