// mode of CUDA tensors over lines sorted on the device (cuda/order_stats.hpp):
// one thread per line walks its runs of equal values, as the CPU's mode walks
// its sorted (key, position) pairs, so both pick the same value and position.
#include "backend.hpp"

#include <t7/cuda/mode_kernel.hpp>
#include <t7/eval/thrust/system.hpp>

#include <type_traits>

namespace t7::cuda::rt {

namespace {

// Equal sort keys: equal values, NaN with NaN (sort_lines puts -0 with +0 already).
template <class T>
T7_HOST_DEVICE bool same_key(T a, T b) {
    using C = compute_t<T>;
    const C x = C(a), y = C(b);
    if constexpr (std::is_floating_point_v<C>)
        return x == y || (x != x && y != y);
    else
        return x == y;
}

template <class T>
struct ModeLines {
    const T* v;
    const int64_t* idx;
    int64_t n;
    T* out_v;
    int64_t* out_i;
    T7_HOST_DEVICE void operator()(int64_t r) const {
        const T* line = v + r * n;
        int64_t best = 0, best_count = 0;
        for (int64_t a = 0; a < n;) {
            int64_t b = a + 1;
            while (b < n && same_key(line[b], line[a])) ++b;
            if (b - a > best_count) { // strictly more: the smallest value wins a tie
                best_count = b - a;
                best = b - 1; // its last position (positions ascend within a run)
            }
            a = b;
        }
        out_v[r] = line[best];
        out_i[r] = idx[r * n + best];
    }
};

} // namespace

void mode_lines(DType type, const void* values, const int64_t* indices, int64_t lines, int64_t n,
                void* out_values, int64_t* out_indices, int device) {
    if (lines <= 0 || n <= 0) return;
    require_device(device, "mode");
    DeviceGuard guard(device);
    with_dtype(type, [&](auto t) {
        using T = decltype(t);
        gpu::for_each_index(lines,
                            ModeLines<T>{static_cast<const T*>(values), indices, n,
                                         static_cast<T*>(out_values), out_indices},
                            "mode");
    });
}

} // namespace t7::cuda::rt
