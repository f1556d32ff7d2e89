// Shared machinery of the indexed operations (index, gather/scatter, masked
// operations, nonzero, sort and friends): argument checks whose messages name
// the operation, the offending value and its position, and the indexed loop.
//
// Nothing here is a second iteration scheme: every walk is a plan of the shared
// iteration core (iter::make_loop + iter::for_each_run), split over threads by
// iter::parallel_for. An index tensor simply becomes one more operand of the
// loop, with stride 0 along the dimensions it does not vary in.
//
// These are the CPU implementations; the argument checks shared with the GPU
// backend are in checks.hpp, the CUDA implementations in cuda/index_ops.hpp.
#pragma once

#include "../eval/assign.hpp"
#include "../eval/cpu/evaluator.hpp"
#include "../iter/loop.hpp"
#include "../iter/parallel.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "checks.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

namespace t7::detail {

// Are x[0], x[sx], ... x[(m - 1) sx] all in [0, limit)? One OR-reduction that
// vectorises: v | (limit - 1 - v) has its sign bit set iff v < 0 or v >= limit.
inline bool in_range(const int64_t* x, int64_t m, int64_t sx, int64_t limit) {
    const uint64_t top = uint64_t(limit - 1);
    uint64_t acc = 0;
    if (sx == 1) {
        for (int64_t i = 0; i < m; ++i) acc |= uint64_t(x[i]) | (top - uint64_t(x[i]));
    } else {
        for (int64_t i = 0; i < m; ++i) acc |= uint64_t(x[i * sx]) | (top - uint64_t(x[i * sx]));
    }
    return (acc >> 63) == 0;
}

// Every index in [0, n): otherwise an IndexError naming the first offending
// value (in layout order), its position in the index tensor and the dimension.
// A parallel, vectorised test over the index (walked with the iteration core);
// only when it fails, a layout-order scan for the first offender.
template <class D>
void check_range(const char* op, const Tensor<int64_t, D>& idx, int64_t n, int64_t dim) {
    if (idx.dim() == 0) return;
    const std::array<const Shape*, 1> st{&idx.strides()};
    const int64_t* p = idx.data();
    {
        const iter::Loop<1> L = iter::make_loop<1>(idx.sizes(), st);
        const int64_t s = L.inner_stride(0);
        std::atomic<bool> ok{true};
        iter::parallel_for(L.numel, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t) {
            bool good = true;
            iter::for_each_run(L, b, e, [&](const std::array<int64_t, 1>& off, int64_t m) {
                good = good && in_range(p + off[0], m, s, n);
            });
            if (!good) ok.store(false, std::memory_order_relaxed);
        });
        if (ok.load()) return;
    }
    const iter::Loop<1> L = iter::make_loop<1>(idx.sizes(), st, false);
    const int64_t s = L.inner_stride(0);
    int64_t pos = 0, bad_pos = -1, bad_value = 0;
    iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, 1>& off, int64_t m) {
        if (bad_pos >= 0) return;
        const int64_t* q = p + off[0];
        for (int64_t i = 0; i < m; ++i) {
            if (uint64_t(q[i * s]) >= uint64_t(n)) {
                bad_pos = pos + i;
                bad_value = q[i * s];
                return;
            }
        }
        pos += m;
    });
    fail_index_range(op, bad_value, bad_pos, idx.sizes(), dim, n);
}

// ---- the indexed loop -----------------------------------------------------------
// Walks `shape` with three operands: a (written), b (read) and the index x, each
// given by its element strides at `shape`. Along the indexed dimension, the
// operand that is addressed *through* the index has stride 0 there, and the
// kernel adds index * step itself. run(oa, ob, ox, n, sa, sb, sx) gets the
// element offsets of a run's first element and the inner strides.
template <class Run>
void indexed_loop(const Shape& shape, const Shape& sa, const Shape& sb, const Shape& sx,
                  bool parallel, Run&& run) {
    const std::array<const Shape*, 3> st{&sa, &sb, &sx};
    const iter::Loop<3> L = iter::make_loop<3>(shape, st);
    const int64_t ia = L.inner_stride(0), ib = L.inner_stride(1), ix = L.inner_stride(2);
    auto walk = [&](int64_t begin, int64_t end) {
        iter::for_each_run(L, begin, end, [&](const std::array<int64_t, 3>& off, int64_t n) {
            run(off[0], off[1], off[2], n, ia, ib, ix);
        });
    };
    if (parallel)
        iter::parallel_for(L.numel, iter::parallel_grain,
                           [&](int64_t b, int64_t e, int64_t) { walk(b, e); });
    else
        walk(0, L.numel);
}

// Keeps a loaded index opaque to the vectoriser, so that a gather loop makes
// scalar loads: hardware gathers (vgather*) are slower than scalar loads on
// many x86 cores (gather along dim 1 on this project's AMD EPYC: 0.74-0.88x of
// a hand-written loop with them, 0.95-0.98x without), and scalar loads are what
// a hand-written loop gets.
#if defined(__GNUC__)
#define T7_SCALAR_INDEX(v) asm("" : "+r"(v))
#else
#define T7_SCALAR_INDEX(v) (void)(v)
#endif

// One run of a gather: a[i] = b[i * sb + x[i] * step], in blocks whose indices
// are checked (a vectorised test) before they are used, unless `checked` says
// the caller has validated them all. Returns false, having written only whole
// checked blocks, on an index outside [0, limit).
template <class T>
bool gather_run(T* T7_RESTRICT a, const T* T7_RESTRICT b, const int64_t* T7_RESTRICT x, int64_t n,
                int64_t sa, int64_t sb, int64_t sx, int64_t step, int64_t limit, bool checked) {
    if (sx == 0) { // one index for the whole run: a strided copy
        const int64_t v = x[0];
        if (uint64_t(v) >= uint64_t(limit)) return false;
        const T* src = b + v * step;
        if (sa == 1 && sb == 1) {
            std::copy(src, src + n, a);
        } else {
            for (int64_t i = 0; i < n; ++i) a[i * sa] = src[i * sb];
        }
        return true;
    }
    constexpr int64_t block = 2048;
    for (int64_t i0 = 0; i0 < n; i0 += block) {
        const int64_t m = std::min(block, n - i0);
        const int64_t* xb = x + i0 * sx;
        if (!checked && !in_range(xb, m, sx, limit)) return false;
        T* ab = a + i0 * sa;
        const T* bb = b + i0 * sb;
        if (sa == 1 && sx == 1 && sb == 0) { // along the inner dimension: a row gather
            if (step == 1) {
                for (int64_t i = 0; i < m; ++i) {
                    int64_t v = xb[i];
                    T7_SCALAR_INDEX(v);
                    ab[i] = bb[v];
                }
            } else {
                for (int64_t i = 0; i < m; ++i) {
                    int64_t v = xb[i];
                    T7_SCALAR_INDEX(v);
                    ab[i] = bb[v * step];
                }
            }
        } else if (sa == 1 && sx == 1 && sb == 1) { // across rows (gather along dim 0)
            for (int64_t i = 0; i < m; ++i) ab[i] = bb[i + xb[i] * step];
        } else {
            for (int64_t i = 0; i < m; ++i) ab[i * sa] = bb[i * sb + xb[i * sx] * step];
        }
    }
    return true;
}

// Gathers src into out: out[p] = src[p with coordinate `dim` replaced by idx[p]],
// over `shape` (= out's shape). src_st are src's strides at `shape` with 0 at
// `dim`; idx_st the index's strides at `shape`. With `checked` false, indices
// are checked on the fly and on a bad one the index is walked again to throw
// with its position (out, a fresh tensor, then holds partial results); with
// `checked` true the caller has run check_range.
template <class T, class D>
void gather_into(const char* op, const Tensor<T, D>& out, const T* src, const Shape& src_st,
                 int64_t step, const Tensor<int64_t, D>& idx, const Shape& idx_st, int64_t dim,
                 int64_t limit, bool checked) {
    std::atomic<bool> bad{false};
    T* a = out.data();
    const int64_t* x = idx.data();
    indexed_loop(
        out.sizes(), out.strides(), src_st, idx_st, true,
        [&](int64_t oa, int64_t ob, int64_t ox, int64_t n, int64_t sa, int64_t sb, int64_t sx) {
            if (!gather_run(a + oa, src + ob, x + ox, n, sa, sb, sx, step, limit, checked))
                bad.store(true, std::memory_order_relaxed);
        });
    if (bad.load()) check_range(op, idx, limit, dim);
}

// The scatter direction (a written through the index): a[i * sa + x[i] * step] op= ...
// Always serial, so that duplicate indices behave as in Torch7 (the last write
// wins, additions accumulate) and deterministically. Indices are pre-validated.
enum class ScatterKind { copy, add, fill };

template <ScatterKind K, class T, class D>
void scatter_into(const Tensor<T, D>& dst, const Shape& dst_st, int64_t step, const T* src,
                  const Shape& src_st, const Tensor<int64_t, D>& idx, const Shape& idx_st,
                  const Shape& shape, T value) {
    T* a = dst.data();
    const int64_t* x = idx.data();
    indexed_loop(
        shape, dst_st, src_st, idx_st, false,
        [&](int64_t oa, int64_t ob, int64_t ox, int64_t n, int64_t sa, int64_t sb, int64_t sx) {
            T* ap = a + oa;
            const int64_t* xp = x + ox;
            for (int64_t i = 0; i < n; ++i) {
                T& t = ap[i * sa + xp[i * sx] * step];
                if constexpr (K == ScatterKind::copy) {
                    t = src[ob + i * sb];
                } else if constexpr (K == ScatterKind::add) {
                    t = convert<T>(
                        op::add{}(compute_t<T>(t), compute_t<T>(src[ob + i * sb]))); // wraps
                } else {
                    t = value;
                }
            }
        });
}

} // namespace t7::detail
