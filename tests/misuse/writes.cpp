// Misuse, writes and storages (issue 16): writes into a destination that
// overlaps itself (expanded or unfolded views) are refused before anything is
// written; exceptions thrown by user functors reach the caller from any thread;
// a storage never shrinks under live views, and a wrapped one keeps its size;
// element access on an empty tensor and out-of-range negative rows throw.
// Each case checks the exception type and that nothing was changed.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "../test_util.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;

namespace {

// A user's own exception type: it must arrive as itself, not as std::terminate.
struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The thread count for one scope, restored afterwards.
struct Threads {
    int saved = getNumThreads();
    explicit Threads(int n) { setNumThreads(n); }
    ~Threads() { setNumThreads(saved); }
};

// A storage's values, to check that a refused write changed nothing.
template <class T>
struct Unchanged {
    Storage<T> s;
    Values before;
    explicit Unchanged(const Tensor<T>& t) : s(t.storage()), before(storage_values(s)) {}
    bool operator()() const { return storage_values(s) == before; }
};

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// A refused write throws ShapeError naming the operation, the destination's
// sizes and strides.
template <class F>
void check_refused(F&& f, const std::string& op, const std::string& sizes,
                   const std::string& strides) {
    const std::string msg = message_of<ShapeError>(f);
    CHECK_MESSAGE(contains(msg, op + ":"), msg);
    CHECK_MESSAGE(contains(msg, sizes), msg);
    CHECK_MESSAGE(contains(msg, strides), msg);
}

} // namespace

// ---------------------------------------------------------------------------------
// 1. destinations that overlap themselves
// ---------------------------------------------------------------------------------

TEST_CASE("writes: an expanded destination is refused by every expression write") {
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        Threads scope(threads);
        FloatTensor x = zeros<float>(1, 40000);
        FloatTensor e = x.expand(64, 40000); // one row, 64 times
        FloatTensor y = ones<float>(64, 40000);
        Unchanged<float> same(x);
        check_refused([&] { e += 1; }, "+=", "64x40000", "0x1");
        check_refused([&] { e -= y; }, "-=", "64x40000", "0x1");
        check_refused([&] { e *= 2; }, "*=", "64x40000", "0x1");
        check_refused([&] { e /= y; }, "/=", "64x40000", "0x1");
        CHECK_THROWS_AS(e.add(1), ShapeError);
        CHECK_THROWS_AS(e.add(2.0, y), ShapeError);
        CHECK_THROWS_AS(e.mul(2), ShapeError);
        CHECK_THROWS_AS(e.div(2), ShapeError);
        CHECK_THROWS_AS(e.cmul(y), ShapeError);
        CHECK_THROWS_AS(e.cdiv(y), ShapeError);
        CHECK_THROWS_AS(e.csub(y), ShapeError);
        CHECK_THROWS_AS(e.addcmul(2, y, y), ShapeError);
        CHECK_THROWS_AS(e.addcdiv(2, y, y), ShapeError);
        check_refused([&] { e = y * 2 + 1; }, "assign", "64x40000", "0x1");
        check_refused([&] { e = y; }, "assign", "64x40000", "0x1");
        CHECK_THROWS_AS(e = t7::map([](float v) { return v + 1; }, y), ShapeError);
        check_refused([&] { e.copy(y); }, "copy", "64x40000", "0x1");
        CHECK_THROWS_AS(e.copy(y.toDouble()), ShapeError);            // another type
        CHECK_THROWS_AS(e.copy(ones<float>(64 * 40000)), ShapeError); // another shape
        CHECK(same());
        CHECK(e.strides() == Shape{0, 1});
    }
}

TEST_CASE("writes: an unfolded destination with overlapping windows is refused") {
    FloatTensor base = zeros<float>(5);
    FloatTensor u = base.unfold(0, 3, 1); // 3 windows of 3: elements 1..3 shared
    Unchanged<float> same(base);
    check_refused([&] { u += 1; }, "+=", "3x3", "1x1");
    CHECK_THROWS_AS(u.copy(ones<float>(3, 3)), ShapeError);
    CHECK_THROWS_AS(u = ones<float>(3, 3) * 2, ShapeError);
    CHECK(same());
    // Windows that only touch (step == size) or leave gaps do not overlap.
    FloatTensor w = base.unfold(0, 2, 2);
    w += 1;
    CHECK(values(base) == Values{1, 1, 1, 1, 0});
    FloatTensor g = base.unfold(0, 1, 3);
    g += 1;
    CHECK(values(base) == Values{2, 1, 1, 2, 0});
}

TEST_CASE("writes: views that do not overlap themselves are written as before") {
    DoubleTensor x = seq({3, 4});
    x.t() += 100; // transposed: strides out of order, no overlap
    CHECK(values(x) == Values{101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112});
    x.narrow(1, 1, 2) = 0;
    x(slice(0, 3, 2), slice(0, 4, 3)) *= -1; // stepped
    x.select(1, 3) += 1;
    CHECK(values(x) == Values{-101, 0, 0, -103, 105, 0, 0, 109, -109, 0, 0, -111});
    // a column-major layout given through set()
    DoubleTensor c;
    c.set(x.storage(), 0, Shape{2, 3}, Shape{1, 2});
    c.copy(seq({2, 3}));
    CHECK(values(x).at(0) == 1);
    CHECK(values(c) == Values{1, 2, 3, 4, 5, 6});
    // size-1 dimensions may have any stride, even 0
    DoubleTensor r = seq({1, 4}).expand(1, 4);
    r += 1;
    CHECK(values(r) == Values{2, 3, 4, 5});
}

TEST_CASE("writes: exotic set() strides are judged conservatively") {
    // sizes 2x3, strides 4x3 reach 0, 3, 6, 4, 7, 10: all distinct, but not
    // provably so by the sort-by-stride test (stride 4 <= 2 * 3): refused.
    DoubleTensor base = DoubleTensor(11).zero();
    DoubleTensor odd;
    odd.set(base.storage(), 0, Shape{2, 3}, Shape{4, 3});
    Unchanged<double> same(base);
    check_refused([&] { odd += 1; }, "+=", "2x3", "4x3");
    CHECK(same());
    // The same elements written through two plain views work.
    odd.select(0, 0) += 1;
    odd.select(0, 1) += 1;
    CHECK(values(base) == Values{1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1});
}

TEST_CASE("writes: fills with one value stay allowed on overlapping views") {
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        Threads scope(threads);
        FloatTensor x = zeros<float>(1, 40000);
        FloatTensor e = x.expand(64, 40000);
        e.fill(3);
        CHECK(t7::sum(x) == 3 * 40000);
        e.zero();
        CHECK(t7::sum(x) == 0);
        e = 2;
        CHECK(t7::sum(x) == 2 * 40000);
        FloatTensor base = zeros<float>(5);
        FloatTensor u = base.unfold(0, 3, 1);
        u.fill(1);
        CHECK(values(base) == Values{1, 1, 1, 1, 1});
        DoubleTensor small = DoubleTensor(3).zero();
        DoubleTensor se = small.view(1, 3).expand(2, 3);
        se.maskedFill(seq({2, 3}) > 4, 7); // elements (1, 1) and (1, 2)
        CHECK(values(small) == Values{0, 7, 7});
        se[se == 0] = 5;
        CHECK(values(small) == Values{5, 7, 7});
        se.indexFill(1, LongTensor(1).fill(0), -1);
        CHECK(values(small) == Values{-1, 7, 7});
        se.scatter(1, LongTensor(2, 1).fill(2), 9.0);
        CHECK(values(small) == Values{-1, 7, 9});
    }
}

TEST_CASE("writes: apply, map and map2 on an overlapping self are serial, as in Torch7") {
    // Not refused: they run on one thread, in layout order, so a shared element
    // is visited once per position and the last visit wins (Torch7's documented
    // y:apply on an expanded y, shared/torch7/tensor_expand_view.txt).
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        Threads scope(threads);
        FloatTensor base = zeros<float>(5);
        FloatTensor u = base.unfold(0, 3, 1); // elements 0 1 2 / 1 2 3 / 2 3 4
        int i = 0;
        u.apply([&] { return float(++i); });
        CHECK(values(base) == Values{1, 4, 7, 8, 9});
        base.zero();
        u.apply([](float v) { return v + 1; }); // element k incremented once per position
        CHECK(values(base) == Values{1, 2, 3, 2, 1});
        FloatTensor x = zeros<float>(1, 40000);
        FloatTensor e = x.expand(64, 40000);
        FloatTensor ones64 = ones<float>(64, 40000);
        e.map(ones64, [](float a, float b) { return a + b; });
        CHECK(t7::sum(x) == 64 * 40000);
        e.map2(ones64, ones64, [](float a, float b, float c) { return a - b - c; });
        CHECK(t7::sum(x) == -64 * 40000);
    }
}

TEST_CASE("writes: indexed and masked writes refuse an overlapping destination") {
    DoubleTensor x = DoubleTensor(3).zero();
    DoubleTensor e = x.view(1, 3).expand(2, 3); // 2x3, strides 0x1
    Unchanged<double> same(x);
    const DoubleTensor src = seq({2, 3});
    const LongTensor rows = LongTensor(2);
    rows.data()[0] = 1;
    rows.data()[1] = 0;
    const LongTensor idx2 = LongTensor(2, 3).zero();
    const ByteTensor all_set = ByteTensor(2, 3).fill(1);

    check_refused([&] { e.indexCopy(0, rows, src); }, "indexCopy", "2x3", "0x1");
    check_refused([&] { e.indexAdd(0, rows, src); }, "indexAdd", "2x3", "0x1");
    check_refused([&] { e.scatter(0, idx2, src); }, "scatter", "2x3", "0x1");
    check_refused([&] { e.gather(src, 0, idx2); }, "gather", "2x3", "0x1");
    check_refused([&] { e.index(src, 0, rows); }, "index", "2x3", "0x1");
    check_refused([&] { e.maskedCopy(all_set, src); }, "maskedCopy", "2x3", "0x1");
    CHECK_THROWS_AS(e[all_set] = src, ShapeError);
    CHECK_THROWS_AS(e[all_set] += 1, ShapeError);
    CHECK_THROWS_AS(e.repeatTensor(seq({1, 3}), Shape{2, 1}), ShapeError);
    CHECK_THROWS_AS(t7::cat(e, {seq({1, 3}), seq({1, 3})}, 0), ShapeError);
    check_refused([&] { e.uniform(); }, "uniform", "2x3", "0x1");
    CHECK_THROWS_AS(e.normal(), ShapeError);
    CHECK_THROWS_AS(e.bernoulli(0.5), ShapeError);
    CHECK_THROWS_AS(e.bernoulli(DoubleTensor(2, 3).fill(0.5)), ShapeError);
    CHECK(same());

    // Results "into" an overlapping tensor of the right size (kept as it is).
    DoubleTensor six = DoubleTensor(1).zero();
    DoubleTensor e6 = six.expand(6);
    Unchanged<double> same6(six);
    check_refused([&] { e6.maskedSelect(src, all_set); }, "maskedSelect", "6", "0");
    ValuesIndices<double, CPU> vi{e, LongTensor(2, 3)};
    CHECK_THROWS_AS(t7::sort(vi, src, 1), ShapeError);
    CHECK_THROWS_AS(t7::topk(vi, src, 3, 1), ShapeError);
    LongTensor l1 = LongTensor(1).zero();
    LongTensor ln = l1.view(1, 1).expand(6, 2);
    Unchanged<int64_t> samel(l1);
    check_refused([&] { t7::nonzero(ln, src); }, "nonzero", "6x2", "0x0");
    CHECK(same6());
    CHECK(samel());
    CHECK(same());

    // Into a tensor of another size: resized as Torch7 does (contiguous), then written.
    DoubleTensor r = DoubleTensor(1).zero().expand(4);
    r.index(src, 0, rows);
    CHECK(r.isContiguous());
    CHECK(values(r) == Values{4, 5, 6, 1, 2, 3});
}

// ---------------------------------------------------------------------------------
// 2. exceptions from user functors, on any thread
// ---------------------------------------------------------------------------------

TEST_CASE("writes: an exception from a user functor propagates at every size and thread count") {
    for (int threads : {1, 2}) {
        for (int64_t n : {int64_t(1000), int64_t(100000)}) { // below and above the grain
            CAPTURE(threads);
            CAPTURE(n);
            Threads scope(threads);
            FloatTensor x = seq<float>({n}, 0);
            const float last = float(n - 1); // thrown from the last element: the last thread
            auto boom = [last](float v) {
                if (v == last) throw UserError("boom at the last element");
                return v;
            };
            FloatTensor y = zeros<float>(n);
            CHECK_THROWS_AS(y = t7::map(boom, x), UserError);
            CHECK_THROWS_AS(y += t7::map(boom, x), UserError);
            CHECK_THROWS_AS(FloatTensor(t7::map(boom, x)), UserError);
            CHECK_THROWS_AS(t7::sum(t7::map(boom, x)), UserError);
            auto boom_mask = [last](float v) -> uint8_t {
                if (v == last) throw UserError("boom in a mask");
                return v > 1;
            };
            CHECK_THROWS_AS(y.maskedFill(t7::map(boom_mask, x), 0), UserError);
            CHECK_THROWS_AS(y.copy(x).apply([last](float v) {
                if (v == last) throw UserError("apply");
                return v;
            }),
                            UserError);
            CHECK_THROWS_AS(y.copy(x).map(x,
                                          [last](float, float v) {
                                              if (v == last) throw UserError("map");
                                              return v;
                                          }),
                            UserError);
            CHECK_THROWS_AS(y.map2(x, x,
                                   [last](float, float, float v) {
                                       if (v == last) throw UserError("map2");
                                       return v;
                                   }),
                            UserError);
            // The first failing element in layout order wins, as on one thread.
            auto two = [last](float v) {
                if (v == 0) throw UserError("first");
                if (v == last) throw UserError("last");
                return v;
            };
            CHECK(message_of<UserError>([&] { y = t7::map(two, x); }) == "first");
            // and the library goes on working
            y = x + 1;
            CHECK(double(t7::sum(y)) == double(n) * double(n + 1) / 2);
        }
    }
}

// ---------------------------------------------------------------------------------
// 3. storages under live views
// ---------------------------------------------------------------------------------

TEST_CASE("writes: a storage shared with other handles never shrinks") {
    FloatTensor x = seq<float>({10});
    FloatTensor tail = x.narrow(0, 8, 2);
    Storage<float> s = x.storage();
    const std::string msg = message_of<ShapeError>([&] { s.resize(2); });
    CHECK_MESSAGE(contains(msg, "Storage::resize"), msg);
    CHECK_MESSAGE(contains(msg, "10"), msg);
    CHECK_MESSAGE(contains(msg, " 2"), msg);
    CHECK(s.size() == 10);
    CHECK(x.storage().size() == 10);
    CHECK(values(tail) == Values{9, 10}); // still readable
    CHECK(values(x) == iota(1, 10));
    // Growing a shared storage is fine: every handle sees the new memory.
    s.resize(12);
    CHECK(x.storage().size() == 12);
    CHECK(values(tail) == Values{9, 10});
    CHECK(values(x) == iota(1, 10));
    // A storage nobody else holds may shrink.
    Storage<float> alone(10);
    alone.fill(3);
    alone.resize(2);
    CHECK(alone.size() == 2);
    CHECK(storage_values(alone) == Values{3, 3});
    alone.resize(0);
    CHECK(alone.size() == 0);
}

TEST_CASE("writes: a wrapped storage keeps its size; a tensor over it does not grow") {
    float buf[6] = {1, 2, 3, 4, 5, 6};
    Storage<float> s = Storage<float>::wrap(buf, 4);
    CHECK_FALSE(s.ownsStorage());
    CHECK_THROWS_AS(s.resize(8), ShapeError);
    CHECK_THROWS_AS(s.resize(2), ShapeError);
    s.resize(4); // its own size: nothing to do
    CHECK(s.data() == buf);
    CHECK(s.size() == 4);
    CHECK_FALSE(s.ownsStorage());

    FloatTensor t(s, 0);
    const std::string msg = message_of<ShapeError>([&] { t.resize(8); });
    CHECK_MESSAGE(contains(msg, "resize"), msg);
    CHECK(t.sizes() == Shape{4});
    CHECK(t.strides() == Shape{1});
    CHECK(t.data() == buf);
    CHECK(t.storage().size() == 4);
    CHECK_THROWS_AS(t.resizeAs(FloatTensor(3, 3)), ShapeError);
    CHECK(t.sizes() == Shape{4});
    // A size that fits stays on the user's memory.
    t.resize(2, 2);
    t(1, 1) = 40;
    CHECK(buf[3] == 40);
    CHECK(t.data() == buf);
    CHECK_THROWS_AS(t.resize(2, 3), ShapeError);
    CHECK(t.sizes() == Shape{2, 2});
    CHECK(t.strides() == Shape{2, 1});
    CHECK(buf[4] == 5);
}

// ---------------------------------------------------------------------------------
// 4. element access
// ---------------------------------------------------------------------------------

TEST_CASE("writes: element access on an empty tensor throws") {
    FloatTensor e;
    const std::string msg = message_of<IndexError>([&] { (void)e(); });
    CHECK_MESSAGE(contains(msg, "index"), msg);
    CHECK_MESSAGE(contains(msg, "empty"), msg);
    const FloatTensor ce;
    CHECK_THROWS_AS((void)ce(), IndexError);
    CHECK_THROWS_AS((void)e(0), IndexError);
    CHECK(e.dim() == 0);
}

TEST_CASE("writes: x[i] with a negative i out of range names the index given") {
    DoubleTensor x = seq({2, 3});
    const std::string msg = message_of<IndexError>([&] { (void)x[-3]; });
    CHECK_MESSAGE(contains(msg, "index -3 "), msg);
    CHECK_MESSAGE(contains(msg, "size 2"), msg);
    CHECK(values(x[-2]) == Values{1, 2, 3});
    CHECK(values(x[-1]) == Values{4, 5, 6});
    CHECK_MESSAGE(contains(message_of<IndexError>([&] { (void)x[2]; }), "index 2 "), "x[2]");
}
