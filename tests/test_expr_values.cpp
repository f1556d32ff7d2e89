// Expressions as values: their shape queries and printing, and what an
// expression holds of its operands (a handle of each, temporaries included).
#include "test_util.hpp"

#include <sstream>

using namespace t7;

namespace {

FloatTensor iota(Shape s) {
    FloatTensor t(s);
    float v = 1;
    t.apply([&](float& x) { x = v++; });
    return t;
}

} // namespace

TEST_CASE("an expression answers dim, size, sizes and nElement of its broadcast shape") {
    FloatTensor a(2, 3), b(3), c(4, 1, 1);
    auto e = a + b;
    CHECK(e.dim() == 2);
    CHECK(e.size(0) == 2);
    CHECK(e.size(1) == 3);
    CHECK(e.size(-1) == 3);
    CHECK(e.size(-2) == 2);
    CHECK(e.sizes() == Shape{2, 3});
    CHECK(e.nElement() == 6);

    auto f = t7::sin(a) * c; // 4x1x1 with 2x3 -> 4x2x3
    CHECK(f.dim() == 3);
    CHECK(f.sizes() == Shape{4, 2, 3});
    CHECK(f.nElement() == 24);
    CHECK((a > 0).sizes() == Shape{2, 3}); // comparisons too
    CHECK((2.0f * b).nElement() == 3);     // and scalars

    // The answers match the evaluated tensor's.
    a.fill(1);
    b.fill(2);
    c.fill(3);
    FloatTensor r = f;
    CHECK(r.sizes() == f.sizes());
    CHECK(r.nElement() == f.nElement());
}

TEST_CASE("an expression's size out of range and unbroadcastable shapes throw") {
    FloatTensor a(2, 3), b(4);
    auto e = a * 2;
    CHECK_THROWS_AS(e.size(2), IndexError);
    CHECK_THROWS_AS(e.size(-3), IndexError);
    auto bad = a + b;
    CHECK_THROWS_AS(bad.sizes(), ShapeError);
    CHECK_THROWS_AS(bad.dim(), ShapeError);
    CHECK_THROWS_AS(bad.nElement(), ShapeError);
    CHECK_THROWS_AS(bad.size(0), ShapeError);
}

TEST_CASE("an expression over empty tensors has no dimensions and no elements") {
    FloatTensor a, b;
    auto e = a + b;
    CHECK(e.dim() == 0);
    CHECK(e.nElement() == 0);
    CHECK_THROWS_AS(e.size(0), IndexError);
}

TEST_CASE("printing an expression prints its value as Torch7 prints the tensor") {
    FloatTensor a = iota({2, 3});
    FloatTensor b(3);
    b.fill(10);
    std::ostringstream expr_out, tensor_out;
    expr_out << a + b;
    FloatTensor value = a + b;
    tensor_out << value;
    CHECK(expr_out.str() == tensor_out.str());
    CHECK(expr_out.str() == " 11  12  13\n 14  15  16\n[torch.FloatTensor of size 2x3]\n");

    std::ostringstream cmp;
    cmp << (a > 3.0f); // a ByteTensor's value
    CHECK(cmp.str() == " 0  0  0\n 1  1  1\n[torch.ByteTensor of size 2x3]\n");
}

TEST_CASE("an expression shares its tensors' storage and keeps temporaries alive") {
    FloatTensor a = iota({2, 2}), b = iota({2, 2});

    // The storage is read when the expression is evaluated: later writes show.
    auto e = a + b;
    a.fill(0);
    FloatTensor r = e;
    CHECK(r(0, 0) == 1);
    CHECK(r(1, 1) == 4);

    // A temporary view lives as long as the expression (ASan checks this one).
    auto t = a.t() + b * 0; // a.t() is a temporary tensor handle
    a(0, 1) = 5;
    FloatTensor tr = t;
    CHECK(tr(1, 0) == 5); // a.t() shares a's storage
    CHECK(tr(0, 1) == 0);

    // Every function forwards its operands the same way.
    auto w = t7::where(a > 1.0f, iota({2, 2}).t(), 0.0f);
    auto m = t7::map([](float x, float y) { return x - y; }, iota({2, 2}), b);
    auto cl = t7::clamp(iota({2, 2}), 2.0f, iota({2, 2}) * 0 + 3);
    FloatTensor wr = w, mr = m, cr = cl;
    CHECK(wr(0, 1) == 3); // only a(0, 1) = 5 is > 1: iota().t()(0, 1) = 3
    CHECK(wr(0, 0) == 0);
    CHECK(wr(1, 1) == 0);
    CHECK(mr(1, 1) == 0);
    CHECK(cr(0, 0) == 2);
    CHECK(cr(1, 1) == 3);
}
