// A program using an installed tensor7 (tests/installed/run.sh builds it three
// ways: g++ with pkg-config, CMake's find_package(tensor7), CMake's
// pkg_check_modules). It computes a broadcast expression, a reduction and a
// threaded sum, prints a tensor, limits the host allocator's cache, and exits
// non-zero on any wrong value.
#include <t7/tensor.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

static int bad = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("MISMATCH: %s\n", what);
        ++bad;
    }
}

int main() {
    t7::setNumThreads(2);

    // y = a * b + sqrt(a), b broadcast over the rows; y starts empty and takes the shape.
    t7::DoubleTensor a(3, 4), b(4), y;
    double v = 0;
    a.apply([&] { return v += 1; }); // 1 .. 12
    int k = 0;
    b.apply([&] { return 0.5 * ++k; }); // 0.5 1 1.5 2
    y = a * b + t7::sqrt(a);
    check(y.dim() == 2 && y.size(0) == 3 && y.size(1) == 4, "y has shape 3x4");
    double want_sum = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
            double x = 4 * i + j + 1, want = x * 0.5 * (j + 1) + std::sqrt(x);
            want_sum += want;
            check(std::abs(y(i, j) - want) < 1e-12, "y(i, j) = a(i, j) * b(j) + sqrt(a(i, j))");
        }
    check(std::abs(t7::sum(y) - want_sum) < 1e-9, "sum(y)");

    // A fused reduction large enough to run on the threads: 2 * (0 + 1 + ... + n-1).
    const int64_t n = int64_t(1) << 20;
    t7::FloatTensor x(n);
    float next = 0;
    x.apply([&] { return next++; });
    check(t7::sum(x * 2) == double(n) * double(n - 1), "sum(x * 2) over 2^20 floats");

    // Printing, as Torch7 prints.
    std::ostringstream out;
    out << y;
    check(out.str().find("[torch.DoubleTensor of size 3x4]") != std::string::npos,
          "printing names the type and size");

    // The host allocator's cache: at most its limit is kept after a free.
    auto& host = t7::HostAllocator::instance();
    host.set_cache_limit(size_t(1) << 20);
    { t7::FloatTensor big(1 << 21); } // 8 MiB: over the limit, back to the system
    check(host.cached_bytes() <= (size_t(1) << 20), "cache within its 1 MiB limit");
    host.trim();
    check(host.cached_bytes() == 0, "trim() empties the cache");

#if defined(_OPENMP)
    std::printf("installed consumer: OpenMP yes, %d threads\n", t7::getNumThreads());
#else
    std::printf("installed consumer: OpenMP no\n");
#endif
    std::fputs(out.str().c_str(), stdout);
    if (bad) return 1;
    std::printf("installed consumer: all values correct\n");
    return 0;
}
