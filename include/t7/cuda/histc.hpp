// histc of CUDA tensors: the op_histc that math/stats.hpp's histc reaches for
// them, after the same checks. Host code only: x's values are sorted on the
// device (kernels/sort.cu) and each bin counted there by binary search over
// them (kernels/histc.cu), with the CPU's bin of every value (math/histc_bin.hpp).
#pragma once

#include "../math/stats.hpp"
#include "histc_kernel.hpp"
#include "index_ops.hpp"

namespace t7::detail {

template <class T>
Tensor<T, CUDA> op_histc(HistcTag, const Tensor<T, CUDA>& x, int64_t nbins, double lo, double hi) {
    static_assert(!is_complex_v<T>, "t7::histc: complex numbers have no order");
    const int device = x.getDevice();
    cuda::DeviceGuard guard(device);
    const int64_t n = x.nElement();
    const Tensor<T, CUDA> flat = x.contiguous().view(n);
    ValuesIndices<T, CUDA> sorted;
    sort_gpu("histc", sorted, flat, 0, n, false);
    Tensor<T, CUDA> r(nbins);
    cuda::rt::histc_sorted(dtype_of<T>(), sorted.values.data(), n, nbins, lo, hi, r.data(), device);
    return r;
}

} // namespace t7::detail
