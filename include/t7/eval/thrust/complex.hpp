// Complex numbers in device code. std::complex's members and functions are host
// functions that nvcc will not call from a kernel, so the Thrust evaluator and the
// library's kernels compute on thrust::complex, which has std::complex's layout
// (interleaved re, im): a tensor's std::complex elements are read through a
// reinterpreted pointer, and device_t<T> names the type a value is computed in.
// The functors of expr/functors.hpp are written for either (member real()/imag(),
// math functions found by argument-dependent lookup), so the same table serves
// the CPU (std::complex) and the device (thrust::complex).
#pragma once

#include "../../core/dtype.hpp"
#include "../../expr/functors.hpp"

#include <thrust/complex.h>

#include <complex>
#include <cstring>
#include <type_traits>

namespace t7 {

template <class R>
inline constexpr bool is_complex_v<thrust::complex<R>> = true;
template <class R>
struct real_of<thrust::complex<R>> {
    using type = R;
};

namespace gpu {

template <class T>
struct device_type {
    using type = T;
};
template <class R>
struct device_type<std::complex<R>> {
    using type = thrust::complex<R>;
    static_assert(sizeof(type) == sizeof(std::complex<R>), "thrust::complex: not std's layout");
};
// The type device code computes a T in (the same type for every real T).
template <class T>
using device_t = typename device_type<T>::type;

// A host value as device code reads it (the same bytes).
template <class T>
device_t<T> to_device(const T& v) {
    if constexpr (std::is_same_v<device_t<T>, T>) {
        return v;
    } else {
        device_t<T> d;
        std::memcpy(static_cast<void*>(&d), &v, sizeof(T));
        return d;
    }
}
// A device result as the host's type.
template <class T>
T from_device(const device_t<T>& d) {
    if constexpr (std::is_same_v<device_t<T>, T>) {
        return d;
    } else {
        T v;
        std::memcpy(static_cast<void*>(&v), &d, sizeof(T));
        return v;
    }
}
template <class T>
T7_HOST_DEVICE T7_INLINE device_t<T>* device_ptr(T* p) {
    return reinterpret_cast<device_t<T>*>(p);
}
template <class T>
T7_HOST_DEVICE T7_INLINE const device_t<T>* device_ptr(const T* p) {
    return reinterpret_cast<const device_t<T>*>(p);
}

// The functor a node's op runs as on the device: the ops whose result type names
// std::complex (casts to complex, complex(re, im), polar) produce thrust::complex.
template <class Op>
struct device_op {
    using type = Op;
};
template <class U>
struct device_op<op::cast<U>> {
    using type = op::cast<device_t<U>>;
};
template <>
struct device_op<op::make_complex> {
    using type = op::make_complex_as<thrust::complex>;
};
template <>
struct device_op<op::polar> {
    using type = op::polar_as<thrust::complex>;
};
template <class Op>
using device_op_t = typename device_op<Op>::type;

// The node's functor as device_op_t (the mapped ops are stateless).
template <class Op>
device_op_t<Op> to_device_op(const Op& o) {
    if constexpr (std::is_same_v<device_op_t<Op>, Op>)
        return o;
    else
        return device_op_t<Op>{};
}

} // namespace gpu
} // namespace t7
