// Matrix products of expressions: mm, addmm, mv, addmv, addr, bmm, baddbmm,
// addbmm, dot, ger and matmul accept
// any expression or masked selection x[mask] as an operand. Each is evaluated
// once, into a contiguous temporary (detail::materialize, as every function
// that takes a tensor: ops/expression_args.hpp); tensors are used as they are. The products then
// behave as with tensor operands (mm, addmm and bmm: pending until the end of the statement on the
// CPU, see mm in math/blas.hpp).
#pragma once

#include "blas.hpp"

namespace t7 {

template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto mm(const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return mm(detail::materialize(a), detail::materialize(b), scope);
}

template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto addmm(double beta, const C& c, double alpha, const A& a, const B& b,
           const detail::ProductScope& scope = {}) {
    return addmm(beta, detail::materialize(c), alpha, detail::materialize(a),
                 detail::materialize(b), scope);
}
template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto addmm(const C& c, const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return addmm(1.0, c, 1.0, a, b, scope);
}

// bmm's result is pending on the CPU, as mm's; mv computes at the call (its
// result is a vector: no product-sized temporary to save), as with tensors.
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto bmm(const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return bmm(detail::materialize(a), detail::materialize(b), scope);
}
template <ExpressionOrSelection M, ExpressionOrSelection V>
requires detail::NotAllTensors<M, V>
auto mv(const M& m, const V& v) { return mv(detail::materialize(m), detail::materialize(v)); }

template <ExpressionOrSelection Y, ExpressionOrSelection M, ExpressionOrSelection V>
requires detail::NotAllTensors<Y, M, V>
auto addmv(double beta, const Y& y, double alpha, const M& m, const V& v) {
    return addmv(beta, detail::materialize(y), alpha, detail::materialize(m),
                 detail::materialize(v));
}
template <ExpressionOrSelection Y, ExpressionOrSelection M, ExpressionOrSelection V>
requires detail::NotAllTensors<Y, M, V>
auto addmv(const Y& y, const M& m, const V& v) { return addmv(1.0, y, 1.0, m, v); }
template <ExpressionOrSelection M, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<M, A, B>
auto addr(double beta, const M& m, double alpha, const A& a, const B& b,
          const detail::ProductScope& scope = {}) {
    return addr(beta, detail::materialize(m), alpha, detail::materialize(a), detail::materialize(b),
                scope);
}
template <ExpressionOrSelection M, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<M, A, B>
auto addr(const M& m, const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return addr(1.0, m, 1.0, a, b, scope);
}
template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto baddbmm(double beta, const C& c, double alpha, const A& a, const B& b,
             const detail::ProductScope& scope = {}) {
    return baddbmm(beta, detail::materialize(c), alpha, detail::materialize(a),
                   detail::materialize(b), scope);
}
template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto baddbmm(const C& c, const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return baddbmm(1.0, c, 1.0, a, b, scope);
}
template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto addbmm(double beta, const C& c, double alpha, const A& a, const B& b) {
    return addbmm(beta, detail::materialize(c), alpha, detail::materialize(a),
                  detail::materialize(b));
}
template <ExpressionOrSelection C, ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<C, A, B>
auto addbmm(const C& c, const A& a, const B& b) { return addbmm(1.0, c, 1.0, a, b); }

template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto dot(const A& a, const B& b) { return dot(detail::materialize(a), detail::materialize(b)); }
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto ger(const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return ger(detail::materialize(a), detail::materialize(b), scope);
}
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto matmul(const A& a, const B& b) {
    return matmul(detail::materialize(a), detail::materialize(b));
}

} // namespace t7
