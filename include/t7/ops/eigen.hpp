// Eigen interop, both ways and without copies.
//
//   auto m = t7::asEigen(x);        // x 1-D or 2-D (CPU): a strided Eigen::Map of x's memory
//   m.col(0) *= 2;                  // writes into x
//   Eigen::MatrixXf a(3, 4);
//   t7::FloatTensor t = t7::fromEigen(a);   // 3x4 view of a's memory (strides {1, 3})
//
// asEigen maps a tensor as a row-major Dynamic x Dynamic matrix whose outer
// stride is x.stride(0) and inner stride x.stride(1) (a 1-D tensor is an n x 1
// column); asEigenVector (1-D) and asEigenArray (Eigen::Array) likewise. The map
// of a const tensor is read-only. fromEigen views an Eigen matrix, array, Map,
// Ref or block with direct access, row- or column-major, with its strides (a
// compile-time vector gives a 1-D tensor). Neither side owns the other's memory:
// a map must not outlive the tensor's storage, and the Eigen object must outlive
// the tensor from fromEigen (ownsStorage() false) and every view of it, and not
// be resized meanwhile.
#pragma once

#include "../core/error.hpp"
#include "../tensor/blob.hpp"
#include "../tensor/tensor.hpp"

#include <Eigen/Core>

#include <type_traits>

namespace t7 {

// The Map types asEigen, asEigenVector and asEigenArray return (S: T or const T).
template <class S>
using EigenMatrixMap = Eigen::Map<
    std::conditional_t<std::is_const_v<S>,
                       const Eigen::Matrix<std::remove_const_t<S>, Eigen::Dynamic, Eigen::Dynamic,
                                           Eigen::RowMajor>,
                       Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>,
    Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
template <class S>
using EigenArrayMap =
    Eigen::Map<std::conditional_t<std::is_const_v<S>,
                                  const Eigen::Array<std::remove_const_t<S>, Eigen::Dynamic,
                                                     Eigen::Dynamic, Eigen::RowMajor>,
                                  Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>,
               Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
template <class S>
using EigenVectorMap =
    Eigen::Map<std::conditional_t<std::is_const_v<S>,
                                  const Eigen::Matrix<std::remove_const_t<S>, Eigen::Dynamic, 1>,
                                  Eigen::Matrix<S, Eigen::Dynamic, 1>>,
               Eigen::Unaligned, Eigen::InnerStride<>>;

namespace detail::eigen {

// T, or const T when the tensor handle X is const.
template <class X>
using scalar_of = std::conditional_t<std::is_const_v<std::remove_reference_t<X>>,
                                     const typename std::remove_cvref_t<X>::value_type,
                                     typename std::remove_cvref_t<X>::value_type>;

template <class X>
void check_tensor() {
    using Tn = std::remove_cvref_t<X>;
    static_assert(is_tensor_v<Tn>, "t7::asEigen: needs a t7::Tensor (evaluate an expression "
                                   "first: t7::eval(e))");
    static_assert(std::is_same_v<typename Tn::device_type, CPU>,
                  "t7::asEigen: a CUDA tensor's memory is on the GPU, where Eigen cannot read "
                  "it: map x.cpu() instead");
    static_assert(std::is_arithmetic_v<typename Tn::value_type>,
                  "t7::asEigen: Eigen has no scalar type for t7::Half");
}

// x as a rows x cols row-major map with strides (outer, inner) = (stride(0), stride(1)).
template <class M, class S, class Tn>
M matrix_map(S* p, const Tn& x, const char* op) {
    using St = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
    if (x.dim() == 0) return M(p, 0, 0, St(0, 1));
    if (x.dim() == 1) return M(p, x.size(0), 1, St(x.stride(0), 1));
    if (x.dim() == 2) return M(p, x.size(0), x.size(1), St(x.stride(0), x.stride(1)));
    fail<ShapeError>(op, ": needs a 1-D or 2-D tensor, got ", x.dim(), "-D of size ", x.sizes());
}

} // namespace detail::eigen

// A strided Eigen::Map (EigenMatrixMap) of a 1-D (an n x 1 column) or 2-D CPU
// tensor's memory: writes through it change the tensor. Read-only for a const
// tensor. ShapeError for more dimensions; a CUDA tensor is a compile error.
template <class X>
requires is_tensor_v<X>
auto asEigen(X&& x) {
    detail::eigen::check_tensor<X>();
    using S = detail::eigen::scalar_of<X>;
    return detail::eigen::matrix_map<EigenMatrixMap<S>>(static_cast<S*>(x.data()), x, "asEigen");
}

// asEigen as an Eigen::Array (element-wise arithmetic): EigenArrayMap.
template <class X>
requires is_tensor_v<X>
auto asEigenArray(X&& x) {
    detail::eigen::check_tensor<X>();
    using S = detail::eigen::scalar_of<X>;
    return detail::eigen::matrix_map<EigenArrayMap<S>>(static_cast<S*>(x.data()), x,
                                                       "asEigenArray");
}

// A 1-D CPU tensor as an Eigen column vector with its stride (EigenVectorMap).
// ShapeError for another number of dimensions (an empty tensor maps as size 0).
template <class X>
requires is_tensor_v<X>
auto asEigenVector(X&& x) {
    detail::eigen::check_tensor<X>();
    using S = detail::eigen::scalar_of<X>;
    if (x.dim() > 1)
        detail::fail<ShapeError>("asEigenVector: needs a 1-D tensor, got ", x.dim(), "-D of size ",
                                 x.sizes());
    const int64_t n = x.dim() ? x.size(0) : 0, st = x.dim() ? x.stride(0) : 1;
    return EigenVectorMap<S>(static_cast<S*>(x.data()), n, Eigen::InnerStride<>(st));
}

// A CPU tensor viewing the memory of an Eigen matrix, array, Map, Ref or block
// (anything with direct access), no copy: rows x cols with the object's strides
// (row-major: {outerStride, innerStride}; column-major: {innerStride,
// outerStride}); a compile-time vector gives a 1-D tensor. Writes go both ways.
// The tensor does not own the memory (ownsStorage() false): the Eigen object must
// outlive it and its views, and not be resized. Temporaries and read-only
// (const) objects are compile errors; negative strides a ShapeError.
template <class E>
auto fromEigen(E&& m) {
    using M = std::remove_cvref_t<E>;
    static_assert(std::is_base_of_v<Eigen::EigenBase<M>, M>,
                  "t7::fromEigen: needs an Eigen matrix, array, Map, Ref or block");
    static_assert(bool(M::Flags & Eigen::DirectAccessBit),
                  "t7::fromEigen: this Eigen expression has no memory of its own (a + b, "
                  "Ones(), ...): evaluate it into a matrix first");
    static_assert(!std::is_base_of_v<Eigen::PlainObjectBase<M>, M> || std::is_lvalue_reference_v<E>,
                  "t7::fromEigen: a temporary matrix would be freed while the tensor views it: "
                  "pass a named matrix");
    using T = typename M::Scalar;
    static_assert(Element<T>, "t7::fromEigen: the scalar type is no tensor element type");
    static_assert(!std::is_const_v<std::remove_pointer_t<decltype(m.data())>>,
                  "t7::fromEigen: the Eigen object is read-only (const, or a Map<const ...>); "
                  "tensors are writable views: pass a non-const one");
    T* p = m.data();
    const int64_t in = m.innerStride(), out = m.outerStride();
    if (in < 0 || out < 0)
        detail::fail<ShapeError>("fromEigen: negative stride (inner ", in, ", outer ", out,
                                 "): tensors have non-negative strides");
    if constexpr (M::IsVectorAtCompileTime)
        return fromBlob<T>(p, Shape{int64_t(m.size())}, Shape{in});
    else if constexpr (M::IsRowMajor)
        return fromBlob<T>(p, Shape{int64_t(m.rows()), int64_t(m.cols())}, Shape{out, in});
    else
        return fromBlob<T>(p, Shape{int64_t(m.rows()), int64_t(m.cols())}, Shape{in, out});
}

} // namespace t7
