// Matrix products through cuBLAS (cublasGemmEx, and cublasGemmStridedBatchedEx
// for batches; Half computes in float), one handle per device, created on first
// use. Under a non-CUDA Thrust system the same column-major contract is computed
// by a Thrust loop, so the host-side layout logic that calls it (Blas<CUDA> in
// include/t7/cuda/blas.hpp) is tested on the CPU as well.
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

#if !T7_GPU_EMULATED
#include <cublas_v2.h>

#include <mutex>
#include <vector>
#endif

#include <algorithm>
#include <climits>

namespace t7::cuda::rt {

namespace {

#if T7_GPU_EMULATED

// C_b(i, j) = alpha sum_p op(A_b)(i, p) op(B_b)(p, j) + beta C_b(i, j), column-major,
// for the matrices b of a strided batch.
template <class T, class C>
struct GemmElement {
    const T* a;
    const T* b;
    T* c;
    int64_t m, n, k, lda, ldb, ldc, sa, sb, sc;
    bool ta, tb;
    C alpha, beta;
    T7_HOST_DEVICE void operator()(int64_t t) const {
        const int64_t i = t % m, j = (t / m) % n, q = t / (m * n);
        const T* A = a + q * sa;
        const T* B = b + q * sb;
        C acc = 0;
        for (int64_t p = 0; p < k; ++p) {
            const C x = C(ta ? A[p + i * lda] : A[i + p * lda]);
            const C y = C(tb ? B[j + p * ldb] : B[p + j * ldb]);
            acc += x * y;
        }
        T& out = c[q * sc + i + j * ldc];
        out = T(beta == C(0) ? alpha * acc : alpha * acc + beta * C(out));
    }
};

// alpha or beta in the computation's type C (a real C takes the real part).
template <class C>
C scalar_as(GemmScalar v) {
    if constexpr (is_complex_v<C>)
        return C(v);
    else
        return C(v.real());
}

template <class T, class C>
void gemm_loop(char ta, char tb, int64_t m, int64_t n, int64_t k, GemmScalar alpha, const void* a,
               int64_t lda, int64_t sa, const void* b, int64_t ldb, int64_t sb, GemmScalar beta,
               void* c, int64_t ldc, int64_t sc, int64_t batch) {
    gpu::for_each_index(m * n * batch,
                        GemmElement<T, C>{static_cast<const T*>(a), static_cast<const T*>(b),
                                          static_cast<T*>(c), m, n, k, lda, ldb, ldc, sa, sb, sc,
                                          ta == 'T', tb == 'T', scalar_as<C>(alpha),
                                          scalar_as<C>(beta)},
                        "gemm");
}

#else

const char* status_name(cublasStatus_t s) { return cublasGetStatusName(s); }

void check_blas(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS)
        detail::fail<DeviceError>(what, ": ", status_name(s), ": ", cublasGetStatusString(s));
}

cublasHandle_t handle(int device) {
    static std::mutex m;
    static std::vector<cublasHandle_t>* handles = new std::vector<cublasHandle_t>;
    std::lock_guard<std::mutex> lock(m);
    if (handles->size() <= size_t(device)) handles->resize(size_t(device) + 1, nullptr);
    cublasHandle_t& h = (*handles)[size_t(device)];
    if (!h) check_blas(cublasCreate(&h), "gemm: cublasCreate");
    return h;
}

#endif

} // namespace

void gemm_batched(DType type, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k,
                  GemmScalar alpha, const void* a, int64_t lda, int64_t stride_a, const void* b,
                  int64_t ldb, int64_t stride_b, GemmScalar beta, void* c, int64_t ldc,
                  int64_t stride_c, int64_t batch, int device) {
    if (type != DType::f32 && type != DType::f64 && type != DType::f16 && type != DType::c64 &&
        type != DType::c128)
        detail::fail<TypeError>("gemm: CUDA matrix products take Float, Double, Half, "
                                "ComplexFloat or ComplexDouble tensors, not ",
                                dtype_name(type));
    if (m <= 0 || n <= 0 || batch <= 0) return;
    if (k < 0) detail::fail<ShapeError>("gemm: negative inner dimension ", k);
    require_device(device, "gemm");
    DeviceGuard guard(device);
#if T7_GPU_EMULATED
    // element type T computed in C
    auto loop = [&](auto t, auto comp) {
        gemm_loop<decltype(t), decltype(comp)>(trans_a, trans_b, m, n, k, alpha, a, lda, stride_a,
                                               b, ldb, stride_b, beta, c, ldc, stride_c, batch);
    };
    switch (type) {
    case DType::c128:
        return loop(std::complex<double>{}, std::complex<double>{});
    case DType::c64:
        return loop(std::complex<float>{}, std::complex<float>{});
    case DType::f64:
        return loop(double{}, double{});
    case DType::f32:
        return loop(float{}, float{});
    default:
        return loop(Half{}, float{});
    }
#else
    for (int64_t v : {m, n, k, lda, ldb, ldc})
        if (v > INT_MAX)
            detail::fail<ShapeError>("gemm: size or leading dimension ", v,
                                     " is too large for cuBLAS (at most ", INT_MAX, ")");
    const cublasOperation_t oa = trans_a == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t ob = trans_b == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasHandle_t h = handle(device);
    const cudaDataType_t t = type == DType::f64    ? CUDA_R_64F
                             : type == DType::f32  ? CUDA_R_32F
                             : type == DType::c64  ? CUDA_C_32F
                             : type == DType::c128 ? CUDA_C_64F
                                                   : CUDA_R_16F;
    const bool dbl = type == DType::f64 || type == DType::c128;
    const cublasComputeType_t compute = dbl ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
    // alpha and beta in the scale type: double or float, complex for complex types
    // (cuComplex and cuDoubleComplex are laid out as std::complex)
    const double da = alpha.real(), db = beta.real();
    const float fa = float(da), fb = float(db);
    const std::complex<float> ca(alpha), cb(beta);
    const void* pa = type == DType::c128  ? static_cast<const void*>(&alpha)
                     : type == DType::c64 ? static_cast<const void*>(&ca)
                     : dbl                ? static_cast<const void*>(&da)
                                          : static_cast<const void*>(&fa);
    const void* pb = type == DType::c128  ? static_cast<const void*>(&beta)
                     : type == DType::c64 ? static_cast<const void*>(&cb)
                     : dbl                ? static_cast<const void*>(&db)
                                          : static_cast<const void*>(&fb);
    const size_t es = elem_size(type);
    if (batch == 1) {
        check_blas(cublasGemmEx(h, oa, ob, int(m), int(n), int(k), pa, a, t, int(lda), b, t,
                                int(ldb), pb, c, t, int(ldc), compute, CUBLAS_GEMM_DEFAULT),
                   "gemm: cublasGemmEx");
        return;
    }
    // cuBLAS counts the batch in an int: chunks of at most INT_MAX products
    for (int64_t first = 0; first < batch; first += INT_MAX) {
        const int count = int(std::min<int64_t>(batch - first, INT_MAX));
        const char* ca = static_cast<const char*>(a) + size_t(first * stride_a) * es;
        const char* cb = static_cast<const char*>(b) + size_t(first * stride_b) * es;
        char* cc = static_cast<char*>(c) + size_t(first * stride_c) * es;
        check_blas(cublasGemmStridedBatchedEx(h, oa, ob, int(m), int(n), int(k), pa, ca, t,
                                              int(lda), stride_a, cb, t, int(ldb), stride_b, pb, cc,
                                              t, int(ldc), stride_c, count, compute,
                                              CUBLAS_GEMM_DEFAULT),
                   "gemm: cublasGemmStridedBatchedEx");
    }
#endif
}

void gemm(DType type, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, GemmScalar alpha,
          const void* a, int64_t lda, const void* b, int64_t ldb, GemmScalar beta, void* c,
          int64_t ldc, int device) {
    gemm_batched(type, trans_a, trans_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1,
                 device);
}

} // namespace t7::cuda::rt
