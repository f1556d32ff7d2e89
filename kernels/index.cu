// Indexed and masked operations reached from host code (cuda/index_ops.hpp):
// index validation, stream compaction (maskedSelect, maskedCopy, nonzero),
// maskedFill, gathers (index, gather) and scatters (indexCopy, indexAdd,
// indexFill, scatter).
//
// Compaction: a flag per element (operand k non-zero, walked in layout order),
// an exclusive scan of the flags gives every selected element its rank, then
// one pass moves the selected elements. Scatters give each thread one line
// (every coordinate but the indexed dimension) walked in index order, so
// duplicate indices resolve exactly as the CPU's serial loop does, without
// atomics. Data moves as words of 1, 2, 4 or 8 bytes; only the flag test and
// indexAdd look at element types (once per type, through with_dtype).
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>
#include <t7/expr/functors.hpp>

#include <thrust/functional.h>
#include <thrust/transform_reduce.h>
#include <thrust/transform_scan.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace t7::cuda::rt {

namespace {

// Is element i (layout order) of operand k non-zero? One functor for every
// element type: the switch is uniform across a warp.
struct NonzeroAt {
    const void* p;
    DType t;
    int k;
    gpu::Indexer<2> ix;

    template <class T>
    T7_HOST_DEVICE static bool test(const void* p, int64_t o) {
        return compute_t<T>(static_cast<const T*>(p)[o]) != compute_t<T>(0);
    }
    T7_HOST_DEVICE int64_t operator()(int64_t i) const {
        int64_t off[2] = {0, 0};
        ix.add_offsets<true>(i, off);               // run by Thrust's reduce and scan kernels
        const int64_t o = k == 0 ? off[0] : off[1]; // not off[k]: a local-memory array
        switch (t) {
        case DType::u8:
            return test<uint8_t>(p, o);
        case DType::i8:
            return test<int8_t>(p, o);
        case DType::i16:
            return test<int16_t>(p, o);
        case DType::i32:
            return test<int32_t>(p, o);
        case DType::i64:
            return test<int64_t>(p, o);
        case DType::f32:
            return test<float>(p, o);
        case DType::f64:
            return test<double>(p, o);
        default:
            return test<Half>(p, o);
        }
    }
};

int64_t count_flags(const NonzeroAt& f, int64_t n, const char* op) {
    return gpu::guarded(op, [&] {
        return gpu::with_policy([&](auto&& policy) {
            return thrust::transform_reduce(policy, thrust::counting_iterator<int64_t>(0),
                                            thrust::counting_iterator<int64_t>(n), f, int64_t(0),
                                            thrust::plus<int64_t>());
        });
    });
}

// rank[i] = number of flagged elements before i.
void rank_flags(const NonzeroAt& f, int64_t n, int64_t* rank, const char* op) {
    gpu::guarded(op, [&] {
        gpu::with_policy([&](auto&& policy) {
            thrust::transform_exclusive_scan(policy, thrust::counting_iterator<int64_t>(0),
                                             thrust::counting_iterator<int64_t>(n), rank, f,
                                             int64_t(0), thrust::plus<int64_t>());
        });
    });
}

// The position of the first index outside [0, limit), or no_position.
constexpr int64_t no_position = INT64_MAX;
struct BadPosition {
    const int64_t* x;
    uint64_t limit;
    gpu::Indexer<2> ix;
    T7_HOST_DEVICE int64_t operator()(int64_t i) const {
        int64_t off[2] = {0, 0};
        ix.add_offsets<true>(i, off); // run by Thrust's reduce kernels
        return uint64_t(x[off[0]]) >= limit ? i : no_position;
    }
};

enum class MaskMode { select, copy, fill };

template <class W, MaskMode M>
struct MaskedWords {
    W* x;
    const uint8_t* mask;
    const int64_t* rank; // select, copy
    W* other;            // select: the output; copy: the source
    int64_t os;
    W v; // fill
    gpu::Indexer<2> ix;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        int64_t off[2] = {0, 0};
        ix.add_offsets(i, off);
        if (!mask[off[1]]) return;
        if constexpr (M == MaskMode::select)
            other[rank[i] * os] = x[off[0]];
        else if constexpr (M == MaskMode::copy)
            x[off[0]] = other[rank[i]];
        else
            x[off[0]] = v;
    }
};

struct NonzeroCoords {
    NonzeroAt flag;
    const int64_t* rank;
    int64_t* out;
    int rank_x;
    int64_t sizes[2 * max_dims];
    T7_HOST_DEVICE void operator()(int64_t i) const {
        if (!flag(i)) return;
        int64_t* row = out + rank[i] * rank_x;
        int64_t lin = i;
        for (int d = rank_x - 1; d >= 0; --d) {
            const int64_t q = lin / sizes[d];
            row[d] = lin - q * sizes[d];
            lin = q;
        }
    }
};

template <class W>
struct GatherWords {
    W* a;
    const W* b;
    const int64_t* x;
    gpu::Indexer<3> ix;
    int64_t step;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        int64_t off[3] = {0, 0, 0};
        ix.add_offsets(i, off);
        a[off[0]] = b[off[1] + x[off[2]] * step];
    }
};

template <class T, ScatterKind K>
struct ScatterLine {
    T* a;
    const T* b;
    T v;
    const int64_t* x;
    gpu::Indexer<3> lines;
    int64_t n, sb, sx, step;
    T7_HOST_DEVICE void operator()(int64_t j) const {
        int64_t off[3] = {0, 0, 0};
        lines.add_offsets(j, off);
        for (int64_t k = 0; k < n; ++k) {
            T& t = a[off[0] + x[off[2] + k * sx] * step];
            if constexpr (K == ScatterKind::copy)
                t = b[off[1] + k * sb];
            else if constexpr (K == ScatterKind::add)
                t = convert<T>(
                    op::add{}(compute_t<T>(t), compute_t<T>(b[off[1] + k * sb]))); // wraps
            else
                t = v;
        }
    }
};

// The element of type W whose bytes `value` points to (the caller's scalar).
template <class W>
W word_of(const void* value) {
    W v{};
    std::memcpy(static_cast<void*>(&v), value, sizeof(W));
    return v;
}

} // namespace

int64_t count_nonzero(DType type, const void* p, int k, const Strided2& s, int device) {
    if (s.numel <= 0) return 0;
    require_device(device, "nonzero");
    DeviceGuard guard(device);
    return count_flags(NonzeroAt{p, type, k, gpu::make_indexer(s)}, s.numel, "nonzero");
}

int64_t find_bad_index(const int64_t* idx, const Strided2& s, int64_t limit, int64_t& value,
                       int device) {
    if (s.numel <= 0) return -1;
    require_device(device, "index");
    DeviceGuard guard(device);
    const gpu::Indexer<2> ix = gpu::make_indexer(s);
    const int64_t pos = gpu::guarded("index", [&] {
        return gpu::with_policy([&](auto&& policy) {
            return thrust::transform_reduce(policy, thrust::counting_iterator<int64_t>(0),
                                            thrust::counting_iterator<int64_t>(s.numel),
                                            BadPosition{idx, uint64_t(limit), ix}, no_position,
                                            thrust::minimum<int64_t>());
        });
    });
    if (pos == no_position) return -1;
    int64_t off[2] = {0, 0};
    ix.add_offsets(pos, off);
    copy_to_host(&value, idx + off[0], device, sizeof(int64_t));
    return pos;
}

namespace {
// maskedSelect and maskedCopy: the k-th selected element of x (in row-major
// order) moves to or from element k of `packed` (stride packed_stride).
template <MaskMode M>
void masked_ranked(void* x, int elem_size, const uint8_t* mask, void* packed, int64_t packed_stride,
                   const Strided2& s, int device, const char* op) {
    if (s.numel <= 0) return;
    require_device(device, op);
    DeviceGuard guard(device);
    const gpu::Indexer<2> ix = gpu::make_indexer(s);
    gpu::DeviceBuffer<int64_t> rank(s.numel, device);
    rank_flags(NonzeroAt{mask, DType::u8, 1, ix}, s.numel, rank.get(), op);
    with_word(elem_size, [&](auto w) {
        using W = decltype(w);
        gpu::for_each_index(s.numel,
                            MaskedWords<W, M>{static_cast<W*>(x), mask, rank.get(),
                                              static_cast<W*>(packed), packed_stride, W{}, ix},
                            op);
    });
}
} // namespace

void masked_select(void* out, int64_t out_stride, const void* x, int elem_size, const uint8_t* mask,
                   const Strided2& s, int device) {
    masked_ranked<MaskMode::select>(const_cast<void*>(x), elem_size, mask, out, out_stride, s,
                                    device, "maskedSelect");
}

void masked_copy(void* x, int elem_size, const void* src, const uint8_t* mask, const Strided2& s,
                 int device) {
    masked_ranked<MaskMode::copy>(x, elem_size, mask, const_cast<void*>(src), 1, s, device,
                                  "maskedCopy");
}

void masked_fill(void* x, int elem_size, const void* value, const uint8_t* mask, const Strided2& s,
                 int device) {
    if (s.numel <= 0) return;
    require_device(device, "maskedFill");
    DeviceGuard guard(device);
    const gpu::Indexer<2> ix = gpu::make_indexer(s);
    with_word(elem_size, [&](auto w) {
        using W = decltype(w);
        gpu::for_each_index(s.numel,
                            MaskedWords<W, MaskMode::fill>{static_cast<W*>(x), mask, nullptr,
                                                           nullptr, 0, word_of<W>(value), ix},
                            "maskedFill");
    });
}

void nonzero(int64_t* out, DType type, const void* x, const Strided2& s, const int64_t* sizes,
             int rank, int device) {
    if (s.numel <= 0) return;
    if (rank > 2 * max_dims)
        detail::fail<ShapeError>("nonzero: CUDA tensors of at most ", 2 * max_dims,
                                 " dimensions, got ", rank);
    require_device(device, "nonzero");
    DeviceGuard guard(device);
    const NonzeroAt flag{x, type, 0, gpu::make_indexer(s)};
    gpu::DeviceBuffer<int64_t> ranks(s.numel, device);
    rank_flags(flag, s.numel, ranks.get(), "nonzero");
    NonzeroCoords f{flag, ranks.get(), out, rank, {}};
    for (int d = 0; d < rank; ++d) f.sizes[d] = sizes[d];
    gpu::for_each_index(s.numel, f, "nonzero");
}

void index_gather(void* a, const void* b, int elem_size, const int64_t* idx, const Strided3& s,
                  int64_t step, int device) {
    if (s.numel <= 0) return;
    require_device(device, "gather");
    DeviceGuard guard(device);
    with_word(elem_size, [&](auto w) {
        using W = decltype(w);
        gpu::for_each_index(s.numel,
                            GatherWords<W>{static_cast<W*>(a), static_cast<const W*>(b), idx,
                                           gpu::make_indexer(s), step},
                            "gather");
    });
}

void index_scatter(ScatterKind kind, DType type, void* a, const void* b, const void* value,
                   const int64_t* idx, const Strided3& lines, int64_t n, int64_t sb, int64_t sx,
                   int64_t step, int device) {
    if (lines.numel <= 0 || n <= 0) return;
    require_device(device, "scatter");
    DeviceGuard guard(device);
    const gpu::Indexer<3> ix = gpu::make_indexer(lines);
    auto run = [&](auto t, auto k) {
        using T = decltype(t);
        gpu::for_each_index(
            lines.numel,
            ScatterLine<T, decltype(k)::value>{static_cast<T*>(a), static_cast<const T*>(b),
                                               word_of<T>(value), idx, ix, n, sb, sx, step},
            "scatter");
    };
    using Copy = std::integral_constant<ScatterKind, ScatterKind::copy>;
    using Add = std::integral_constant<ScatterKind, ScatterKind::add>;
    using Fill = std::integral_constant<ScatterKind, ScatterKind::fill>;
    if (kind == ScatterKind::add)
        with_dtype(type, [&](auto t) { run(t, Add{}); });
    else if (kind == ScatterKind::copy)
        with_word(int(elem_size(type)), [&](auto w) { run(w, Copy{}); });
    else
        with_word(int(elem_size(type)), [&](auto w) { run(w, Fill{}); });
}

} // namespace t7::cuda::rt
