// conv2 xcorr2 conv3 xcorr3 of CUDA tensors: the op_conv that math/conv.hpp's
// conv_nd reaches for them, after the same checks (conv_plan: same exceptions,
// same messages). Host code only: the zero-padded contiguous input is built on
// the device by a fill and a strided copy, the (small) kernel is flipped and the
// tap offsets computed on the host, then the library's kernel
// (kernels/conv.cu) sums each output element's taps in the CPU's order.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../math/conv.hpp"
#include "index_ops.hpp"

namespace t7::detail {

template <class T>
Tensor<T, CUDA> op_conv(const ConvPlan& p, const Tensor<T, CUDA>& x, const Tensor<T, CUDA>& k,
                        bool flip) {
    require_same_gpu(p.op, x.getDevice(), k);
    const int device = x.getDevice();
    cuda::DeviceGuard guard(device);
    Shape shape;
    if (p.lead) shape.push_back(p.maps);
    for (int64_t d = 3 - p.S; d < 3; ++d) shape.push_back(p.out[d]);
    // x as planes x depth x rows x columns, inside a zero border in 'F' mode.
    Tensor<T, CUDA> x4 = p.lead && p.S == 2 ? x.unsqueeze(1) : x;
    while (x4.dim() < 4) x4.set(x4.unsqueeze(0));
    Tensor<T, CUDA> in(Shape{p.planes, p.pad[0], p.pad[1], p.pad[2]});
    if (p.full) in.zero();
    Tensor<T, CUDA> inner = in;
    for (int64_t d = 0; d < 3; ++d)
        inner.set(inner.narrow(d + 1, (p.pad[d] - p.in[d]) / 2, p.in[d]));
    inner.copy(x4);
    // Weights (each spatial block reversed for a convolution) and tap offsets, as the CPU's.
    const int64_t spatial = p.ker[0] * p.ker[1] * p.ker[2];
    const int64_t row = p.pad[2], slice = p.pad[1] * p.pad[2], plane = p.pad[0] * slice;
    const int64_t taps = p.sum ? p.planes * spatial : spatial;
    const Tensor<T, CPU> kc = k.contiguous().cpu();
    Tensor<T, CPU> wh(k.nElement());
    for (int64_t b = 0; b < k.nElement(); b += spatial)
        for (int64_t s = 0; s < spatial; ++s)
            wh.data()[b + s] = kc.data()[b + (flip ? spatial - 1 - s : s)];
    if constexpr (std::is_floating_point_v<T>) {
        // 'F' with an infinite or NaN weight: taps over the zero border must add
        // nothing (Torch7 multiplies only where x exists); the CPU's bounded sums.
        if (p.full)
            for (int64_t i = 0; i < wh.nElement(); ++i)
                if (!std::isfinite(wh.data()[i]))
                    return conv_run(p, x.cpu(), k.cpu(), flip).cuda(device);
    }
    Tensor<int64_t, CPU> oh(taps);
    for (int64_t t = 0; t < taps; ++t) {
        const int64_t c = t / spatial, s = t % spatial;
        oh.data()[t] = c * plane + s / (p.ker[1] * p.ker[2]) * slice +
                       s / p.ker[2] % p.ker[1] * row + s % p.ker[2];
    }
    const Tensor<T, CUDA> w = wh.cuda(device);
    const Tensor<int64_t, CUDA> off = oh.cuda(device);
    Tensor<T, CUDA> r(shape);
    cuda::rt::ConvShape s;
    s.maps = p.maps;
    s.rows = p.out[0] * p.out[1];
    s.cols = p.out[2];
    s.out_rows = p.out[1];
    s.taps = taps;
    s.plane = plane;
    s.slice = slice;
    s.row = row;
    s.sum = p.sum;
    cuda::rt::conv_taps(dtype_of<T>(), r.data(), in.data(), w.data(), off.data(), s, device);
    return r;
}

} // namespace t7::detail
