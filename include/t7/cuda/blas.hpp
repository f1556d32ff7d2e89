// Blas<CUDA>: the matrix products of math/blas.hpp (dot mv mm bmm addmm addmv addr
// ger baddbmm matmul) on CUDA tensors, through cuBLAS (cuda::rt::gemm_batched in
// kernels/gemm.cu; a Thrust loop under an emulated device). Float, Double, Half
// (computed in float), ComplexFloat and ComplexDouble; other element types throw
// TypeError. Every product is
// one mechanism: a (strided-batched) GEMM in cuBLAS's column-major convention;
// gemv, ger and dot are GEMMs of n x 1 and 1 x n views. A matrix goes to cuBLAS as
// it is when one of its strides is 1 (a transposed matrix is the other
// operation); otherwise it is first copied, on the device, to a contiguous buffer.
// Only library calls (no fused kernel): products of CUDA tensors work from any
// translation unit, host code included.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../eval/thrust/indexer.hpp"
#include "../math/blas.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace t7::detail {

namespace cublas {

// A rows x cols matrix (element (i, j) at i * rs + j * cs) seen as a column-major
// matrix for cuBLAS: `trans` when it is stored as its transpose (unit stride along
// columns), with leading dimension ld; ok is false when neither stride fits.
struct ColMajor {
    bool ok = false;
    bool trans = false;
    int64_t ld = 1;
};
template <class T>
ColMajor as_col_major(const MatRef<T>& m) {
    const int64_t rows = m.rows, cols = m.cols;
    if (rows == 0 || cols == 0) return {true, false, std::max<int64_t>(rows, 1)}; // nothing read
    if ((cols == 1 || m.cs == 1) && (rows == 1 || m.rs >= cols))
        return {true, true, rows == 1 ? cols : m.rs};
    if ((rows == 1 || m.rs == 1) && (cols == 1 || m.cs >= rows))
        return {true, false, cols == 1 ? rows : m.cs};
    return {};
}

template <class T>
constexpr bool supported = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                           std::is_same_v<T, Half> || is_complex_v<T>;

template <class T>
void require_type(const char* op) {
    if (!supported<T>)
        fail<TypeError>(op,
                        ": CUDA matrix products take Float, Double, Half, ComplexFloat or "
                        "ComplexDouble tensors, not ",
                        torch_type_name<T, CUDA>("Tensor"));
}

// A product's scale (alpha or beta) as cuda::rt takes it.
template <class T>
cuda::rt::GemmScalar gemm_scalar(T v) {
    if constexpr (is_complex_v<T>)
        return cuda::rt::GemmScalar(v);
    else
        return cuda::rt::GemmScalar(convert<double>(v));
}

// The shape of a batch of rows x cols matrices, and the strides of `m` over it.
inline Shape batch_shape(const Shape& batch, int64_t rows, int64_t cols) {
    Shape s = batch;
    s.push_back(rows);
    s.push_back(cols);
    return s;
}
template <class T>
Shape batch_layout(const Shape& strides, const MatRef<T>& m) {
    Shape s = strides;
    s.push_back(m.rs);
    s.push_back(m.cs);
    return s;
}

// dst = src over `shape`, both on the current device (type-erased strided copy).
template <class T>
void copy_strided(T* dst, const Shape& dst_strides, const T* src, const Shape& src_strides,
                  const Shape& shape) {
    const cuda::rt::Strided2 s = gpu::plan_strided2(shape, dst_strides, src_strides, "matmul");
    cuda::rt::strided_copy(dst, dtype_of<T>(), src, dtype_of<T>(), s, cuda::getDevice());
}

// A contiguous copy of the matrices of m over `batch` (strides `bs`); m and bs
// are redirected to it.
template <class T>
Tensor<T, CUDA> pack(const Shape& batch, Shape& bs, MatRef<const T>& m) {
    const Shape shape = batch_shape(batch, m.rows, m.cols);
    Tensor<T, CUDA> r(shape);
    copy_strided(r.data(), r.strides(), m.data, batch_layout(bs, m), shape);
    bs = Shape(r.strides().begin(), r.strides().end() - 2);
    m = {r.data(), m.rows, m.cols, m.cols, 1};
    return r;
}

// The batched GEMM on operands that all have a unit stride: one strided-batched
// cuBLAS call per run of the batch that has constant strides.
template <class T>
void run(T alpha, const Shape& batch, MatRef<const T> A, const Shape& sa, MatRef<const T> B,
         const Shape& sb, T beta, MatRef<T> C, const Shape& sc) {
    const ColMajor ca = as_col_major(A), cb = as_col_major(B), cc = as_col_major(C);
    const int64_t m = C.rows, n = C.cols, k = A.cols;
    const cuda::rt::GemmScalar al = gemm_scalar(alpha), be = gemm_scalar(beta);
    const int device = cuda::getDevice();
    const iter::Loop<3> L = iter::make_loop<3>(batch, {&sa, &sb, &sc}, false);
    const int64_t ia = L.inner_stride(0), ib = L.inner_stride(1), ic = L.inner_stride(2);
    iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, 3>& off, int64_t count) {
        const T* a = A.data + off[0];
        const T* b = B.data + off[1];
        T* c = C.data + off[2];
        if (cc.trans) // C^T (n x m) = B^T A^T: B^T is stored as is when B is "trans"
            cuda::rt::gemm_batched(dtype_of<T>(), cb.trans ? 'N' : 'T', ca.trans ? 'N' : 'T', n, m,
                                   k, al, b, cb.ld, ib, a, ca.ld, ia, be, c, cc.ld, ic, count,
                                   device);
        else // C (m x n) = A B
            cuda::rt::gemm_batched(dtype_of<T>(), ca.trans ? 'T' : 'N', cb.trans ? 'T' : 'N', m, n,
                                   k, al, a, ca.ld, ia, b, cb.ld, ib, be, c, cc.ld, ic, count,
                                   device);
    });
}

// A vector as an n x 1 column or a 1 x n row.
template <class T>
MatRef<T> column(const VecRef<T>& v) {
    return {v.data, v.n, 1, v.inc, 1};
}
template <class T>
MatRef<T> row(const VecRef<T>& v) {
    return {v.data, 1, v.n, 1, v.inc};
}

} // namespace cublas

template <>
struct Blas<CUDA> {
    template <class T>
    static void gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        cublas::require_type<T>("matrix product");
        batched_gemm(alpha, Shape{}, A, Shape{}, B, Shape{}, beta, C, Shape{});
    }

    template <class T>
    static void gemv(T alpha, MatRef<const T> A, VecRef<const T> x, T beta, VecRef<T> y) {
        cublas::require_type<T>("matrix-vector product");
        gemm(alpha, A, cublas::column(x), beta, cublas::column(y));
    }

    template <class T>
    static void ger(T alpha, VecRef<const T> x, VecRef<const T> y, T beta, MatRef<T> M) {
        cublas::require_type<T>("outer product");
        gemm(alpha, cublas::column(x), cublas::row(y), beta, M);
    }

    // A 1 x 1 product on the device, its value brought to the host.
    template <class T>
    static dot_result_t<T> dot(VecRef<const T> x, VecRef<const T> y) {
        cublas::require_type<T>("dot");
        Tensor<T, CUDA> r(1);
        gemm(convert<T>(1), cublas::row(x), cublas::column(y), convert<T>(0),
             MatRef<T>{r.data(), 1, 1, 1, 1});
        T v{};
        cuda::rt::copy_to_host(&v, r.data(), r.getDevice(), sizeof(T));
        return dot_result_t<T>(v);
    }

    template <class T>
    static void batched_gemm(T alpha, const Shape& batch, MatRef<const T> A, Shape sa,
                             MatRef<const T> B, Shape sb, T beta, MatRef<T> C, Shape sc) {
        using namespace cublas;
        require_type<T>("batched matrix product");
        if (C.rows == 0 || C.cols == 0 || batch.numel() == 0) return;
        Tensor<T, CUDA> ta, tb; // contiguous copies of operands without a unit stride
        if (!as_col_major(A).ok) ta.set(pack(batch, sa, A));
        if (!as_col_major(B).ok) tb.set(pack(batch, sb, B));
        if (as_col_major(C).ok) return run(alpha, batch, A, sa, B, sb, beta, C, sc);
        // into a contiguous temporary (holding C when beta reads it), then back
        const Shape shape = batch_shape(batch, C.rows, C.cols);
        MatRef<const T> in{C.data, C.rows, C.cols, C.rs, C.cs};
        Shape st = sc;
        Tensor<T, CUDA> tc;
        if (gemm_scalar(beta) != cuda::rt::GemmScalar(0)) {
            tc.set(pack(batch, st, in));
        } else {
            tc.set(Tensor<T, CUDA>(shape));
            st = Shape(tc.strides().begin(), tc.strides().end() - 2);
        }
        run(alpha, batch, A, sa, B, sb, beta, MatRef<T>{tc.data(), C.rows, C.cols, C.cols, 1}, st);
        copy_strided(C.data, batch_layout(sc, C), tc.data(), tc.strides(), shape);
    }
};

} // namespace t7::detail
