// Running sums and products along one dimension (cumsum, cumprod): one thread
// per line walks its elements in order, so results match the CPU's sequential
// order exactly (integers) or to rounding (floating point).
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

namespace t7::cuda::rt {

namespace {

template <class T, bool Multiply>
struct ScanLine {
    T* data;
    gpu::Indexer<2> lines;
    int64_t n, stride;
    T7_HOST_DEVICE void operator()(int64_t j) const {
        int64_t off[2] = {0, 0};
        lines.add_offsets(j, off);
        T* q = data + off[0];
        T acc = q[0];
        for (int64_t i = 1; i < n; ++i) {
            T& x = q[i * stride];
            if constexpr (Multiply) {
                if constexpr (std::is_integral_v<T>)
                    acc = T(uint64_t(acc) * uint64_t(x)); // wraps like op::mul
                else
                    acc = acc * x;
            } else {
                if constexpr (std::is_integral_v<T>)
                    acc = T(uint64_t(acc) + uint64_t(x));
                else
                    acc = acc + x;
            }
            x = acc;
        }
    }
};

template <class T>
void scan_as(bool multiply, void* data, const Strided2& lines, int64_t n, int64_t stride) {
    T* p = static_cast<T*>(data);
    if (multiply)
        gpu::for_each_index(lines.numel, ScanLine<T, true>{p, gpu::make_indexer(lines), n, stride},
                            "cumprod");
    else
        gpu::for_each_index(lines.numel, ScanLine<T, false>{p, gpu::make_indexer(lines), n, stride},
                            "cumsum");
}

} // namespace

void scan(DType type, bool multiply, void* data, const Strided2& lines, int64_t n, int64_t stride,
          int device) {
    if (lines.numel <= 0 || n <= 1) return;
    require_device(device, multiply ? "cumprod" : "cumsum");
    DeviceGuard guard(device);
    switch (type) {
    case DType::i64:
        return scan_as<int64_t>(multiply, data, lines, n, stride);
    case DType::f32:
        return scan_as<float>(multiply, data, lines, n, stride);
    case DType::f64:
        return scan_as<double>(multiply, data, lines, n, stride);
    default:
        detail::fail<TypeError>(multiply ? "cumprod" : "cumsum",
                                ": CUDA scans take Long, Float or Double tensors, not ",
                                dtype_name(type));
    }
}

} // namespace t7::cuda::rt
