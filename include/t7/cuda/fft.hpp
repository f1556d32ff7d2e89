// Fourier transforms of CUDA tensors: t7::fft, ifft, rfft, irfft, fftn, ifftn, fft2,
// ifft2, rfftn, irfftn with math/fft.hpp's semantics (numpy.fft's), through cuFFT
// (kernels/fft.cu). The lines along the transformed dimension are gathered into a
// contiguous buffer (cut or zero-padded, converted to the transform's type) by the
// library's strided copy, transformed as one batch, and the result is brought back
// to the tensor's dimension order: plain host code, no kernel of its own, so any
// translation unit may call these.
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

// The transform of buf's contiguous lines (n points each) into lines of out_len
// values of W, returned in x's dimension order (d back in its place), contiguous.
template <class W, class V>
Tensor<W, CUDA> transform_lines(Tensor<V, CUDA>& buf, cuda::rt::FftKind kind, int64_t d, int64_t n,
                                int64_t out_len, bool inverse, double scale) {
    const int64_t last = buf.dim() - 1;
    const Tensor<W, CUDA> o =
        device_buffer<W>(with_size(buf.sizes(), last, out_len), buf.getDevice());
    const int64_t batch = out_len > 0 ? o.nElement() / out_len : 0;
    cuda::rt::fft_lines(kind, std::is_same_v<real_t<W>, double>, inverse, o.data(), buf.data(), n,
                        batch, scale, buf.getDevice());
    return o.transpose(d, last).contiguous();
}

template <class T>
auto fft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, bool inverse,
          const char* op) {
    using C = fft_complex_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    Tensor<C, CUDA> buf = gather_lines<C>(x, d, n);
    return transform_lines<C>(buf, cuda::rt::FftKind::c2c, d, n, n, inverse,
                              scale_of(norm, n, inverse));
}

template <class T>
auto rfft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    static_assert(!is_complex_v<T>, "t7::rfft: takes real values (use t7::fft for complex)");
    using R = fft_real_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = x.size(d);
    check_points(n, op);
    Tensor<R, CUDA> buf = gather_lines<R>(x, d, n);
    return transform_lines<std::complex<R>>(buf, cuda::rt::FftKind::r2c, d, n, n / 2 + 1, false,
                                            scale_of(norm, n, false));
}

template <class T>
auto irfft1(const Tensor<T, CUDA>& x, int64_t n, int64_t dim, FftNorm norm, const char* op) {
    using R = fft_real_t<T>;
    const int64_t d = fft_dim(x, dim, op);
    if (n == -1) n = 2 * (x.size(d) - 1);
    check_points(n, op);
    // the half spectrum cut or padded to n/2 + 1 terms (cuFFT overwrites it)
    Tensor<std::complex<R>, CUDA> buf = gather_lines<std::complex<R>>(x, d, n / 2 + 1);
    return transform_lines<R>(buf, cuda::rt::FftKind::c2r, d, n, n, true, scale_of(norm, n, true));
}

template <class T>
auto fftn_impl(const Tensor<T, CUDA>& x, const Shape& dims, FftNorm norm, bool inverse,
               const char* op) {
    const Shape ds = fft_dims(x, dims, op);
    for (int64_t d : ds) check_points(x.size(d), op);
    auto r = fft1(x, -1, ds.back(), norm, inverse, op);
    for (size_t i = ds.size() - 1; i-- > 0;) r = fft1(r, -1, ds[i], norm, inverse, op);
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
        r = detail::fft::fft1(r, -1, ds[i], norm, false, "rfftn");
    return r;
}
// irfftn: ifft along all of dims but the last, then irfft along the last.
template <class T>
auto irfftn(const Tensor<T, CUDA>& x, const Shape& dims = {}, FftNorm norm = FftNorm::backward) {
    const Shape ds = detail::fft::fft_dims(x, dims, "irfftn");
    if (ds.size() == 1) return detail::fft::irfft1(x, -1, ds[0], norm, "irfftn");
    auto z = detail::fft::fft1(x, -1, ds[0], norm, true, "irfftn");
    for (size_t i = 1; i + 1 < ds.size(); ++i)
        z = detail::fft::fft1(z, -1, ds[i], norm, true, "irfftn");
    return detail::fft::irfft1(z, -1, ds.back(), norm, "irfftn");
}

} // namespace t7
