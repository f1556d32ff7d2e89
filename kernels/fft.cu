// Batched one-dimensional transforms of contiguous lines (fft_lines): cuFFT under
// CUDA, its plans made once per (kind, precision, n, batch, device) and kept;
// under a non-CUDA Thrust system (T7_GPU_EMULATED, device memory is host memory)
// the CPU's plans (math/fft_plan.hpp), so that the host-side logic of
// include/t7/cuda/fft.hpp is tested without a GPU. The scaling is one kernel
// after the transform in both.
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

#if T7_GPU_EMULATED
#include <t7/math/fft_plan.hpp>
#else
#include <cufft.h>

#include <map>
#include <mutex>
#include <tuple>
#endif

#include <complex>

namespace t7::cuda::rt {

namespace {

template <class R>
struct ScaleBy {
    R* p;
    R s;
    T7_HOST_DEVICE void operator()(int64_t i) const { p[i] *= s; }
};

template <class R>
void scale_values(void* p, int64_t count, double s) {
    if (s == 1.0) return;
    gpu::for_each_index(count, ScaleBy<R>{static_cast<R*>(p), R(s)}, "fft");
}

#if T7_GPU_EMULATED

template <class R>
void run_lines(FftKind kind, bool inverse, void* out, void* in, int64_t n, int64_t batch) {
    using C = std::complex<R>;
    detail::fft::Plan<R>& plan = detail::fft::plan_for<R>(n);
    const int64_t half = n / 2 + 1;
    for (int64_t b = 0; b < batch; ++b) {
        if (kind == FftKind::c2c)
            plan.run(static_cast<C*>(out) + b * n, static_cast<const C*>(in) + b * n, inverse);
        else if (kind == FftKind::r2c)
            plan.run_r2c(static_cast<C*>(out) + b * half, static_cast<const R*>(in) + b * n);
        else
            plan.run_c2r(static_cast<R*>(out) + b * n, static_cast<const C*>(in) + b * half);
    }
}

#else

void check_fft(cufftResult r, const char* what) {
    if (r != CUFFT_SUCCESS) detail::fail<DeviceError>("fft: ", what, ": cufftResult ", int(r));
}

cufftType type_of(FftKind kind, bool dbl) {
    switch (kind) {
    case FftKind::c2c:
        return dbl ? CUFFT_Z2Z : CUFFT_C2C;
    case FftKind::r2c:
        return dbl ? CUFFT_D2Z : CUFFT_R2C;
    default:
        return dbl ? CUFFT_Z2D : CUFFT_C2R;
    }
}

// The plan of `batch` contiguous transforms of n points on the current device,
// made on first use and kept for the program's life (as cuBLAS's handles are);
// beyond 64 shapes the cache starts over, so a program transforming many
// shapes does not hold one work area per shape.
cufftHandle plan_for(cufftType type, int64_t n, int64_t batch, int device) {
    using Key = std::tuple<int, int64_t, int64_t, int>;
    static std::mutex m;
    static auto* plans = new std::map<Key, cufftHandle>;
    std::lock_guard<std::mutex> lock(m);
    const Key key{int(type), n, batch, device};
    if (const auto it = plans->find(key); it != plans->end()) return it->second;
    if (plans->size() >= 64) {
        for (const auto& [k, p] : *plans) {
            DeviceGuard guard(std::get<3>(k));
            cufftDestroy(p);
        }
        plans->clear();
    }
    cufftHandle p = 0;
    check_fft(cufftCreate(&p), "cufftCreate");
    long long len = n;
    size_t work = 0;
    const cufftResult r =
        cufftMakePlanMany64(p, 1, &len, nullptr, 1, 0, nullptr, 1, 0, type, batch, &work);
    if (r != CUFFT_SUCCESS) {
        cufftDestroy(p);
        check_fft(r, "cufftMakePlanMany64");
    }
    plans->emplace(key, p);
    return p;
}

template <class R>
void run_lines(FftKind kind, bool inverse, void* out, void* in, int64_t n, int64_t batch,
               int device) {
    const cufftHandle p = plan_for(type_of(kind, std::is_same_v<R, double>), n, batch, device);
    const int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    if constexpr (std::is_same_v<R, double>) {
        if (kind == FftKind::c2c)
            check_fft(cufftExecZ2Z(p, static_cast<cufftDoubleComplex*>(in),
                                   static_cast<cufftDoubleComplex*>(out), dir),
                      "cufftExecZ2Z");
        else if (kind == FftKind::r2c)
            check_fft(cufftExecD2Z(p, static_cast<cufftDoubleReal*>(in),
                                   static_cast<cufftDoubleComplex*>(out)),
                      "cufftExecD2Z");
        else
            check_fft(cufftExecZ2D(p, static_cast<cufftDoubleComplex*>(in),
                                   static_cast<cufftDoubleReal*>(out)),
                      "cufftExecZ2D");
    } else {
        if (kind == FftKind::c2c)
            check_fft(cufftExecC2C(p, static_cast<cufftComplex*>(in),
                                   static_cast<cufftComplex*>(out), dir),
                      "cufftExecC2C");
        else if (kind == FftKind::r2c)
            check_fft(cufftExecR2C(p, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)),
                      "cufftExecR2C");
        else
            check_fft(cufftExecC2R(p, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)),
                      "cufftExecC2R");
    }
}

#endif

template <class R>
void transform(FftKind kind, bool inverse, void* out, void* in, int64_t n, int64_t batch,
               double scale, int device) {
#if T7_GPU_EMULATED
    (void)device;
    run_lines<R>(kind, inverse, out, in, n, batch);
#else
    run_lines<R>(kind, inverse, out, in, n, batch, device);
#endif
    // values written: complex ones count as two reals
    const int64_t count = kind == FftKind::c2r   ? n * batch
                          : kind == FftKind::r2c ? 2 * (n / 2 + 1) * batch
                                                 : 2 * n * batch;
    scale_values<R>(out, count, scale);
}

} // namespace

void fft_lines(FftKind kind, bool dbl, bool inverse, void* out, void* in, int64_t n, int64_t batch,
               double scale, int device) {
    if (n <= 0 || batch <= 0) return;
    require_device(device, "fft");
    DeviceGuard guard(device);
    if (dbl)
        transform<double>(kind, inverse, out, in, n, batch, scale, device);
    else
        transform<float>(kind, inverse, out, in, n, batch, scale, device);
}

} // namespace t7::cuda::rt
