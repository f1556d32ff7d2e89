// Convolutions of CUDA tensors (cuda/conv.hpp): one thread per output element
// sums its taps in the CPU's order, o = sum_t w[t] * in[base + off[t]], over a
// zero-padded contiguous input prepared on the host side of the call. Integers
// wrap as the CPU's conv_madd does.
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

#include <type_traits>

namespace t7::cuda::rt {

namespace {

template <class T>
T7_HOST_DEVICE T conv_madd(T a, T b, T c) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
        return T(U(a) + U(b) * U(c));
    } else {
        return a + b * c;
    }
}

template <class T>
struct ConvTaps {
    T* out;
    const T* in;
    const T* w;
    const int64_t* off;
    ConvShape s;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        // i = (map, depth, row) * cols + col: one division chain per output element
        const int64_t j = i % s.cols, line = i / s.cols;
        const int64_t rr = line % s.rows, m = line / s.rows;
        const int64_t base =
            (s.sum ? 0 : m * s.plane) + rr / s.out_rows * s.slice + rr % s.out_rows * s.row + j;
        const T* wm = w + m * s.taps;
        T acc = T(0);
        for (int64_t t = 0; t < s.taps; ++t) acc = conv_madd(acc, wm[t], in[base + off[t]]);
        out[i] = acc;
    }
};

} // namespace

void conv_taps(DType type, void* out, const void* in, const void* w, const int64_t* off,
               const ConvShape& s, int device) {
    const int64_t n = s.maps * s.rows * s.cols;
    if (n <= 0) return;
    require_device(device, "convolution");
    DeviceGuard guard(device);
    with_dtype(type, [&](auto v) {
        using T = decltype(v);
        if constexpr (std::is_arithmetic_v<T>)
            gpu::for_each_index(n,
                                ConvTaps<T>{static_cast<T*>(out), static_cast<const T*>(in),
                                            static_cast<const T*>(w), off, s},
                                "convolution");
        else
            detail::fail<TypeError>("convolution: no ", dtype_name(type), " convolution");
    });
}

} // namespace t7::cuda::rt
