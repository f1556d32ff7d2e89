// Assigning into an existing tensor performs no heap allocation: the loop plan,
// operand tables and bound trees all live on the stack. Counted with a
// replaced global operator new.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocs{0};
}

void* operator new(std::size_t n) {
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

template <class F>
long allocations(F&& f) {
    long before = g_allocs.load();
    f();
    return g_allocs.load() - before;
}

TEST_CASE("no heap allocation per assignment into an existing tensor") {
    t7::setNumThreads(1);
    t7::FloatTensor a(64, 33), b(64, 33), c(1, 33), y(64, 33), col(64, 1);
    a = 1.f;
    b = 2.f;
    c = 3.f;
    col = 0.5f;
    CHECK(allocations([&] { y = a * b + t7::sin(c); }) == 0);
    CHECK(allocations([&] { y = a.t().t() * 2.f - b / (a + 1.f); }) == 0);
    CHECK(allocations([&] { y.narrow(0, 1, 10) = a.narrow(0, 2, 10) * col.narrow(0, 0, 10); }) ==
          0);
    CHECK(allocations([&] { y += a; }) == 0);
    CHECK(allocations([&] { y = 7.f; }) == 0);
    CHECK(allocations([&] { y.copy(b); }) == 0);
    t7::FloatTensor sq(40, 40), sq2(40, 40);
    sq2 = 1.f;
    CHECK(allocations([&] { sq = sq2.t() + sq2; }) == 0);   // tiled path
    CHECK(allocations([&] { (void)t7::sum(a * b); }) <= 1); // one small partials array
    CHECK(y(3, 4) == doctest::Approx(2.f));
    // Sanity: the counter does count.
    CHECK(allocations([&] { t7::FloatTensor t(10); }) > 0);
}
