// kthvalue, median and mode of CUDA tensors: the op_kth / op_mode that the
// generic t7::kthvalue / median / mode (ops/sort.hpp) reach for CUDA tensors.
// Both stand on the device's stable sort (kernels/sort.cu), so ties resolve by
// position exactly as on the CPU: the k-th smallest is entry k - 1 of the first
// k of each sorted line; the mode's runs of equal values are walked by one
// device thread per sorted line (kernels/mode.cu). Host code only.
#pragma once

#include "../ops/sort.hpp"
#include "index_ops.hpp"
#include "mode_kernel.hpp"

#include <vector>

namespace t7::detail {

// Checks and resizes out as the CPU's slice_job does (same messages), on x's GPU.
template <class T>
void order_result(const char* op, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x,
                  int64_t dim) {
    require_same_gpu(op, x.getDevice(), out.values, out.indices);
    const Shape shape = with_entry(x.sizes(), dim, 1);
    check_result(op, out.values, shape);
    check_result(op, out.indices, shape);
    cuda::DeviceGuard guard(x.getDevice());
    out.values.resize(shape);
    out.indices.resize(shape);
}

// dim and k checked by the caller (kth_into).
template <class T>
void op_kth(ops_tag, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x, int64_t k, int64_t dim,
            const char* op) {
    static_assert(!is_complex_v<T>, "t7::kthvalue, t7::median: complex numbers have no order");
    require_same_gpu(op, x.getDevice(), out.values, out.indices);
    check_result(op, out.values, with_entry(x.sizes(), dim, 1));
    check_result(op, out.indices, with_entry(x.sizes(), dim, 1));
    cuda::DeviceGuard guard(x.getDevice());
    ValuesIndices<T, CUDA> first; // the k smallest of each line, in stable order
    sort_gpu(op, first, x, dim, k, false);
    order_result(op, out, x, dim);
    out.values.copy(first.values.narrow(dim, k - 1, 1));
    out.indices.copy(first.indices.narrow(dim, k - 1, 1));
}

template <class T>
void op_mode(ops_tag, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x, int64_t dim) {
    static_assert(!is_complex_v<T>, "t7::mode: complex numbers have no order");
    require_same_gpu("mode", x.getDevice(), out.values, out.indices);
    check_result("mode", out.values, with_entry(x.sizes(), dim, 1));
    check_result("mode", out.indices, with_entry(x.sizes(), dim, 1));
    cuda::DeviceGuard guard(x.getDevice());
    const int64_t n = x.size(dim), last = x.dim() - 1;
    ValuesIndices<T, CUDA> s;
    sort_gpu("mode", s, x, dim, n, false);
    // Lines made rows (dim last, contiguous), then one thread per row walks its runs.
    const Tensor<T, CUDA> v = s.values.transpose(dim, last).contiguous();
    const Tensor<int64_t, CUDA> ix = s.indices.transpose(dim, last).contiguous();
    Tensor<T, CUDA> best_v(with_entry(x.sizes(), dim, 1)); // rows in row-major order
    Tensor<int64_t, CUDA> best_i(best_v.sizes());
    cuda::rt::mode_lines(dtype_of<T>(), v.data(), ix.data(), n > 0 ? x.nElement() / n : 0, n,
                         best_v.data(), best_i.data(), x.getDevice());
    order_result("mode", out, x, dim);
    out.values.copy(best_v);
    out.indices.copy(best_i);
}

} // namespace t7::detail
