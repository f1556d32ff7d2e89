// Matrix products: dot mv mm bmm addmm addmv addr ger baddbmm matmul.
// The public functions check shapes and allocate; the device's Blas does the
// arithmetic on strided matrix descriptors (MatRef): Eigen's GEMM/GEMV on the
// CPU (cuBLAS in the GPU backend). A strided operand is mapped as an Eigen
// matrix with the storage order that makes its unit stride the inner one (a
// transposed row-major matrix is a column-major map); it is copied only when
// neither of its strides is 1.
#pragma once

#include "../core/error.hpp"
#include "../expr/operators.hpp"
#include "../expr/reductions.hpp"
#include "../iter/loop.hpp"
#include "../iter/parallel.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "factories.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

namespace t7 {

namespace detail {

// Element (i, j) of a rows x cols matrix at data[i * rs + j * cs].
template <class T>
struct MatRef {
    T* data;
    int64_t rows, cols, rs, cs;
    MatRef t() const { return {data, cols, rows, cs, rs}; }
};
// Element i of an n-vector at data[i * inc].
template <class T>
struct VecRef {
    T* data;
    int64_t n, inc;
};

template <class T, class D>
MatRef<T> mat_ref(const Tensor<T, D>& t) {
    return {t.data(), t.size(0), t.size(1), t.stride(0), t.stride(1)};
}
template <class T, class D>
MatRef<const T> cmat_ref(const Tensor<T, D>& t) {
    return {t.data(), t.size(0), t.size(1), t.stride(0), t.stride(1)};
}
template <class T, class D>
VecRef<T> vec_ref(const Tensor<T, D>& t) {
    return {t.data(), t.size(0), t.stride(0)};
}
template <class T, class D>
VecRef<const T> cvec_ref(const Tensor<T, D>& t) {
    return {t.data(), t.size(0), t.stride(0)};
}

// The element types the products take (Torch7's seven, without Half).
template <class T>
concept BlasScalar = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

template <class D>
struct Blas; // specialised per device

// ---- CPU: Eigen ----------------------------------------------------------------------
namespace eig {

enum class Order { row, col, none };

// Storage order in which m is a plain Eigen map (unit inner stride, rows that
// do not overlap), or none.
template <class T>
Order order(const MatRef<T>& m) {
    if ((m.cs == 1 || m.cols == 1) && (m.rows == 1 || m.rs >= m.cols)) return Order::row;
    if ((m.rs == 1 || m.rows == 1) && (m.cols == 1 || m.cs >= m.rows)) return Order::col;
    return Order::none;
}

template <class T, int O>
using Map = Eigen::Map<Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic, Eigen::Dynamic, O>,
                       Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T, int O>
using CMap =
    Eigen::Map<const Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic, Eigen::Dynamic, O>,
               Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// f(map) with m as an Eigen map of its own order (m must not be Order::none).
template <class T, class F>
decltype(auto) with_map(const MatRef<const T>& m, F&& f) {
    if (order(m) == Order::row)
        return f(CMap<T, Eigen::RowMajor>(m.data, m.rows, m.cols,
                                          Eigen::OuterStride<>(m.rows == 1 ? m.cols : m.rs)));
    return f(CMap<T, Eigen::ColMajor>(m.data, m.rows, m.cols,
                                      Eigen::OuterStride<>(m.cols == 1 ? m.rows : m.cs)));
}
template <class T>
Map<T, Eigen::RowMajor> row_map(const MatRef<T>& m) {
    return Map<T, Eigen::RowMajor>(m.data, m.rows, m.cols,
                                   Eigen::OuterStride<>(m.rows == 1 ? m.cols : m.rs));
}

// A contiguous copy of a matrix whose strides Eigen cannot express.
template <class T>
RowMatrix<T> gather(const MatRef<const T>& m) {
    RowMatrix<T> r(m.rows, m.cols);
    for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = 0; j < m.cols; ++j) r(i, j) = m.data[i * m.rs + j * m.cs];
    return r;
}
template <class T>
MatRef<const T> ref(const RowMatrix<T>& m) {
    return {m.data(), m.rows(), m.cols(), m.cols(), 1};
}

template <class T>
Vector<T> gather(const VecRef<const T>& v) {
    Vector<T> r(v.n);
    for (int64_t i = 0; i < v.n; ++i) r(i) = v.data[i * v.inc];
    return r;
}

// Eigen's GEMM threads follow t7::setNumThreads (called outside parallel regions).
inline void sync_threads() {
    const int n = getNumThreads();
    if (Eigen::nbThreads() != n) Eigen::setNbThreads(n);
}

} // namespace eig

template <>
struct Blas<CPU> {
    // C = beta C + alpha A B (C is m x n, A m x k, B k x n). C must not overlap A or
    // B; beta == 0 ignores C's values (BLAS semantics: NaN there does not leak).
    template <class T>
    static void gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        using namespace eig;
        const Order oc = order(C);
        if (oc == Order::col) // C^T = B^T A^T with C^T row-major
            return gemm(alpha, B.t(), A.t(), beta, C.t());
        if (oc == Order::none) { // into a contiguous temporary, then back
            RowMatrix<T> tmp(C.rows, C.cols);
            for (int64_t i = 0; i < C.rows && beta != T(0); ++i)
                for (int64_t j = 0; j < C.cols; ++j) tmp(i, j) = C.data[i * C.rs + j * C.cs];
            gemm(alpha, A, B, beta, MatRef<T>{tmp.data(), C.rows, C.cols, C.cols, 1});
            for (int64_t i = 0; i < C.rows; ++i)
                for (int64_t j = 0; j < C.cols; ++j) C.data[i * C.rs + j * C.cs] = tmp(i, j);
            return;
        }
        RowMatrix<T> ta, tb;
        if (order(A) == Order::none) {
            ta = gather(A);
            A = ref(ta);
        }
        if (order(B) == Order::none) {
            tb = gather(B);
            B = ref(tb);
        }
        auto c = row_map(C);
        if (beta == T(0))
            c.setZero();
        else if (beta != T(1))
            c *= beta;
        with_map(A, [&](const auto& a) {
            with_map(B, [&](const auto& b) { c.noalias() += alpha * a * b; });
        });
    }

    // y = beta y + alpha A x (A m x n).
    template <class T>
    static void gemv(T alpha, MatRef<const T> A, VecRef<const T> x, T beta, VecRef<T> y) {
        using namespace eig;
        RowMatrix<T> ta;
        if (order(A) == Order::none) {
            ta = gather(A);
            A = ref(ta);
        }
        Vector<T> tx;
        if (x.inc != 1 && x.n > 1) {
            tx = gather(x);
            x = {tx.data(), x.n, 1};
        }
        Vector<T> ty;
        VecRef<T> out = y;
        if (y.inc != 1 && y.n > 1) {
            ty = Vector<T>(y.n);
            for (int64_t i = 0; i < y.n && beta != T(0); ++i) ty(i) = y.data[i * y.inc];
            out = {ty.data(), y.n, 1};
        }
        Eigen::Map<const Vector<T>> xm(x.data, x.n);
        Eigen::Map<Vector<T>> ym(out.data, out.n);
        if (beta == T(0))
            ym.setZero();
        else if (beta != T(1))
            ym *= beta;
        with_map(A, [&](const auto& a) { ym.noalias() += alpha * a * xm; });
        if (out.data != y.data)
            for (int64_t i = 0; i < y.n; ++i) y.data[i * y.inc] = ty(i);
    }

    // M += alpha x y^T (M m x n).
    template <class T>
    static void ger(T alpha, VecRef<const T> x, VecRef<const T> y, MatRef<T> M) {
        using namespace eig;
        if (order(M) == Order::col) return ger(alpha, y, x, M.t());
        Vector<T> tx = gather(x), ty = gather(y);
        if (order(M) == Order::none) {
            RowMatrix<T> tmp = gather(MatRef<const T>{M.data, M.rows, M.cols, M.rs, M.cs});
            tmp.noalias() += alpha * tx * ty.transpose();
            for (int64_t i = 0; i < M.rows; ++i)
                for (int64_t j = 0; j < M.cols; ++j) M.data[i * M.rs + j * M.cs] = tmp(i, j);
            return;
        }
        row_map(M).noalias() += alpha * tx * ty.transpose();
    }

    template <class T>
    static auto dot(VecRef<const T> x, VecRef<const T> y) {
        using namespace eig;
        if (x.inc == 1 && y.inc == 1)
            return Eigen::Map<const Vector<T>>(x.data, x.n)
                .dot(Eigen::Map<const Vector<T>>(y.data, y.n));
        using S = Eigen::Map<const Vector<T>, 0, Eigen::InnerStride<>>;
        return S(x.data, x.n, Eigen::InnerStride<>(x.inc))
            .dot(S(y.data, y.n, Eigen::InnerStride<>(y.inc)));
    }

    // C[b] = beta C[b] + alpha A[b] B[b] for every index b of `batch`; the k-th
    // operand's matrix b starts at its base + (offsets along `batch` strides).
    template <class T>
    static void batched_gemm(T alpha, const Shape& batch, MatRef<const T> A, const Shape& sa,
                             MatRef<const T> B, const Shape& sb, T beta, MatRef<T> C,
                             const Shape& sc) {
        eig::sync_threads();
        const iter::Loop<3> L = iter::make_loop<3>(batch, {&sa, &sb, &sc}, false);
        // Small matrices: one per thread. Large ones: Eigen threads each product.
        const bool per_thread = L.numel > 1 && A.rows * A.cols * B.cols < 96 * 96 * 96;
        auto body = [&](int64_t b, int64_t e, int64_t) {
            iter::for_each_run(L, b, e, [&](const std::array<int64_t, 3>& off, int64_t n) {
                for (int64_t j = 0; j < n; ++j) {
                    MatRef<const T> a = A, bb = B;
                    MatRef<T> c = C;
                    a.data += off[0] + j * L.inner_stride(0);
                    bb.data += off[1] + j * L.inner_stride(1);
                    c.data += off[2] + j * L.inner_stride(2);
                    gemm(alpha, a, bb, beta, c);
                }
            });
        };
        if (per_thread)
            iter::parallel_for(L.numel, 1, body);
        else
            body(0, L.numel, 0);
    }
};

// ---- shape checks ---------------------------------------------------------------------
template <class T, class D>
void require_dim(const Tensor<T, D>& t, int64_t d, const char* op, const char* what) {
    if (t.dim() != d)
        fail<ShapeError>(op, ": expected ", what, " of ", d, " dimensions, got ", t.dim(),
                         "-D of size ", t.sizes());
}

// A tensor of `shape` holding c broadcast (c's shape must broadcast to it).
template <class T, class D>
Tensor<T, D> broadcast_copy(const Tensor<T, D>& c, const Shape& shape, const char* op) {
    Shape joined = shape;
    if (c.dim() == 0 || !broadcast_into(joined, c.sizes()) || !(joined == shape))
        fail<ShapeError>(op, ": the added tensor of size ", c.sizes(),
                         " does not broadcast to the result size ", shape);
    Tensor<T, D> r(shape);
    r = c;
    return r;
}

template <class T, class D>
bool overlaps(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    if (a.dim() == 0 || b.dim() == 0) return false;
    const auto ra = byte_range(a), rb = byte_range(b);
    return ra.first < rb.second && rb.first < ra.second;
}

} // namespace detail

// ---- dot -----------------------------------------------------------------------------------
// Sum of the products of the elements of a and b, paired in layout order (equal
// element counts; shapes may differ, as in Torch7). Floating types return T,
// integer types int64.
template <detail::BlasScalar T, class D>
auto dot(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    using R = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
    if (a.nElement() != b.nElement())
        detail::fail<ShapeError>("dot: inconsistent tensor sizes ", a.sizes(), " and ", b.sizes(),
                                 " (", a.nElement(), " and ", b.nElement(), " elements)");
    if (a.nElement() == 0) return R(0);
    if constexpr (std::is_floating_point_v<T>) {
        auto flat = [](const Tensor<T, D>& t) {
            return t.dim() == 1 ? t : t.contiguous().view(t.nElement());
        };
        const Tensor<T, D> x = flat(a), y = flat(b);
        return R(detail::Blas<D>::dot(detail::cvec_ref(x), detail::cvec_ref(y)));
    } else if (a.sizes() == b.sizes()) {
        return R(t7::sum(t7::cast<int64_t>(a) * t7::cast<int64_t>(b)));
    } else {
        const Tensor<T, D> y = b.contiguous().view(a.sizes());
        return R(t7::sum(t7::cast<int64_t>(a) * t7::cast<int64_t>(y)));
    }
}

// ---- matrix-vector -------------------------------------------------------------------------
// beta y + alpha m v (m: n x k, v: k, y broadcast to n).
template <detail::BlasScalar T, class D>
Tensor<T, D> addmv(double beta, const Tensor<T, D>& y, double alpha, const Tensor<T, D>& m,
                   const Tensor<T, D>& v) {
    detail::require_dim(m, 2, "addmv", "a matrix");
    detail::require_dim(v, 1, "addmv", "a vector");
    if (m.size(1) != v.size(0))
        detail::fail<ShapeError>("addmv: size mismatch: matrix ", m.sizes(), " times vector ",
                                 v.sizes());
    Tensor<T, D> r =
        beta == 0 ? Tensor<T, D>(m.size(0)) : detail::broadcast_copy(y, Shape{m.size(0)}, "addmv");
    detail::eig::sync_threads();
    detail::Blas<D>::gemv(convert<T>(alpha), detail::cmat_ref(m), detail::cvec_ref(v),
                          convert<T>(beta), detail::vec_ref(r));
    return r;
}
template <detail::BlasScalar T, class D>
Tensor<T, D> addmv(const Tensor<T, D>& y, const Tensor<T, D>& m, const Tensor<T, D>& v) {
    return addmv(1.0, y, 1.0, m, v);
}
// m v (m: n x k, v: k) -> n.
template <detail::BlasScalar T, class D>
Tensor<T, D> mv(const Tensor<T, D>& m, const Tensor<T, D>& v) {
    if (m.dim() != 2 || v.dim() != 1)
        detail::fail<ShapeError>("mv: expected a 2-D matrix and a 1-D vector, got ", m.dim(),
                                 "-D (size ", m.sizes(), ") and ", v.dim(), "-D (size ", v.sizes(),
                                 ")");
    return addmv(0.0, Tensor<T, D>(), 1.0, m, v);
}

// ---- outer products ----------------------------------------------------------------------
// beta M + alpha a b^T (a: n, b: m, M broadcast to n x m).
template <detail::BlasScalar T, class D>
Tensor<T, D> addr(double beta, const Tensor<T, D>& M, double alpha, const Tensor<T, D>& a,
                  const Tensor<T, D>& b) {
    detail::require_dim(a, 1, "addr", "a vector");
    detail::require_dim(b, 1, "addr", "a vector");
    const Shape shape{a.size(0), b.size(0)};
    Tensor<T, D> r = beta == 0 ? zeros<T, D>(shape) : detail::broadcast_copy(M, shape, "addr");
    if (beta != 0 && beta != 1) r.mul(beta);
    detail::Blas<D>::ger(convert<T>(alpha), detail::cvec_ref(a), detail::cvec_ref(b),
                         detail::mat_ref(r));
    return r;
}
template <detail::BlasScalar T, class D>
Tensor<T, D> addr(const Tensor<T, D>& M, const Tensor<T, D>& a, const Tensor<T, D>& b) {
    return addr(1.0, M, 1.0, a, b);
}
// Outer product a b^T (a: n, b: m) -> n x m.
template <detail::BlasScalar T, class D>
Tensor<T, D> ger(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    detail::require_dim(a, 1, "ger", "a vector");
    detail::require_dim(b, 1, "ger", "a vector");
    return addr(0.0, Tensor<T, D>(), 1.0, a, b);
}

// ---- matrix-matrix ---------------------------------------------------------------------
namespace detail {
template <class T, class D>
void check_mm(const Tensor<T, D>& a, const Tensor<T, D>& b, const char* op) {
    if (a.dim() != 2 || b.dim() != 2)
        fail<ShapeError>(op, ": expected 2-D matrices, got ", a.dim(), "-D (size ", a.sizes(),
                         ") and ", b.dim(), "-D (size ", b.sizes(), ")");
    if (a.size(1) != b.size(0))
        fail<ShapeError>(op, ": inner dimensions do not match: ", a.sizes(), " times ", b.sizes());
}
} // namespace detail

// beta c + alpha a b (a: n x k, b: k x p, c broadcast to n x p).
template <detail::BlasScalar T, class D>
Tensor<T, D> addmm(double beta, const Tensor<T, D>& c, double alpha, const Tensor<T, D>& a,
                   const Tensor<T, D>& b) {
    detail::check_mm(a, b, "addmm");
    const Shape shape{a.size(0), b.size(1)};
    Tensor<T, D> r = beta == 0 ? Tensor<T, D>(shape) : detail::broadcast_copy(c, shape, "addmm");
    detail::eig::sync_threads();
    detail::Blas<D>::gemm(convert<T>(alpha), detail::cmat_ref(a), detail::cmat_ref(b),
                          convert<T>(beta), detail::mat_ref(r));
    return r;
}
template <detail::BlasScalar T, class D>
Tensor<T, D> addmm(const Tensor<T, D>& c, const Tensor<T, D>& a, const Tensor<T, D>& b) {
    return addmm(1.0, c, 1.0, a, b);
}
// Matrix product a b (a: n x k, b: k x p) -> n x p; a and b may be any strided views.
template <detail::BlasScalar T, class D>
Tensor<T, D> mm(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    detail::check_mm(a, b, "mm");
    return addmm(0.0, Tensor<T, D>(), 1.0, a, b);
}

// ---- batched ---------------------------------------------------------------------------
namespace detail {
template <class T, class D>
void check_bmm(const Tensor<T, D>& a, const Tensor<T, D>& b, const char* op) {
    if (a.dim() != 3 || b.dim() != 3)
        fail<ShapeError>(op, ": expected 3-D batches of matrices, got ", a.dim(), "-D (size ",
                         a.sizes(), ") and ", b.dim(), "-D (size ", b.sizes(), ")");
    if (a.size(0) != b.size(0))
        fail<ShapeError>(op, ": batch sizes differ: ", a.sizes(), " and ", b.sizes());
    if (a.size(2) != b.size(1))
        fail<ShapeError>(op, ": inner dimensions do not match: ", a.sizes(), " times ", b.sizes());
}

// Matrix view of the last two dimensions, and the leading (batch) strides.
template <class T, class D>
MatRef<const T> last2(const Tensor<T, D>& t) {
    const int64_t n = t.dim();
    return {t.data(), t.size(n - 2), t.size(n - 1), t.stride(n - 2), t.stride(n - 1)};
}
template <class T, class D>
Shape batch_strides(const Tensor<T, D>& t) {
    return Shape(t.strides().begin(), t.strides().end() - 2);
}
template <class T>
MatRef<T> writable(const MatRef<const T>& m) {
    return {const_cast<T*>(m.data), m.rows, m.cols, m.rs, m.cs};
}
} // namespace detail

// beta c[i] + alpha a[i] b[i] for each i (a: B x n x k, b: B x k x p, c broadcast).
template <detail::BlasScalar T, class D>
Tensor<T, D> baddbmm(double beta, const Tensor<T, D>& c, double alpha, const Tensor<T, D>& a,
                     const Tensor<T, D>& b) {
    detail::check_bmm(a, b, "baddbmm");
    const Shape shape{a.size(0), a.size(1), b.size(2)};
    Tensor<T, D> r = beta == 0 ? Tensor<T, D>(shape) : detail::broadcast_copy(c, shape, "baddbmm");
    detail::Blas<D>::batched_gemm(convert<T>(alpha), Shape{a.size(0)}, detail::last2(a),
                                  detail::batch_strides(a), detail::last2(b),
                                  detail::batch_strides(b), convert<T>(beta),
                                  detail::writable(detail::last2(r)), detail::batch_strides(r));
    return r;
}
template <detail::BlasScalar T, class D>
Tensor<T, D> baddbmm(const Tensor<T, D>& c, const Tensor<T, D>& a, const Tensor<T, D>& b) {
    return baddbmm(1.0, c, 1.0, a, b);
}
// Batched product (a: B x n x k, b: B x k x p) -> B x n x p.
template <detail::BlasScalar T, class D>
Tensor<T, D> bmm(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    detail::check_bmm(a, b, "bmm");
    return baddbmm(0.0, Tensor<T, D>(), 1.0, a, b);
}

// NumPy/PyTorch matmul: 1-D x 1-D is the dot product (a 1-element tensor); 2-D x
// 2-D is mm; a 1-D operand is a row (left) or column (right) vector, dropped from
// the result; beyond 2-D the leading (batch) dimensions broadcast.
template <detail::BlasScalar T, class D>
Tensor<T, D> matmul(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    const int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0)
        detail::fail<ShapeError>("matmul: empty operand (sizes ", a.sizes(), " and ", b.sizes(),
                                 ")");
    if (da == 1 && db == 1) {
        if (a.size(0) != b.size(0))
            detail::fail<ShapeError>("matmul: vector sizes do not match: ", a.sizes(), " and ",
                                     b.sizes());
        Tensor<T, D> r(1);
        r.fill(convert<T>(dot(a, b)));
        return r;
    }
    if (da == 2 && db == 2) {
        detail::check_mm(a, b, "matmul");
        return addmm(0.0, Tensor<T, D>(), 1.0, a, b);
    }
    const Tensor<T, D> A = da == 1 ? a.unsqueeze(0) : a, B = db == 1 ? b.unsqueeze(1) : b;
    const int64_t n = A.size(-2), k = A.size(-1), p = B.size(-1);
    if (B.size(-2) != k)
        detail::fail<ShapeError>("matmul: inner dimensions do not match: ", a.sizes(), " times ",
                                 b.sizes());
    Shape batch(A.sizes().begin(), A.sizes().end() - 2);
    if (!detail::broadcast_into(batch, Shape(B.sizes().begin(), B.sizes().end() - 2)))
        detail::fail<ShapeError>("matmul: batch dimensions of ", a.sizes(), " and ", b.sizes(),
                                 " do not broadcast");
    Shape out = batch; // the result's shape, without the dimensions of 1-D operands
    if (da > 1) out.push_back(n);
    if (db > 1) out.push_back(p);
    if (batch.empty()) { // 2-D with a vector: a matrix-vector product
        if (db == 1) return mv(A, b);
        return mv(B.t(), a);
    }
    if (B.dim() == 2 && A.isContiguous()) // one GEMM over all the rows of the batch
        return mm(A.view(-1, k), B).view(out);
    // Leading dimensions broadcast with stride 0: no copies.
    auto expand = [&](const Tensor<T, D>& t, int64_t r, int64_t c) {
        Shape sz = batch, st(batch.size(), 0);
        const size_t lead = batch.size() - size_t(t.dim() - 2);
        for (size_t i = lead; i < batch.size(); ++i) {
            sz[i] = batch[i];
            st[i] = t.size(int64_t(i - lead)) == 1 ? 0 : t.stride(int64_t(i - lead));
        }
        sz.push_back(r);
        sz.push_back(c);
        st.push_back(t.stride(-2));
        st.push_back(t.stride(-1));
        return Tensor<T, D>(t.storage(), t.storageOffset(), sz, st);
    };
    const Tensor<T, D> Ae = expand(A, n, k), Be = expand(B, k, p);
    Shape full = batch;
    full.push_back(n);
    full.push_back(p);
    Tensor<T, D> r(full);
    detail::Blas<D>::batched_gemm(T(1), batch, detail::last2(Ae), detail::batch_strides(Ae),
                                  detail::last2(Be), detail::batch_strides(Be), T(0),
                                  detail::writable(detail::last2(r)), detail::batch_strides(r));
    return r.view(out);
}

} // namespace t7
