// The recipe of a pending matrix product (core/pending.hpp): beta c + alpha a b
// as mm, addmm and addr (depth 1) return it on the CPU, or a batch of them
// (bmm, baddbmm). It
// holds handles to its operands (and c broadcast to the result's shape);
// block() computes a block of one matrix of the product with one GEMM on the
// calling thread, fill() the whole product.
#pragma once

#include "../core/pending.hpp"
#include "../tensor/tensor.hpp"

#include <algorithm>
#include <memory>

namespace t7::detail {

template <class T>
struct MatRef;
template <class D>
struct Blas;

template <class T, class D>
class ProductRecipe final : public PendingProducer {
public:
    // a, b: matrices (mm, addmm) or batches of them (bmm, baddbmm, 3-D); c: of
    // the result's shape (broadcast strides allowed), unread when beta is 0.
    ProductRecipe(T beta, Tensor<T, D> c, T alpha, Tensor<T, D> a, Tensor<T, D> b)
        : PendingProducer(a.dim() == 3 ? a.size(0) : 1, a.size(-2), b.size(-1), a.size(-1)),
          beta_(beta), alpha_(alpha), c_(std::move(c)), a_(std::move(a)), b_(std::move(b)) {}

    void fill(void* data) const override {
        const int64_t k = a_.size(-1);
        T* o = static_cast<T*>(data);
        if (a_.dim() == 2)
            return Blas<D>::gemm(alpha_, sub(a_, 0, 0, rows, 0, k), sub(b_, 0, 0, k, 0, cols),
                                 beta_, out(o, 0, 0, rows, 0, cols, cols));
        for (int64_t q = 0; q < batches && beta_ != T(0); ++q)
            out(o + q * rows * cols, q, 0, rows, 0, cols, cols); // c's values first
        Blas<D>::batched_gemm(alpha_, Shape{batches}, sub(a_, 0, 0, rows, 0, k),
                              Shape{a_.stride(0)}, sub(b_, 0, 0, k, 0, cols), Shape{b_.stride(0)},
                              beta_, MatRef<T>{o, rows, cols, cols, 1}, Shape{rows * cols});
    }
    void block(int64_t batch, int64_t r0, int64_t r1, int64_t c0, int64_t c1, void* buf,
               int64_t ld) const override {
        Blas<D>::gemm_here(alpha_, sub(a_, batch, r0, r1, 0, a_.size(-1)),
                           sub(b_, batch, 0, b_.size(-2), c0, c1), beta_,
                           out(buf, batch, r0, r1, c0, c1, ld));
    }
    bool reads(const void* lo, const void* hi) const override {
        return touches(a_, lo, hi) || touches(b_, lo, hi) || (beta_ != T(0) && touches(c_, lo, hi));
    }

private:
    // Where matrix `batch` of t starts (t 2-D: the one matrix).
    static int64_t batch_offset(const Tensor<T, D>& t, int64_t batch) {
        return t.dim() == 3 ? batch * t.stride(0) : 0;
    }
    // Rows [r0, r1) and columns [c0, c1) of matrix `batch` of t (the operands
    // are materialised: data() is free).
    static MatRef<const T> sub(const Tensor<T, D>& t, int64_t batch, int64_t r0, int64_t r1,
                               int64_t c0, int64_t c1) {
        const int64_t rs = t.stride(-2), cs = t.stride(-1);
        return {t.data() + batch_offset(t, batch) + r0 * rs + c0 * cs, r1 - r0, c1 - c0, rs, cs};
    }
    // The destination block, holding c's block first when beta is not 0.
    MatRef<T> out(void* buf, int64_t batch, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                  int64_t ld) const {
        T* o = static_cast<T*>(buf);
        if (beta_ != T(0)) {
            const T* c = c_.data() + batch_offset(c_, batch);
            const int64_t s0 = c_.stride(-2), s1 = c_.stride(-1);
            for (int64_t i = r0; i < r1; ++i) {
                T* row = o + (i - r0) * ld;
                const T* from = c + i * s0 + c0 * s1;
                if (s1 == 1) // rows of c (addr's M, addmm's c): copied, vectorised
                    std::copy(from, from + (c1 - c0), row);
                else if (s1 == 0) // a column broadcast along the row
                    std::fill(row, row + (c1 - c0), *from);
                else
                    for (int64_t j = 0; j < c1 - c0; ++j) row[j] = from[j * s1];
            }
        }
        return {o, r1 - r0, c1 - c0, ld, 1};
    }
    static bool touches(const Tensor<T, D>& t, const void* lo, const void* hi) {
        if (t.nElement() == 0) return false;
        const char* b = reinterpret_cast<const char*>(t.data());
        int64_t last = 0;
        for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
        return b < static_cast<const char*>(hi) &&
               static_cast<const char*>(lo) < b + (last + 1) * int64_t(sizeof(T));
    }

    T beta_, alpha_;
    Tensor<T, D> c_, a_, b_;
};

// The result of beta c + alpha a b (shapes checked; a, b 2-D, or 3-D batches of
// the same count) as a pending tensor, registered with `scope`. c is c broadcast
// to the result's shape (stride 0 where it stretches), or an empty tensor when
// beta is 0.
template <class T, class D>
Tensor<T, D> pending_product(T beta, const Tensor<T, D>& c, T alpha, const Tensor<T, D>& a,
                             const Tensor<T, D>& b, const ProductScope& scope) {
    // Nested pending operands (mm(mm(a, b), c)) are materialised now: the
    // recipe's block() then only reads values, from any thread.
    (void)a.data();
    (void)b.data();
    (void)c.data();
    // An operand whose matrices have no unit stride would be gathered by every
    // block's GEMM: once, now.
    auto plain = [](const Tensor<T, D>& t) {
        const bool ok =
            t.stride(-2) == 1 || t.stride(-1) == 1 || t.size(-2) == 1 || t.size(-1) == 1;
        return ok ? t : t.contiguous();
    };
    Shape shape =
        a.dim() == 3 ? Shape{a.size(0), a.size(1), b.size(2)} : Shape{a.size(0), b.size(1)};
    auto recipe = std::make_unique<ProductRecipe<T, D>>(beta, c, alpha, plain(a), plain(b));
    Tensor<T, D> r(Storage<T, D>::pending(shape.numel(), std::move(recipe)), 0, shape);
    scope.adopt(r.storage().share_block(), &Storage<T, D>::end_scope);
    return r;
}

} // namespace t7::detail
