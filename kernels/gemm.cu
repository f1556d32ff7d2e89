// Matrix products through cuBLAS (cublasGemmEx; Half computes in float), one
// handle per device, created on first use. Under a non-CUDA Thrust system the
// same column-major contract is computed by a Thrust loop, so the host-side
// layout logic that calls it is tested on the CPU as well.
#include "backend.hpp"

#include <t7/eval/thrust/system.hpp>

#if !T7_GPU_EMULATED
#include <cublas_v2.h>

#include <mutex>
#include <vector>
#endif

#include <climits>

namespace t7::cuda::rt {

namespace {

#if T7_GPU_EMULATED

// C(i, j) = alpha sum_p op(A)(i, p) op(B)(p, j) + beta C(i, j), column-major.
template <class T, class C>
struct GemmElement {
    const T* a;
    const T* b;
    T* c;
    int64_t m, k, lda, ldb, ldc;
    bool ta, tb;
    C alpha, beta;
    T7_HOST_DEVICE void operator()(int64_t t) const {
        const int64_t i = t % m, j = t / m;
        C acc = 0;
        for (int64_t p = 0; p < k; ++p) {
            const C x = C(ta ? a[p + i * lda] : a[i + p * lda]);
            const C y = C(tb ? b[j + p * ldb] : b[p + j * ldb]);
            acc += x * y;
        }
        T& out = c[i + j * ldc];
        out = T(beta == C(0) ? alpha * acc : alpha * acc + beta * C(out));
    }
};

template <class T, class C>
void gemm_loop(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const void* a,
               int64_t lda, const void* b, int64_t ldb, double beta, void* c, int64_t ldc) {
    gpu::for_each_index(m * n,
                        GemmElement<T, C>{static_cast<const T*>(a), static_cast<const T*>(b),
                                          static_cast<T*>(c), m, k, lda, ldb, ldc, ta == 'T',
                                          tb == 'T', C(alpha), C(beta)},
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

void gemm(DType type, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, double alpha,
          const void* a, int64_t lda, const void* b, int64_t ldb, double beta, void* c, int64_t ldc,
          int device) {
    if (type != DType::f32 && type != DType::f64 && type != DType::f16)
        detail::fail<TypeError>("gemm: CUDA matrix products take Float, Double or Half tensors, "
                                "not ",
                                dtype_name(type));
    if (m <= 0 || n <= 0) return;
    require_device(device, "gemm");
    DeviceGuard guard(device);
#if T7_GPU_EMULATED
    switch (type) {
    case DType::f64:
        return gemm_loop<double, double>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                         ldc);
    case DType::f32:
        return gemm_loop<float, float>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                       ldc);
    default:
        return gemm_loop<Half, float>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                      ldc);
    }
#else
    for (int64_t v : {m, n, k, lda, ldb, ldc})
        if (v > INT_MAX)
            detail::fail<ShapeError>("gemm: size or leading dimension ", v,
                                     " is too large for cuBLAS (at most ", INT_MAX, ")");
    const cublasOperation_t oa = trans_a == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t ob = trans_b == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasHandle_t h = handle(device);
    if (type == DType::f64) {
        check_blas(cublasGemmEx(h, oa, ob, int(m), int(n), int(k), &alpha, a, CUDA_R_64F, int(lda),
                                b, CUDA_R_64F, int(ldb), &beta, c, CUDA_R_64F, int(ldc),
                                CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
                   "gemm: cublasGemmEx");
    } else {
        const float fa = float(alpha), fb = float(beta);
        const cudaDataType_t t = type == DType::f32 ? CUDA_R_32F : CUDA_R_16F;
        check_blas(cublasGemmEx(h, oa, ob, int(m), int(n), int(k), &fa, a, t, int(lda), b, t,
                                int(ldb), &fb, c, t, int(ldc), CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT),
                   "gemm: cublasGemmEx");
    }
#endif
}

} // namespace t7::cuda::rt
