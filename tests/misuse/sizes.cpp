// Misuse: sizes that overflow int64, allocations that cannot succeed, empty
// tensors, views with extreme arguments. Each throws its t7::Error subclass
// before anything changes (or gives the documented answer).
#include "../test_util.hpp"

#include <cstdint>
#include <limits>
#include <sstream>

using namespace test_util;
using t7::FloatTensor;
using t7::LongTensor;

namespace {

constexpr int64_t max64 = std::numeric_limits<int64_t>::max();
constexpr int64_t p62 = int64_t(1) << 62;
// 2^48 floats are 1 PiB: more than a 47-bit user address space can map, so the
// allocation fails whatever the machine's overcommit policy.
constexpr int64_t unmappable = int64_t(1) << 48;

FloatTensor seq_tensor(int64_t n) {
    FloatTensor x(n);
    for (int64_t i = 0; i < n; ++i) x.data()[i] = float(i + 1);
    return x;
}

// The tensor still describes the same memory, sizes and strides as `before`.
void check_unchanged(const FloatTensor& x, const FloatTensor& before, const Values& values) {
    CHECK(x.isSetTo(before));
    CHECK(x.storage().size() == before.storage().size());
    CHECK(test_util::values(x) == values);
}

} // namespace

TEST_CASE("constructors and factories refuse element counts int64 cannot hold") {
    CHECK_THROWS_OP(FloatTensor(3, 6148914691236517206), t7::ShapeError, "Tensor");
    CHECK_THROWS_OP(FloatTensor(int64_t(1) << 32, int64_t(1) << 32), t7::ShapeError, "Tensor");
    CHECK_THROWS_OP(t7::zeros<float>(int64_t(1) << 33, int64_t(1) << 31), t7::ShapeError, "Tensor");
    CHECK_THROWS_OP(t7::ones<double>(p62, 2, 2), t7::ShapeError, "Tensor");
    CHECK_THROWS_OP(t7::eye<float>(int64_t(1) << 32), t7::ShapeError, "Tensor");
    // Strides whose reach overflows, given or computed.
    CHECK_THROWS_OP(FloatTensor({2, 2}, {max64, 1}), t7::ShapeError, "Tensor");
    CHECK_THROWS_OP(FloatTensor({p62, 4}, {-1, 1}), t7::ShapeError, "Tensor");
    // The message names the sizes.
    const std::string m = message_of<t7::ShapeError>([] { FloatTensor(3, 6148914691236517206); });
    CHECK(m.find("3x6148914691236517206") != std::string::npos);
}

TEST_CASE("allocations that cannot succeed throw MemoryError") {
    CHECK_THROWS_AS((void)FloatTensor(unmappable), t7::MemoryError);
    CHECK_THROWS_AS((void)t7::Storage<double>(unmappable), t7::MemoryError);
    CHECK_THROWS_AS((void)t7::Storage<double>(p62), t7::MemoryError);   // over 2^62 bytes
    CHECK_THROWS_AS(t7::eye<float>(int64_t(1) << 31), t7::MemoryError); // 2^62 elements
    CHECK_THROWS_AS(t7::linspace<float>(0, 1, p62), t7::MemoryError);
    // MemoryError is a t7::Error, so `catch (const t7::Error&)` sees it.
    CHECK_THROWS_AS((void)FloatTensor(unmappable), t7::Error);
    CHECK_THROWS_OP((void)t7::Storage<float>(-1), t7::ShapeError, "negative");
}

TEST_CASE("a failed resize leaves the tensor as it was") {
    FloatTensor x = seq_tensor(3);
    const FloatTensor before = x;
    CHECK_THROWS_AS(x.resize(unmappable), t7::MemoryError);
    check_unchanged(x, before, {1, 2, 3});
    CHECK_THROWS_AS(x.resize(p62, 4), t7::ShapeError);
    check_unchanged(x, before, {1, 2, 3});
    CHECK_THROWS_AS(x.resize(2, -1), t7::ShapeError);
    check_unchanged(x, before, {1, 2, 3});
    x.fill(0); // writes the 3 elements it owns, nothing else
    CHECK(values(x) == Values{0, 0, 0});
    // A view far into its storage: offset + extent overflows.
    FloatTensor big(10);
    FloatTensor tail = big.narrow(0, 9, 1);
    const FloatTensor tail_before = tail;
    CHECK_THROWS_AS(tail.resize(max64), t7::ShapeError);
    CHECK(tail.isSetTo(tail_before));
}

TEST_CASE("views with extreme arguments") {
    FloatTensor x = seq_tensor(12).view(3, 4);
    CHECK_THROWS_OP(x.narrow(1, 1, max64), t7::IndexError, "narrow");
    CHECK_THROWS_OP(x.narrow(1, max64, 1), t7::IndexError, "narrow");
    CHECK_THROWS_OP(x.view(-1, p62 + 1, 4), t7::ShapeError, "view");
    CHECK_THROWS_OP(x.view(p62, 4), t7::ShapeError, "view");
    CHECK_THROWS_OP(x.repeatTensor(p62 + 1), t7::ShapeError, "repeatTensor");
    CHECK_THROWS_OP(x.repeatTensor(p62, 1), t7::ShapeError, "repeatTensor");
    CHECK_THROWS_OP(t7::ones<float>(1, 1).expand(p62, 4), t7::ShapeError, "expand");
    CHECK_THROWS_OP(x.unfold(1, max64, 1), t7::IndexError, "unfold");
    CHECK_THROWS_OP(x.sub(0, max64), t7::IndexError, "sub");

    // A slice with a huge step keeps its first element.
    FloatTensor s = x(t7::all, t7::slice(1, 4, max64));
    CHECK(s.sizes() == Shape{3, 1});
    CHECK(values(s) == Values{2, 6, 10});
    CHECK(s.storage() == x.storage());

    // chunk(INT64_MAX): one element per chunk.
    auto parts = seq_tensor(5).chunk(max64);
    REQUIRE(parts.size() == 5);
    for (size_t i = 0; i < parts.size(); ++i) CHECK(values(parts[i]) == Values{double(i + 1)});
    auto halves = seq_tensor(5).split(max64 - 1);
    REQUIRE(halves.size() == 1);
    CHECK(halves[0].size(0) == 5);
}

TEST_CASE("set checks offsets and reach against the storage") {
    t7::Storage<float> st(10);
    FloatTensor x = seq_tensor(3);
    const FloatTensor before = x;
    CHECK_THROWS_OP(x.set(st, 0, {3}, {p62}), t7::ShapeError, "set");
    check_unchanged(x, before, {1, 2, 3});
    CHECK_THROWS_OP(x.set(st, 12), t7::IndexError, "set");
    check_unchanged(x, before, {1, 2, 3});
    CHECK_THROWS_OP(x.set(st, max64, {1}), t7::IndexError, "set");
    check_unchanged(x, before, {1, 2, 3});
    CHECK_THROWS_OP(x.set(st, 5, {6}), t7::IndexError, "set");
    check_unchanged(x, before, {1, 2, 3});
    // The whole rest of the storage, and an empty view at its end, are fine.
    x.set(st, 4);
    CHECK(x.sizes() == Shape{6});
    x.set(st, 10);
    CHECK(x.dim() == 0);
}

TEST_CASE("expressions: empty operands and broadcast shapes that overflow") {
    FloatTensor y = seq_tensor(3);
    const FloatTensor y_before = y;
    FloatTensor empty;
    CHECK_THROWS_OP(y = empty + seq_tensor(3), t7::ShapeError, "empty");
    check_unchanged(y, y_before, {1, 2, 3});
    FloatTensor fresh;
    CHECK_THROWS_OP(fresh = empty + seq_tensor(3), t7::ShapeError, "empty");
    CHECK(fresh.dim() == 0);
    CHECK_THROWS_OP(t7::sum(seq_tensor(3) * empty), t7::ShapeError, "empty");
    // Two empty operands still make an empty result.
    fresh = empty + empty;
    CHECK(fresh.dim() == 0);

    // (2^32 x 1) + (1 x 2^32): 2^64 elements, from two 1-element storages.
    const FloatTensor col = t7::ones<float>(1, 1).expand(int64_t(1) << 32, 1);
    const FloatTensor row = t7::ones<float>(1, 1).expand(1, int64_t(1) << 32);
    FloatTensor out;
    CHECK_THROWS_AS(out = col + row, t7::ShapeError);
    CHECK(out.dim() == 0);
    CHECK_THROWS_AS(t7::sum(col * row), t7::ShapeError);
}

TEST_CASE("random and statistics with sizes that cannot exist") {
    FloatTensor p = seq_tensor(4);
    CHECK_THROWS_AS(t7::multinomial(p, unmappable, true), t7::MemoryError);
    CHECK_THROWS_AS(t7::multinomial(p, p62, true), t7::Error);
    CHECK_THROWS_AS(t7::multinomial(p, max64, true), t7::Error);
    CHECK_THROWS_AS(t7::histc(p, unmappable), t7::MemoryError);
    CHECK_THROWS_AS(t7::histc(p, max64), t7::MemoryError);
    // The generator's state did not move: the next draw equals a fresh seed's.
    t7::manualSeed(7);
    CHECK_THROWS_AS(t7::multinomial(p, p62, true), t7::Error);
    LongTensor a = t7::multinomial(p, 5, true);
    t7::manualSeed(7);
    LongTensor b = t7::multinomial(p, 5, true);
    CHECK(values(a) == values(b));
}

// Under AddressSanitizer too: the text's size is refused before operator new
// (whose failure aborts there) is asked (issue 34).
TEST_CASE("printing a tensor too large to format throws MemoryError") {
    const FloatTensor huge = t7::ones<float>(1).expand(int64_t(1000000) * 1000000);
    std::ostringstream os;
    CHECK_THROWS_AS(os << huge, t7::MemoryError);
}

TEST_CASE("linear algebra: wrong ranks and sizes") {
    FloatTensor a = t7::ones<float>(2, 3), b = t7::ones<float>(4, 2);
    CHECK_THROWS_AS(t7::mm(a, b), t7::ShapeError);
    CHECK_THROWS_AS(t7::mm(a, seq_tensor(3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::mv(a, seq_tensor(2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::bmm(a, b), t7::ShapeError);
    FloatTensor c = seq_tensor(4).view(2, 2);
    const FloatTensor c_before = c;
    CHECK_THROWS_AS(t7::addmm(c, a, b), t7::ShapeError);
    check_unchanged(c, c_before, {1, 2, 3, 4});
    // Outer products (pending like mm): a result int64 cannot count, wrong ranks, an
    // added M that does not broadcast; the destination keeps its values.
    const FloatTensor huge = t7::ones<float>(1).expand(int64_t(1) << 32);
    CHECK_THROWS_AS(t7::ger(huge, huge), t7::ShapeError);
    CHECK_THROWS_AS(t7::addr(c, huge, huge), t7::ShapeError);
    CHECK_THROWS_AS(t7::ger(a, seq_tensor(2)), t7::ShapeError);
    CHECK_THROWS_AS(c = t7::addr(c, seq_tensor(3), seq_tensor(2)), t7::ShapeError);
    check_unchanged(c, c_before, {1, 2, 3, 4});
    c = t7::addr(c, seq_tensor(2), seq_tensor(2)); // c + x y^T, x = y = (1, 2)
    CHECK(test_util::values(c) == Values{2, 4, 5, 8});
}
