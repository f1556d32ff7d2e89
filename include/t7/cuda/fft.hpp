// Fourier transforms of CUDA tensors: t7::fft, ifft, rfft, irfft, fftn, ifftn, fft2,
// ifft2, rfftn, irfftn with math/fft.hpp's semantics (numpy.fft's), through cuFFT
// (kernels/fft.cu). The lines along the transformed dimension are gathered into a
// contiguous buffer (cut or zero-padded, converted to the transform's type) by the
// library's strided copy, transformed as one batch, and the result is brought back
// to the tensor's dimension order: plain host code, no kernel of its own, so any
// translation unit may call these. Each has the CPU's into-result form
// (t7::fft(out, x, ...)), with the CPU's checks (fft_common.hpp).
#pragma once

#include "../core/device_kernels.hpp"
#include "../math/fft_common.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/transfer.hpp"

#include <algorithm>
#include <complex>
#include <type_traits>

namespace t7 {

namespace detail::fft {

// x's lines along d, moved last, as contiguous lines of `len` values of V (x's
// lines cut to len, or padded with zeros), on x's device.
template <class V, class T>
Tensor<V, CUDA> gather_lines(const Tensor<T, CUDA>& x, int64_t d, int64_t len) {
    const int64_t last = x.dim() - 1;
    const Tensor<T, CUDA> xt = x.transpose(d, last);
    Tensor<V, CUDA> buf = device_buffer<V>(with_size(xt.sizes(), last, len), x.getDevice());
    const int64_t take = std::min(len, xt.size(last));
    if (take < len) buf.zero();
    if (take > 0 && buf.nElement() > 0) buf.narrow(last, 0, take).copy(xt.narrow(last, 0, take));
    return buf;
}

// dst (x's dimension order, n along d replaced by out_len) = the transform of buf's
// contiguous lines (n points each, d moved last) into lines of out_len values of
// W. cuFFT writes dst itself when its lines are contiguous rows on buf's device,
// else a buffer then copied into dst's layout. buf is never dst's memory (a
// gathered copy), so dst may be x itself.
template <class W, class V>
void transform_lines(Tensor<W, CUDA>& dst, Tensor<V, CUDA>& buf, cuda::rt::FftKind kind, int64_t d,
                     int64_t n, int64_t out_len, bool inverse, double scale) {
    const int64_t last = buf.dim() - 1;
    const bool direct = d == last && dst.isContiguous() && dst.getDevice() == buf.getDevice();
    const Tensor<W, CUDA> o =
        direct ? dst : device_buffer<W>(with_size(buf.sizes(), last, out_len), buf.getDevice());
    const int64_t batch = out_len > 0 ? o.nElement() / out_len : 0;
    cuda::rt::fft_lines(kind, std::is_same_v<real_t<W>, double>, inverse, o.data(), buf.data(), n,
                        batch, scale, buf.getDevice());
    if (!direct) dst.copy(o.transpose(d, last));
}

// The one-dimensional transforms into out, checked as on the CPU (check_out,
// run_into: fft_common.hpp): a result type other than out's is a TypeError, other
// sizes a ShapeError, out unchanged; in place when out is x.
template <class U, class T>
Tensor<U, CUDA>& fft1_into(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n, int64_t dim,
                           FftNorm norm, bool inverse, const char* op) {
    using C = fft_complex_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n);
    check_out<C>(out, sizes, op);
    if constexpr (std::is_same_v<U, C>)
        run_into(out, x, sizes, [&](Tensor<C, CUDA>& o) {
            Tensor<C, CUDA> buf = gather_lines<C>(x, d, n);
            transform_lines(o, buf, cuda::rt::FftKind::c2c, d, n, n, inverse,
                            scale_of(norm, n, inverse));
        });
    return out;
}
template <class T>
auto fft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, bool inverse,
          const char* op) {
    Tensor<fft_complex_t<T>, CUDA> out;
    fft1_into(out, x, n, dim, norm, inverse, op);
    return out;
}

template <class U, class T>
Tensor<U, CUDA>& rfft1_into(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n, int64_t dim,
                            FftNorm norm, const char* op) {
    static_assert(!is_complex_v<T>, "t7::rfft: takes real values (use t7::fft for complex)");
    using R = fft_real_t<T>;
    using C = std::complex<R>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n / 2 + 1);
    check_out<C>(out, sizes, op);
    if constexpr (std::is_same_v<U, C>)
        run_into(out, x, sizes, [&](Tensor<C, CUDA>& o) {
            Tensor<R, CUDA> buf = gather_lines<R>(x, d, n);
            transform_lines(o, buf, cuda::rt::FftKind::r2c, d, n, n / 2 + 1, false,
                            scale_of(norm, n, false));
        });
    return out;
}
template <class T>
auto rfft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    Tensor<fft_complex_t<T>, CUDA> out;
    rfft1_into(out, x, n, dim, norm, op);
    return out;
}

template <class U, class T>
Tensor<U, CUDA>& irfft1_into(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n, int64_t dim,
                             FftNorm norm, const char* op) {
    using R = fft_real_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = 2 * (x.size(d) - 1);
    check_points(n, op);
    const Shape sizes = with_size(x.sizes(), d, n);
    check_out<R>(out, sizes, op);
    if constexpr (std::is_same_v<U, R>)
        run_into(out, x, sizes, [&](Tensor<R, CUDA>& o) {
            // the half spectrum cut or padded to n/2 + 1 terms (cuFFT overwrites it)
            Tensor<std::complex<R>, CUDA> buf = gather_lines<std::complex<R>>(x, d, n / 2 + 1);
            transform_lines(o, buf, cuda::rt::FftKind::c2r, d, n, n, true, scale_of(norm, n, true));
        });
    return out;
}
template <class T>
auto irfft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    Tensor<fft_real_t<T>, CUDA> out;
    irfft1_into(out, x, n, dim, norm, op);
    return out;
}

template <class T>
auto fftn_impl(const Tensor<T, CUDA>& x, const Shape& dims, FftNorm norm, bool inverse,
               const char* op) {
    const Shape ds = fft_dims(x, dims, op);
    for (int64_t d : ds) check_points(x.size(d), op);
    auto r = fft1(x, -1, ds.back(), norm, inverse, op);
    for (size_t i = ds.size() - 1; i-- > 0;) // the other dimensions in place
        fft1_into(r, r, -1, ds[i], norm, inverse, op);
    return r;
}

} // namespace detail::fft

template <class T>
auto fft(const Tensor<T, CUDA>& x, int64_t n = -1, int64_t dim = -1,
         FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1(x, n, dim, norm, false, "fft");
}
template <class T>
auto ifft(const Tensor<T, CUDA>& x, int64_t n = -1, int64_t dim = -1,
          FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1(x, n, dim, norm, true, "ifft");
}
template <class T>
auto rfft(const Tensor<T, CUDA>& x, int64_t n = -1, int64_t dim = -1,
          FftNorm norm = FftNorm::backward) {
    return detail::fft::rfft1(x, n, dim, norm, "rfft");
}
template <class T>
auto irfft(const Tensor<T, CUDA>& x, int64_t n = -1, int64_t dim = -1,
           FftNorm norm = FftNorm::backward) {
    return detail::fft::irfft1(x, n, dim, norm, "irfft");
}
template <class T>
auto fftn(const Tensor<T, CUDA>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, false, "fftn");
}
template <class T>
auto ifftn(const Tensor<T, CUDA>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, true, "ifftn");
}
template <class T>
auto fft2(const Tensor<T, CUDA>& x, const Shape& dims = {-2, -1},
          FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, false, "fft2");
}
template <class T>
auto ifft2(const Tensor<T, CUDA>& x, const Shape& dims = {-2, -1},
           FftNorm norm = FftNorm::backward) {
    return detail::fft::fftn_impl(x, dims, norm, true, "ifft2");
}
// rfftn: rfft along the last of dims, then fft along the others.
template <class T>
auto rfftn(const Tensor<T, CUDA>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    const Shape ds = detail::fft::fft_dims(x, dims, "rfftn");
    auto r = detail::fft::rfft1(x, -1, ds.back(), norm, "rfftn");
    for (size_t i = ds.size() - 1; i-- > 0;)
        detail::fft::fft1_into(r, r, -1, ds[i], norm, false, "rfftn"); // in place
    return r;
}
// irfftn: ifft along all of dims but the last, then irfft along the last.
template <class T>
auto irfftn(const Tensor<T, CUDA>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    const Shape ds = detail::fft::fft_dims(x, dims, "irfftn");
    if (ds.size() == 1) return detail::fft::irfft1(x, -1, ds[0], norm, "irfftn");
    auto z = detail::fft::fft1(x, -1, ds[0], norm, true, "irfftn");
    for (size_t i = 1; i + 1 < ds.size(); ++i)
        detail::fft::fft1_into(z, z, -1, ds[i], norm, true, "irfftn"); // in place
    return detail::fft::irfft1(z, -1, ds.back(), norm, "irfftn");
}

// ---- into a given tensor ---------------------------------------------------------------
// As the CPU's (math/fft.hpp), with its checks (fft_common.hpp): out and x CUDA tensors;
// the result is written into out (resized when out is empty, on x's device); a result
// type other than out's is a TypeError, other sizes a ShapeError, out unchanged; out
// may be x or overlap it.
template <class U, class T>
Tensor<U, CUDA>& fft(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n = -1,
                     int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1_into(out, x, n, dim, norm, false, "fft");
}
template <class U, class T>
Tensor<U, CUDA>& ifft(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n = -1,
                      int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::fft1_into(out, x, n, dim, norm, true, "ifft");
}
template <class U, class T>
Tensor<U, CUDA>& rfft(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n = -1,
                      int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::rfft1_into(out, x, n, dim, norm, "rfft");
}
template <class U, class T>
Tensor<U, CUDA>& irfft(Tensor<U, CUDA>& out, const Tensor<T, CUDA>& x, int64_t n = -1,
                       int64_t dim = -1, FftNorm norm = FftNorm::backward) {
    return detail::fft::irfft1_into(out, x, n, dim, norm, "irfft");
}
// The n-dimensional into-result forms are fft_common.hpp's, generic over the device.

} // namespace t7
