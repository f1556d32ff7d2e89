// Sorting and order statistics along one dimension (dim defaults to the last):
//
//   auto [v, i] = x.sort(dim, descending)    stable: equal elements keep their order;
//                                            v has x's size, i the 0-based positions
//   x.topk(k, dim, largest = true)           the k largest (or smallest), sorted,
//                                            ties in position order; size k along dim
//   x.kthvalue(k, dim)                       the k-th smallest, k counted from 1
//                                            (Torch7's k: k = 1 is the minimum)
//   x.median(dim)                            the lower median: kthvalue((n + 1) / 2)
//   x.mode(dim)                              the most frequent value (the smallest of
//                                            equally frequent ones) and its last position
//
// Each returns ValuesIndices{values, indices}; kthvalue, median and mode keep
// `dim` with size 1, as Torch7 (and t7::max(x, dim)) do. Free functions
// t7::sort(x, ...) etc. do the same, and t7::sort(values, indices, x, ...) etc.
// write into existing tensors (resized as Torch7 does; of the right size, any
// strides). Ties among equal values always resolve by position, so results are
// deterministic. NaN sorts above +inf (largest); -0 equals +0.
//
// Slices are walked with the shared iteration core (one loop over every
// dimension but `dim`) and sorted independently, in parallel. A slice is
// sorted by a stable LSD radix sort of order-preserving integer keys (small
// slices: std::stable_sort of the same keys).
#pragma once

#include "../expr/reductions.hpp"
#include "common.hpp"
#include "members.hpp"

#include <bit>
#include <cstring>
#include <utility>
#include <vector>

namespace t7 {

namespace detail {

// ---- order-preserving keys ------------------------------------------------------
// key(a) < key(b) iff a < b; NaN maps above everything, -0 to +0's key.
// `value(key)` recovers a value from its key where `invertible`; `exact(v)` says
// whether value(key(v)) reproduces v's bits (false for -0 and NaN payloads).
template <class T>
struct SortKey { // Half and anything else: through float's keys, values read back
    using U = uint32_t;
    static constexpr bool invertible = false;
    static U key(T v) {
        float f = float(compute_t<T>(v));
        if (f != f) return ~U(0);
        if (f == 0) f = 0.0f;
        U b = std::bit_cast<U>(f);
        return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    }
    static bool exact(T) { return false; }
    static T value(U) { return T{}; }
};

template <class F, class UInt>
struct FloatSortKey {
    using U = UInt;
    static constexpr bool invertible = true;
    static constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
    static U key(F v) {
        if (v != v) return ~U(0);
        if (v == 0) v = F(0);
        const U b = std::bit_cast<U>(v);
        return (b & sign) ? ~b : (b | sign);
    }
    static bool exact(F v) { return v == v && !(v == 0 && std::signbit(v)); }
    static F value(U k) { return std::bit_cast<F>((k & sign) ? (k & ~sign) : ~k); }
};
template <>
struct SortKey<float> : FloatSortKey<float, uint32_t> {};
template <>
struct SortKey<double> : FloatSortKey<double, uint64_t> {};

template <class I>
requires std::is_integral_v<I>
struct IntSortKey {
    using U = std::make_unsigned_t<I>;
    static constexpr bool invertible = true;
    static constexpr U flip = std::is_signed_v<I> ? U(U(1) << (sizeof(U) * 8 - 1)) : U(0);
    static U key(I v) { return U(U(v) ^ flip); }
    static bool exact(I) { return true; }
    static I value(U k) { return I(U(k ^ flip)); }
};
template <>
struct SortKey<uint8_t> : IntSortKey<uint8_t> {};
template <>
struct SortKey<int8_t> : IntSortKey<int8_t> {};
template <>
struct SortKey<int16_t> : IntSortKey<int16_t> {};
template <>
struct SortKey<int32_t> : IntSortKey<int32_t> {};
template <>
struct SortKey<int64_t> : IntSortKey<int64_t> {};

// ---- stable LSD radix sort of (key, position) pairs -------------------------------
inline constexpr int radix_bits = 11;
inline constexpr int radix_buckets = 1 << radix_bits;

// Per-thread buffers, reused from slice to slice.
template <class U>
struct SortScratch {
    std::vector<U> k0, k1;
    std::vector<uint32_t> i0, i1;
    std::vector<uint32_t> hist;
    std::vector<std::pair<U, int64_t>> pairs;
    void reserve(int64_t n) {
        if (int64_t(k0.size()) < n) {
            k0.resize(size_t(n));
            k1.resize(size_t(n));
            i0.resize(size_t(n));
            i1.resize(size_t(n));
        }
    }
};

// Sorts keys k[0..n) with positions i[0..n) (stably, by key); the result is left
// in (k, i), the other pair of buffers being scratch. Skips digits every key shares.
template <class U>
void radix_sort(U*& k, uint32_t*& i, U*& kt, uint32_t*& it, int64_t n, std::vector<uint32_t>& h) {
    constexpr int passes = (int(sizeof(U)) * 8 + radix_bits - 1) / radix_bits;
    constexpr U mask = U(radix_buckets - 1);
    h.assign(size_t(passes) * radix_buckets, 0);
    for (int64_t j = 0; j < n; ++j) {
        const U v = k[j];
        for (int p = 0; p < passes; ++p)
            ++h[size_t(p * radix_buckets) + size_t((v >> (p * radix_bits)) & mask)];
    }
    for (int p = 0; p < passes; ++p) {
        uint32_t* hp = h.data() + size_t(p) * radix_buckets;
        const U first = (k[0] >> (p * radix_bits)) & mask;
        if (hp[first] == uint32_t(n)) continue; // one bucket: this digit orders nothing
        uint32_t sum = 0;
        for (int b = 0; b < radix_buckets; ++b) {
            const uint32_t c = hp[b];
            hp[b] = sum;
            sum += c;
        }
        const int shift = p * radix_bits;
        for (int64_t j = 0; j < n; ++j) {
            const U v = k[j];
            const uint32_t pos = hp[(v >> shift) & mask]++;
            kt[pos] = v;
            it[pos] = i[j];
        }
        std::swap(k, kt);
        std::swap(i, it);
    }
}

inline constexpr int64_t radix_min = 512;

// Sorts one slice: src[0], src[ss], ... (n elements) into vo / io (strides vs, is).
template <class T>
void sort_slice(const T* src, int64_t ss, int64_t n, bool desc, T* vo, int64_t vs, int64_t* io,
                int64_t is, SortScratch<typename SortKey<T>::U>& s) {
    using K = SortKey<T>;
    using U = typename K::U;
    const U flip = desc ? ~U(0) : U(0); // descending: complemented keys, still stable
    bool exact = K::invertible;
    if (n < radix_min || n > int64_t(UINT32_MAX)) {
        auto& pr = s.pairs;
        pr.resize(size_t(n));
        for (int64_t j = 0; j < n; ++j) {
            const T v = src[j * ss];
            pr[size_t(j)] = {U(K::key(v) ^ flip), j};
        }
        std::stable_sort(pr.begin(), pr.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (int64_t j = 0; j < n; ++j) {
            const int64_t p = pr[size_t(j)].second;
            vo[j * vs] = src[p * ss];
            io[j * is] = p;
        }
        return;
    }
    s.reserve(n);
    U *k = s.k0.data(), *kt = s.k1.data();
    uint32_t *i = s.i0.data(), *it = s.i1.data();
    if (ss == 1) {
        for (int64_t j = 0; j < n; ++j) {
            const T v = src[j];
            k[j] = U(K::key(v) ^ flip);
            i[j] = uint32_t(j);
            if constexpr (K::invertible) exact &= K::exact(v);
        }
    } else {
        for (int64_t j = 0; j < n; ++j) {
            const T v = src[j * ss];
            k[j] = U(K::key(v) ^ flip);
            i[j] = uint32_t(j);
            if constexpr (K::invertible) exact &= K::exact(v);
        }
    }
    radix_sort(k, i, kt, it, n, s.hist);
    if constexpr (K::invertible) {
        if (exact) {
            if (vs == 1) {
                for (int64_t j = 0; j < n; ++j) vo[j] = K::value(U(k[j] ^ flip));
            } else {
                for (int64_t j = 0; j < n; ++j) vo[j * vs] = K::value(U(k[j] ^ flip));
            }
        }
    }
    if (!exact)
        for (int64_t j = 0; j < n; ++j) vo[j * vs] = src[int64_t(i[j]) * ss];
    if (is == 1) {
        for (int64_t j = 0; j < n; ++j) io[j] = int64_t(i[j]);
    } else {
        for (int64_t j = 0; j < n; ++j) io[j * is] = int64_t(i[j]);
    }
}

// Loads a slice as (key, position) pairs; `flip` complements the keys.
template <class T>
void load_pairs(const T* src, int64_t ss, int64_t n, typename SortKey<T>::U flip,
                std::vector<std::pair<typename SortKey<T>::U, int64_t>>& pr) {
    pr.resize(size_t(n));
    for (int64_t j = 0; j < n; ++j) pr[size_t(j)] = {SortKey<T>::key(src[j * ss]) ^ flip, j};
}

// ---- walking the slices ------------------------------------------------------------

// Everything a per-slice operation needs: x (read along `dim`), the values and
// indices outputs (written along `dim`, `m` elements per slice).
template <class T, class D>
struct SliceJob {
    Tensor<T, D> x;
    Tensor<T, D> values;
    Tensor<int64_t, D> indices;
    int64_t dim = 0;
};

// Calls f(src, values, indices, scratch) for every slice, in parallel over
// slices: src / values / indices point at the slice's first elements. A loop
// of the iteration core over x's shape with size 1 along `dim`.
template <class T, class D, class F>
void for_each_slice(const SliceJob<T, D>& job, F&& f) {
    using U = typename SortKey<T>::U;
    const int64_t dim = job.dim;
    const Shape outer = with_entry(job.x.sizes(), dim, 1);
    const Shape sx = job.x.strides(), sv = job.values.strides(), si = job.indices.strides();
    const std::array<const Shape*, 3> st{&sx, &sv, &si};
    const iter::Loop<3> L = iter::make_loop<3>(outer, st);
    const int64_t n = job.x.size(dim);
    const int64_t grain = std::max<int64_t>(1, iter::parallel_grain / std::max<int64_t>(1, n));
    const T* xp = job.x.data();
    T* vp = job.values.data();
    int64_t* ip = job.indices.data();
    iter::parallel_for(L.numel, grain, [&](int64_t b, int64_t e, int64_t) {
        SortScratch<U> scratch;
        iter::for_each_run(L, b, e, [&](const std::array<int64_t, 3>& off, int64_t cnt) {
            for (int64_t j = 0; j < cnt; ++j)
                f(xp + off[0] + j * L.inner_stride(0), vp + off[1] + j * L.inner_stride(1),
                  ip + off[2] + j * L.inner_stride(2), scratch);
        });
    });
}

// Prepares a job of `op`: x snapshot (if the outputs overlap it), outputs
// resized to x's size with `m` elements along dim.
template <class T, class D>
SliceJob<T, D> slice_job(const char* op, Tensor<T, D>& values, Tensor<int64_t, D>& indices,
                         const Tensor<T, D>& x, int64_t dim, int64_t m) {
    require_cpu<D>();
    SliceJob<T, D> job{x, {}, {}, dim};
    const Shape shape = with_entry(x.sizes(), dim, m);
    check_result(op, values, shape);
    check_result(op, indices, shape);
    values.resize(shape); // no-op when already this size (strided results keep their strides)
    indices.resize(shape);
    if (overlaps(values, x) || overlaps(indices, x)) job.x.set(x.clone());
    job.values.set(values);
    job.indices.set(indices);
    return job;
}

// The k-th (1-based) pair of a slice in (key, position) order.
template <class U>
std::pair<U, int64_t> kth_pair(std::vector<std::pair<U, int64_t>>& pr, int64_t k) {
    std::nth_element(pr.begin(), pr.begin() + (k - 1), pr.end());
    return pr[size_t(k - 1)];
}

} // namespace detail

// ---- sort ------------------------------------------------------------------------

template <class T, class D>
ValuesIndices<T, D>& sort(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t dim = -1,
                          bool descending = false) {
    static_assert(!is_complex_v<T>, "t7::sort: complex numbers have no order");
    if (x.dim() == 0) { // sorting nothing gives nothing
        out.values.resize(Shape{});
        out.indices.resize(Shape{});
        return out;
    }
    dim = x.wrap_dim(dim, "sort");
    const int64_t n = x.size(dim);
    auto job = detail::slice_job("sort", out.values, out.indices, x, dim, n);
    const int64_t sx = job.x.stride(dim), sv = job.values.stride(dim), si = job.indices.stride(dim);
    detail::for_each_slice(job, [&](const T* src, T* v, int64_t* i, auto& scratch) {
        detail::sort_slice(src, sx, n, descending, v, sv, i, si, scratch);
    });
    return out;
}

// torch.sort([values, indices,] x [, dim] [, descending])
template <class T, class D>
ValuesIndices<T, D> sort(const Tensor<T, D>& x, int64_t dim = -1, bool descending = false) {
    ValuesIndices<T, D> r;
    sort(r, x, dim, descending);
    return r;
}
template <class T, class D>
void sort(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const Tensor<T, D>& x,
          int64_t dim = -1, bool descending = false) {
    ValuesIndices<T, D> r{values, indices}; // handles on the caller's tensors
    sort(r, x, dim, descending);
    values.set(r.values);
    indices.set(r.indices);
}

// ---- topk ------------------------------------------------------------------------

template <class T, class D>
ValuesIndices<T, D>& topk(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t k,
                          int64_t dim = -1, bool largest = true) {
    static_assert(!is_complex_v<T>, "t7::topk: complex numbers have no order");
    dim = detail::slice_dim(x, dim, "topk");
    const int64_t n = x.size(dim);
    detail::check_k("topk", k, dim, n, 0);
    auto job = detail::slice_job("topk", out.values, out.indices, x, dim, k);
    if (k == 0 || x.nElement() == 0) return out; // sized, nothing to pick
    const int64_t sx = job.x.stride(dim), sv = job.values.stride(dim), si = job.indices.stride(dim);
    using U = typename detail::SortKey<T>::U;
    const U flip = largest ? ~U(0) : U(0);
    detail::for_each_slice(job, [&](const T* src, T* v, int64_t* i, auto& scratch) {
        auto& pr = scratch.pairs;
        detail::load_pairs(src, sx, n, flip, pr);
        // (key, position) order: the first k of the stable sorted order.
        if (k < n) std::nth_element(pr.begin(), pr.begin() + (k - 1), pr.end());
        std::sort(pr.begin(), pr.begin() + k);
        for (int64_t j = 0; j < k; ++j) {
            const int64_t p = pr[size_t(j)].second;
            v[j * sv] = src[p * sx];
            i[j * si] = p;
        }
    });
    return out;
}

template <class T, class D>
ValuesIndices<T, D> topk(const Tensor<T, D>& x, int64_t k, int64_t dim = -1, bool largest = true) {
    ValuesIndices<T, D> r;
    topk(r, x, k, dim, largest);
    return r;
}
template <class T, class D>
void topk(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const Tensor<T, D>& x, int64_t k,
          int64_t dim = -1, bool largest = true) {
    ValuesIndices<T, D> r{values, indices};
    topk(r, x, k, dim, largest);
    values.set(r.values);
    indices.set(r.indices);
}

// ---- kthvalue / median --------------------------------------------------------------

namespace detail {
template <class T, class D>
ValuesIndices<T, D>& kth_into(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t k,
                              int64_t dim, bool median, const char* op) {
    dim = slice_dim(x, dim, op);
    const int64_t n = x.size(dim);
    if (median) k = (n + 1) / 2;
    check_k(op, k, dim, n);
    if constexpr (!std::is_same_v<D, CPU>) { // cuda/order_stats.hpp
        op_kth(ops_tag{}, out, x, k, dim, op);
    } else {
        static_assert(!is_complex_v<T>, "t7::kthvalue, t7::median: complex numbers have no order");
        auto job = slice_job(op, out.values, out.indices, x, dim, 1);
        const int64_t sx = job.x.stride(dim);
        detail::for_each_slice(job, [&](const T* src, T* v, int64_t* i, auto& scratch) {
            auto& pr = scratch.pairs;
            load_pairs<T>(src, sx, n, 0, pr);
            const int64_t p = kth_pair(pr, k).second;
            *v = src[p * sx];
            *i = p;
        });
    }
    return out;
}
} // namespace detail

template <class T, class D>
ValuesIndices<T, D>& kthvalue(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t k,
                              int64_t dim = -1) {
    return detail::kth_into(out, x, k, dim, false, "kthvalue");
}
template <class T, class D>
ValuesIndices<T, D> kthvalue(const Tensor<T, D>& x, int64_t k, int64_t dim = -1) {
    ValuesIndices<T, D> r;
    return kthvalue(r, x, k, dim), r;
}
template <class T, class D>
void kthvalue(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const Tensor<T, D>& x, int64_t k,
              int64_t dim = -1) {
    ValuesIndices<T, D> r{values, indices};
    kthvalue(r, x, k, dim);
    values.set(r.values);
    indices.set(r.indices);
}

template <class T, class D>
ValuesIndices<T, D>& median(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t dim = -1) {
    return detail::kth_into(out, x, 0, dim, true, "median");
}
template <class T, class D>
ValuesIndices<T, D> median(const Tensor<T, D>& x, int64_t dim = -1) {
    ValuesIndices<T, D> r;
    return median(r, x, dim), r;
}
template <class T, class D>
void median(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const Tensor<T, D>& x,
            int64_t dim = -1) {
    ValuesIndices<T, D> r{values, indices};
    median(r, x, dim);
    values.set(r.values);
    indices.set(r.indices);
}

// ---- mode ---------------------------------------------------------------------------

template <class T, class D>
ValuesIndices<T, D>& mode(ValuesIndices<T, D>& out, const Tensor<T, D>& x, int64_t dim = -1) {
    dim = detail::slice_dim(x, dim, "mode");
    if constexpr (!std::is_same_v<D, CPU>) { // cuda/order_stats.hpp
        op_mode(detail::ops_tag{}, out, x, dim);
    } else {
        static_assert(!is_complex_v<T>, "t7::mode: complex numbers have no order");
        const int64_t n = x.size(dim);
        auto job = detail::slice_job("mode", out.values, out.indices, x, dim, 1);
        const int64_t sx = job.x.stride(dim);
        detail::for_each_slice(job, [&](const T* src, T* v, int64_t* i, auto& scratch) {
            auto& pr = scratch.pairs;
            detail::load_pairs<T>(src, sx, n, 0, pr);
            std::sort(pr.begin(), pr.end()); // by key, then position
            int64_t best = 0, best_count = 0;
            for (int64_t a = 0; a < n;) {
                int64_t b = a + 1;
                while (b < n && pr[size_t(b)].first == pr[size_t(a)].first) ++b;
                if (b - a > best_count) { // strictly more: the smallest value wins a tie
                    best_count = b - a;
                    best = b - 1; // its last position
                }
                a = b;
            }
            const int64_t p = pr[size_t(best)].second;
            *v = src[p * sx];
            *i = p;
        });
    }
    return out;
}
template <class T, class D>
ValuesIndices<T, D> mode(const Tensor<T, D>& x, int64_t dim = -1) {
    ValuesIndices<T, D> r;
    return mode(r, x, dim), r;
}
template <class T, class D>
void mode(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const Tensor<T, D>& x,
          int64_t dim = -1) {
    ValuesIndices<T, D> r{values, indices};
    mode(r, x, dim);
    values.set(r.values);
    indices.set(r.indices);
}

// ---- members --------------------------------------------------------------------------

// (sort and topk: members.hpp, reaching these for CPU tensors)
namespace detail {
template <class T>
void op_sort(ops_tag, ValuesIndices<T, CPU>& out, const Tensor<T, CPU>& x, int64_t dim,
             bool descending) {
    t7::sort(out, x, dim, descending);
}
template <class T>
void op_topk(ops_tag, ValuesIndices<T, CPU>& out, const Tensor<T, CPU>& x, int64_t k, int64_t dim,
             bool largest) {
    t7::topk(out, x, k, dim, largest);
}
} // namespace detail

template <class T, class D>
auto Tensor<T, D>::kthvalue(int64_t k, int64_t dim) const {
    return t7::kthvalue(*this, k, dim);
}
template <class T, class D>
auto Tensor<T, D>::median(int64_t dim) const {
    return t7::median(*this, dim);
}
template <class T, class D>
auto Tensor<T, D>::mode(int64_t dim) const {
    return t7::mode(*this, dim);
}

} // namespace t7
