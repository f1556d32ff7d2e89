// A short tour of tensor7: creating tensors, views that share storage, lazy
// expressions fused on assignment, broadcasting and printing.
//
//   meson setup build && meson compile -C build && build/examples/tour
#include <t7/t7.hpp>

#include <iostream>

static void section(const char* title) { std::cout << "\n== " << title << " ==\n"; }

int main() {
    using t7::FloatTensor;

    section("Creating tensors");
    FloatTensor a(2, 3); // 2x3, contiguous, uninitialised: sizes, never values
    a.fill(1.5f);
    std::cout << "a.fill(1.5):\n" << a;

    FloatTensor b(2, 3);
    float next = 0;
    b.apply([&] { return next++; }); // visits elements in layout order: 0 1 2 / 3 4 5
    std::cout << "b.apply(counter):\n" << b;
    std::cout << "b.dim() = " << b.dim() << ", b.size(1) = " << b.size(1)
              << ", b.nElement() = " << b.nElement() << ", b.type() = " << b.type() << "\n";

    section("Views share storage");
    FloatTensor m(3, 4);
    m.zero();
    FloatTensor row = m.select(0, 1); // row 1: a view, no copy
    row.fill(7);                      // ... so writing through it writes into m
    m.narrow(1, 2, 2) = 5;            // columns 2..3 of every row
    m(t7::all, 0) = -1;               // column 0, Python-style indexing
    std::cout << "m after writing through select / narrow / m(t7::all, 0):\n" << m;

    FloatTensor mt = m.t(); // transpose: strides swapped, same storage
    mt(3, 2) = 42;          // is m(2, 3)
    std::cout << "m.t() is " << mt.size(0) << "x" << mt.size(1)
              << ", contiguous: " << std::boolalpha << mt.isContiguous()
              << "; after mt(3, 2) = 42, m(2, 3) = " << m(2, 3) << "\n";

    section("Expressions are fused on assignment");
    FloatTensor x(2, 3), y(2, 3), c(2, 3);
    x.fill(2);
    c.fill(0.5f);
    auto e = x * b + t7::sin(c); // builds an expression tree: nothing computed yet
    y = e;                       // one loop writes x*b + sin(c) into y's memory
    std::cout << "y = x * b + t7::sin(c):\n" << y;

    y += 1; // in place, fused too
    std::cout << "y += 1:\n" << y;

    // Reductions consume an expression in the same single pass.
    std::cout << "t7::sum(x * b) = " << t7::sum(x * b) << ", t7::max(y) = " << t7::max(y)
              << ", t7::mean(b) = " << t7::mean(b) << "\n";

    m.narrow(0, 0, 2).narrow(1, 0, 3) = x * 10; // an expression written into a view of m
    std::cout << "m after m.narrow(0, 0, 2).narrow(1, 0, 3) = x * 10:\n" << m;

    section("Broadcasting");
    FloatTensor col(2, 1), rowv(3);
    col(0, 0) = 100;
    col(1, 0) = 200;
    rowv.apply([&, i = 0]() mutable { return float(++i); }); // 1 2 3
    FloatTensor table;
    table = col + rowv; // 2x1 and 3 broadcast to 2x3; an empty tensor takes the result's shape
    std::cout << "col (2x1) + rowv (3):\n" << table;

    section("Printing");
    FloatTensor big(2, 2);
    big(0, 0) = 150000.5f;
    big(0, 1) = 250000;
    big(1, 0) = 30000.25f;
    big(1, 1) = -100000;
    std::cout << "a common scale factor is printed once:\n" << big;
    t7::DoubleTensor cube(2, 2, 2);
    double v = 0;
    cube.apply([&] { return v += 0.5; });
    std::cout << "a 3-D tensor prints one slice at a time:\n" << cube;
    return 0;
}
