// cat: joins tensors along one dimension (Torch7's torch.cat).
//
//   t7::cat({a, b, c}, dim)          new tensor; dim defaults to the last dimension
//   t7::cat(a, b, dim)               two tensors (torch.cat(x1, x2, dim))
//   t7::cat(std::vector<Tensor>, dim)
//   t7::cat(result, {a, b}, dim)     into `result` (resized as Torch7 does; a result
//                                    of the right size keeps its strides)
//
// Inputs may be any views (transposed, narrowed, expanded); each is assigned
// into its narrow of the result by the expression engine (CUDA tensors: copied
// there on the device; every input on the result's GPU, else DeviceError). Empty inputs are
// skipped, as in Torch7; an empty list (no tensors at all) is a ShapeError. All
// non-empty inputs need the same number of dimensions and the same sizes except
// along `dim` (ShapeError naming the input).
#pragma once

// Not common.hpp: without the CPU evaluator, cat also serves nvcc translation
// units (<t7/cuda.hpp>); a CPU instantiation finds Evaluator<CPU> where it is made.
#include "../core/size_math.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "checks.hpp"

#include <initializer_list>
#include <vector>

namespace t7 {

namespace detail {

template <class T, class D>
Tensor<T, D>& cat_into(Tensor<T, D>& result, const Tensor<T, D>* in, size_t count, int64_t dim) {
    if (count == 0) fail<ShapeError>("cat: no tensors to join (an empty list)");
    // The first non-empty input fixes the rank and the other sizes.
    size_t first = 0;
    while (first < count && in[first].dim() == 0) ++first;
    if (first == count) { // nothing to join
        result.resize(Shape{});
        return result;
    }
    const Tensor<T, D>& ref = in[first];
    const int64_t d = ref.wrap_dim(dim, "cat");
    int64_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        const Tensor<T, D>& t = in[i];
        if (t.dim() == 0) continue;
        bool ok = t.dim() == ref.dim();
        for (int64_t k = 0; ok && k < t.dim(); ++k) ok = k == d || t.size(k) == ref.size(k);
        if (!ok)
            fail<ShapeError>("cat: input ", i, " has size ", t.sizes(), " but input ", first,
                             " has size ", ref.sizes(), ": sizes must match except in dimension ",
                             d);
        total = add_size(total, t.size(d), "cat", "total size along dimension ", d);
    }
    if constexpr (!std::is_same_v<D, CPU>) { // one GPU: copy() alone moves data across
        for (size_t i = 0; i < count; ++i)
            if (in[i].dim() > 0 && in[i].getDevice() != ref.getDevice())
                fail<DeviceError>("cat: input ", i, " is on ", device_label<D>(in[i].getDevice()),
                                  " but input ", first, " on ", device_label<D>(ref.getDevice()));
        if (result.dim() > 0 && result.getDevice() != ref.getDevice())
            fail<DeviceError>("cat: the result is on ", device_label<D>(result.getDevice()),
                              " but the inputs on ", device_label<D>(ref.getDevice()));
    }
    const typename DeviceMemory<D>::Scope scope(ref.getDevice()); // the result goes there
    // Snapshot every input before anything is written (a handle copy first, as
    // `result` may be one of the inputs and is about to be resized).
    std::vector<Tensor<T, D>> parts(in, in + count);
    const Shape shape = with_entry(ref.sizes(), d, total);
    check_result("cat", result, shape);
    result.resize(shape);
    for (auto& p : parts)
        if (overlaps(result, p)) p.set(p.clone());
    int64_t off = 0;
    for (const auto& p : parts) {
        if (p.dim() == 0) continue;
        const Tensor<T, D> slot = result.narrow(d, off, p.size(d));
        if constexpr (std::is_same_v<D, CPU>)
            Evaluator<D>::run_assign(slot, as_node(p));
        else // a device-to-device strided copy (the library's kernel): no evaluator needed
            Tensor<T, D>(slot).copy(p);
        off += p.size(d);
    }
    return result;
}

} // namespace detail

template <class T, class D>
Tensor<T, D> cat(std::initializer_list<Tensor<T, D>> inputs, int64_t dim = -1) {
    Tensor<T, D> r;
    return detail::cat_into(r, inputs.begin(), inputs.size(), dim);
}

template <class T, class D>
Tensor<T, D> cat(const std::vector<Tensor<T, D>>& inputs, int64_t dim = -1) {
    Tensor<T, D> r;
    return detail::cat_into(r, inputs.data(), inputs.size(), dim);
}

template <class T, class D>
Tensor<T, D> cat(const Tensor<T, D>& a, const Tensor<T, D>& b, int64_t dim = -1) {
    return cat({a, b}, dim);
}

template <class T, class D>
Tensor<T, D>& cat(Tensor<T, D>& result, std::initializer_list<Tensor<T, D>> inputs,
                  int64_t dim = -1) {
    return detail::cat_into(result, inputs.begin(), inputs.size(), dim);
}

template <class T, class D>
Tensor<T, D>& cat(Tensor<T, D>& result, const std::vector<Tensor<T, D>>& inputs, int64_t dim = -1) {
    return detail::cat_into(result, inputs.data(), inputs.size(), dim);
}

} // namespace t7
