// Uses tensor7 from a subproject build: computes an expression through views and
// broadcasting, prints it, and exits non-zero if any value is wrong.
#include <t7/t7.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

int main() {
    t7::DoubleTensor a(2, 3), b(3), y(2, 3);
    double v = 0;
    a.apply([&] { return v += 1; });              // 1 2 3 / 4 5 6
    b.apply([&, i = 0]() mutable { return 0.5 * ++i; }); // 0.5 1 1.5
    y.zero();

    // y = a * b + sin(a), with b broadcast over the rows; then add 10 to column 1
    // through a view that shares y's storage.
    y = a * b + t7::sin(a);
    y(t7::all, 1) = y(t7::all, 1) + 10;

    std::cout << "y = a * b + sin(a), column 1 += 10:\n" << y;

    int bad = 0;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            double x = 3 * i + j + 1;
            double want = x * 0.5 * (j + 1) + std::sin(x) + (j == 1 ? 10 : 0);
            if (std::abs(y(i, j) - want) > 1e-12) {
                std::printf("MISMATCH y(%d, %d) = %.17g, want %.17g\n", i, j, y(i, j), want);
                ++bad;
            }
        }
    if (y.dim() != 2 || y.size(0) != 2 || y.size(1) != 3) {
        std::printf("MISMATCH: y has the wrong shape\n");
        ++bad;
    }
    if (bad) return 1;
    std::printf("consumer: all %d values correct\n", int(y.nElement()));
    return 0;
}
