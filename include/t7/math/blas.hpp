// Matrix products: dot mv mm bmm addmm addmv addr ger baddbmm addbmm matmul, on every
// device. The public functions check shapes and devices, allocate the result on
// the operands' device (made current for the call), and hand strided matrix
// descriptors (MatRef, VecRef) to that device's Blas<D>:
//   eval/cpu/blas.hpp  Blas<CPU>: Eigen's GEMM/GEMV (from <t7/t7.hpp>);
//   cuda/blas.hpp      Blas<CUDA>: cuBLAS through tensor7_cuda (from <t7/t7.hpp>
//                      and <t7/cuda.hpp>).
// This header has no device code: it needs neither Eigen nor a CUDA toolkit.
// Operands on different devices (a CPU and a CUDA tensor, or two GPUs) throw
// DeviceError naming both.
#pragma once

#include "../core/error.hpp"
#include "../core/half.hpp"
#include "../core/memory.hpp"
#include "../core/size_math.hpp"
#include "../eval/assign.hpp"
#include "../expr/traverse.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "pending_product.hpp"

#include <cstdint>
#include <initializer_list>
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

// The element types the products accept at compile time: Torch7's seven and
// Half. Each device's Blas throws TypeError for the ones it does not compute
// (Half on the CPU; all but Float, Double and Half on CUDA).
template <class T>
concept BlasScalar = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) ||
                     std::is_same_v<T, Half> || is_complex_v<T>;

// dot's result: int64 for integer types, else the element type.
template <class T>
using dot_result_t = std::conditional_t<std::is_integral_v<T>, int64_t, T>;

// The arithmetic of the products on device D, on the current device (the
// caller makes the operands' device current). Every T is a BlasScalar; C, y and
// M never overlap the operands read; beta == 0 ignores C's, y's or M's values.
//   gemm(alpha, A, B, beta, C)       C = beta C + alpha A B   (A m x k, B k x n)
//   gemv(alpha, A, x, beta, y)       y = beta y + alpha A x
//   ger(alpha, x, y, beta, M)        M = beta M + alpha x y^T
//   dot(x, y) -> dot_result_t<T>     sum of x[i] y[i]
//   batched_gemm(alpha, batch, A, sa, B, sb, beta, C, sc)
//       gemm for every index b of the shape `batch`; operand k's matrix b
//       starts at its data + the dot product of b with its batch strides.
template <class D>
struct Blas; // specialised per device

// ---- device checks --------------------------------------------------------------------
// Operands of two device kinds (a CPU and a CUDA tensor).
template <class TA, class DA, class TB, class DB>
[[noreturn]] void mixed_devices(const char* op, const Tensor<TA, DA>& a, const Tensor<TB, DB>& b) {
    fail<DeviceError>(op, ": operands on ", device_label<DA>(a.getDevice()), " and ",
                      device_label<DB>(b.getDevice()), "; only copy() moves data between devices");
}

// The device (of kind D) shared by the operands whose ids are given (-1: an
// operand left out, such as an ignored c); DeviceError naming two that differ.
template <class D>
int one_device(const char* op, std::initializer_list<int> ids) {
    int first = -1;
    for (int id : ids) {
        if (id < 0) continue;
        if (first < 0)
            first = id;
        else if (id != first)
            fail<DeviceError>(op, ": operands on ", device_label<D>(first), " and ",
                              device_label<D>(id), "; only copy() moves data between devices");
    }
    return first < 0 ? DeviceMemory<D>::current_device() : first;
}
// A tensor's device id for one_device; -1 for one without elements (nothing of
// it is read, and an empty tensor may have no storage to know its device).
template <class T, class D>
int device_id(const Tensor<T, D>& t) {
    return t.nElement() > 0 ? t.getDevice() : -1;
}

// ---- shape checks ---------------------------------------------------------------------
template <class T, class D>
void require_dim(const Tensor<T, D>& t, int64_t d, const char* op, const char* what) {
    if (t.dim() != d)
        fail<ShapeError>(op, ": expected ", what, " of ", d, " dimensions, got ", t.dim(),
                         "-D of size ", t.sizes());
}

// Throws ShapeError unless the added term c broadcasts to the result's shape.
template <class T, class D>
void check_added(const Tensor<T, D>& c, const Shape& shape, const char* op) {
    Shape joined = shape;
    if (c.dim() == 0 || !broadcast_into(joined, c.sizes()) || !(joined == shape))
        fail<ShapeError>(op, ": the added tensor of size ", c.sizes(),
                         " does not broadcast to the result size ", shape);
}

// A tensor of `shape` holding c broadcast (c's shape must broadcast to it).
template <class T, class D>
Tensor<T, D> broadcast_copy(const Tensor<T, D>& c, const Shape& shape, const char* op) {
    check_added(c, shape, op);
    Tensor<T, D> r(shape);
    r = c;
    return r;
}

// The frame of addmv, addr, addmm and baddbmm, beta c + alpha (a . b) of size
// `shape`: the device checks (c counts only when beta != 0), then a result on the
// operands' device holding c broadcast (left uninitialised when beta is 0), into
// which product(r, beta) accumulates alpha (a . b).
template <class T, class D, class DC, class DB, class F>
Tensor<T, D> scaled_product(const char* op, double beta, const Tensor<T, DC>& c,
                            const Tensor<T, D>& a, const Tensor<T, DB>& b, const Shape& shape,
                            F&& product) {
    if constexpr (!std::is_same_v<D, DB>) {
        mixed_devices(op, a, b);
    } else if constexpr (!std::is_same_v<D, DC>) {
        if (beta != 0) mixed_devices(op, a, c);
        return scaled_product(op, 0.0, Tensor<T, D>(), a, b, shape, std::forward<F>(product));
    } else {
        const int dev =
            one_device<D>(op, {device_id(a), device_id(b), beta != 0 ? device_id(c) : -1});
        typename DeviceMemory<D>::Scope scope(dev);
        Tensor<T, D> r = beta == 0 ? Tensor<T, D>(shape) : broadcast_copy(c, shape, op);
        product(r, convert<T>(beta));
        return r;
    }
}

template <class T, class D>
bool overlaps(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    if (a.nElement() == 0 || b.nElement() == 0) return false;
    const auto ra = byte_range(a), rb = byte_range(b);
    return ra.first < rb.second && rb.first < ra.second;
}

} // namespace detail

// ---- dot -----------------------------------------------------------------------------------
// Sum of the products of the elements of a and b, paired in layout order (equal
// element counts; shapes may differ, as in Torch7). Integer types return int64,
// the others their element type.
// (Complex tensors: ops/complex.hpp's dot and vdot.)
template <detail::BlasScalar T, class D, class DB>
requires(!is_complex_v<T>) detail::dot_result_t<T> dot(const Tensor<T, D>& a,
                                                       const Tensor<T, DB>& b) {
    using R = detail::dot_result_t<T>;
    if (a.nElement() != b.nElement())
        detail::fail<ShapeError>("dot: inconsistent tensor sizes ", a.sizes(), " and ", b.sizes(),
                                 " (", a.nElement(), " and ", b.nElement(), " elements)");
    if constexpr (!std::is_same_v<D, DB>) {
        detail::mixed_devices("dot", a, b);
    } else {
        const int dev = detail::one_device<D>("dot", {detail::device_id(a), detail::device_id(b)});
        if (a.nElement() == 0) return convert<R>(0);
        typename DeviceMemory<D>::Scope scope(dev);
        auto flat = [](const Tensor<T, D>& t) {
            return t.dim() == 1 ? t : t.contiguous().view(t.nElement());
        };
        const Tensor<T, D> x = flat(a), y = flat(b);
        return detail::Blas<D>::dot(detail::cvec_ref(x), detail::cvec_ref(y));
    }
}

// ---- matrix-vector -------------------------------------------------------------------------
// beta y + alpha m v (m: n x k, v: k, y broadcast to n; y is ignored when beta is 0).
template <detail::BlasScalar T, class DY, class D, class DV>
Tensor<T, D> addmv(double beta, const Tensor<T, DY>& y, double alpha, const Tensor<T, D>& m,
                   const Tensor<T, DV>& v) {
    detail::require_dim(m, 2, "addmv", "a matrix");
    detail::require_dim(v, 1, "addmv", "a vector");
    if (m.size(1) != v.size(0))
        detail::fail<ShapeError>("addmv: size mismatch: matrix ", m.sizes(), " times vector ",
                                 v.sizes());
    return detail::scaled_product("addmv", beta, y, m, v, Shape{m.size(0)}, [&](auto& r, auto b) {
        detail::Blas<D>::gemv(convert<T>(alpha), detail::cmat_ref(m), detail::cvec_ref(v), b,
                              detail::vec_ref(r));
    });
}
template <detail::BlasScalar T, class DY, class D, class DV>
Tensor<T, D> addmv(const Tensor<T, DY>& y, const Tensor<T, D>& m, const Tensor<T, DV>& v) {
    return addmv(1.0, y, 1.0, m, v);
}
// m v (m: n x k, v: k) -> n.
template <detail::BlasScalar T, class D, class DV>
Tensor<T, D> mv(const Tensor<T, D>& m, const Tensor<T, DV>& v) {
    if (m.dim() != 2 || v.dim() != 1)
        detail::fail<ShapeError>("mv: expected a 2-D matrix and a 1-D vector, got ", m.dim(),
                                 "-D (size ", m.sizes(), ") and ", v.dim(), "-D (size ", v.sizes(),
                                 ")");
    return addmv(0.0, Tensor<T, D>(), 1.0, m, v);
}

// ---- matrix-matrix ---------------------------------------------------------------------
namespace detail {
template <class T, class DA, class DB>
void check_mm(const Tensor<T, DA>& a, const Tensor<T, DB>& b, const char* op) {
    if (a.dim() != 2 || b.dim() != 2)
        fail<ShapeError>(op, ": expected 2-D matrices, got ", a.dim(), "-D (size ", a.sizes(),
                         ") and ", b.dim(), "-D (size ", b.sizes(), ")");
    if (a.size(1) != b.size(0))
        fail<ShapeError>(op, ": inner dimensions do not match: ", a.sizes(), " times ", b.sizes());
    check_result_numel(Shape{a.size(0), b.size(1)}, a.sizes(), b.sizes(), op);
}
} // namespace detail

namespace detail {
// Products computed at the end of the statement, or consumed by blocks inside
// it (core/pending.hpp): CPU operands of a type Eigen multiplies, and a result
// with elements.
template <class T, class DC, class D, class DB>
constexpr bool pending_products =
    std::conjunction_v<std::is_same<D, CPU>, std::is_same<DB, CPU>, std::is_same<DC, CPU>,
                       std::is_arithmetic<T>, std::negation<std::is_same<T, bool>>>;

// The added term of a pending product: c broadcast to the result's shape without
// a copy (stride 0 where it stretches), or an empty tensor when beta is 0.
template <class T>
Tensor<T, CPU> added_view(double beta, const Tensor<T, CPU>& c, const Shape& shape,
                          const char* op) {
    if (beta == 0) return {};
    check_added(c, shape, op);
    return Tensor<T, CPU>(c.storage(), c.storageOffset(), shape,
                          broadcast_strides(c.sizes(), c.strides(), shape));
}

// beta c + alpha (a . b) of `shape`: pending on the CPU (math/pending_product.hpp;
// a . b is mm's or bmm's product), computed now by scaled_product's `product`
// elsewhere.
template <class T, class DC, class D, class DB, class F>
Tensor<T, D> product_of(const char* op, double beta, const Tensor<T, DC>& c, double alpha,
                        const Tensor<T, D>& a, const Tensor<T, DB>& b, const Shape& shape,
                        const ProductScope& scope, F&& product) {
    if constexpr (pending_products<T, DC, D, DB>)
        if (shape.numel() > 0)
            return pending_product(convert<T>(beta), added_view(beta, c, shape, op),
                                   convert<T>(alpha), a, b, scope);
    (void)scope; // other devices compute at the call
    return scaled_product(op, beta, c, a, b, shape, std::forward<F>(product));
}

} // namespace detail

// ---- outer products ----------------------------------------------------------------------
// beta M + alpha a b^T (a: n, b: m, M broadcast to n x m; M is ignored when beta is 0).
// On the CPU a pending product of depth 1, like mm's: `c = addr(...)` writes c
// in one pass after copying M, with no temporary.
template <detail::BlasScalar T, class DM, class D, class DB>
Tensor<T, D> addr(double beta, const Tensor<T, DM>& M, double alpha, const Tensor<T, D>& a,
                  const Tensor<T, DB>& b, const detail::ProductScope& scope = {}) {
    detail::require_dim(a, 1, "addr", "a vector");
    detail::require_dim(b, 1, "addr", "a vector");
    const Shape shape{a.size(0), b.size(0)};
    detail::check_result_numel(shape, a.sizes(), b.sizes(), "addr");
    // a as an n x 1 matrix, b as 1 x m: views, no copy.
    const Tensor<T, D> col = a.unsqueeze(1);
    const Tensor<T, DB> row = b.unsqueeze(0);
    return detail::product_of("addr", beta, M, alpha, col, row, shape, scope,
                              [&](auto& r, auto bt) {
                                  detail::Blas<D>::ger(convert<T>(alpha), detail::cvec_ref(a),
                                                       detail::cvec_ref(b), bt, detail::mat_ref(r));
                              });
}
template <detail::BlasScalar T, class DM, class D, class DB>
Tensor<T, D> addr(const Tensor<T, DM>& M, const Tensor<T, D>& a, const Tensor<T, DB>& b,
                  const detail::ProductScope& scope = {}) {
    return addr(1.0, M, 1.0, a, b, scope);
}
// Outer product a b^T (a: n, b: m) -> n x m.
template <detail::BlasScalar T, class D, class DB>
Tensor<T, D> ger(const Tensor<T, D>& a, const Tensor<T, DB>& b,
                 const detail::ProductScope& scope = {}) {
    detail::require_dim(a, 1, "ger", "a vector");
    detail::require_dim(b, 1, "ger", "a vector");
    return addr(0.0, Tensor<T, D>(), 1.0, a, b, scope);
}

// beta c + alpha a b (a: n x k, b: k x p, c broadcast to n x p; c is ignored when beta is 0).
// On the CPU the result is pending until the end of the statement (see mm).
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> addmm(double beta, const Tensor<T, DC>& c, double alpha, const Tensor<T, D>& a,
                   const Tensor<T, DB>& b, const detail::ProductScope& scope = {}) {
    detail::check_mm(a, b, "addmm");
    const Shape shape{a.size(0), b.size(1)};
    return detail::product_of("addmm", beta, c, alpha, a, b, shape, scope, [&](auto& r, auto bt) {
        detail::Blas<D>::gemm(convert<T>(alpha), detail::cmat_ref(a), detail::cmat_ref(b), bt,
                              detail::mat_ref(r));
    });
}
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> addmm(const Tensor<T, DC>& c, const Tensor<T, D>& a, const Tensor<T, DB>& b,
                   const detail::ProductScope& scope = {}) {
    return addmm(1.0, c, 1.0, a, b, scope);
}
// Matrix product a b (a: n x k, b: k x p) -> n x p; a and b may be any strided views.
// Shapes are checked at the call. On the CPU the returned tensor's storage is
// pending: `scope`, a temporary of the caller's statement, computes it at the
// end of that statement if anything still holds it (`auto c = mm(a, b);`), so
// the value is the product of the operands as they were then; an assignment
// inside the statement (`y = sigmoid(mm(a, b) + bias)`) may instead consume it
// block by block without ever allocating it (eval/cpu/product_blocks.hpp).
template <detail::BlasScalar T, class D, class DB>
Tensor<T, D> mm(const Tensor<T, D>& a, const Tensor<T, DB>& b,
                const detail::ProductScope& scope = {}) {
    detail::check_mm(a, b, "mm");
    return addmm(0.0, Tensor<T, D>(), 1.0, a, b, scope);
}

// ---- batched ---------------------------------------------------------------------------
namespace detail {
template <class T, class DA, class DB>
void check_bmm(const Tensor<T, DA>& a, const Tensor<T, DB>& b, const char* op) {
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

// beta c[i] + alpha a[i] b[i] for each i (a: B x n x k, b: B x k x p, c broadcast;
// c is ignored when beta is 0). On the CPU the result is pending until the end of
// the statement, as mm's: an element-wise assignment consumes it block by block.
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> baddbmm(double beta, const Tensor<T, DC>& c, double alpha, const Tensor<T, D>& a,
                     const Tensor<T, DB>& b, const detail::ProductScope& scope = {}) {
    detail::check_bmm(a, b, "baddbmm");
    const Shape shape{a.size(0), a.size(1), b.size(2)};
    return detail::product_of("baddbmm", beta, c, alpha, a, b, shape, scope, [&](auto& r, auto bt) {
        detail::Blas<D>::batched_gemm(convert<T>(alpha), Shape{a.size(0)}, detail::last2(a),
                                      detail::batch_strides(a), detail::last2(b),
                                      detail::batch_strides(b), bt,
                                      detail::writable(detail::last2(r)), detail::batch_strides(r));
    });
}
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> baddbmm(const Tensor<T, DC>& c, const Tensor<T, D>& a, const Tensor<T, DB>& b,
                     const detail::ProductScope& scope = {}) {
    return baddbmm(1.0, c, 1.0, a, b, scope);
}
// Batched product (a: B x n x k, b: B x k x p) -> B x n x p; pending on the CPU (see
// baddbmm).
template <detail::BlasScalar T, class D, class DB>
Tensor<T, D> bmm(const Tensor<T, D>& a, const Tensor<T, DB>& b,
                 const detail::ProductScope& scope = {}) {
    detail::check_bmm(a, b, "bmm");
    return baddbmm(0.0, Tensor<T, D>(), 1.0, a, b, scope);
}

// beta c + alpha sum_i a[i] b[i] (a: B x n x k, b: B x k x p, c broadcast to n x p;
// c is ignored when beta is 0). Torch7's addbmm.
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> addbmm(double beta, const Tensor<T, DC>& c, double alpha, const Tensor<T, D>& a,
                    const Tensor<T, DB>& b) {
    detail::check_bmm(a, b, "addbmm");
    const Shape shape{a.size(1), b.size(2)};
    return detail::scaled_product("addbmm", beta, c, a, b, shape, [&](auto& r, auto bt) {
        for (int64_t i = 0; i < a.size(0); ++i)
            detail::Blas<D>::gemm(convert<T>(alpha), detail::cmat_ref(a.select(0, i)),
                                  detail::cmat_ref(b.select(0, i)), i == 0 ? bt : convert<T>(1),
                                  detail::mat_ref(r));
    });
}
template <detail::BlasScalar T, class DC, class D, class DB>
Tensor<T, D> addbmm(const Tensor<T, DC>& c, const Tensor<T, D>& a, const Tensor<T, DB>& b) {
    return addbmm(1.0, c, 1.0, a, b);
}

// NumPy/PyTorch matmul: 1-D x 1-D is the dot product (a 1-element tensor); 2-D x
// 2-D is mm; a 1-D operand is a row (left) or column (right) vector, dropped from
// the result; beyond 2-D the leading (batch) dimensions broadcast.
template <detail::BlasScalar T, class D, class DB>
Tensor<T, D> matmul(const Tensor<T, D>& a, const Tensor<T, DB>& b) {
    const int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0)
        detail::fail<ShapeError>("matmul: empty operand (sizes ", a.sizes(), " and ", b.sizes(),
                                 ")");
    if constexpr (!std::is_same_v<D, DB>) {
        detail::mixed_devices("matmul", a, b);
    } else {
        const int dev =
            detail::one_device<D>("matmul", {detail::device_id(a), detail::device_id(b)});
        typename DeviceMemory<D>::Scope scope(dev);
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
            detail::fail<ShapeError>("matmul: inner dimensions do not match: ", a.sizes(),
                                     " times ", b.sizes());
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
        detail::Blas<D>::batched_gemm(convert<T>(1), batch, detail::last2(Ae),
                                      detail::batch_strides(Ae), detail::last2(Be),
                                      detail::batch_strides(Be), convert<T>(0),
                                      detail::writable(detail::last2(r)), detail::batch_strides(r));
        return r.view(out);
    }
}

} // namespace t7

#include "blas_expr.hpp"
