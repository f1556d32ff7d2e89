// The MPI component (include/t7/mpi.hpp), run by meson test under mpirun on 1,
// 2 and 3 ranks (tests/meson.build). Every rank runs every case; each value is
// checked against what a single process computes from the same formula. Its
// own main creates the Environment; a failure on any rank fails every rank.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <t7/mpi.hpp>
#include <t7/t7.hpp>

#include <complex>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

using namespace t7;
namespace mp = t7::mpi;

namespace {

// Small exact values for every element type (products of 3 ranks fit int8).
template <class T>
T val(int rank, int64_t i) {
    return T(float((rank * 7 + i * 3) % 4 + 1));
}
template <class T>
double num(T x) {
    if constexpr (std::is_same_v<T, Half>)
        return double(float(x));
    else
        return double(x);
}

// Same sizes and values (Half compares through float).
template <class T>
bool same(const Tensor<T>& a, const Tensor<T>& b) {
    if (a.sizes() != b.sizes()) return false;
    const auto u = a.toVector(), v = b.toVector();
    for (size_t i = 0; i < u.size(); ++i)
        if (num(u[i]) != num(v[i])) return false;
    return true;
}

template <class T>
void fill(Tensor<T> x, int rank) {
    int64_t i = 0;
    for (auto& e : x) e = val<T>(rank, i++);
}
template <class T>
void check_values(const Tensor<T>& x, int rank) {
    const auto got = x.toVector();
    for (size_t i = 0; i < got.size(); ++i) REQUIRE(num(got[i]) == num(val<T>(rank, int64_t(i))));
}

// Views of 24 elements in different layouts.
enum Layout { contiguous, transposed, narrow2, column, slab, reversed, reversed_t, n_layouts };
const char* const layout_names[] = {"contiguous",           "transposed",       "narrow of narrow",
                                    "column select(1, 2)",  "strided 3-D slab", "flip({0, 1})",
                                    "transposed, flip({1})"};
template <class T>
Tensor<T> make(int l) {
    switch (l) {
    case contiguous:
        return Tensor<T>(4, 6);
    case transposed:
        return Tensor<T>(6, 4).t();
    case narrow2:
        return Tensor<T>(8, 10).narrow(0, 2, 5).narrow(1, 1, 6).narrow(0, 1, 4);
    case column:
        return Tensor<T>(24, 5).select(1, 2);
    case reversed: // negative strides: MPI's hvector takes them (issue 41)
        return Tensor<T>(4, 6).flip({0, 1});
    case reversed_t:
        return Tensor<T>(6, 4).t().flip({1});
    default:
        return Tensor<T>(4, 5, 8).narrow(1, 1, 2).narrow(2, 2, 3);
    }
}

// A view of x's sizes in another layout: every other element of a bigger tensor.
template <class T>
Tensor<T> twin(const Tensor<T>& x) {
    Shape s = x.sizes();
    s.push_back(2);
    return Tensor<T>(s).select(x.dim(), 1);
}

template <class T>
T reduce_ref(mp::Op op, int p, int64_t i) {
    using C = std::conditional_t<std::is_same_v<T, Half>, float, T>;
    C acc = C(val<T>(0, i));
    for (int r = 1; r < p; ++r) {
        const C v = C(val<T>(r, i));
        switch (op) {
        case mp::Op::sum:
            acc = C(T(acc + v));
            break;
        case mp::Op::prod:
            acc = C(T(acc * v));
            break;
        case mp::Op::max:
            acc = acc < v ? v : acc;
            break;
        case mp::Op::min:
            acc = v < acc ? v : acc;
            break;
        }
    }
    return T(acc);
}
template <class T>
void check_reduced(const Tensor<T>& x, mp::Op op, int p) {
    const auto got = x.toVector();
    for (size_t i = 0; i < got.size(); ++i)
        REQUIRE(num(got[i]) == num(reduce_ref<T>(op, p, int64_t(i))));
}

const mp::Op all_ops[] = {mp::Op::sum, mp::Op::prod, mp::Op::max, mp::Op::min};

} // namespace

#define T7_MPI_TYPES uint8_t, int8_t, int16_t, int32_t, int64_t, float, double, Half

TEST_CASE("environment and communicator") {
    mp::Communicator c;
    CHECK(mp::Environment::initialized());
    int p = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    CHECK(c.size() == p);
    CHECK(c.rank() >= 0);
    CHECK(c.rank() < p);
    c.barrier();
    // Two groups: even and odd ranks, in reverse order of rank.
    mp::Communicator half = c.split(c.rank() % 2, -c.rank());
    CHECK(half.size() == (p + (c.rank() % 2 == 0 ? 1 : 0)) / 2);
    CHECK(half.rank() == (half.size() - 1) - c.rank() / 2);
    IntTensor one(1);
    one.fill(1);
    half.allreduce(one);
    CHECK(one(0) == half.size());
}

TEST_CASE_TEMPLATE("point to point: every layout into every other", T, T7_MPI_TYPES) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank(), next = (r + 1) % p, prev = (r + p - 1) % p;
    for (int a = 0; a < n_layouts; ++a) {
        const int b = (a + 1) % n_layouts;
        CAPTURE(layout_names[a]);
        CAPTURE(layout_names[b]);
        auto x = make<T>(a), y = make<T>(b);
        fill(x, r);
        y.fill(T(0));
        c.sendrecv(x, next, y, prev, 3);
        check_values(y, prev);
        // send / recv (posted non-blocking so that a ring cannot deadlock)
        y.fill(T(0));
        auto s = c.isend(x, next, 4);
        c.recv(y, prev, 4);
        s.wait();
        check_values(y, prev);
        // probe learns the size first
        auto s2 = c.isend(x, next, 5);
        const mp::Message m = c.probe(prev, 5);
        CHECK(m.source == prev);
        CHECK(m.count<T>() == 24);
        c.recv(y, prev, 5);
        s2.wait();
    }
    // an expanded source sends fine: rows of one row
    Tensor<T> row(1, 6);
    fill(row, r);
    Tensor<T> y(4, 6);
    c.sendrecv(row.expand(4, 6), next, y, prev);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 6; ++j) REQUIRE(num(T(y(i, j))) == num(val<T>(prev, j)));
}

TEST_CASE_TEMPLATE("broadcast and allreduce in every layout", T, T7_MPI_TYPES) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    for (int a = 0; a < n_layouts; ++a) {
        CAPTURE(layout_names[a]);
        auto x = make<T>(a);
        fill(x, r);
        c.broadcast(x, p - 1);
        check_values(x, p - 1);
        for (mp::Op op : all_ops) {
            CAPTURE(int(op));
            fill(x, r);
            c.allreduce(x, op); // in place
            check_reduced(x, op, p);
            auto out = twin(x);
            fill(x, r);
            c.allreduce(x, out, op); // into out, x unchanged
            check_reduced(out, op, p);
            check_values(x, r);
            auto red = twin(x);
            red.fill(T(0));
            c.reduce(x, red, p - 1, op);
            if (r == p - 1)
                check_reduced(red, op, p);
            else
                for (const T& e : red.toVector()) REQUIRE(num(e) == 0.0); // untouched
        }
    }
}

TEST_CASE_TEMPLATE("gather, allgather, scatter, reduceScatter, alltoall", T, T7_MPI_TYPES) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    // Rank q holds a (q + 1) x 3 block (a transposed view): cat along dim 0.
    auto mine = Tensor<T>(3, r + 1).t();
    fill(mine, r);
    std::vector<Tensor<T>> parts;
    for (int q = 0; q < p; ++q) {
        Tensor<T> b(q + 1, 3);
        fill(b, q);
        parts.push_back(b);
    }
    const auto ref0 = t7::cat(parts, 0);
    auto g = c.allgather(mine, 0);
    REQUIRE(g.sizes() == ref0.sizes());
    CHECK(same(g, ref0));
    // along dim 1: blocks 3 x (q + 1)
    auto mine1 = Tensor<T>(3, r + 1);
    fill(mine1, r);
    std::vector<Tensor<T>> parts1;
    for (int q = 0; q < p; ++q) {
        Tensor<T> b(3, q + 1);
        fill(b, q);
        parts1.push_back(b);
    }
    const auto ref1 = t7::cat(parts1, 1);
    auto g1 = c.allgather(mine1, 1);
    CHECK(same(g1, ref1));
    auto g2 = c.gather(mine1, p - 1, 1);
    if (r == p - 1)
        CHECK(same(g2, ref1));
    else
        CHECK(g2.dim() == 0);

    // scatter: root's (2p x 3) column-major x; chunk r into a transposed out
    for (int dim = 0; dim < 2; ++dim) {
        CAPTURE(dim);
        Shape whole = dim == 0 ? Shape{2 * p, 3} : Shape{3, 2 * p};
        Tensor<T> xs = Tensor<T>(Shape{whole[1], whole[0]}).t();
        fill(xs, 0);
        Shape cs = whole;
        cs[size_t(dim)] = 2;
        Tensor<T> out = Tensor<T>(Shape{cs[1], cs[0]}).t();
        Tensor<T> xroot = r == 0 ? xs : Tensor<T>();
        c.scatter(xroot, out, 0, dim);
        CHECK(same(out, xs.narrow(dim, 2 * r, 2)));

        // reduceScatter: the sum over ranks of x_q, chunk r
        Tensor<T> xq(whole);
        fill(xq, r);
        Tensor<T> outr(cs);
        c.reduceScatter(xq, outr, mp::Op::sum, dim);
        Tensor<T> sum(whole);
        {
            int64_t i = 0;
            for (auto& e : sum) e = reduce_ref<T>(mp::Op::sum, p, i++);
        }
        CHECK(same(outr, sum.narrow(dim, 2 * r, 2)));

        // alltoall: chunk q of rank q's x arrives as chunk q of out
        Tensor<T> xa = Tensor<T>(Shape{whole[1], whole[0]}).t();
        fill(xa, r);
        Tensor<T> oa(whole);
        c.alltoall(xa, oa, dim);
        for (int q = 0; q < p; ++q) {
            Tensor<T> xq2(whole);
            fill(xq2, q);
            CHECK(same(oa.narrow(dim, 2 * q, 2), xq2.narrow(dim, 2 * r, 2)));
        }
    }
}

TEST_CASE_TEMPLATE("non-blocking: isend, irecv, iallreduce, ibroadcast, waitAll", T, float, int32_t,
                   Half) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank(), next = (r + 1) % p, prev = (r + p - 1) % p;
    auto x = make<T>(column), y = make<T>(slab);
    fill(x, r);
    std::vector<mp::Request> rs;
    rs.push_back(c.irecv(y, prev, 7));
    rs.push_back(c.isend(x, next, 7));
    mp::waitAll(rs);
    check_values(y, prev);
    for (int a = 0; a < n_layouts; ++a) {
        auto z = make<T>(a);
        fill(z, r);
        auto q = c.iallreduce(z, mp::Op::max);
        while (!q.test()) {
        }
        check_reduced(z, mp::Op::max, p);
        fill(z, r);
        auto out = twin(z);
        c.iallreduce(z, out).wait();
        check_reduced(out, mp::Op::sum, p);
        fill(z, r);
        { mp::Request b = c.ibroadcast(z, 0); } // the destructor waits
        check_values(z, 0);
    }
    // A Request keeps its tensors alive: the only handle goes before wait().
    std::optional<Tensor<T>> h(Tensor<T>(6, 4).t());
    fill(*h, r);
    T* mem = h->data();
    auto q = c.iallreduce(*h);
    CHECK(h->storage().use_count() >= 2);
    h.reset();
    q.wait();
    for (int64_t i = 0; i < 6; ++i)
        for (int64_t j = 0; j < 4; ++j) // element (j, i) of the 4 x 6 view lives at mem[i*4 + j]
            REQUIRE(num(mem[i * 4 + j]) == num(reduce_ref<T>(mp::Op::sum, p, j * 6 + i)));
    // moved, not copied
    mp::Request m1 = c.ibroadcast(y, 0);
    mp::Request m2 = std::move(m1);
    CHECK(!m1.pending());
    m2.wait();
    CHECK(!m2.pending());
    static_assert(!std::is_copy_constructible_v<mp::Request>);
}

TEST_CASE_TEMPLATE("expanded sources in collectives", T, float, int32_t) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    Tensor<T> row(1, 3);
    fill(row, r);
    const auto ex = row.expand(2 * p, 3); // every row is `row`: strides 0 x 1
    Tensor<T> dense(2 * p, 3);
    dense = ex; // the same values, materialised
    // allgather along dims 0 and 1
    for (int dim = 0; dim < 2; ++dim) {
        CAPTURE(dim);
        auto a = c.allgather(ex, dim);
        auto b = c.allgather(dense, dim);
        CHECK(same(a, b));
    }
    // allreduce into out, reduce: x is only read
    Tensor<T> out(2 * p, 3), ref(2 * p, 3);
    c.allreduce(ex, out, mp::Op::max);
    c.allreduce(dense, ref, mp::Op::max);
    CHECK(same(out, ref));
    c.reduce(ex, out, 0, mp::Op::sum);
    c.reduce(dense, ref, 0, mp::Op::sum);
    if (r == 0) CHECK(same(out, ref));
    // scatter from an expanded root, alltoall from an expanded x
    Tensor<T> chunk(2, 3), chunk_ref(2, 3);
    c.scatter(ex, chunk, 0, 0);
    c.scatter(dense, chunk_ref, 0, 0);
    CHECK(same(chunk, chunk_ref));
    c.alltoall(ex, out, 0);
    c.alltoall(dense, ref, 0);
    CHECK(same(out, ref));
    // broadcast from an expanded root into dense views elsewhere
    Tensor<T> got(2 * p, 3);
    got.fill(T(0));
    if (r == 0)
        c.broadcast(ex, 0);
    else
        c.broadcast(got, 0);
    Tensor<T> row0(1, 3);
    fill(row0, 0);
    if (r != 0) CHECK(same(got, Tensor<T>(row0.expand(2 * p, 3))));
}

TEST_CASE("errors") {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    FloatTensor x(4);
    x.fill(1.f);
    // rank out of range: IndexError before anything is posted
    CHECK_THROWS_AS(c.send(x, p), IndexError);
    CHECK_THROWS_AS(c.recv(x, -5), IndexError);
    CHECK_THROWS_AS(c.broadcast(x, p), IndexError);
    CHECK_THROWS_AS(c.isend(x, p + 3), IndexError);
    CHECK_THROWS_AS(c.reduce(x, x, -1), IndexError);
    // receiving into an expanded view: ShapeError, nothing posted
    FloatTensor one(1, 4);
    auto ex = one.expand(3, 4);
    CHECK_THROWS_AS(c.recv(ex, r), ShapeError);
    CHECK_THROWS_AS(c.irecv(ex, r), ShapeError);
    CHECK_THROWS_AS(c.sendrecv(x, r, ex, r), ShapeError);
    CHECK_THROWS_AS(c.allreduce(ex), ShapeError);
    if (p > 1 && r != 0) CHECK_THROWS_AS(c.broadcast(ex, 0), ShapeError);
    CHECK_THROWS_AS(c.allreduce(x, FloatTensor(5)), ShapeError);
    // size mismatch: the receiving view (4 of 10 elements) and its neighbours unchanged
    IntTensor base(10);
    base.fill(-1);
    auto view = base.narrow(0, 3, 4);
    IntTensor five(5), three(3);
    five.fill(7);
    three.fill(7);
    {
        auto s = c.isend(five, r, 11); // to self: a message one element too long
        CHECK_THROWS_AS(c.recv(view, r, 11), ShapeError);
        s.wait();
        auto s2 = c.isend(three, r, 12); // one element short
        CHECK_THROWS_AS(c.recv(view, r, 12), ShapeError);
        s2.wait();
        for (int64_t i = 0; i < 10; ++i) REQUIRE(base(i) == -1);
    }
    // sendrecv with a neighbour: too long -> ShapeError, nothing past the view
    const int next = (r + 1) % p, prev = (r + p - 1) % p;
    CHECK_THROWS_AS(c.sendrecv(five, next, view, prev, 13), ShapeError);
    for (int64_t i : {0, 1, 2, 7, 8, 9}) REQUIRE(base(i) == -1);
    CHECK_THROWS_AS(c.sendrecv(three, next, view, prev, 14), ShapeError);
    for (int64_t i : {0, 1, 2, 7, 8, 9}) REQUIRE(base(i) == -1);
    // irecv: reported by wait()
    {
        auto s = c.isend(five, r, 15);
        auto q = c.irecv(view, r, 15);
        CHECK_THROWS_AS(q.wait(), ShapeError);
        s.wait();
    }
    for (int64_t i : {0, 1, 2, 7, 8, 9}) REQUIRE(base(i) == -1);
    // collectives: sizes that cannot split, out of the wrong size
    if (p > 1) {
        FloatTensor odd(p + 1);
        CHECK_THROWS_AS(c.reduceScatter(odd, FloatTensor(1)), ShapeError);
        CHECK_THROWS_AS(c.alltoall(odd, FloatTensor(p + 1)), ShapeError);
        FloatTensor root(2 * p);
        root.fill(3.f);
        FloatTensor wrong(3);
        wrong.fill(-1.f);
        if (r == p - 1)
            CHECK_THROWS_AS(c.scatter(root, wrong, 0), ShapeError);
        else
            c.scatter(root, FloatTensor(2), 0);
        if (r == p - 1)
            for (int64_t i = 0; i < 3; ++i) REQUIRE(wrong(i) == -1.f);
        // broadcast: root's 5 elements into 4 (or 6) elsewhere: ShapeError, x unchanged
        IntTensor wide(6);
        wide.fill(-1);
        base.fill(-1); // (the short sendrecv above may have written inside view)
        if (r == 0)
            c.broadcast(five, 0);
        else
            CHECK_THROWS_AS(c.broadcast(r == 1 ? view : wide, 0), ShapeError);
        for (int64_t i = 0; i < 10; ++i) REQUIRE(base(i) == -1);
        for (int64_t i = 0; i < 6; ++i) REQUIRE(wide(i) == -1);
        // a mismatch of the other dimensions throws on every rank
        FloatTensor blk(2, r == 0 ? 3 : 4);
        CHECK_THROWS_AS(c.allgather(blk, 0), ShapeError);
        CHECK_THROWS_AS(c.gather(blk, 0, 0), ShapeError);
        FloatTensor bad(2 * p + 1);
        if (r == 0)
            CHECK_THROWS_AS(c.scatter(bad, FloatTensor(2), 0), ShapeError);
        else
            CHECK_THROWS_AS(c.scatter(bad, FloatTensor(2), 0), ShapeError);
    }
    // what MPI itself reports: t7::mpi::Error naming the call (a negative tag)
    try {
        c.send(x, r, -7);
        FAIL("no error");
    } catch (const mp::Error& e) {
        CHECK(std::string(e.what()).find("MPI_Send") != std::string::npos);
        CHECK(std::string(e.what()).find("rank") != std::string::npos);
    }
    // the messages name the call and the rank
    try {
        c.send(x, p + 1);
    } catch (const IndexError& e) {
        CHECK(std::string(e.what()).find("send") != std::string::npos);
        CHECK(std::string(e.what()).find("out of range") != std::string::npos);
    }
    // CUDA tensors are refused at run time (the API takes CPU tensors)
    // (an empty handle, never destroyed: its destructor would need tensor7_cuda)
    alignas(Tensor<float, CUDA>) unsigned char room[sizeof(Tensor<float, CUDA>)];
    const auto& gpu = *new (room) Tensor<float, CUDA>();
    CHECK_THROWS_AS(c.send(gpu, 0), DeviceError);
    CHECK_THROWS_AS(c.allreduce(gpu), DeviceError);
}

TEST_CASE("Half reduces in float") {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    Tensor<Half> h(3);
    h(0) = Half(0.5f + float(r));
    h(1) = Half(1.25f);
    h(2) = Half(-2.0f * float(r + 1));
    c.allreduce(h);
    float s0 = 0, s2 = 0, s1 = 0;
    for (int q = 0; q < p; ++q) {
        s0 = float(Half(s0 + 0.5f + float(q)));
        s1 = float(Half(s1 + 1.25f));
        s2 = float(Half(s2 - 2.0f * float(q + 1)));
    }
    CHECK(float(Half(h(0))) == s0);
    CHECK(float(Half(h(1))) == s1);
    CHECK(float(Half(h(2))) == s2);
}

TEST_CASE("deterministic sums: rank order, bit-identical on every rank") {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    const int64_t n = 1000;
    // values whose sum depends on the order: large and small magnitudes mixed
    auto value = [](int q, int64_t i) {
        return float((q % 2 ? -1.0 : 1.0) * (1e7 + double(i)) + 0.1 * double(q + 1) + 1e-3 * i);
    };
    for (bool det : {false, true}) {
        CAPTURE(det);
        c.setDeterministic(det);
        FloatTensor x(n);
        for (int64_t i = 0; i < n; ++i) x(i) = value(r, i);
        auto col = FloatTensor(n, 3).select(1, 1); // non-contiguous: packed path
        col = x;
        FloatTensor out(n);
        c.allreduce(x, out);
        c.allreduce(col);
        // every rank has the same bits
        auto all = c.allgather(out.view(1, n), 0);
        for (int q = 1; q < p; ++q) CHECK(same(all.select(0, q), all.select(0, 0)));
        CHECK(same(col, out));
        auto q = c.iallreduce(x);
        q.wait();
        if (det) { // exactly the rank-order sum
            for (int64_t i = 0; i < n; ++i) {
                float s = value(0, i);
                for (int k = 1; k < p; ++k) s = s + value(k, i);
                REQUIRE(out(i) == s);
                REQUIRE(x(i) == s);
            }
            DoubleTensor d(7), dr(7);
            for (int64_t i = 0; i < 7; ++i) d(i) = 0.1 * double(r + i);
            c.reduce(d, dr, 0);
            if (r == 0)
                for (int64_t i = 0; i < 7; ++i) {
                    double s = 0.1 * double(i);
                    for (int k = 1; k < p; ++k) s = s + 0.1 * double(k + i);
                    REQUIRE(dr(i) == s);
                }
        }
    }
    c.setDeterministic(false);
}

TEST_CASE("derived datatypes are cached") {
    mp::Communicator c;
    const int r = c.rank();
    FloatTensor grid(64, 64);
    grid.fill(float(r));
    FloatTensor halo(64);
    auto& reg = mp::detail::registry();
    c.sendrecv(grid.select(1, 0), r, halo, r);
    const auto builds = reg.builds;
    for (int i = 0; i < 10; ++i) c.sendrecv(grid.select(1, 0), r, grid.select(1, 63), r);
    CHECK(reg.builds == builds); // one datatype for the column layout, reused
    CHECK(grid.select(1, 63).toVector() == std::vector<float>(64, float(r)));
}

// Misuse, round 3 (issue 44): a message longer than irecv's tensor is reported
// by wait() as the blocking recv reports it: irecv, the sizes, what arrived.
TEST_CASE("irecv of a message too long names irecv and the sizes") {
    mp::Communicator c;
    const int p = c.size(), r = c.rank();
    const int next = (r + 1) % p, prev = (r + p - 1) % p;
    IntTensor base(10);
    base.fill(-1);
    auto view = base.narrow(0, 3, 4);
    IntTensor six(6);
    six.fill(7);
    // The send first: Open MPI 4.1's self path (1 rank) reports no truncation to
    // a receive posted before the message.
    auto s = c.isend(six, next, 21);
    auto q = c.irecv(view, prev, 21);
    std::string what;
    try {
        q.wait();
    } catch (const ShapeError& e) {
        what = e.what();
    }
    s.wait();
    INFO(what);
    CHECK(what.find("t7::mpi::irecv on rank " + std::to_string(r)) != std::string::npos);
    CHECK(what.find("6 elements arrived from rank " + std::to_string(prev)) != std::string::npos);
    CHECK(what.find("for a tensor of size 4 (4 elements)") != std::string::npos);
    for (int64_t i : {0, 1, 2, 7, 8, 9}) CHECK(base(i) == -1); // nothing past the view
}

int main(int argc, char** argv) {
    mp::Environment env(argc, argv);
    doctest::Context ctx(argc, argv);
    const int rc = ctx.run();
    int failed = rc != 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return failed;
}

TEST_CASE("views without elements are messages of zero elements") {
    mp::Communicator c;
    const int p = c.size(), r = c.rank(), next = (r + 1) % p, prev = (r + p - 1) % p;
    FloatTensor x(0, 5), y(0, 5);
    c.sendrecv(x, next, y, prev, 9);
    CHECK(y.sizes() == Shape{0, 5});
    c.allreduce(x);
    c.broadcast(x, 0);
    CHECK(x.sizes() == Shape{0, 5});
    // a reversed view received into: the values land in reversed order
    FloatTensor z(6);
    for (int64_t i = 0; i < 6; ++i) z(i) = float(10 * r + i);
    FloatTensor w(6);
    c.sendrecv(z, next, w.flip({0}), prev, 10);
    for (int64_t i = 0; i < 6; ++i) CHECK(w(i) == float(10 * prev + 5 - i));
}

// Complex elements (issue 42): MPI's C complex types, in every layout, point to
// point and collectives; sum and prod (small integer parts: exact in any order,
// and bit-identical in rank order when deterministic); max and min refused.
namespace {
template <class Z>
Z zval(int rank, int64_t i) {
    using R = typename Z::value_type;
    return Z(R((rank * 5 + i) % 3 + 1), R((rank * 2 + i * 7) % 3 - 1));
}
template <class Z>
void zfill(Tensor<Z> x, int rank) {
    int64_t i = 0;
    for (auto& e : x) e = zval<Z>(rank, i++);
}
template <class Z>
void zcheck(const Tensor<Z>& x, int p, mp::Op op, int rank = -1) {
    const auto got = x.toVector();
    for (size_t i = 0; i < got.size(); ++i) {
        Z want = zval<Z>(rank < 0 ? 0 : rank, int64_t(i));
        for (int q = 1; rank < 0 && q < p; ++q)
            want =
                op == mp::Op::sum ? want + zval<Z>(q, int64_t(i)) : want * zval<Z>(q, int64_t(i));
        REQUIRE(got[i] == want);
    }
}
} // namespace

TEST_CASE_TEMPLATE("complex: point to point, broadcast, sum and prod in every layout", Z,
                   std::complex<float>, std::complex<double>) {
    mp::Communicator c;
    const int p = c.size(), r = c.rank(), next = (r + 1) % p, prev = (r + p - 1) % p;
    for (bool det : {false, true}) {
        c.setDeterministic(det);
        for (int a = 0; a < n_layouts; ++a) {
            CAPTURE(det);
            CAPTURE(layout_names[a]);
            auto x = make<Z>(a), y = make<Z>((a + 1) % n_layouts);
            zfill(x, r);
            y.fill(Z(0));
            c.sendrecv(x, next, y, prev, 3);
            zcheck(y, p, mp::Op::sum, prev);
            zfill(y, r);
            c.broadcast(y, p - 1);
            zcheck(y, p, mp::Op::sum, p - 1);
            for (mp::Op op : {mp::Op::sum, mp::Op::prod}) {
                CAPTURE(int(op));
                zfill(x, r);
                c.allreduce(x, op);
                zcheck(x, p, op);
                auto out = twin(x);
                zfill(x, r);
                c.allreduce(x, out, op);
                zcheck(out, p, op);
                zcheck(x, p, op, r); // unchanged
                auto red = twin(x);
                red.fill(Z(0));
                c.reduce(x, red, p - 1, op);
                if (r == p - 1) zcheck(red, p, op);
                out.fill(Z(0));
                auto q = c.iallreduce(x, out, op);
                q.wait();
                zcheck(out, p, op);
            }
        }
        // reduceScatter: chunk r of the sum
        Tensor<Z> x(3 * p, 2), out(3, 2);
        zfill(x, r);
        c.reduceScatter(x, out);
        Tensor<Z> whole(3 * p, 2);
        zfill(whole, 0);
        for (int q = 1; q < p; ++q) {
            Tensor<Z> t(3 * p, 2);
            zfill(t, q);
            whole += t;
        }
        CHECK(t7::equal(out, whole.narrow(0, 3 * r, 3)));
    }
    c.setDeterministic(false);

    // max and min of complex numbers: TypeError naming the function, nothing written
    for (mp::Op op : {mp::Op::max, mp::Op::min}) {
        auto x = make<Z>(transposed), out = make<Z>(contiguous);
        zfill(x, r);
        out.fill(Z(9));
        std::string msg;
        try {
            c.allreduce(x, op);
        } catch (const TypeError& e) {
            msg = e.what();
        }
        CHECK(msg.find("t7::mpi::allreduce: Op::") != std::string::npos);
        CHECK(msg.find("no order") != std::string::npos);
        zcheck(x, p, op, r);
        CHECK_THROWS_AS(c.allreduce(x, out, op), TypeError);
        CHECK_THROWS_AS(c.reduce(x, out, 0, op), TypeError);
        CHECK_THROWS_AS(c.iallreduce(x, out, op), TypeError);
        Tensor<Z> rs(p, 1);
        CHECK_THROWS_AS(c.reduceScatter(rs, out.narrow(0, 0, 1).narrow(1, 0, 1), op), TypeError);
        for (const Z& e : out.toVector()) REQUIRE(e == Z(9));
    }
}

// A distributed complex tensor (issue 42): sum and mean complex, norm of the moduli,
// each the one-process value (max and min do not compile: tests/compile_fail).
TEST_CASE("complex: DistTensor sum, mean and norm are global and complex-aware") {
    using Z = std::complex<double>;
    mp::Communicator c;
    mp::DistTensor<Z> u(c, Shape{7, 5});
    ComplexDoubleTensor whole(7, 5);
    for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 5; ++j) whole(i, j) = Z(double(i - j), 0.5 * double(i * j % 3));
    Tensor<Z> l = u.local();
    for (int64_t i = 0; i < l.size(0); ++i)
        for (int64_t j = 0; j < l.size(1); ++j)
            l(i, j) = whole(u.offset()[0] + i, u.offset()[1] + j);
    // small exact parts: the global sums are exact in any order
    const Z s = t7::sum(u);
    CHECK(s == Z(t7::sum(whole)));
    CHECK(t7::mean(u) == s / 35.0);
    CHECK(t7::norm(u) == doctest::Approx(t7::norm(whole)).epsilon(1e-14));
    CHECK(t7::norm(u, 1) == doctest::Approx(t7::norm(whole, 1)).epsilon(1e-14));
    CHECK(t7::sum(u(t7::slice(1, 3), t7::all)) == Z(t7::sum(whole.narrow(0, 1, 2))));
}
