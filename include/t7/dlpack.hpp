// DLPack (https://github.com/dmlc/dlpack): the C struct through which tensor
// libraries in one process (PyTorch, JAX, CuPy, NumPy, TVM) lend each other
// memory without copying. Not part of <t7/t7.hpp>: include this header, which
// needs <dlpack/dlpack.h> (Debian: libdlpack-dev; version 0.6 or later).
//
//   DLManagedTensor* m = t7::toDLPack(x); // a view of x's memory for someone else
//   auto y = t7::fromDLPack<float>(m);    // a tensor7 view of someone else's memory
//
// Layout in what toDLPack gives: `data` is x.data() (x's first element) and
// `byte_offset` is 0, as PyTorch writes it (libtorch 1.13's importer ignores
// byte_offset); fromDLPack honours a non-zero byte_offset. Strides are in
// elements and always present.
//
// tensor7 (as Torch7) has neither 0-dimensional scalars nor zero-size
// dimensions: its tensors with no dimension are empty. So an empty tensor7
// tensor goes out as a 1-D DLPack tensor of shape {0}; a DLPack tensor with no
// element (a size 0 anywhere) comes in as an empty tensor (dim() 0); and a
// DLPack scalar (ndim 0, one element) comes in as a 1-D tensor of size 1.
#pragma once

#include "core/config.hpp" // first, as in every public header: one error below C++20

#include "core/device.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/half.hpp"
#include "core/shape.hpp"
#include "core/size_math.hpp"
#include "core/storage.hpp"
#include "tensor/tensor.hpp"

#include <dlpack/dlpack.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

namespace t7 {

namespace detail {

// DLPack's type code of kDLBool (added in DLPack 0.8, absent from 0.6's enum):
// 8-bit booleans import as uint8.
inline constexpr uint8_t dlpack_bool_code = 6;

template <class T>
constexpr DLDataType dlpack_dtype() {
    DLDataType t{};
    t.bits = uint8_t(sizeof(T) * 8);
    t.lanes = 1;
    if constexpr (is_complex_v<T>) // interleaved (re, im): bits count both parts
        t.code = uint8_t(kDLComplex);
    else if constexpr (std::is_same_v<T, Half> || std::is_floating_point_v<T>)
        t.code = uint8_t(kDLFloat);
    else if constexpr (std::is_signed_v<T>)
        t.code = uint8_t(kDLInt);
    else
        t.code = uint8_t(kDLUInt);
    return t;
}

// What toDLPack's managed tensor points to: the tensor handle that keeps the
// storage alive, and the arrays its DLTensor's shape and strides point into.
template <class T, class D>
struct DLPackExport {
    DLManagedTensor managed{};
    Tensor<T, D> handle;
    std::vector<int64_t> shape, strides;

    static void deleter(DLManagedTensor* self) noexcept {
        auto* ctx = static_cast<DLPackExport*>(self->manager_ctx);
        if (ctx->handle.dim() > 0) ctx->handle.storage().unpin(); // it may move again (resize)
        delete ctx;
    }
};

// What fromDLPack's storage releases: the managed tensor, unless the import
// failed after the storage was made (then `managed` is null and the caller
// still owns it).
struct DLPackImport {
    DLManagedTensor* managed;
    static void release(void* ctx) noexcept {
        auto* self = static_cast<DLPackImport*>(ctx);
        DLManagedTensor* m = self->managed;
        delete self;
        if (m && m->deleter) m->deleter(m);
    }
};

inline const char* dlpack_device_name(int type) {
    switch (type) {
    case kDLCPU:
        return "kDLCPU";
    case kDLCUDA:
        return "kDLCUDA";
    case kDLCUDAHost:
        return "kDLCUDAHost";
    case kDLCUDAManaged:
        return "kDLCUDAManaged";
    case kDLOpenCL:
        return "kDLOpenCL";
    case kDLVulkan:
        return "kDLVulkan";
    case kDLMetal:
        return "kDLMetal";
    case kDLROCM:
        return "kDLROCM";
    default:
        return "another device";
    }
}

} // namespace detail

// A DLPack view of x's memory: sizes and strides (in elements) of x, dtype of T
// (Half: kDLFloat 16; uint8: kDLUInt 8; std::complex<float>: kDLComplex 64,
// std::complex<double>: kDLComplex 128), device kDLCPU (device_id 0) or kDLCUDA
// (device_id x.getDevice()), data = x.data() and byte_offset 0. Nothing is
// copied: writes on either side are seen by the other. The managed tensor keeps
// x's storage alive until its `deleter` is called, which the consumer must do
// exactly once (it frees the managed tensor too). Until then x's storage is
// pinned: a resize that would move it (x.resize to more elements, or any
// tensor or Storage handle on it) throws ShapeError naming DLPack. A pending
// storage (a lazy product, core/pending.hpp) is computed first. The
// dimensionless empty x: shape {0}, data null (nothing pinned); sizes 0 and
// negative strides (reversed views) are passed as they are.
template <Element T, class D>
DLManagedTensor* toDLPack(const Tensor<T, D>& x) {
    auto* ctx = new detail::DLPackExport<T, D>{DLManagedTensor{}, x, {}, {}}; // shares x's storage
    DLTensor& t = ctx->managed.dl_tensor;
    try {
        // data() computes a pending storage's values (MemoryError if it cannot).
        t.data = x.dim() == 0 ? nullptr : static_cast<void*>(ctx->handle.data());
        if (x.dim() == 0) {
            ctx->shape = {0};
            ctx->strides = {1};
        } else {
            ctx->shape.assign(x.sizes().begin(), x.sizes().end());
            ctx->strides.assign(x.strides().begin(), x.strides().end());
        }
    } catch (...) {
        delete ctx;
        throw;
    }
    if constexpr (std::is_same_v<D, CUDA>)
        t.device = DLDevice{kDLCUDA, x.getDevice()};
    else
        t.device = DLDevice{kDLCPU, 0};
    t.ndim = int(ctx->shape.size());
    t.dtype = detail::dlpack_dtype<T>();
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    t.byte_offset = 0;
    ctx->managed.manager_ctx = ctx;
    ctx->managed.deleter = &detail::DLPackExport<T, D>::deleter;
    if (x.dim() > 0) ctx->handle.storage().pin(); // the consumer holds `data`: no resize moves it
    return &ctx->managed;
}

namespace detail {

// What fromDLPack makes of a DLTensor, checked before anything is owned: the
// first element, the storage's extent and device, the sizes and strides
// (empty sizes: no element). Throws as fromDLPack says. Separate from the
// storage so that the checks of the CUDA path run without a CUDA runtime.
template <class T>
struct DLPackPlan {
    T* data = nullptr; // the lowest element the view reaches
    int64_t extent = 0;
    int device = 0;
    Shape sizes, strides; // strides made non-negative: the view before `flipped`
    Shape flipped;        // the dimensions whose producer's stride is negative
};

template <Element T, class D>
DLPackPlan<T> dlpack_import_plan(const DLTensor& t) {
    constexpr const char* op = "fromDLPack";
    const DLDataType want = dlpack_dtype<T>();
    const bool as_bool =
        std::is_same_v<T, uint8_t> && t.dtype.code == dlpack_bool_code && t.dtype.bits == 8;
    if (!as_bool && (t.dtype.code != want.code || t.dtype.bits != want.bits))
        fail<TypeError>(op, ": DLPack dtype (code ", int(t.dtype.code), ", ", int(t.dtype.bits),
                        " bits) is not ", dtype_traits<T>::name, " (code ", int(want.code), ", ",
                        int(want.bits), " bits)");
    if (t.dtype.lanes != 1)
        fail<TypeError>(op, ": DLPack dtype has ", int(t.dtype.lanes),
                        " lanes; tensor7 elements have 1");

    DLPackPlan<T> plan;
    // The raw integer: a producer's newer device type may lie outside the
    // installed header's enum, where reading it as DLDeviceType is undefined.
    static_assert(sizeof(t.device.device_type) == sizeof(int32_t));
    int32_t type;
    std::memcpy(&type, &t.device.device_type, sizeof type);
    if constexpr (std::is_same_v<D, CUDA>) {
        if (type != kDLCUDA && type != kDLCUDAManaged)
            fail<DeviceError>(op, ": memory on ", dlpack_device_name(type), " (device type ", type,
                              ") for a CUDA tensor");
        plan.device = t.device.device_id;
        if (plan.device < 0) fail<DeviceError>(op, ": negative CUDA device id ", plan.device);
    } else {
        if (type != kDLCPU && type != kDLCUDAHost)
            fail<DeviceError>(op, ": memory on ", dlpack_device_name(type), " (device type ", type,
                              ") for a ", D::name, " tensor");
    }

    if (t.ndim < 0) fail<ShapeError>(op, ": negative ndim ", t.ndim);
    if (t.ndim > 0 && !t.shape) fail<Error>(op, ": null shape for ndim ", t.ndim);
    const Shape sizes = t.ndim == 0 ? Shape{1} : Shape(t.shape, t.shape + t.ndim);
    const int64_t n = checked_numel(sizes, op); // negative sizes, overflow
    // Null strides: compact row-major, computed only when there are elements
    // (with a size 0, the other sizes' product may overflow; no stride is used).
    Shape strides = t.ndim == 0  ? Shape{1}
                    : !t.strides ? (n > 0 ? contiguous_strides(sizes) : Shape(sizes.size(), 0))
                                 : Shape(t.strides, t.strides + t.ndim);
    // A negative stride (the spec allows them) walks down from data: the storage
    // starts at the lowest element reached, and the view is flipped back.
    Shape reach = strides;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (strides[d] >= 0) continue;
        if (sizes[d] <= 1 || strides[d] == INT64_MIN) {
            if (sizes[d] > 1)
                fail<ShapeError>(op, ": stride ", strides[d], " in ", strides,
                                 " cannot be negated");
            reach[d] = strides[d] = 0; // a dimension of size 0 or 1: the stride is never used
            continue;
        }
        plan.flipped.push_back(int64_t(d));
        reach[d] = -strides[d];
    }
    // Bounds (sizes - 1) * |stride| summed: the walk below the first element is safe.
    if (n > 0) plan.extent = checked_extent(sizes, reach, op);
    if (t.byte_offset % sizeof(T) != 0)
        fail<ShapeError>(op, ": byte_offset ", t.byte_offset, " is not a multiple of ", sizeof(T),
                         " (the size of ", dtype_traits<T>::name, ")");
    if (n > 0) {
        if (!t.data) fail<Error>(op, ": null data pointer for size ", sizes);
        // byte_offset is a multiple of sizeof(T), so data itself must be aligned.
        if (reinterpret_cast<uintptr_t>(t.data) % alignof(T) != 0)
            fail<Error>(op, ": data pointer ", t.data, " is not aligned to ", alignof(T),
                        " bytes (the alignment of ", dtype_traits<T>::name, ")");
        plan.data = reinterpret_cast<T*>(static_cast<char*>(t.data) + t.byte_offset);
        for (int64_t d : plan.flipped) plan.data += (sizes[size_t(d)] - 1) * strides[size_t(d)];
        plan.strides = reach;
    } else {
        plan.strides = strides; // no element: any strides (those of size 0 or 1 made 0)
        for (int64_t d : plan.flipped) plan.strides[size_t(d)] = 0;
        plan.flipped = Shape{};
    }
    if (t.ndim > 0) plan.sizes = sizes; // an empty dimension keeps its shape
    return plan;
}

} // namespace detail

// A Tensor<T, D> viewing m's memory without a copy (ownsStorage() false). The
// tensor7 side takes over m: when the last handle on that storage (the tensor,
// its views and copies, lazy expressions holding it) dies, m->deleter(m) is
// called once (not at all when it is null), in the thread that drops it.
// Accepted devices: kDLCPU and kDLCUDAHost for CPU, kDLCUDA and kDLCUDAManaged
// for CUDA (the storage's device is device_id). Strides null: compact row-major.
// Throws, leaving m to the caller (not deleted): Error for a null m, a null
// shape, a null data pointer with elements or one not aligned for T; TypeError
// when the dtype is not T's (kDLBool 8 is accepted as uint8) or lanes is not 1;
// DeviceError when the device is not one of D's (any device type number);
// ShapeError for a negative ndim, negative sizes, a byte_offset that is not a
// multiple of sizeof(T), or sizes and strides whose element count or extent
// overflows int64. Negative strides (reversed views) are kept: the storage
// starts at the lowest element the view reaches. A size 0 keeps the shape.
template <Element T, class D = CPU>
Tensor<T, D> fromDLPack(DLManagedTensor* m) {
    if (!m) detail::fail<Error>("fromDLPack: null DLManagedTensor");
    const detail::DLPackPlan<T> plan = detail::dlpack_import_plan<T, D>(m->dl_tensor);

    // From here the storage may release m: when building the tensor throws
    // (out of memory), the release is disarmed first and m stays the caller's.
    auto* ctx = new detail::DLPackImport{m};
    Storage<T, D> s;
    try {
        s = Storage<T, D>::wrap(plan.data, plan.extent, plan.device, &detail::DLPackImport::release,
                                ctx);
    } catch (...) {
        delete ctx; // wrap threw: it will not call release
        throw;
    }
    try { // s is copied, not moved: the copy a throwing constructor drops is not the last
        if (plan.sizes.empty()) return Tensor<T, D>(s, 0);
        Tensor<T, D> view(s, 0, plan.sizes, plan.strides);
        return plan.flipped.empty() ? view : view.flip(plan.flipped);
    } catch (...) {
        ctx->managed = nullptr; // s, the last handle, now only frees ctx
        throw;
    }
}

} // namespace t7
