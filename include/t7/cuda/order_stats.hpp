// kthvalue, median and mode of CUDA tensors: the op_kth / op_mode that the
// generic t7::kthvalue / median / mode (ops/sort.hpp) reach for CUDA tensors.
// Both stand on the device's stable sort (kernels/sort.cu), so ties resolve by
// position exactly as on the CPU: the k-th smallest is entry k - 1 of the first
// k of each sorted line; the mode's runs of equal values are counted on the
// host over the sorted lines (one transfer of values and positions), the
// winning value and position going back to the device. Host code only.
#pragma once

#include "../ops/sort.hpp"
#include "index_ops.hpp"

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
    require_same_gpu("mode", x.getDevice(), out.values, out.indices);
    check_result("mode", out.values, with_entry(x.sizes(), dim, 1));
    check_result("mode", out.indices, with_entry(x.sizes(), dim, 1));
    cuda::DeviceGuard guard(x.getDevice());
    const int64_t n = x.size(dim), last = x.dim() - 1;
    ValuesIndices<T, CUDA> s;
    sort_gpu("mode", s, x, dim, n, false);
    // Lines made rows (dim last, contiguous on the device), then brought over.
    const Tensor<T, CPU> v = s.values.transpose(dim, last).contiguous().cpu();
    const Tensor<int64_t, CPU> ix = s.indices.transpose(dim, last).contiguous().cpu();
    const int64_t lines = x.nElement() / n;
    const T* vp = v.data();
    const int64_t* ip = ix.data();
    Tensor<T, CPU> best_v(with_entry(x.sizes(), dim, 1));
    Tensor<int64_t, CPU> best_i(best_v.sizes());
    for (int64_t r = 0; r < lines; ++r) {
        const T* line = vp + r * n;
        int64_t best = 0, best_count = 0;
        for (int64_t a = 0; a < n;) {
            int64_t b = a + 1;
            // equal sort keys, as on the CPU: NaN with NaN, -0 with +0
            while (b < n && SortKey<T>::key(line[b]) == SortKey<T>::key(line[a])) ++b;
            if (b - a > best_count) { // strictly more: the smallest value wins a tie
                best_count = b - a;
                best = b - 1; // its last position (positions ascend within a run)
            }
            a = b;
        }
        best_v.data()[r] = line[best];
        best_i.data()[r] = ip[r * n + best];
    }
    order_result("mode", out, x, dim);
    out.values.copy(best_v);
    out.indices.copy(best_i);
}

} // namespace t7::detail
