// Discrete Fourier transforms with numpy.fft's semantics: fft/ifft/rfft/irfft along
// one dimension, fft2/ifft2 and fftn/ifftn/rfftn/irfftn over several, fftfreq,
// rfftfreq, fftshift, ifftshift. Any view, any length; float and complex<float>
// transform in single precision, every other type in double. Results are new
// contiguous tensors; each transform also writes into a given tensor
// (t7::fft(out, x, ...)). The transforms themselves are the library's
// (math/fft_plan.hpp); this file walks the lines of a tensor through them.
#pragma once

#include "../core/dtype.hpp"
#include "../core/error.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"
#include "fft_common.hpp"
#include "fft_plan.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace t7 {

namespace detail::fft {

// Calls line(in_offset, out_offset) for every line along `dim` of a tensor of
// sizes `sizes`, where in and out are walked with their own strides.
template <class F>
void for_each_line(const Shape& sizes, const Shape& in_st, const Shape& out_st, int64_t dim,
                   F&& line) {
    const int64_t nd = int64_t(sizes.size());
    for (int64_t d = 0; d < nd; ++d)
        if (d != dim && sizes[d] == 0) return;
    Shape idx(static_cast<size_t>(nd)); // zeros, held inline up to 8 dimensions
    int64_t ioff = 0, ooff = 0;
    while (true) {
        line(ioff, ooff);
        int64_t d = nd - 1;
        for (; d >= 0; --d) {
            if (d == dim) continue;
            if (++idx[size_t(d)] < sizes[d]) {
                ioff += in_st[d];
                ooff += out_st[d];
                break;
            }
            ioff -= (sizes[d] - 1) * in_st[d];
            ooff -= (sizes[d] - 1) * out_st[d];
            idx[size_t(d)] = 0;
        }
        if (d < 0) return;
    }
}

// Lines along `dim` in blocks: block(io, oo, count, in_step, out_step) gets `count`
// lines starting at offsets io and oo, each the next along the last other
// dimension (in_step and out_step further). Up to `most` lines a block, so that a
// column transform reads and writes rows of `most` adjacent elements, not one
// element a cache line.
template <class F>
void for_each_line_block(const Shape& sizes, const Shape& in_st, const Shape& out_st, int64_t dim,
                         int64_t most, F&& block) {
    const int64_t nd = int64_t(sizes.size());
    const int64_t g = dim == nd - 1 ? nd - 2 : nd - 1;
    if (g < 0 || most <= 1) {
        for_each_line(sizes, in_st, out_st, dim, [&](int64_t io, int64_t oo) {
            block(io, oo, int64_t(1), int64_t(0), int64_t(0));
        });
        return;
    }
    Shape outer = sizes;
    outer[size_t(g)] = 1;
    const int64_t count = sizes[g], gi = in_st[g], go = out_st[g];
    for_each_line(outer, in_st, out_st, dim, [&](int64_t io, int64_t oo) {
        for (int64_t j = 0; j < count; j += most)
            block(io + j * gi, oo + j * go, std::min(most, count - j), gi, go);
    });
}
// Lines a block holds: one for contiguous lines (each is read at memory speed), else
// as many as fit in about 1 MiB of scratch, at most 8 (rfftn of 1024^2 doubles through
// FFTW: 7.2 ms with blocks of 16 lines, 6.2 ms with 8; 64 lines: 10.8 ms).
template <class V>
int64_t lines_per_block(int64_t stride, int64_t n) {
    if (stride == 1 || stride == -1) return 1;
    return std::clamp<int64_t>((int64_t(1) << 20) / (n * int64_t(sizeof(V))), 1, 8);
}

// This thread's buffer `slot` of at least n values of V (it grows, never shrinks:
// a repeated transform allocates nothing).
template <class V>
V* scratch(int slot, int64_t n) {
    thread_local std::vector<V> buf[2];
    if (buf[slot].size() < size_t(n)) buf[slot].resize(size_t(n));
    return buf[slot].data();
}

// out = a transform of size n of x's lines along dim, in blocks of lines: each line
// (cut to or padded with zeros to in_n values of A) is gathered into scratch,
// run(dst, src) makes out_n values of B from it, and they are scaled into out.
// A contiguous line of x already of type A and length in_n is read where it is, and
// a contiguous line of out of type B is written where it is (then scaled in place):
// a long 1-D transform then moves no bytes but the library's own.
template <class A, class B, class O, class T, class S, class Run>
void run_line_blocks(Tensor<O>& out, const Tensor<T>& x, int64_t dim, int64_t n, int64_t in_n,
                     int64_t out_n, S scale, Run run) {
    const int64_t len = x.size(dim), take = len < in_n ? len : in_n;
    const int64_t xs = x.stride(dim), os = out.stride(dim);
    const int64_t most = lines_per_block<std::complex<S>>(xs, n);
    const T* xd = x.data();
    O* od = out.data();
    constexpr bool same_in = std::is_same_v<A, T>, same_out = std::is_same_v<B, O>;
    const bool read_in_place = same_in && xs == 1 && take == in_n;
    // The library writes dst while it reads src: in place only where they cannot meet
    // (run_into passes out == x only with x's own layout).
    const bool write_in_place =
        same_out && os == 1 &&
        (!read_in_place || static_cast<const void*>(xd) != static_cast<const void*>(od));
    if (most == 1 && (read_in_place || write_in_place)) {
        A* a = read_in_place ? nullptr : scratch<A>(0, in_n);
        B* b = write_in_place ? nullptr : scratch<B>(1, out_n);
        for_each_line(x.sizes(), x.strides(), out.strides(), dim, [&](int64_t io, int64_t oo) {
            A* src = a;
            if constexpr (same_in) {
                if (read_in_place) src = const_cast<A*>(xd + io); // only read
            }
            if (!read_in_place) {
                for (int64_t k = 0; k < take; ++k) a[k] = convert<A>(xd[io + k * xs]);
                for (int64_t k = take; k < in_n; ++k) a[k] = A(0);
            }
            if constexpr (same_out) {
                if (write_in_place) {
                    O* dst = od + oo;
                    run(dst, src);
                    if (scale != S(1))
                        for (int64_t k = 0; k < out_n; ++k) dst[k] *= scale;
                    return;
                }
            }
            run(b, src);
            for (int64_t k = 0; k < out_n; ++k)
                od[oo + k * os] = scale == S(1) ? b[k] : b[k] * scale;
        });
        return;
    }
    A* a = scratch<A>(0, most * in_n);
    B* b = scratch<B>(1, most * out_n);
    auto block = [&](int64_t io, int64_t oo, int64_t count, int64_t gi, int64_t go) {
        for (int64_t k = 0; k < take; ++k)
            for (int64_t l = 0; l < count; ++l)
                a[l * in_n + k] = convert<A>(xd[io + l * gi + k * xs]);
        for (int64_t l = 0; l < count; ++l) {
            for (int64_t k = take; k < in_n; ++k) a[l * in_n + k] = A(0);
            run(b + l * out_n, a + l * in_n);
        }
        for (int64_t k = 0; k < out_n; ++k)
            for (int64_t l = 0; l < count; ++l)
                od[oo + l * go + k * os] =
                    scale == S(1) ? b[l * out_n + k] : b[l * out_n + k] * scale;
    };
    for_each_line_block(x.sizes(), x.strides(), out.strides(), dim, most, block);
}

// out (complex, sizes of x with n along dim) = the transform of x along dim,
// x's lines cut to or padded with zeros to n points.
template <class C, class T>
void complex_lines(Tensor<C>& out, const Tensor<T>& x, int64_t dim, int64_t n, bool inverse,
                   FftNorm norm) {
    using R = typename C::value_type;
    Plan<R>& plan = plan_for<R>(n);
    run_line_blocks<C, C>(out, x, dim, n, n, n, R(scale_of(norm, n, inverse)),
                          [&](C* dst, C* src) { plan.run(dst, src, inverse); });
}

// out (complex, n/2 + 1 along dim) = the transform of the real x along dim.
template <class C, class T>
void r2c_lines(Tensor<C>& out, const Tensor<T>& x, int64_t dim, int64_t n, FftNorm norm) {
    using R = typename C::value_type;
    Plan<R>& plan = plan_for<R>(n);
    run_line_blocks<R, C>(out, x, dim, n, n, n / 2 + 1, R(scale_of(norm, n, false)),
                          [&](C* dst, R* src) { plan.run_r2c(dst, src); });
}

// out (real, n along dim) = the inverse transform of the half spectrum x along dim.
template <class R, class C>
void c2r_lines(Tensor<R>& out, const Tensor<C>& x, int64_t dim, int64_t n, FftNorm norm) {
    using PC = std::complex<R>;
    Plan<R>& plan = plan_for<R>(n);
    run_line_blocks<PC, R>(out, x, dim, n, n / 2 + 1, n, R(scale_of(norm, n, true)),
                           [&](R* dst, PC* src) { plan.run_c2r(dst, src); });
}

// (check_out, run_into and into, which the CUDA transforms share: fft_common.hpp)

template <class U, class T>
Tensor<U>& fft1_into(Tensor<U>& out, const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm,
                     bool inverse, const char* op) {
    using C = fft_complex_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n);
    check_out<C>(out, sizes, op);
    if constexpr (std::is_same_v<U, C>)
        run_into(out, x, sizes, [&](Tensor<C>& o) { complex_lines(o, x, d, n, inverse, norm); });
    return out;
}
template <class T>
auto fft1(const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm, bool inverse, const char* op) {
    Tensor<fft_complex_t<T>> out;
    fft1_into(out, x, n, dim, norm, inverse, op);
    return out;
}

template <class T>
auto fftn_impl(const Tensor<T>& x, const Shape& dims, FftNorm norm, bool inverse, const char* op) {
    const Shape ds = fft_dims(x, dims, op);
    for (int64_t d : ds) check_points(x.size(d), op);
    auto r = fft1(x, -1, ds.back(), norm, inverse, op);
    for (size_t i = ds.size() - 1; i-- > 0;) // the other dimensions in place
        fft1_into(r, r, -1, ds[i], norm, inverse, op);
    return r;
}

template <class U, class T>
Tensor<U>& rfft1_into(Tensor<U>& out, const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm,
                      const char* op) {
    static_assert(!is_complex_v<T>, "t7::rfft: takes real values (use t7::fft for complex)");
    using C = fft_complex_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n / 2 + 1);
    check_out<C>(out, sizes, op);
    if constexpr (std::is_same_v<U, C>)
        run_into(out, x, sizes, [&](Tensor<C>& o) { r2c_lines(o, x, d, n, norm); });
    return out;
}
template <class T>
auto rfft1(const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    Tensor<fft_complex_t<T>> out;
    rfft1_into(out, x, n, dim, norm, op);
    return out;
}

template <class U, class T>
Tensor<U>& irfft1_into(Tensor<U>& out, const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm,
                       const char* op) {
    using R = fft_real_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = 2 * (x.size(d) - 1);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n);
    check_out<R>(out, sizes, op);
    if constexpr (std::is_same_v<U, R>) {
        run_into(out, x, sizes, [&](Tensor<R>& o) {
            if constexpr (is_complex_v<T>) {
                c2r_lines(o, x, d, n, norm);
            } else { // a real half spectrum: imaginary parts 0
                const Tensor<fft_complex_t<T>> z = x;
                c2r_lines(o, z, d, n, norm);
            }
        });
    }
    return out;
}
template <class T>
auto irfft1(const Tensor<T>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    Tensor<fft_real_t<T>> out;
    irfft1_into(out, x, n, dim, norm, op);
    return out;
}

} // namespace detail::fft

// ---- one dimension -------------------------------------------------------------------

// numpy.fft.fft: the DFT along `dim` of n points (x's line cut or padded with zeros).
template <class T>
auto fft(const Tensor<T>& x, int64_t n = -1, int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1(x, n, dim, norm, false, "fft");
}
template <class T>
auto ifft(const Tensor<T>& x, int64_t n = -1, int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1(x, n, dim, norm, true, "ifft");
}
// numpy.fft.rfft: the n/2 + 1 non-negative frequency terms of a real input's DFT.
template <class T>
auto rfft(const Tensor<T>& x, int64_t n = -1, int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::rfft1(x, n, dim, norm, "rfft");
}
// numpy.fft.irfft: n real values (default 2 (m - 1)) from a half spectrum of m terms.
template <class T>
auto irfft(const Tensor<T>& x, int64_t n = -1, int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::irfft1(x, n, dim, norm, "irfft");
}

// ---- several dimensions ------------------------------------------------------------------

template <class T>
auto fftn(const Tensor<T>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, false, "fftn");
}
template <class T>
auto ifftn(const Tensor<T>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, true, "ifftn");
}
template <class T>
auto fft2(const Tensor<T>& x, const Shape& dims = {-2, -1}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, false, "fft2");
}
template <class T>
auto ifft2(const Tensor<T>& x, const Shape& dims = {-2, -1}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, true, "ifft2");
}
// rfftn: rfft along the last of dims, then fft along the others.
template <class T>
auto rfftn(const Tensor<T>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    const Shape ds = detail::fft::fft_dims(x, dims, "rfftn");
    auto r = detail::fft::rfft1(x, -1, ds.back(), norm, "rfftn");
    for (size_t i = ds.size() - 1; i-- > 0;)
        detail::fft::fft1_into(r, r, -1, ds[i], norm, false, "rfftn"); // in place
    return r;
}
// irfftn: ifft along all of dims but the last, then irfft along the last
// (2 (m - 1) points).
template <class T>
auto irfftn(const Tensor<T>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    const Shape ds = detail::fft::fft_dims(x, dims, "irfftn");
    if (ds.size() == 1) return detail::fft::irfft1(x, -1, ds[0], norm, "irfftn");
    auto z = detail::fft::fft1(x, -1, ds[0], norm, true, "irfftn");
    for (size_t i = 1; i + 1 < ds.size(); ++i)
        detail::fft::fft1_into(z, z, -1, ds[i], norm, true, "irfftn"); // in place
    return detail::fft::irfft1(z, -1, ds.back(), norm, "irfftn");
}

// ---- into a given tensor ---------------------------------------------------------------
// The result is written into out (resized when out is empty); a result type other
// than out's is a TypeError, other sizes a ShapeError, out unchanged (the checks and
// detail::fft::into, shared with the CUDA transforms: fft_common.hpp).
// (the one-dimensional ones write out directly: a repeated transform into the
// same tensor allocates nothing)
template <class U, class T>
Tensor<U>& fft(Tensor<U>& out, const Tensor<T>& x, int64_t n = -1, int64_t dim = -1,
               FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1_into(out, x, n, dim, norm, false, "fft");
}
template <class U, class T>
Tensor<U>& ifft(Tensor<U>& out, const Tensor<T>& x, int64_t n = -1, int64_t dim = -1,
                FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1_into(out, x, n, dim, norm, true, "ifft");
}
template <class U, class T>
Tensor<U>& rfft(Tensor<U>& out, const Tensor<T>& x, int64_t n = -1, int64_t dim = -1,
                FftNorm norm = FftNorm::backward) {
    return detail::fft::rfft1_into(out, x, n, dim, norm, "rfft");
}
template <class U, class T>
Tensor<U>& irfft(Tensor<U>& out, const Tensor<T>& x, int64_t n = -1, int64_t dim = -1,
                 FftNorm norm = FftNorm::backward) {
    return detail::fft::irfft1_into(out, x, n, dim, norm, "irfft");
}
// The n-dimensional into-result forms (fftn(out, x, dims) ...): fft_common.hpp.

// ---- frequencies and shifts ------------------------------------------------------------

// numpy.fft.fftfreq: [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d n).
inline Tensor<double> fftfreq(int64_t n, double d = 1.0) {
    detail::fft::check_points(n, "fftfreq");
    Tensor<double> r(n);
    double* p = r.data();
    const double s = 1.0 / (d * double(n));
    for (int64_t k = 0; k < n; ++k) p[k] = double(k <= (n - 1) / 2 ? k : k - n) * s;
    return r;
}
// numpy.fft.rfftfreq: [0, 1, ..., n/2] / (d n).
inline Tensor<double> rfftfreq(int64_t n, double d = 1.0) {
    detail::fft::check_points(n, "rfftfreq");
    Tensor<double> r(n / 2 + 1);
    double* p = r.data();
    const double s = 1.0 / (d * double(n));
    for (int64_t k = 0; k <= n / 2; ++k) p[k] = double(k) * s;
    return r;
}

} // namespace t7
