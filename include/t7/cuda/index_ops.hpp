// The indexed, masked and sorting operations on CUDA tensors: the op_*
// implementations the Tensor members (ops/members.hpp) reach for CUDA
// tensors. Host code only: arguments are checked exactly as on the CPU (same
// exceptions, same messages, from ops/checks.hpp), iteration spaces planned,
// then the precompiled type-erased kernels of tensor7_cuda run
// (kernels/index.cu, kernels/sort.cu). Index tensors are validated on the
// device (the first bad position, found by a reduction) before anything is
// written. Usable from any host translation unit: no Thrust, no Eigen.
//
// Every operand must live on the same GPU (else DeviceError naming both);
// a CPU mask on a CUDA tensor is a DeviceError too.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../eval/thrust/indexer.hpp"
#include "../expr/reductions.hpp"
#include "../ops/checks.hpp"
#include "../ops/members.hpp"
#include "../tensor/copy.hpp"

#include <cstring>

namespace t7::detail {

// DeviceError unless every non-empty tensor of `x` lives on `device`.
template <class... X>
void require_same_gpu(const char* op, int device, const X&... x) {
    auto one = [&](const auto& t) {
        if (t.dim() > 0 && t.getDevice() != device)
            fail<DeviceError>(op, ": operands on ", device_label<CUDA>(device), " and ",
                              device_label<CUDA>(t.getDevice()),
                              "; only copy() moves data between devices");
    };
    (one(x), ...);
}

// IndexError (as check_range's on the CPU) unless every index is in [0, n).
inline void check_range_gpu(const char* op, const Tensor<int64_t, CUDA>& idx, int64_t n,
                            int64_t dim) {
    if (idx.dim() == 0 || idx.nElement() == 0) return;
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(idx.sizes(), idx.strides(), Shape(idx.sizes().size(), 0), op, false);
    int64_t value = 0;
    const int64_t pos = cuda::rt::find_bad_index(idx.data(), s, n, value, idx.getDevice());
    if (pos >= 0) fail_index_range(op, value, pos, idx.sizes(), dim, n);
}

// out[p] = src[p with coordinate `dim` replaced by idx[p]] over out's shape.
template <class T>
void gather_gpu(const char* op, const Tensor<T, CUDA>& out, const Tensor<T, CUDA>& src, int64_t dim,
                const Tensor<int64_t, CUDA>& idx, const Shape& idx_st) {
    if (out.nElement() == 0) return;
    const cuda::rt::Strided3 s = gpu::plan_strided3(out.sizes(), out.strides(),
                                                    with_entry(src.strides(), dim, 0), idx_st, op);
    cuda::rt::index_gather(out.data(), src.data(), int(sizeof(T)), idx.data(), s, src.stride(dim),
                           out.getDevice());
}

// dst[p with coordinate `dim` replaced by idx[p]] (op)= src[p] over `shape`.
template <class T>
void scatter_gpu(const char* op, ScatterOp kind, const Tensor<T, CUDA>& dst, const Shape& shape,
                 int64_t dim, const T* src, const Shape& src_st, const Tensor<int64_t, CUDA>& idx,
                 const Shape& idx_st, T v) {
    if (shape.numel() == 0) return;
    const cuda::rt::Strided3 lines =
        gpu::plan_strided3(with_entry(shape, dim, 1), dst.strides(), src_st, idx_st, op);
    const cuda::rt::ScatterKind k = kind == ScatterOp::copy  ? cuda::rt::ScatterKind::copy
                                    : kind == ScatterOp::add ? cuda::rt::ScatterKind::add
                                                             : cuda::rt::ScatterKind::fill;
    cuda::rt::index_scatter(k, dtype_of<T>(), dst.data(), src, &v, idx.data(), lines,
                            shape[size_t(dim)], src_st[size_t(dim)], idx_st[size_t(dim)],
                            dst.stride(dim), dst.getDevice());
}

// ---- index family -------------------------------------------------------------------

template <class T>
void op_index(ops_tag, Tensor<T, CUDA>& self, const Tensor<T, CUDA>& src_in, int64_t dim,
              const Tensor<int64_t, CUDA>& idx_in) {
    Tensor<T, CUDA> src = src_in;       // handles taken before resizing self, which
    Tensor<int64_t, CUDA> idx = idx_in; // may be one of them
    dim = src.wrap_dim(dim, "index");
    check_vector("index", idx);
    require_same_gpu("index", src.getDevice(), idx, self);
    const int64_t n = src.size(dim);
    check_range_gpu("index", idx, n, dim);
    const Shape shape = with_entry(src.sizes(), dim, idx.size(0));
    check_result("index", self, shape);
    cuda::DeviceGuard guard(src.getDevice());
    self.resize(shape);
    src.set(unaliased(src, self));
    idx.set(unaliased(idx, self));
    gather_gpu("index", self, src, dim, idx, along(size_t(self.dim()), dim, idx.stride(0)));
}

template <class T>
void op_index_scatter(ops_tag, ScatterOp kind, const char* op, Tensor<T, CUDA>& self, int64_t dim,
                      const Tensor<int64_t, CUDA>& idx_in, const Tensor<T, CUDA>* src_in, T v) {
    const Shape shape = check_index_scatter(op, self, dim, idx_in, src_in);
    if (src_in)
        require_same_gpu(op, self.getDevice(), idx_in, *src_in);
    else
        require_same_gpu(op, self.getDevice(), idx_in);
    check_range_gpu(op, idx_in, self.size(dim), dim);
    cuda::DeviceGuard guard(self.getDevice());
    const Tensor<int64_t, CUDA> idx = unaliased(idx_in, self);
    const Shape idx_st = along(shape.size(), dim, idx.stride(0));
    if (!src_in) {
        scatter_gpu(op, kind, self, shape, dim, static_cast<const T*>(nullptr),
                    Shape(shape.size(), 0), idx, idx_st, v);
        return;
    }
    const Tensor<T, CUDA> src = unaliased(*src_in, self);
    scatter_gpu(op, kind, self, shape, dim, src.data(), src.strides(), idx, idx_st, T{});
}

// ---- gather / scatter -----------------------------------------------------------------

template <class T>
void op_gather(ops_tag, Tensor<T, CUDA>& r, const Tensor<T, CUDA>& self, int64_t dim,
               const Tensor<int64_t, CUDA>& idx) {
    dim = self.wrap_dim(dim, "gather");
    check_gather_shape("gather", "source", self, idx, dim);
    require_same_gpu("gather", self.getDevice(), idx);
    check_range_gpu("gather", idx, self.size(dim), dim);
    cuda::DeviceGuard guard(self.getDevice());
    r.resize(idx.sizes());
    gather_gpu("gather", r, self, dim, idx, idx.strides());
}

template <class T>
void op_gather_into(ops_tag, Tensor<T, CUDA>& self, const Tensor<T, CUDA>& src_in, int64_t dim,
                    const Tensor<int64_t, CUDA>& idx_in) {
    Tensor<T, CUDA> src = src_in;
    Tensor<int64_t, CUDA> idx = idx_in;
    dim = check_gather_into(self, src, dim, idx);
    require_same_gpu("gather", src.getDevice(), idx, self);
    check_range_gpu("gather", idx, src.size(dim), dim);
    cuda::DeviceGuard guard(src.getDevice());
    self.resize(idx.sizes());
    src.set(unaliased(src, self));
    idx.set(unaliased(idx, self));
    gather_gpu("gather", self, src, dim, idx, idx.strides());
}

template <class T>
void op_scatter(ops_tag, Tensor<T, CUDA>& self, int64_t dim, const Tensor<int64_t, CUDA>& idx_in,
                const Tensor<T, CUDA>* src_in, T v) {
    dim = self.wrap_dim(dim, "scatter");
    check_gather_shape("scatter", "destination", self, idx_in, dim);
    if (src_in && !(src_in->sizes() == idx_in.sizes()))
        fail<ShapeError>("scatter: source of size ", src_in->sizes(),
                         " does not match the index size ", idx_in.sizes());
    require_same_gpu("scatter", self.getDevice(), idx_in);
    if (src_in) require_same_gpu("scatter", self.getDevice(), *src_in);
    check_range_gpu("scatter", idx_in, self.size(dim), dim);
    cuda::DeviceGuard guard(self.getDevice());
    const Tensor<int64_t, CUDA> idx = unaliased(idx_in, self);
    if (!src_in) {
        scatter_gpu("scatter", ScatterOp::fill, self, idx.sizes(), dim,
                    static_cast<const T*>(nullptr), Shape(idx.sizes().size(), 0), idx,
                    idx.strides(), v);
        return;
    }
    const Tensor<T, CUDA> src = unaliased(*src_in, self);
    scatter_gpu("scatter", ScatterOp::copy, self, idx.sizes(), dim, src.data(), src.strides(), idx,
                idx.strides(), T{});
}

// ---- masks --------------------------------------------------------------------------

// The mask as a CUDA ByteTensor viewed in x's shape, on x's device. A uint8
// expression on CUDA tensors is evaluated first (a fused kernel: nvcc only).
// `writes_x`: a mask overlapping x is copied first.
template <class T, class N>
Tensor<uint8_t, CUDA> gpu_mask(const char* op, const Tensor<T, CUDA>& x, const N& node,
                               const Shape& mshape, bool writes_x) {
    using ND = typename N::device_type;
    Tensor<uint8_t, CUDA> m;
    if constexpr (std::is_same_v<ND, MixedDevices>) {
        check_devices(node, op); // throws, naming two of the devices
        fail<DeviceError>(op, ": the mask mixes devices");
    } else if constexpr (std::is_void_v<ND>) {
        fail<TypeError>(op, ": the mask must be a tensor or an expression of tensors");
    } else if constexpr (!std::is_same_v<ND, CUDA>) {
        fail<DeviceError>(op, ": the mask is on ", device_label<ND>(check_devices(node, op)),
                          " but the tensor on ", device_label<CUDA>(x.getDevice()),
                          "; only copy() moves data between devices");
    } else {
        if constexpr (LeafOf<N, uint8_t, CUDA>)
            m.set(node.tensor());
        else
            m.set(t7::eval(node));
        require_same_gpu(op, x.getDevice(), m);
        if (!(mshape == x.sizes())) m.set(m.contiguous().view(x.sizes()));
        if (writes_x && overlaps(x, m)) m.set(m.clone());
    }
    return m;
}

template <class T, class N>
void op_masked_select(ops_tag, Tensor<T, CUDA>& self, const Tensor<T, CUDA>& src, const N& node,
                      bool into) {
    const Shape mshape = check_mask("maskedSelect", src, node);
    if (into) require_same_gpu("maskedSelect", src.getDevice(), self);
    cuda::DeviceGuard guard(src.getDevice());
    if (src.nElement() == 0) {
        self.resize(Shape{0});
        return;
    }
    const Tensor<uint8_t, CUDA> m = gpu_mask("maskedSelect", src, node, mshape, false);
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(src.sizes(), src.strides(), m.strides(), "maskedSelect", false);
    const int64_t total = cuda::rt::count_nonzero(DType::u8, m.data(), 1, s, src.getDevice());
    if (into) check_result("maskedSelect", self, Shape{total});
    // Straight into self unless it overlaps what is read (then through a temporary).
    const bool direct = !into || !(overlaps(self, src) || overlaps(self, m));
    Tensor<T, CUDA> tmp;
    Tensor<T, CUDA>& out = direct ? self : tmp;
    out.resize(Shape{total});
    if (total > 0)
        cuda::rt::masked_select(out.data(), out.stride(0), src.data(), int(sizeof(T)), m.data(), s,
                                src.getDevice());
    if (direct) return;
    self.resize(out.sizes());
    self.assign(out);
}

template <class T, class N>
void op_masked_fill(ops_tag, Tensor<T, CUDA>& self, const N& node, T v) {
    const Shape mshape = check_mask("maskedFill", self, node);
    if (self.nElement() == 0) return;
    const Tensor<uint8_t, CUDA> m = gpu_mask("maskedFill", self, node, mshape, true);
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(self.sizes(), self.strides(), m.strides(), "maskedFill");
    cuda::rt::masked_fill(self.data(), int(sizeof(T)), &v, m.data(), s, self.getDevice());
}

template <class T, class N>
void op_masked_copy(ops_tag, Tensor<T, CUDA>& self, const N& node, const Tensor<T, CUDA>& src_in) {
    const Shape mshape = check_mask("maskedCopy", self, node);
    if (self.nElement() == 0) return;
    const Tensor<uint8_t, CUDA> m = gpu_mask("maskedCopy", self, node, mshape, true);
    require_same_gpu("maskedCopy", self.getDevice(), src_in);
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(self.sizes(), self.strides(), m.strides(), "maskedCopy", false);
    const int64_t total = cuda::rt::count_nonzero(DType::u8, m.data(), 1, s, self.getDevice());
    if (src_in.nElement() < total)
        fail<ShapeError>("maskedCopy: the mask selects ", total,
                         " elements but the source has only ", src_in.nElement(), " (size ",
                         src_in.sizes(), ")");
    if (total == 0) return;
    cuda::DeviceGuard guard(self.getDevice());
    // The source is read in layout order: a contiguous snapshot unless it is one.
    Tensor<T, CUDA> src = src_in;
    if (!src.isContiguous() || overlaps(self, src)) src.set(src_in.clone());
    cuda::rt::masked_copy(self.data(), int(sizeof(T)), src.data(), m.data(), s, self.getDevice());
}

template <class T>
void op_nonzero(ops_tag, Tensor<int64_t, CUDA>& out, const Tensor<T, CUDA>& x_in) {
    const Shape none = x_in.dim() == 0 ? Shape{} : Shape{0, x_in.dim()}; // as on the CPU
    if (x_in.nElement() == 0) {
        out.resize(none);
        return;
    }
    require_same_gpu("nonzero", x_in.getDevice(), out);
    cuda::DeviceGuard guard(x_in.getDevice());
    Tensor<T, CUDA> x = x_in;
    if (overlaps(out, x)) x.set(x_in.clone());
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(x.sizes(), x.strides(), Shape(x.sizes().size(), 0), "nonzero", false);
    const int64_t total = cuda::rt::count_nonzero(dtype_of<T>(), x.data(), 0, s, x.getDevice());
    if (total == 0) {
        out.resize(none);
        return;
    }
    check_result("nonzero", out, Shape{total, x.dim()});
    out.resize(Shape{total, x.dim()});
    Tensor<int64_t, CUDA> o = out;
    if (!o.isContiguous()) o.set(Tensor<int64_t, CUDA>(out.sizes()));
    cuda::rt::nonzero(o.data(), dtype_of<T>(), x.data(), s, x.sizes().data(), int(x.dim()),
                      x.getDevice());
    if (!o.isSetTo(out)) out.assign(o);
}

// ---- sort / topk -------------------------------------------------------------------------

// The first k of every line of x along dim, stably sorted, into out.
template <class T>
void sort_gpu(const char* op, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x_in, int64_t dim,
              int64_t k, bool descending) {
    require_same_gpu(op, x_in.getDevice(), out.values, out.indices);
    cuda::DeviceGuard guard(x_in.getDevice());
    const Shape shape = with_entry(x_in.sizes(), dim, k);
    check_result(op, out.values, shape);
    check_result(op, out.indices, shape);
    out.values.resize(shape); // no-op when already this size (strided results keep their strides)
    out.indices.resize(shape);
    Tensor<T, CUDA> x = x_in;
    if (overlaps(out.values, x) || overlaps(out.indices, x)) x.set(x_in.clone());
    const cuda::rt::Strided3 lines =
        gpu::plan_strided3(with_entry(x.sizes(), dim, 1), x.strides(), out.values.strides(),
                           out.indices.strides(), op);
    cuda::rt::sort_lines(dtype_of<T>(), x.data(), out.values.data(), out.indices.data(), lines,
                         x.size(dim), x.stride(dim), k, out.values.stride(dim),
                         out.indices.stride(dim), descending, x.getDevice());
}

template <class T>
void op_sort(ops_tag, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x, int64_t dim,
             bool descending) {
    // as the CPU's t7::sort (ops/sort.hpp); kernels/sort.cu refuses a complex tag at run time
    static_assert(!is_complex_v<T>, "t7::sort: complex numbers have no order");
    if (x.dim() == 0) { // sorting nothing gives nothing
        out.values.resize(Shape{});
        out.indices.resize(Shape{});
        return;
    }
    dim = x.wrap_dim(dim, "sort");
    sort_gpu("sort", out, x, dim, x.size(dim), descending);
}

template <class T>
void op_topk(ops_tag, ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x, int64_t k, int64_t dim,
             bool largest) {
    static_assert(!is_complex_v<T>, "t7::topk: complex numbers have no order");
    dim = slice_dim(x, dim, "topk");
    check_k("topk", k, dim, x.size(dim), 0);
    sort_gpu("topk", out, x, dim, k, largest);
}

} // namespace t7::detail

namespace t7 {

// torch.sort / torch.topk into {values, indices} of CUDA tensors (the generic
// t7::sort(x, ...) and t7::topk(x, ...) of ops/sort.hpp reach these too).
template <class T>
ValuesIndices<T, CUDA>& sort(ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x,
                             int64_t dim = -1, bool descending = false) {
    op_sort(detail::ops_tag{}, out, x, dim, descending);
    return out;
}
template <class T>
ValuesIndices<T, CUDA>& topk(ValuesIndices<T, CUDA>& out, const Tensor<T, CUDA>& x, int64_t k,
                             int64_t dim = -1, bool largest = true) {
    op_topk(detail::ops_tag{}, out, x, k, dim, largest);
    return out;
}

} // namespace t7
