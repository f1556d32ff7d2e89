// Masked operations and x[mask]:
//
//   y = x.maskedSelect(mask)     1-D tensor of the elements where mask != 0, in
//                                layout (row-major) order; an empty tensor if none
//   y.maskedSelect(x, mask)      the same into y (resized as Torch7 does)
//   x.maskedCopy(mask, src)      the k-th selected element of x (layout order) gets
//                                src's k-th element; src needs at least that many
//   x.maskedFill(mask, v)        selected elements of x become v
//   x[mask]                      a MaskedRef: reads as maskedSelect (it converts to a
//                                Tensor), `= v` fills, `= t` copies, `+= v` etc. update
//
// A mask is a ByteTensor or any expression of element type uint8 - a comparison
// such as `x < 0` is evaluated inside the masked loop, never materialised:
// `x[x < 0] = 0` makes one pass. As Torch7 documents, mask and tensor need the
// same number of elements but their shapes may differ: elements pair up in each
// one's layout order. Other element types are a TypeError, other counts a
// ShapeError, and the tensor is left unchanged. The members and MaskedRef are
// in members.hpp; these are the CPU implementations.
#pragma once

#include "../io/print.hpp"
#include "common.hpp"
#include "members.hpp"

#include <bit>
#include <cstring>
#include <ostream>
#include <vector>

// The whole <immintrin.h> only where AVX is on (Eigen includes it then anyway);
// SSE2's own header otherwise (immintrin.h is ~60,000 lines to parse).
#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace t7 {

namespace detail {

// Calls body(node) with the mask as an expression node of x's shape: the mask
// itself when it has x's shape (and, if x is written, reads x only where it is
// written), else its values, materialised and viewed in x's shape.
template <class T, class D, class N, class Body>
void dispatch_byte_mask(const Tensor<T, D>& x, const N& node, const Shape& mshape, bool writes_x,
                        Body&& body) {
    if (mshape == x.sizes() && !(writes_x && needs_temporary(x, node))) return body(node);
    Tensor<uint8_t, D> m;
    if constexpr (LeafOf<N, uint8_t, D>) {
        m.set(overlaps(x, node.tensor()) ? node.tensor().clone() : node.tensor().contiguous());
    } else {
        m.set(t7::eval(node));
    }
    m.set(m.view(x.sizes()));
    body(Leaf<uint8_t, D>(m));
}

template <class T, class D, class N, class Body>
void dispatch_mask(const Tensor<T, D>& x, const N& node, const Shape& mshape, bool writes_x,
                   Body&& body) {
    if constexpr (!std::is_same_v<typename N::value_type, uint8_t>) {
        return; // rejected by check_mask (a TypeError) before this is reached
    } else {
        dispatch_byte_mask(x, node, mshape, writes_x, body);
    }
}

// The loop of a masked operation: operand 0 is x, operands 1.. the mask's
// leaves (broadcast to x's shape). `ordered` keeps layout order (select, copy).
template <class N>
struct MaskLoop {
    static constexpr size_t K = size_t(N::leaves) + 1;
    const N* mask;
    cpu::Operands<K> ops;
    iter::Loop<K> L;
    std::array<int64_t, K> inner{};

    template <class T, class D>
    MaskLoop(const Tensor<T, D>& x, const N& m, bool ordered) : mask(&m) {
        ops.base[0] = x.data();
        ops.strides[0] = x.strides();
        ops.elem_size[0] = int(sizeof(T));
        cpu::collect_leaves<1>(m, x.sizes(), ops);
        std::array<const Shape*, K> st;
        for (size_t k = 0; k < K; ++k) st[k] = &ops.strides[k];
        L = iter::make_loop<K>(x.sizes(), st, !ordered);
        for (size_t k = 0; k < K; ++k) inner[k] = L.inner_stride(k);
    }

    // run(x offset of the run's first element, x's inner stride, n, bound mask)
    template <class Run>
    void walk(int64_t begin, int64_t end, Run&& run) const {
        iter::for_each_run(L, begin, end, [&](const std::array<int64_t, K>& off, int64_t n) {
            std::array<const void*, K> ptr{};
            for (size_t k = 1; k < K; ++k)
                ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
            const auto b = cpu::bind<0>(*mask, cpu::RunArgs{ptr.data() + 1, inner.data() + 1});
            run(off[0], inner[0], n, b);
        });
    }

    // Calls f(begin, end, chunk) over the chunks parallel_for makes of the loop.
    template <class F>
    void chunks(bool parallel, F&& f) const {
        if (parallel)
            iter::parallel_for(L.numel, iter::parallel_grain, f);
        else
            f(int64_t(0), L.numel, int64_t(0));
    }
};

template <class B>
constexpr bool is_byte_leaf = std::is_same_v<std::remove_cvref_t<B>, cpu::BoundLeaf<uint8_t>>;

template <class B>
T7_INLINE bool mask_at(const B& b, int64_t i) {
    return cpu::scalar_at(b, i) != 0;
}

// ---- the byte kernels: 64 mask bytes as one word of bits ----------------------------

// Bit i set where p[i] != 0, for the 64 bytes at p.
T7_INLINE uint64_t mask_bits64(const uint8_t* p) {
#if defined(__AVX512BW__)
    const __m512i v = _mm512_loadu_si512(p);
    return _mm512_test_epi8_mask(v, v);
#elif defined(__AVX2__)
    const __m256i z = _mm256_setzero_si256();
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const uint64_t lo = uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, z)));
    const uint64_t hi = uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, z)));
    return ~(lo | hi << 32);
#elif defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    uint64_t zero = 0;
    for (int q = 0; q < 4; ++q) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * q));
        zero |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(a, z)))) << (16 * q);
    }
    return ~zero;
#else
    uint64_t bits = 0;
    for (int i = 0; i < 64; ++i) bits |= uint64_t(p[i] != 0) << i;
    return bits;
#endif
}

// Bits of the first n (< 64) bytes at p.
T7_INLINE uint64_t mask_bits_tail(const uint8_t* p, int64_t n) {
    uint64_t bits = 0;
    for (int64_t i = 0; i < n; ++i) bits |= uint64_t(p[i] != 0) << i;
    return bits;
}

// Non-zero bytes among the n at p.
inline int64_t count_bytes(const uint8_t* p, int64_t n) {
    int64_t c = 0, i = 0;
    for (; i + 64 <= n; i += 64) c += std::popcount(mask_bits64(p + i));
    return c + std::popcount(mask_bits_tail(p + i, n - i));
}

// Appends to o the elements x[i] whose bit i is set (i < 64); returns how many.
// May write up to 16 elements past the last one appended (o needs that room).
template <class T>
T7_INLINE int64_t compact64(const T* x, uint64_t bits, T* o) {
    int64_t c = 0;
#if defined(__AVX512F__)
    if constexpr (sizeof(T) == 8) {
        for (int j = 0; j < 8; ++j) {
            const __mmask8 k = __mmask8(bits >> (8 * j));
            const __m512i v = _mm512_maskz_compress_epi64(k, _mm512_loadu_si512(x + 8 * j));
            _mm512_storeu_si512(o + c, v);
            c += std::popcount(unsigned(k));
        }
        return c;
    } else if constexpr (sizeof(T) == 4) {
        for (int j = 0; j < 4; ++j) {
            const __mmask16 k = __mmask16(bits >> (16 * j));
            const __m512i v = _mm512_maskz_compress_epi32(k, _mm512_loadu_si512(x + 16 * j));
            _mm512_storeu_si512(o + c, v);
            c += std::popcount(unsigned(k));
        }
        return c;
    }
#endif
    for (int i = 0; i < 64; ++i) { // branch-free: a store per element, kept when selected
        o[c] = x[i];
        c += int64_t(bits >> i & 1);
    }
    return c;
}

// The selected elements of contiguous x (n of them, mask bytes m) appended to
// o, which has room for the selected ones plus 16: blocks of 64 with no
// selected element are skipped, blocks of 64 selected ones copied whole.
template <class T>
int64_t compact_bytes(const T* x, const uint8_t* m, int64_t n, T* o) {
    int64_t c = 0, i = 0;
    for (; i + 64 <= n; i += 64) {
        const uint64_t bits = mask_bits64(m + i);
        if (bits == 0) continue;
        if (bits == ~uint64_t(0)) {
            std::memcpy(static_cast<void*>(o + c), x + i, 64 * sizeof(T));
            c += 64;
            continue;
        }
        c += compact64(x + i, bits, o + c);
    }
    for (; i < n; ++i) {
        o[c] = x[i];
        c += m[i] != 0;
    }
    return c;
}

template <class B>
int64_t count_run(const B& b, int64_t n) {
    if constexpr (is_byte_leaf<B>) {
        if (b.s == 1) return count_bytes(b.p, n);
    }
    int64_t c = 0;
    for (int64_t i = 0; i < n; ++i) c += mask_at(b, i);
    return c;
}

// Appends the selected elements of one run to o (stride os); returns how many.
// `room` is how many elements o may take (the rest of this chunk's share of the
// output). Blocks of the mask as bytes (the mask's own, or its expression's
// values computed into a buffer) go through compact_bytes: straight into o
// while a block fits with room to spare for its stores past the end, else
// into a small stack buffer copied out.
template <class T, class B>
int64_t select_run(const T* x, int64_t xs, const B& b, int64_t n, T* o, int64_t os, int64_t room) {
    constexpr int64_t block = 1024;
    constexpr int64_t slack = 16;
    T buf[block + slack];
    uint8_t mbuf[block];
    int64_t k = 0;
    for (int64_t i0 = 0; i0 < n; i0 += block) {
        const int64_t m = std::min(block, n - i0);
        const uint8_t* mp = mbuf;
        bool direct = false;
        if constexpr (is_byte_leaf<B>) direct = b.s == 1;
        if (direct) {
            if constexpr (is_byte_leaf<B>) mp = b.p + i0;
        } else {
            for (int64_t i = 0; i < m; ++i) mbuf[i] = uint8_t(mask_at(b, i0 + i));
        }
        int64_t c = 0;
        if (xs == 1) {
            if (os == 1 && m + slack <= room - k) {
                k += compact_bytes(x + i0, mp, m, o + k);
                continue;
            }
            c = compact_bytes(x + i0, mp, m, buf);
        } else {
            const T* xp = x + i0 * xs;
            for (int64_t i = 0; i < m; ++i) {
                buf[c] = xp[i * xs];
                c += mp[i] != 0;
            }
        }
        T* dst = o + k * os;
        if (os == 1) {
            std::copy(buf, buf + c, dst);
        } else {
            for (int64_t j = 0; j < c; ++j) dst[j * os] = buf[j];
        }
        k += c;
    }
    return k;
}

// Per-chunk counts of selected elements and their exclusive prefix sums.
template <class N>
std::vector<int64_t> chunk_offsets(const MaskLoop<N>& ml, bool parallel, int64_t& total) {
    std::vector<int64_t> counts(size_t(getNumThreads()) + 1, 0);
    ml.chunks(parallel, [&](int64_t b, int64_t e, int64_t c) {
        int64_t cnt = 0;
        ml.walk(b, e,
                [&](int64_t, int64_t, int64_t n, const auto& mb) { cnt += count_run(mb, n); });
        counts[size_t(c)] = cnt;
    });
    total = 0;
    for (auto& c : counts) {
        int64_t v = c;
        c = total;
        total += v;
    }
    return counts;
}

// maskedSelect of x into out (out: 1-D of exactly the selected count, or
// resized to it). Never reads out.
template <class T, class D, class N>
void masked_select_into(Tensor<T, D>& out, const Tensor<T, D>& x, const N& node,
                        const Shape& mshape) {
    if (x.nElement() == 0) {
        out.resize(Shape{0});
        return;
    }
    dispatch_mask(x, node, mshape, false, [&](const auto& m) {
        using M = std::remove_cvref_t<decltype(m)>;
        const MaskLoop<M> ml(x, m, true);
        int64_t total = 0;
        const std::vector<int64_t> offsets = chunk_offsets(ml, true, total);
        const Shape shape{total}; // 1-D, of size 0 when nothing is selected
        check_result("maskedSelect", out, shape);
        out.resize(shape);
        if (total == 0) return;
        T* o = out.data();
        const int64_t os = out.stride(0);
        const T* xp = x.data();
        ml.chunks(true, [&](int64_t b, int64_t e, int64_t c) {
            int64_t k = offsets[size_t(c)];
            const int64_t end = offsets[size_t(c) + 1];
            ml.walk(b, e, [&](int64_t ox, int64_t xs, int64_t n, const auto& mb) {
                k += select_run(xp + ox, xs, mb, n, o + k * os, os, end - k);
            });
        });
    });
}

// maskedSelect of src into self; `into` (self may be anything, even src or the
// mask) or not (self is a fresh tensor).
template <class T, class N>
void op_masked_select(ops_tag, Tensor<T, CPU>& self, const Tensor<T, CPU>& src, const N& node,
                      bool into) {
    const Shape mshape = check_mask("maskedSelect", src, node);
    bool alias = into && overlaps(self, src);
    if (into)
        for_each_leaf(node, [&](const auto& l) { alias = alias || overlaps(self, l.tensor()); });
    if (alias) {
        Tensor<T, CPU> r;
        masked_select_into(r, src, node, mshape);
        check_result("maskedSelect", self, r.sizes());
        self.resize(r.sizes());
        self.assign(r);
    } else {
        masked_select_into(self, src, node, mshape);
    }
}

// The selected elements of contiguous p (n of them, mask bytes m) become v:
// whole words of 64 skipped or filled, the others by masked stores (AVX-512,
// 4- and 8-byte elements) or one store per selected element. Unselected
// elements are never stored to (an overlapping self may be filled).
template <class T>
void fill_bytes(T* p, const uint8_t* m, int64_t n, T v) {
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t bits = mask_bits64(m + i);
        if (bits == 0) continue;
        if (bits == ~uint64_t(0)) {
            std::fill(p + i, p + i + 64, v);
            continue;
        }
#if defined(__AVX512F__)
        if constexpr (sizeof(T) == 8) {
            int64_t w;
            std::memcpy(&w, &v, 8);
            const __m512i vv = _mm512_set1_epi64(w);
            for (int j = 0; j < 8; ++j)
                _mm512_mask_storeu_epi64(p + i + 8 * j, __mmask8(bits >> (8 * j)), vv);
            continue;
        } else if constexpr (sizeof(T) == 4) {
            int32_t w;
            std::memcpy(&w, &v, 4);
            const __m512i vv = _mm512_set1_epi32(w);
            for (int j = 0; j < 4; ++j)
                _mm512_mask_storeu_epi32(p + i + 16 * j, __mmask16(bits >> (16 * j)), vv);
            continue;
        }
#endif
        for (; bits != 0; bits &= bits - 1) p[i + std::countr_zero(bits)] = v;
    }
    for (; i < n; ++i)
        if (m[i]) p[i] = v;
}

template <class T, class N>
void op_masked_fill(ops_tag, Tensor<T, CPU>& self, const N& node, T v) {
    const Shape mshape = check_mask("maskedFill", self, node);
    if (self.nElement() == 0) return;
    // A fill may write an overlapping self, on one thread: writes of aliased
    // elements from two threads would race (the blend below re-stores them).
    const bool parallel = !self_overlapping(self);
    dispatch_mask(self, node, mshape, true, [&](const auto& m) {
        using B = std::remove_cvref_t<decltype(m)>;
        const MaskLoop<B> ml(self, m, false);
        T* xp = self.data();
        ml.chunks(parallel, [&](int64_t b, int64_t e, int64_t) {
            ml.walk(b, e, [&](int64_t ox, int64_t xs, int64_t n, const auto& mb) {
                T* p = xp + ox;
                if constexpr (is_byte_leaf<decltype(mb)>) {
                    if (xs == 1 && mb.s == 1) {
                        fill_bytes(p, mb.p, n, v);
                        return;
                    }
                }
                for (int64_t i = 0; i < n; ++i)
                    if (mask_at(mb, i)) p[i * xs] = v;
            });
        });
    });
}

// The selected elements of contiguous p (n of them, mask bytes m) take the
// values at s in order; returns how many were taken.
template <class T>
int64_t expand_bytes(T* p, const uint8_t* m, int64_t n, const T* s) {
    int64_t k = 0, i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t bits = mask_bits64(m + i);
        if (bits == 0) continue;
        if (bits == ~uint64_t(0)) {
            std::memcpy(static_cast<void*>(p + i), s + k, 64 * sizeof(T));
            k += 64;
            continue;
        }
        for (; bits != 0; bits &= bits - 1) p[i + std::countr_zero(bits)] = s[k++];
    }
    for (; i < n; ++i)
        if (m[i]) p[i] = s[k++];
    return k;
}

// The selected elements of self (layout order) take the values of source()
// in layout order. check(total) runs once the selection is counted, before
// source() is called and before anything is written.
template <class T, class N, class Check, class Source>
void masked_copy_impl(const char* op, Tensor<T, CPU>& self, const N& node, Check&& check,
                      Source&& source) {
    const Shape mshape = check_mask(op, self, node);
    if (self.nElement() == 0) {
        check(int64_t(0));
        return;
    }
    // Parallel: self does not overlap itself (the callers refuse that).
    dispatch_mask(self, node, mshape, true, [&](const auto& m) {
        using B = std::remove_cvref_t<decltype(m)>;
        const MaskLoop<B> ml(self, m, true);
        int64_t total = 0;
        const std::vector<int64_t> offsets = chunk_offsets(ml, true, total);
        check(total);
        if (total == 0) return;
        // The source is read in layout order: a contiguous snapshot unless it is one.
        Tensor<T, CPU> src = source();
        if (!src.isContiguous() || overlaps(self, src)) src.set(src.clone());
        const T* sp = src.data();
        T* xp = self.data();
        ml.chunks(true, [&](int64_t b, int64_t e, int64_t c) {
            int64_t k = offsets[size_t(c)];
            ml.walk(b, e, [&](int64_t ox, int64_t xs, int64_t n, const auto& mb) {
                T* p = xp + ox;
                if constexpr (is_byte_leaf<decltype(mb)>) {
                    if (xs == 1 && mb.s == 1) {
                        k += expand_bytes(p, mb.p, n, sp + k);
                        return;
                    }
                }
                for (int64_t i = 0; i < n; ++i)
                    if (mask_at(mb, i)) p[i * xs] = sp[k++];
            });
        });
    });
}

template <class T, class N>
void op_masked_copy(ops_tag, Tensor<T, CPU>& self, const N& node, const Tensor<T, CPU>& src) {
    masked_copy_impl(
        "maskedCopy", self, node,
        [&](int64_t total) {
            if (src.nElement() < total)
                fail<ShapeError>("maskedCopy: the mask selects ", total,
                                 " elements but the source has only ", src.nElement(), " (size ",
                                 src.sizes(), ")");
        },
        [&] { return src; });
}

// x[mask] = values (MaskedRef, members.hpp): `values` (of size vshape, made by
// source() once the count is checked) holds exactly as many values as the
// mask selects.
template <class T, class N, class Source>
void op_masked_assign(ops_tag, Tensor<T, CPU>& self, const N& node, const Shape& vshape,
                      Source&& source) {
    masked_copy_impl(
        "x[mask] = values", self, node, [&](int64_t total) { check_masked_values(total, vshape); },
        source);
}

// ---- nonzero ----------------------------------------------------------------------

// Bit i set where p[i] != 0 (NaN included), for the 64 elements at p.
template <class T>
T7_INLINE uint64_t nonzero_bits64(const T* p) {
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
        return mask_bits64(reinterpret_cast<const uint8_t*>(p));
    }
#if defined(__AVX512F__)
    else if constexpr (std::is_same_v<T, double>) {
        uint64_t bits = 0;
        for (int j = 0; j < 8; ++j)
            bits |= uint64_t(_mm512_cmp_pd_mask(_mm512_loadu_pd(p + 8 * j), _mm512_setzero_pd(),
                                                _CMP_NEQ_UQ))
                    << (8 * j);
        return bits;
    } else if constexpr (std::is_same_v<T, float>) {
        uint64_t bits = 0;
        for (int j = 0; j < 4; ++j)
            bits |= uint64_t(_mm512_cmp_ps_mask(_mm512_loadu_ps(p + 16 * j), _mm512_setzero_ps(),
                                                _CMP_NEQ_UQ))
                    << (16 * j);
        return bits;
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
        uint64_t bits = 0;
        for (int j = 0; j < 8; ++j) {
            const __m512i a = _mm512_loadu_si512(p + 8 * j);
            bits |= uint64_t(_mm512_test_epi64_mask(a, a)) << (8 * j);
        }
        return bits;
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
        uint64_t bits = 0;
        for (int j = 0; j < 4; ++j) {
            const __m512i a = _mm512_loadu_si512(p + 16 * j);
            bits |= uint64_t(_mm512_test_epi32_mask(a, a)) << (16 * j);
        }
        return bits;
    }
#endif
    else {
        uint64_t bits = 0;
        for (int i = 0; i < 64; ++i) bits |= uint64_t(compute_t<T>(p[i]) != 0) << i;
        return bits;
    }
}

// The n x dim LongTensor of the 0-based coordinates of x's non-zero elements,
// in layout order (an empty tensor when there are none).
template <class T, class D>
void nonzero_into(Tensor<int64_t, D>& out, const Tensor<T, D>& x_in) {
    require_cpu<D>(); // CUDA tensors: op_nonzero in cuda/index_ops.hpp
    // None: 0 x dim() (NumPy's argwhere); the dimensionless empty tensor gives it.
    const Shape none = x_in.dim() == 0 ? Shape{} : Shape{0, x_in.dim()};
    if (x_in.nElement() == 0) {
        out.resize(none);
        return;
    }
    Tensor<T, D> x = x_in;
    if (overlaps(out, x)) x.set(x_in.clone());
    const std::array<const Shape*, 1> st{&x.strides()};
    const T* xp = x.data();
    // Count (any order, in parallel), then walk in layout order writing coordinates.
    const iter::Loop<1> any_order = iter::make_loop<1>(x.sizes(), st, true);
    std::vector<int64_t> counts(size_t(getNumThreads()) + 1, 0);
    iter::parallel_for(any_order.numel, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t c) {
        int64_t cnt = 0;
        const int64_t s = any_order.inner_stride(0);
        iter::for_each_run(any_order, b, e, [&](const std::array<int64_t, 1>& off, int64_t n) {
            const T* p = xp + off[0];
            int64_t i = 0;
            if (s == 1)
                for (; i + 64 <= n; i += 64) cnt += std::popcount(nonzero_bits64(p + i));
            for (; i < n; ++i) cnt += compute_t<T>(p[i * s]) != 0;
        });
        counts[size_t(c)] = cnt;
    });
    int64_t total = 0;
    for (int64_t c : counts) total += c;
    if (total == 0) {
        out.resize(none);
        return;
    }
    const size_t rank = size_t(x.dim());
    check_result("nonzero", out, Shape{total, int64_t(rank)});
    out.resize(Shape{total, int64_t(rank)});
    int64_t* o = out.data();
    const int64_t os0 = out.stride(0), os1 = out.stride(1);
    if (x.isContiguous()) {
        // Rows of the last dimension: 64 elements at a time as a word of bits,
        // each set bit one row of coordinates (the leading ones from an
        // odometer advanced once per row).
        const int64_t inner = x.size(int64_t(rank) - 1), rows = x.nElement() / inner;
        const Shape& sz = x.sizes();
        Shape coord(rank, 0);
        int64_t row = 0;
        for (int64_t r = 0; r < rows; ++r) {
            const T* p = xp + r * inner;
            for (int64_t j0 = 0; j0 < inner; j0 += 64) {
                const int64_t len = std::min<int64_t>(64, inner - j0);
                uint64_t bits = 0;
                if (len == 64) {
                    bits = nonzero_bits64(p + j0);
                } else {
                    for (int64_t i = 0; i < len; ++i)
                        bits |= uint64_t(compute_t<T>(p[j0 + i]) != 0) << i;
                }
                if (rank == 1) { // one coordinate per element
                    for (; bits != 0; bits &= bits - 1)
                        o[row++ * os0] = j0 + std::countr_zero(bits);
                    continue;
                }
                for (; bits != 0; bits &= bits - 1) {
                    int64_t* orow = o + row * os0;
                    for (size_t d = 0; d + 1 < rank; ++d) orow[int64_t(d) * os1] = coord[d];
                    orow[int64_t(rank - 1) * os1] = j0 + std::countr_zero(bits);
                    ++row;
                }
            }
            for (size_t d = rank - 1; d-- > 0;) {
                if (++coord[d] < sz[d]) break;
                coord[d] = 0;
            }
        }
        return;
    }
    const iter::Loop<1> L = iter::make_loop<1>(x.sizes(), st, false);
    const int64_t s = L.inner_stride(0);
    const Shape& sz = x.sizes();
    Shape coord(rank, 0); // runs follow layout order: an odometer over x's own dimensions
    int64_t row = 0;
    iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, 1>& off, int64_t n) {
        const T* p = xp + off[0];
        for (int64_t i = 0; i < n; ++i) {
            if (compute_t<T>(p[i * s]) != 0) {
                for (size_t d = 0; d < rank; ++d) o[row * os0 + int64_t(d) * os1] = coord[d];
                ++row;
            }
            for (size_t d = rank; d-- > 0;) {
                if (++coord[d] < sz[d]) break;
                coord[d] = 0;
            }
        }
    });
}

template <class T>
void op_nonzero(ops_tag, Tensor<int64_t, CPU>& out, const Tensor<T, CPU>& x) {
    nonzero_into(out, x);
}

} // namespace detail

} // namespace t7
