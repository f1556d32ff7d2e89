// Assigning into an existing tensor performs no heap allocation: the loop plan,
// operand tables and bound trees all live on the stack. Counted with a
// replaced global operator new.
#include "alloc_counter.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

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
    CHECK(allocations([&] { (void)t7::sum(a * b); }) == 0); // below the grain: no partials
    t7::FloatTensor big(40000);
    big = 1.f;
    CHECK(allocations([&] { (void)t7::sum(big * 2.f); }) <= 1); // one small partials array
    CHECK(y(3, 4) == doctest::Approx(2.f));
    // Reductions into an existing result: nothing after the first call (which
    // may size the calling thread's scratch accumulator).
    t7::FloatTensor rows(64, 1), cols(1, 33);
    t7::LongTensor where(64, 1);
    auto reductions = [&] {
        t7::sum(rows, a * b, 1);
        t7::sum(cols, a, 0);
        t7::max(rows, where, a - b, 1);
        t7::mean(rows, a, 1);
        t7::var(cols, a, 0);
        t7::cumsum(y, a, 1);
    };
    reductions();
    CHECK(allocations(reductions) == 0);
    CHECK(rows(5, 0) == doctest::Approx(1.f)); // mean of ones
    // Sanity: the counter does count.
    CHECK(allocations([&] { t7::FloatTensor t(10); }) > 0);
}

TEST_CASE("a repeated FFT of one size allocates nothing after the first (issue 42)") {
    // its plan (Bluestein's too, at 1009 points), scratch lines and result are kept
    for (int64_t n : {1024, 1000, 1009}) {
        INFO("n = ", n);
        t7::DoubleTensor x(n);
        x = 0.5;
        t7::ComplexDoubleTensor out;
        t7::DoubleTensor back;
        t7::fft(out, x); // plans, buffers and out made here (each direction's)
        t7::ifft(out, out);
        t7::irfft(back, t7::ComplexDoubleTensor(out.narrow(0, 0, n / 2 + 1)), n);
        CHECK(allocations([&] { t7::fft(out, x); }) == 0);
        CHECK(allocations([&] { t7::ifft(out, out); }) == 0); // in place
        t7::ComplexDoubleTensor half = out.narrow(0, 0, n / 2 + 1);
        CHECK(allocations([&] { t7::irfft(back, half, n); }) == 0);
    }
}
