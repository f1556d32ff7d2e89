// Matrix products of CUDA tensors through cuBLAS: t7::mm, addmm, mv, addmv
// and dot taking Tensor<T, CUDA> (float, double, Half). These overloads are
// more specialised than the device-generic ones of math/blas.hpp, so the same
// calls work on both devices. Strided operands are passed to cuBLAS as they
// are when one of their strides is 1 (a transposed matrix is the other
// operation); others are first made contiguous on the device.
#pragma once

#include "../eval/assign.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "runtime.hpp"

#include <type_traits>

namespace t7 {

namespace detail::cublas {

// A rows x cols matrix (row-major indexing, element (i, j) at i * rs + j * cs)
// seen as a column-major matrix for cuBLAS: `trans` when it is stored as its
// transpose (unit stride along columns), with leading dimension ld.
struct ColMajor {
    bool ok = false;
    bool trans = false;
    int64_t ld = 1;
};
inline ColMajor as_col_major(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
    if ((cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1)))
        return {true, true, rows == 1 ? std::max<int64_t>(cols, 1) : rs};
    if ((rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1)))
        return {true, false, cols == 1 ? std::max<int64_t>(rows, 1) : cs};
    return {};
}

template <class T>
constexpr bool supported =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Half>;

template <class T, class... X>
int same_device(const char* op, const Tensor<T, CUDA>& a, const X&... x) {
    const int d = a.getDevice();
    (((x.getDevice() != d) ? fail<DeviceError>(op, ": operands on ", device_label<CUDA>(d), " and ",
                                               device_label<CUDA>(x.getDevice()),
                                               "; only copy() moves data between devices")
                           : void()),
     ...);
    return d;
}

// c = beta c + alpha a b for 2-D a (m x k), b (k x n), c (m x n); c must not
// overlap a or b. beta == 0 ignores c's values.
template <class T>
void gemm(double alpha, const Tensor<T, CUDA>& a, const Tensor<T, CUDA>& b, double beta,
          const Tensor<T, CUDA>& c) {
    static_assert(supported<T>, "CUDA matrix products take float, double or Half tensors");
    const int64_t m = c.size(0), n = c.size(1), k = a.size(1);
    const int device = c.getDevice();
    ColMajor cc = as_col_major(m, n, c.stride(0), c.stride(1));
    if (!cc.ok) { // into a contiguous temporary, then back
        Tensor<T, CUDA> tmp = device_buffer<T>(c.sizes(), device);
        if (beta != 0) tmp.copy(c);
        gemm(alpha, a, b, beta, tmp);
        Tensor<T, CUDA>(c).copy(tmp);
        return;
    }
    Tensor<T, CUDA> ac = a, bc = b;
    ColMajor ca = as_col_major(m, k, a.stride(0), a.stride(1));
    if (!ca.ok) {
        ac.set(a.contiguous()); // rebind: `ac = ...` would write into a
        ca = as_col_major(m, k, ac.stride(0), ac.stride(1));
    }
    ColMajor cb = as_col_major(k, n, b.stride(0), b.stride(1));
    if (!cb.ok) {
        bc.set(b.contiguous());
        cb = as_col_major(k, n, bc.stride(0), bc.stride(1));
    }
    if (cc.trans) // C^T (n x m) = B^T A^T: B^T is stored as is when b is "trans"
        cuda::rt::gemm(dtype_of<T>(), cb.trans ? 'N' : 'T', ca.trans ? 'N' : 'T', n, m, k, alpha,
                       bc.data(), cb.ld, ac.data(), ca.ld, beta, c.data(), cc.ld, device);
    else // C (m x n) = A B
        cuda::rt::gemm(dtype_of<T>(), ca.trans ? 'T' : 'N', cb.trans ? 'T' : 'N', m, n, k, alpha,
                       ac.data(), ca.ld, bc.data(), cb.ld, beta, c.data(), cc.ld, device);
}

template <class T>
void check_2d(const Tensor<T, CUDA>& a, const Tensor<T, CUDA>& b, const char* op) {
    if (a.dim() != 2 || b.dim() != 2)
        fail<ShapeError>(op, ": expected 2-D matrices, got ", a.dim(), "-D (size ", a.sizes(),
                         ") and ", b.dim(), "-D (size ", b.sizes(), ")");
    if (a.size(1) != b.size(0))
        fail<ShapeError>(op, ": inner dimensions do not match: ", a.sizes(), " times ", b.sizes());
}

// beta c + alpha a b into a new tensor (c broadcast to the result; ignored when beta is 0).
template <class T>
Tensor<T, CUDA> product(double beta, const Tensor<T, CUDA>& c, double alpha,
                        const Tensor<T, CUDA>& a, const Tensor<T, CUDA>& b, const char* op) {
    const int device = beta != 0 ? same_device(op, a, b, c) : same_device(op, a, b);
    cuda::DeviceGuard guard(device);
    Tensor<T, CUDA> r(Shape{a.size(0), b.size(1)});
    if (beta != 0) {
        Shape joined = r.sizes();
        if (c.dim() == 0 || !broadcast_into(joined, c.sizes()) || !(joined == r.sizes()))
            fail<ShapeError>(op, ": the added tensor of size ", c.sizes(),
                             " does not broadcast to the result size ", r.sizes());
        r = c;
    }
    gemm(alpha, a, b, beta, r);
    return r;
}

} // namespace detail::cublas

template <class T>
Tensor<T, CUDA> addmm(double beta, const Tensor<T, CUDA>& c, double alpha, const Tensor<T, CUDA>& a,
                      const Tensor<T, CUDA>& b) {
    detail::cublas::check_2d(a, b, "addmm");
    return detail::cublas::product(beta, c, alpha, a, b, "addmm");
}
template <class T>
Tensor<T, CUDA> addmm(const Tensor<T, CUDA>& c, const Tensor<T, CUDA>& a,
                      const Tensor<T, CUDA>& b) {
    return addmm(1.0, c, 1.0, a, b);
}
template <class T>
Tensor<T, CUDA> mm(const Tensor<T, CUDA>& a, const Tensor<T, CUDA>& b) {
    detail::cublas::check_2d(a, b, "mm");
    return detail::cublas::product(0.0, Tensor<T, CUDA>(), 1.0, a, b, "mm");
}

// beta y + alpha m v (m: n x k, v: k): a product with a k x 1 matrix.
template <class T>
Tensor<T, CUDA> addmv(double beta, const Tensor<T, CUDA>& y, double alpha, const Tensor<T, CUDA>& m,
                      const Tensor<T, CUDA>& v) {
    if (m.dim() != 2 || v.dim() != 1)
        detail::fail<ShapeError>("addmv: expected a 2-D matrix and a 1-D vector, got ", m.dim(),
                                 "-D (size ", m.sizes(), ") and ", v.dim(), "-D (size ", v.sizes(),
                                 ")");
    if (m.size(1) != v.size(0))
        detail::fail<ShapeError>("addmv: size mismatch: matrix ", m.sizes(), " times vector ",
                                 v.sizes());
    const Tensor<T, CUDA> col = v.view(v.size(0), 1);
    const Tensor<T, CUDA> yc = beta != 0 ? y.view(y.nElement(), 1) : Tensor<T, CUDA>();
    if (beta != 0 && y.dim() != 1)
        detail::fail<ShapeError>("addmv: expected a 1-D vector to add, got size ", y.sizes());
    return detail::cublas::product(beta, yc, alpha, m, col, "addmv").view(m.size(0));
}
template <class T>
Tensor<T, CUDA> mv(const Tensor<T, CUDA>& m, const Tensor<T, CUDA>& v) {
    return addmv(0.0, Tensor<T, CUDA>(), 1.0, m, v);
}

// Sum of the products of a's and b's elements in layout order (equal counts).
template <class T>
T dot(const Tensor<T, CUDA>& a, const Tensor<T, CUDA>& b) {
    if (a.nElement() != b.nElement())
        detail::fail<ShapeError>("dot: inconsistent tensor sizes ", a.sizes(), " and ", b.sizes(),
                                 " (", a.nElement(), " and ", b.nElement(), " elements)");
    if (a.nElement() == 0) return T(0);
    auto flat = [](const Tensor<T, CUDA>& t) {
        return t.isContiguous() ? t.view(t.nElement()) : t.contiguous().view(t.nElement());
    };
    const Tensor<T, CUDA> x = flat(a).view(1, a.nElement()), y = flat(b).view(b.nElement(), 1);
    return detail::cublas::product(0.0, Tensor<T, CUDA>(), 1.0, x, y, "dot").cpu().data()[0];
}

} // namespace t7
