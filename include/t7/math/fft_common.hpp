// What the CPU's (math/fft.hpp) and the GPU's (cuda/fft.hpp) transforms share, without
// a transform engine (no Eigen, so nvcc translation units include it): the
// normalisations, result types, argument checks, and fftshift/ifftshift, which
// are copies of narrowed views and run on any device.
#pragma once

#include "../core/dtype.hpp"
#include "../core/error.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"
#include "../tensor/views.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

namespace t7 {

enum class FftNorm { backward, ortho, forward };

namespace detail::fft {

// The real type a transform of T computes in: float for float and
// complex<float>, double for everything else (NumPy computes in double).
template <class T>
using fft_real_t = std::conditional_t<std::is_same_v<real_t<T>, float>, float, double>;
template <class T>
using fft_complex_t = std::complex<fft_real_t<T>>;

// The factor a transform of n points is scaled by.
inline double scale_of(FftNorm norm, int64_t n, bool inverse) {
    switch (norm) {
    case FftNorm::ortho:
        return 1.0 / std::sqrt(double(n));
    case FftNorm::forward:
        return inverse ? 1.0 : 1.0 / double(n);
    default:
        return inverse ? 1.0 / double(n) : 1.0;
    }
}

template <class T, class D>
int64_t fft_dim(const Tensor<T, D>& x, int64_t dim, const char* op) {
    const int64_t nd = x.dim();
    if (nd == 0) fail<ShapeError>(op, ": the tensor has no dimension");
    if (dim < -nd || dim >= nd)
        fail<IndexError>(op, ": dimension ", dim, " out of range for a ", nd, "-D tensor");
    return dim < 0 ? dim + nd : dim;
}
inline void check_points(int64_t n, const char* op) {
    if (n < 1)
        fail<ShapeError>(op, ": invalid number of data points (", n,
                         "): a transform needs at least one");
}

inline Shape with_size(Shape s, int64_t dim, int64_t n) {
    s[size_t(dim)] = n;
    return s;
}

// Dimensions of an n-dimensional transform: `dims` wrapped, {} meaning all.
template <class T, class D>
Shape fft_dims(const Tensor<T, D>& x, const Shape& dims, const char* op) {
    Shape r;
    if (dims.empty()) {
        for (int64_t d = 0; d < x.dim(); ++d) r.push_back(d);
        if (r.empty()) fail<ShapeError>(op, ": the tensor has no dimension");
        return r;
    }
    for (int64_t d : dims) {
        const int64_t w = fft_dim(x, d, op);
        for (int64_t e : r)
            if (e == w) fail<IndexError>(op, ": dimension ", d, " repeated in ", dims);
        r.push_back(w);
    }
    return r;
}

// ---- into-result forms (the CPU's, math/fft.hpp, and the GPU's, cuda/fft.hpp) ----

// The destination of an into-result form: of type U == Want (else TypeError),
// and of the result's sizes (an empty tensor is resized; else ShapeError),
// checked before anything is written.
template <class Want, class U, class D>
void check_out(const Tensor<U, D>& out, const Shape& sizes, const char* op) {
    if constexpr (!std::is_same_v<U, Want>) {
        fail<TypeError>(op, ": the result is a ", Tensor<Want, D>::typeName(), ", not a ",
                        Tensor<U, D>::typeName());
    } else {
        if (out.dim() == 0) return;
        if (!(out.sizes() == sizes))
            fail<ShapeError>(op, ": the result has size ", sizes, " but out has size ",
                             out.sizes());
    }
}

// Runs lines(dst) with dst = out (sized first when empty, on x's device), or, when
// out shares memory with x in another layout, a new tensor then copied into out.
template <class V, class T, class D, class F>
void run_into(Tensor<V, D>& out, const Tensor<T, D>& x, const Shape& sizes, F&& lines) {
    const typename DeviceMemory<D>::Scope scope(x.getDevice()); // new tensors go where x is
    if (out.dim() == 0) out.set(Tensor<V, D>(sizes));
    if (out.nElement() == 0) return;
    const auto [olo, ohi] = byte_range(out);
    const auto [xlo, xhi] = byte_range(x);
    const bool same_layout =
        static_cast<const void*>(out.data()) == static_cast<const void*>(x.data()) &&
        sizeof(V) == sizeof(T) && out.strides() == x.strides() && out.sizes() == x.sizes();
    if (ohi <= xlo || xhi <= olo || same_layout) { // each line is read before it is written
        lines(out);
        return;
    }
    Tensor<V, D> tmp(sizes);
    lines(tmp);
    out.copy(tmp);
}

// The result r of a transform into out (checked as above; set to r when empty).
template <class U, class D, class R>
Tensor<U, D>& into(Tensor<U, D>& out, const R& r, const char* op) {
    using V = typename R::value_type;
    check_out<V>(out, r.sizes(), op);
    if constexpr (std::is_same_v<U, V>) {
        if (out.dim() == 0)
            out.set(r);
        else
            out.copy(r);
    }
    return out;
}

// x rolled by `shift(size)` along each of dims ({} all), as a new tensor.
template <class T, class D, class F>
Tensor<T, D> roll_dims(const Tensor<T, D>& x, const Shape& dims, F shift, const char* op) {
    Shape ds;
    if (dims.empty()) {
        for (int64_t d = 0; d < x.dim(); ++d) ds.push_back(d);
    } else {
        for (int64_t d : dims) ds.push_back(fft_dim(x, d, op));
    }
    Tensor<T, D> cur = x;
    for (int64_t d : ds) {
        const int64_t n = cur.size(d), k = n ? shift(n) % n : 0;
        Tensor<T, D> next(cur.sizes());
        if (n - k > 0) next.narrow(d, k, n - k).copy(cur.narrow(d, 0, n - k));
        if (k > 0) next.narrow(d, 0, k).copy(cur.narrow(d, n - k, k));
        cur.set(next); // rebinds the handle (assignment would write into x)
    }
    return ds.empty() ? x.clone() : cur;
}
} // namespace detail::fft

// numpy.fft.fftshift: the zero frequency moved to the middle (a roll by n / 2).
template <class T, class D>
Tensor<T, D> fftshift(const Tensor<T, D>& x, const Shape& dims = {}) {
    return detail::fft::roll_dims(
        x, dims, [](int64_t n) { return n / 2; }, "fftshift");
}
template <class T, class D>
Tensor<T, D> ifftshift(const Tensor<T, D>& x, const Shape& dims = {}) {
    return detail::fft::roll_dims(
        x, dims, [](int64_t n) { return n - n / 2; }, "ifftshift");
}

// The n-dimensional into-result forms, on any device: the value form (math/fft.hpp's,
// or cuda/fft.hpp's: argument-dependent lookup when instantiated), copied into out.
#define T7_FFT_INTO_N(NAME)                                                                        \
    template <class U, class T, class D>                                                           \
    Tensor<U, D>& NAME(Tensor<U, D>& out, const Tensor<T, D>& x, const Shape& dims,                \
                       FftNorm norm = FftNorm::backward) {                                         \
        return detail::fft::into(out, NAME(x, dims, norm), #NAME);                                 \
    }
T7_FFT_INTO_N(fftn)
T7_FFT_INTO_N(ifftn)
T7_FFT_INTO_N(fft2)
T7_FFT_INTO_N(ifft2)
T7_FFT_INTO_N(rfftn)
T7_FFT_INTO_N(irfftn)
#undef T7_FFT_INTO_N

} // namespace t7
