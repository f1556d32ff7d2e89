// Linear index -> per-operand element offsets, on host and device. The host
// plans the loop with the shared iteration core (iter/loop.hpp drops size-1
// dimensions, orders by stride and merges contiguous ones); an Indexer then
// holds the merged sizes innermost first with a precomputed fast divisor each,
// and the strides of every operand. Turning index i into offsets costs one
// multiply-high and shift per dimension past the innermost (32-bit fast
// division while indices stay below 2^31, plain 64-bit division beyond).
#pragma once

#include "../../core/config.hpp"
#include "../../core/device_kernels.hpp"
#include "../../core/error.hpp"
#include "../../iter/loop.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace t7::gpu {

inline constexpr int max_dims = cuda::rt::max_dims;

// n / d for a fixed d in [1, 2^31) and any n < 2^31, without a division
// (Granlund and Montgomery; the form PyTorch's IntDivider uses).
struct FastDiv {
    uint32_t d = 1, m = 0, s = 0;

    FastDiv() = default;
    explicit FastDiv(uint32_t divisor) : d(divisor) {
        while (s < 32 && (uint64_t(1) << s) < divisor) ++s;
        const uint64_t one = 1;
        m = uint32_t(((one << 32) * ((one << s) - divisor)) / divisor + 1);
    }
    T7_HOST_DEVICE uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
        uint32_t t = __umulhi(n, m);
#else
        uint32_t t = uint32_t((uint64_t(n) * m) >> 32);
#endif
        return (t + n) >> s;
    }
};

// Element offsets of N operands for a linear index over an iteration space.
template <size_t N>
struct Indexer {
    int rank = 0;      // dimensions in use, innermost first
    bool small = true; // every index < 2^31: use the fast divisors
    int64_t size[max_dims] = {};
    FastDiv div[max_dims];
    int64_t stride[max_dims][N] = {};

    // off[k] += offset of operand k for element i (0 <= i < product of sizes).
    // Static: unroll the 2^31-and-more path too, for functors that a Thrust
    // algorithm copies into each thread (an array indexed by a loop variable
    // would put the whole copy in local memory); our own kernels read the
    // functor in place (__grid_constant__), where the rolled loop is cheaper
    // (unrolled, y = x*r + c lost 20 % on an H100).
    template <bool Static = false>
    T7_HOST_DEVICE void add_offsets(int64_t i, int64_t* off) const {
        if (small) {
            // Unrolled over the fixed maximum rank, so the arrays stay in registers.
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int d = 0; d < max_dims; ++d) {
                if (d >= rank) break;
                int64_t c = i; // the outermost dimension needs no division
                if (d < rank - 1) {
                    const int64_t q = int64_t(div[d].div(uint32_t(i)));
                    c = i - q * size[d];
                    i = q;
                }
                for (size_t k = 0; k < N; ++k) off[k] += c * stride[d][k];
            }
        } else if constexpr (Static) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int d = 0; d < max_dims; ++d) {
                if (d >= rank) break;
                add_large(d, i, off);
            }
        } else {
            // 2^31 elements or more: 64-bit divisions, not unrolled (the code stays small).
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
            for (int d = 0; d < rank; ++d) add_large(d, i, off);
        }
    }

private:
    T7_HOST_DEVICE T7_INLINE void add_large(int d, int64_t& i, int64_t* off) const {
        int64_t c = i;
        if (d < rank - 1) {
            const int64_t q = i / size[d];
            c = i - q * size[d];
            i = q;
        }
        for (size_t k = 0; k < N; ++k) off[k] += c * stride[d][k];
    }
};

// An Indexer over a planned loop (outermost first, as iter::make_loop returns it).
template <size_t N>
Indexer<N> make_indexer(const iter::Loop<N>& L, const char* op) {
    Indexer<N> ix;
    const int r = int(L.rank());
    if (r > max_dims)
        detail::fail<ShapeError>(op, ": CUDA tensors support at most ", max_dims,
                                 " dimensions after merging contiguous ones, got ", r, " (sizes ",
                                 L.sizes, ")");
    ix.rank = r;
    ix.small = L.numel < (int64_t(1) << 31);
    for (int d = 0; d < r; ++d) {
        const size_t src = size_t(r - 1 - d);
        ix.size[d] = L.sizes[src];
        if (ix.small) ix.div[d] = FastDiv(uint32_t(L.sizes[src]));
        for (size_t k = 0; k < N; ++k) ix.stride[d][k] = L.strides[k][src];
    }
    return ix;
}

// The Indexer of a type-erased library call's iteration space (outermost first).
template <size_t N, class S>
Indexer<N> indexer_of(const S& s) {
    Indexer<N> ix;
    ix.rank = s.rank;
    ix.small = s.numel < (int64_t(1) << 31);
    for (int d = 0; d < s.rank; ++d) {
        const int src = s.rank - 1 - d;
        ix.size[d] = s.size[src];
        if (ix.small) ix.div[d] = FastDiv(uint32_t(s.size[src]));
        for (size_t k = 0; k < N; ++k) ix.stride[d][k] = s.stride[k][src];
    }
    return ix;
}
inline Indexer<2> make_indexer(const cuda::rt::Strided2& s) { return indexer_of<2>(s); }
inline Indexer<3> make_indexer(const cuda::rt::Strided3& s) { return indexer_of<3>(s); }

// Plans an N-operand iteration space for a library call (S: Strided2 or
// Strided3). `reorder` false keeps layout order (linear index = row-major position).
template <size_t N, class S>
S plan_strided(const Shape& shape, const std::array<const Shape*, N>& st, const char* op,
               bool reorder = true) {
    const iter::Loop<N> L = iter::make_loop<N>(shape, st, reorder);
    S s;
    s.rank = int(L.rank());
    if (s.rank > max_dims)
        detail::fail<ShapeError>(op, ": CUDA tensors support at most ", max_dims,
                                 " dimensions after merging contiguous ones, got ", s.rank,
                                 " (sizes ", L.sizes, ")");
    s.numel = L.numel;
    for (int d = 0; d < s.rank; ++d) {
        s.size[d] = L.sizes[size_t(d)];
        for (size_t k = 0; k < N; ++k) s.stride[k][d] = L.strides[k][size_t(d)];
    }
    return s;
}

// Plans a two-operand iteration space for a library call.
inline cuda::rt::Strided2 plan_strided2(const Shape& shape, const Shape& dst_strides,
                                        const Shape& src_strides, const char* op,
                                        bool reorder = true) {
    return plan_strided<2, cuda::rt::Strided2>(shape, {&dst_strides, &src_strides}, op, reorder);
}
inline cuda::rt::Strided3 plan_strided3(const Shape& shape, const Shape& a, const Shape& b,
                                        const Shape& x, const char* op, bool reorder = true) {
    return plan_strided<3, cuda::rt::Strided3>(shape, {&a, &b, &x}, op, reorder);
}

// True when every operand walks the loop with unit stride in one dimension:
// element i of every operand is at offset i.
template <size_t N>
bool is_linear(const iter::Loop<N>& L) {
    if (L.rank() != 1) return false;
    for (size_t k = 0; k < N; ++k)
        if (L.strides[k][0] != 1) return false;
    return true;
}

// A loop over `shape` for operands with the given strides (broadcast ones 0).
template <size_t N>
iter::Loop<N> plan_loop(const Shape& shape, const std::array<Shape, N>& strides,
                        bool reorder = true) {
    std::array<const Shape*, N> st;
    for (size_t k = 0; k < N; ++k) st[k] = &strides[k];
    return iter::make_loop<N>(shape, st, reorder);
}

} // namespace t7::gpu
