// Sorting along one dimension (sort, topk) for every line at once, with two
// stable sorts of the whole tensor: elements become order-preserving 64-bit
// keys (complemented for descending order) sorted with their global positions,
// then the positions are sorted stably by line, which keeps every line's key
// order. Ties keep position order, as on the CPU. Only the key computation and
// the final copy depend on the element type; the two sorts are instantiated
// once (64-bit keys, 64-bit positions) for every type.
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

#include <thrust/sort.h>

#include <cstring>

namespace t7::cuda::rt {

namespace {

// Order-preserving keys: key(a) < key(b) iff a < b; NaN above everything, -0
// equal to +0 (the CPU's SortKey, widened to 64 bits).
template <class T>
T7_HOST_DEVICE uint64_t sort_key(T v) {
    if constexpr (std::is_same_v<T, double>) {
        if (v != v) return ~uint64_t(0);
        if (v == 0) v = 0.0;
        uint64_t b;
        memcpy(&b, &v, sizeof(b));
        const uint64_t sign = uint64_t(1) << 63;
        return (b & sign) ? ~b : (b | sign);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Half>) {
        float f = float(v);
        if (f != f) return uint64_t(~uint32_t(0));
        if (f == 0) f = 0.0f;
        uint32_t b;
        memcpy(&b, &f, sizeof(b));
        return uint64_t((b & 0x80000000u) ? ~b : (b | 0x80000000u));
    } else if constexpr (std::is_signed_v<T>) {
        return uint64_t(int64_t(v)) ^ (uint64_t(1) << 63);
    } else {
        return uint64_t(v);
    }
}

template <class T>
struct MakeKeys {
    const T* x;
    gpu::Indexer<3> lines;
    int64_t n, sx;
    uint64_t flip;
    uint64_t* keys;
    int64_t* pos;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        const int64_t line = i / n, j = i - line * n;
        int64_t off[3] = {0, 0, 0};
        lines.add_offsets(line, off);
        keys[i] = sort_key(x[off[0] + j * sx]) ^ flip;
        pos[i] = i;
    }
};

struct LineOf {
    const int64_t* pos;
    int64_t n;
    int64_t* line;
    T7_HOST_DEVICE void operator()(int64_t i) const { line[i] = pos[i] / n; }
};

template <class W>
struct WriteSorted {
    const W* x;
    W* values;
    int64_t* indices;
    const int64_t* pos;
    gpu::Indexer<3> lines;
    int64_t n, k, sx, sv, si;
    T7_HOST_DEVICE void operator()(int64_t t) const {
        const int64_t line = t / k, r = t - line * k;
        const int64_t j = pos[line * n + r] - line * n;
        int64_t off[3] = {0, 0, 0};
        lines.add_offsets(line, off);
        values[off[1] + r * sv] = x[off[0] + j * sx];
        indices[off[2] + r * si] = j;
    }
};

template <class K>
void stable_sort_pairs(K* keys, int64_t* values, int64_t n) {
    gpu::guarded("sort", [&] {
        gpu::with_policy(
            [&](auto&& policy) { thrust::stable_sort_by_key(policy, keys, keys + n, values); });
    });
}

} // namespace

void sort_lines(DType type, const void* x, void* values, int64_t* indices, const Strided3& lines,
                int64_t n, int64_t sx, int64_t k, int64_t sv, int64_t si, bool descending,
                int device) {
    const int64_t nlines = lines.numel, total = nlines * n;
    if (total <= 0 || k <= 0) return;
    require_device(device, "sort");
    DeviceGuard guard(device);
    const gpu::Indexer<3> ix = gpu::make_indexer(lines);
    gpu::DeviceBuffer<uint64_t> keys(total, device);
    gpu::DeviceBuffer<int64_t> pos(total, device);
    const uint64_t flip = descending ? ~uint64_t(0) : 0;
    with_dtype(type, [&](auto t) {
        using T = decltype(t);
        gpu::for_each_index(
            total, MakeKeys<T>{static_cast<const T*>(x), ix, n, sx, flip, keys.get(), pos.get()},
            "sort");
    });
    stable_sort_pairs(keys.get(), pos.get(), total);
    if (nlines > 1) { // regroup by line; the stable sort keeps each line's order
        gpu::DeviceBuffer<int64_t> line(total, device);
        gpu::for_each_index(total, LineOf{pos.get(), n, line.get()}, "sort");
        stable_sort_pairs(line.get(), pos.get(), total);
    }
    with_word(int(elem_size(type)), [&](auto w) {
        using W = decltype(w);
        gpu::for_each_index(nlines * k,
                            WriteSorted<W>{static_cast<const W*>(x), static_cast<W*>(values),
                                           indices, pos.get(), ix, n, k, sx, sv, si},
                            "sort");
    });
}

} // namespace t7::cuda::rt
