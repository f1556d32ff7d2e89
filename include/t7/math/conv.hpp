// Torch7's convolutions: conv2 xcorr2 conv3 xcorr3, on CPU tensors of any
// arithmetic type (float and double vectorised; integers wrap). Mode 'V' (valid:
// output m - k + 1) or 'F' (full: m + k - 1). The forms, as Torch7's conv2Dmul,
// conv2Dcmul and conv2Dmv (conv3: one more dimension everywhere):
//   x m x n,     k ki x kj          -> one map
//   x p x m x n, k p x ki x kj      -> p maps, plane i of x with plane i of k
//   x p x m x n, k q x p x ki x kj  -> q maps, map o = sum over i of x[i] with k[o][i]
// conv* flips the kernel (a true convolution), xcorr* does not. Inputs and
// kernels may be any strided views; results are new contiguous tensors. CUDA
// tensors: the same checks, then the device kernel of cuda/conv.hpp.
// The arithmetic is in eval/cpu/conv.hpp.
#pragma once

#include "../core/error.hpp"
#include "../core/size_math.hpp"
#include "../eval/cpu/blas.hpp"
#include "../eval/cpu/conv.hpp"
#include "../eval/cpu/evaluator.hpp"
#include "../iter/parallel.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace t7 {

namespace detail {

// The element types the convolutions take: Torch7's seven (any arithmetic type but bool).
template <class T>
concept ConvScalar = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// A checked call: the sizes of every buffer, spatial sizes as depth x rows x
// columns (depth 1 for the 2-D functions).
struct ConvPlan {
    int64_t planes = 1; // input planes
    int64_t maps = 1;   // output planes
    bool sum = false;   // each output map sums over all input planes (conv2Dmv)
    bool lead = false;  // the result has a leading plane dimension
    int64_t in[3]{1, 1, 1}, ker[3]{1, 1, 1}, pad[3]{1, 1, 1}, out[3]{1, 1, 1};
    bool full = false;
    int64_t S = 2;            // spatial dimensions
    const char* op = "conv2"; // the function's name, for errors
};

// Checks the call (nothing is allocated before) and plans it. S: 2 or 3 spatial dimensions.
template <class T, class D>
ConvPlan conv_plan(const char* op, int64_t S, const Tensor<T, D>& x, const Tensor<T, D>& k,
                   char mode) {
    if (mode != 'V' && mode != 'F')
        fail<Error>(op, ": mode must be 'V' (valid) or 'F' (full), got '", mode, "'");
    if (x.dim() == 0 || k.dim() == 0)
        fail<ShapeError>(op, ": empty ", x.dim() == 0 ? "input" : "kernel", " (input of size ",
                         x.sizes(), ", kernel of size ", k.sizes(), ")");
    const int64_t xd = x.dim(), kd = k.dim();
    if (!((xd == S && kd == S) || (xd == S + 1 && (kd == S + 1 || kd == S + 2))))
        fail<ShapeError>(op, ": expected a ", S, "-D input with a ", S, "-D kernel, a ", S + 1,
                         "-D input with a ", S + 1, "-D kernel or a ", S + 1, "-D input with a ",
                         S + 2, "-D kernel; got a ", xd, "-D input of size ", x.sizes(), " and a ",
                         kd, "-D kernel of size ", k.sizes());
    for (int64_t d = 0; d < xd; ++d)
        if (x.size(d) == 0) fail<ShapeError>(op, ": input of size ", x.sizes(), " has no elements");
    for (int64_t d = 0; d < kd; ++d)
        if (k.size(d) == 0)
            fail<ShapeError>(op, ": kernel of size ", k.sizes(), " has no elements");
    ConvPlan p;
    p.full = mode == 'F';
    p.S = S;
    p.op = op;
    if (xd == S + 1) {
        p.lead = true;
        p.planes = x.size(0);
        p.sum = kd == S + 2;
        const int64_t kp = p.sum ? k.size(1) : k.size(0);
        if (kp != p.planes)
            fail<ShapeError>(op, ": the kernel of size ", k.sizes(), " has ", kp,
                             " planes, the input of size ", x.sizes(), " has ", p.planes,
                             p.sum ? " (a kernel q x p x ... needs p input planes)" : "");
        p.maps = p.sum ? k.size(0) : p.planes;
    }
    for (int64_t d = 0; d < S; ++d) {
        const int64_t i = 3 - S + d; // depth is dimension 0 of the plans' three
        p.in[i] = x.size(xd - S + d);
        p.ker[i] = k.size(kd - S + d);
        if (!p.full && p.ker[i] > p.in[i])
            fail<ShapeError>(op, ": kernel of size ", k.sizes(), " is larger than input of size ",
                             x.sizes(), " in 'V' mode (dimension ", xd - S + d, ")");
        p.pad[i] = p.full ? add_size(p.in[i], mul_size(p.ker[i] - 1, 2, op, "padding"), op,
                                     "padded input size")
                          : p.in[i];
        p.out[i] = p.pad[i] - p.ker[i] + 1;
    }
    Shape shape;
    if (p.lead) shape.push_back(p.maps);
    for (int64_t d = 3 - S; d < 3; ++d) shape.push_back(p.out[d]);
    checked_numel(shape, op);
    return p;
}

// The input as p.planes x depth x rows x columns, contiguous, zero-padded by
// kernel size - 1 on each side in 'F' mode (x itself when it is already so).
template <class T>
Tensor<T, CPU> conv_input(const ConvPlan& p, const Tensor<T, CPU>& x) {
    if (!p.full && x.isContiguous()) return x;
    // x as planes x depth x rows x columns: one plane in front of an input
    // without planes, depth 1 after the planes of conv2's p x m x n.
    Tensor<T, CPU> x4 = p.lead && p.S == 2 ? x.unsqueeze(1) : x;
    while (x4.dim() < 4) x4.set(x4.unsqueeze(0)); // set: rebind, `=` would copy values
    Tensor<T, CPU> in(Shape{p.planes, p.pad[0], p.pad[1], p.pad[2]});
    if (p.full) in.zero();
    Tensor<T, CPU> inner = in;
    for (int64_t d = 0; d < 3; ++d)
        inner.set(inner.narrow(d + 1, (p.pad[d] - p.in[d]) / 2, p.in[d]));
    inner.copy(x4);
    return in;
}

// conv_run's rows for 'F' mode, each tap summed only over the input itself
// (never over the zero padding): out[j] = sum over taps t whose input position
// exists of w[t] * in[off[t] + j], in the taps' order.
template <class T>
void conv_full_bounded(const ConvPlan& p, T* o, const T* src, const int64_t* off, const T* w,
                       int64_t taps, int64_t spatial) {
    const int64_t n = p.out[2], rows = p.out[0] * p.out[1], map = rows * n;
    const int64_t row = p.pad[2], slice = p.pad[1] * p.pad[2], plane = p.pad[0] * slice;
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(1, n * taps));
    iter::parallel_for(p.maps * rows, grain, [&](int64_t b, int64_t e, int64_t) {
        for (int64_t i = b; i < e; ++i) {
            const int64_t m = i / rows, rr = i % rows, od = rr / p.out[1], orow = rr % p.out[1];
            T* dst = o + m * map + rr * n;
            for (int64_t j = 0; j < n; ++j) dst[j] = T(0);
            const T* in = src + (p.sum ? 0 : m * plane) + od * slice + orow * row;
            const T* wm = w + m * taps;
            for (int64_t t = 0; t < taps; ++t) {
                const int64_t s = t % spatial, kd = s / (p.ker[1] * p.ker[2]),
                              kr = s / p.ker[2] % p.ker[1], kc = s % p.ker[2];
                // padded position = output position + tap; the input lies at
                // [ker - 1, ker - 1 + in) in every padded dimension
                const int64_t pd = od + kd - (p.ker[0] - 1), pr = orow + kr - (p.ker[1] - 1);
                if (pd < 0 || pd >= p.in[0] || pr < 0 || pr >= p.in[1]) continue;
                const int64_t j0 = std::max<int64_t>(0, p.ker[2] - 1 - kc);
                const int64_t j1 = std::min<int64_t>(n, p.ker[2] - 1 - kc + p.in[2]);
                const T* q = in + off[t];
                for (int64_t j = j0; j < j1; ++j) dst[j] += wm[t] * q[j];
            }
        }
    });
}

// Valid cross-correlation of the prepared input with the kernel (flipped in
// every spatial dimension for a convolution).
template <class T>
Tensor<T, CPU> conv_run(const ConvPlan& p, const Tensor<T, CPU>& x, const Tensor<T, CPU>& k,
                        bool flip) {
    const int64_t S = p.S;
    Shape shape;
    if (p.lead) shape.push_back(p.maps);
    for (int64_t d = 3 - S; d < 3; ++d) shape.push_back(p.out[d]);
    Tensor<T, CPU> r(shape);
    const Tensor<T, CPU> in = conv_input(p, x);

    // The kernel's weights in its own order, each spatial block reversed for a convolution.
    const int64_t spatial = p.ker[0] * p.ker[1] * p.ker[2];
    const Tensor<T, CPU> kc = k.contiguous();
    std::vector<T> w = guard_alloc(p.op, [&] { return std::vector<T>(size_t(k.nElement())); });
    for (int64_t b = 0; b < k.nElement(); b += spatial)
        for (int64_t s = 0; s < spatial; ++s)
            w[size_t(b + s)] = kc.data()[b + (flip ? spatial - 1 - s : s)];

    // The taps: (plane when summing,) depth, row, column offsets into the input.
    const int64_t row = p.pad[2], slice = p.pad[1] * p.pad[2], plane = p.pad[0] * slice;
    const int64_t taps = p.sum ? p.planes * spatial : spatial;
    std::vector<int64_t> off(static_cast<size_t>(taps));
    for (int64_t t = 0; t < taps; ++t) {
        const int64_t c = t / spatial, s = t % spatial;
        off[size_t(t)] = c * plane + s / (p.ker[1] * p.ker[2]) * slice +
                         s / p.ker[2] % p.ker[1] * row + s % p.ker[2];
    }

    const int64_t n = p.out[2], rows = p.out[0] * p.out[1], map = rows * n;
    auto base = [&](int64_t r) { return r / p.out[1] * slice + r % p.out[1] * row; };
    T* o = r.data();
    const T* src = in.data();

    if constexpr (std::is_floating_point_v<T>) {
        // 'F' with an infinite or NaN weight: Torch7's full convolution multiplies
        // only where the input exists, so a tap over the zero padding must add
        // nothing (not 0 * inf = NaN). Each tap's sum skips the padding.
        if (p.full && !std::all_of(w.begin(), w.end(), [](T v) { return std::isfinite(v); })) {
            conv_full_bounded(p, o, src, off.data(), w.data(), taps, spatial);
            return r;
        }
        // Many output maps over the same taps: im2col blocks and a matrix product.
        if (p.sum && p.maps >= 4 && taps * n <= (int64_t(1) << 22)) {
            const int64_t threads = getNumThreads();
            int64_t nb = std::clamp<int64_t>((int64_t(1) << 17) / (taps * n), 1, rows);
            nb = std::min(nb, (rows + threads - 1) / threads);
            const int64_t blocks = (rows + nb - 1) / nb;
            iter::parallel_for(blocks, 1, [&](int64_t b, int64_t e, int64_t) {
                Tensor<T, CPU> col(taps * nb * n); // this chunk's im2col scratch
                for (int64_t blk = b; blk < e; ++blk)
                    cpu::gemm_rows(o, map, p.maps, n, blk * nb, std::min(rows, (blk + 1) * nb), src,
                                   base, off.data(), w.data(), taps, col.data());
            });
            return r;
        }
    }
    // One output row at a time, threaded over the rows of every map.
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(1, n * taps));
    iter::parallel_for(p.maps * rows, grain, [&](int64_t b, int64_t e, int64_t) {
        for (int64_t i = b; i < e; ++i) {
            const int64_t m = i / rows, rr = i % rows;
            cpu::taps_row(o + m * map + rr * n, n, src + (p.sum ? 0 : m * plane) + base(rr),
                          off.data(), w.data() + m * taps, taps);
        }
    });
    return r;
}

template <class T, class D>
Tensor<T, D> conv_nd(const char* op, int64_t S, const Tensor<T, D>& x, const Tensor<T, D>& k,
                     char mode, bool flip) {
    const ConvPlan p = conv_plan(op, S, x, k, mode);
    if constexpr (std::is_same_v<D, CPU>)
        return conv_run(p, x, k, flip);
    else // found by argument-dependent lookup: cuda/conv.hpp
        return op_conv(p, x, k, flip);
}

} // namespace detail

// 2-D convolution (kernel flipped) of x by k; mode 'V' (valid) or 'F' (full).
// x m x n with k ki x kj; x p x m x n with k p x ki x kj (plane by plane); or x
// p x m x n with k q x p x ki x kj (q maps, each summed over the p planes).
template <detail::ConvScalar T, class D>
Tensor<T, D> conv2(const Tensor<T, D>& x, const Tensor<T, D>& k, char mode = 'V') {
    return detail::conv_nd("conv2", 2, x, k, mode, true);
}
// 2-D cross-correlation (kernel not flipped); the forms of conv2.
template <detail::ConvScalar T, class D>
Tensor<T, D> xcorr2(const Tensor<T, D>& x, const Tensor<T, D>& k, char mode = 'V') {
    return detail::conv_nd("xcorr2", 2, x, k, mode, false);
}
// 3-D convolution (kernel flipped): x with k of the same rank 3 or 4 (plane by
// plane), or x p x t x m x n with k q x p x kt x ki x kj (q maps summed over p).
template <detail::ConvScalar T, class D>
Tensor<T, D> conv3(const Tensor<T, D>& x, const Tensor<T, D>& k, char mode = 'V') {
    return detail::conv_nd("conv3", 3, x, k, mode, true);
}
// 3-D cross-correlation (kernel not flipped); the forms of conv3.
template <detail::ConvScalar T, class D>
Tensor<T, D> xcorr3(const Tensor<T, D>& x, const Tensor<T, D>& k, char mode = 'V') {
    return detail::conv_nd("xcorr3", 3, x, k, mode, false);
}

} // namespace t7
