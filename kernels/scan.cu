// Running sums and products along one dimension (cumsum, cumprod): one thread
// per line walks its elements in order, so results match the CPU's sequential
// order exactly (integers) or to rounding (floating point and complex). Each
// step is the CPU's functor, op::add or op::mul (expr/functors.hpp), in the
// element type: complex values through thrust::complex (std::complex's layout),
// so sums add the parts and products are the schoolbook formula, as on the CPU.
#include "backend.hpp"

#include <t7/eval/thrust/complex.hpp>
#include <t7/eval/thrust/system.hpp>

#include <complex>

namespace t7::cuda::rt {

namespace {

template <class T, class Op>
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
            acc = Op{}(acc, x); // integers wrap as op::add / op::mul do
            x = acc;
        }
    }
};

// T: the tensor's element type; device code computes in gpu::device_t<T>.
template <class T>
void scan_as(bool multiply, void* data, const Strided2& lines, int64_t n, int64_t stride) {
    using V = gpu::device_t<T>;
    V* p = static_cast<V*>(data);
    if (multiply)
        gpu::for_each_index(
            lines.numel, ScanLine<V, op::mul>{p, gpu::make_indexer(lines), n, stride}, "cumprod");
    else
        gpu::for_each_index(lines.numel,
                            ScanLine<V, op::add>{p, gpu::make_indexer(lines), n, stride}, "cumsum");
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
    case DType::c64:
        return scan_as<std::complex<float>>(multiply, data, lines, n, stride);
    case DType::c128:
        return scan_as<std::complex<double>>(multiply, data, lines, n, stride);
    default:
        detail::fail<TypeError>(multiply ? "cumprod" : "cumsum",
                                ": CUDA scans take Long, Float, Double, ComplexFloat or "
                                "ComplexDouble tensors, not ",
                                dtype_name(type));
    }
}

} // namespace t7::cuda::rt
