// Moving tensors between devices: x.cuda(id), g.cpu() and copy() across
// devices (CPU -> CUDA, CUDA -> CPU, one GPU -> another). Elements pair up in
// each tensor's row-major order, converting the element type, as copy() does
// on one device. Conversions and strided layouts are handled on the GPU (the
// library's strided copy); the host side only gathers or scatters bytes, so
// this header needs no evaluator: it works from host code and from nvcc
// translation units alike. Only programs that call it link tensor7_cuda.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../eval/thrust/indexer.hpp"
#include "../iter/loop.hpp"
#include "tensor.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace t7 {

namespace detail {

// Host copy of `sizes` elements of `elem` bytes between two strided layouts.
inline void host_strided_copy(void* dst, const Shape& dst_strides, const void* src,
                              const Shape& src_strides, const Shape& sizes, size_t elem) {
    std::array<const Shape*, 2> st{&dst_strides, &src_strides};
    const iter::Loop<2> L = iter::make_loop<2>(sizes, st);
    const int64_t ds = L.inner_stride(0), ss = L.inner_stride(1);
    auto run = [&](auto word) {
        using W = decltype(word);
        W* d = static_cast<W*>(dst);
        const W* s = static_cast<const W*>(src);
        iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, 2>& off, int64_t n) {
            W* dp = d + off[0];
            const W* sp = s + off[1];
            for (int64_t i = 0; i < n; ++i) dp[i * ds] = sp[i * ss];
        });
    };
    detail::with_word(int(elem), run);
}

// A contiguous device tensor of `sizes` on `device`.
template <class T>
Tensor<T, CUDA> device_buffer(const Shape& sizes, int device) {
    return Tensor<T, CUDA>(Storage<T, CUDA>(sizes.numel(), device), 0, sizes);
}

// The elements of a CUDA tensor, contiguous and converted to T, on its device:
// the tensor itself when it already is, else a new buffer.
template <class T, class U>
Tensor<T, CUDA> contiguous_as(const Tensor<U, CUDA>& src) {
    if constexpr (std::is_same_v<T, U>)
        if (src.isContiguous()) return src;
    Tensor<T, CUDA> tmp = device_buffer<T>(src.sizes(), src.getDevice());
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(src.sizes(), tmp.strides(), src.strides(), "copy");
    cuda::rt::strided_copy(tmp.data(), dtype_of<T>(), src.data(), dtype_of<U>(), s,
                           src.getDevice());
    return tmp;
}

// dst (any layout) receives the n contiguous elements of type T at `from`, on its device.
template <class T>
void scatter_on_device(const Tensor<T, CUDA>& dst, const T* from) {
    const Shape cs = contiguous_strides(dst.sizes());
    const cuda::rt::Strided2 s = gpu::plan_strided2(dst.sizes(), dst.strides(), cs, "copy");
    cuda::rt::strided_copy(dst.data(), dtype_of<T>(), from, dtype_of<T>(), s, dst.getDevice());
}

template <class T, class U>
void upload(const Tensor<T, CUDA>& dst, const Tensor<U, CPU>& src) {
    const int64_t n = src.nElement();
    const int device = dst.getDevice();
    // 1. the source's elements, contiguous on the host
    const U* host = src.data();
    std::unique_ptr<U[]> packed;
    if (!src.isContiguous()) {
        packed.reset(new U[size_t(n)]);
        host_strided_copy(packed.get(), contiguous_strides(src.sizes()), src.data(), src.strides(),
                          src.sizes(), sizeof(U));
        host = packed.get();
    }
    // 2. straight into dst, or through a device buffer converted on the device
    if constexpr (std::is_same_v<T, U>) {
        if (dst.isContiguous()) {
            cuda::rt::copy_to_device(dst.data(), device, host, size_t(n) * sizeof(T));
            return;
        }
    }
    Tensor<U, CUDA> tmp = device_buffer<U>(dst.sizes(), device);
    cuda::rt::copy_to_device(tmp.data(), device, host, size_t(n) * sizeof(U));
    const cuda::rt::Strided2 s =
        gpu::plan_strided2(dst.sizes(), dst.strides(), tmp.strides(), "copy");
    cuda::rt::strided_copy(dst.data(), dtype_of<T>(), tmp.data(), dtype_of<U>(), s, device);
}

template <class T, class U>
void download(const Tensor<T, CPU>& dst, const Tensor<U, CUDA>& src) {
    const int64_t n = src.nElement();
    const Tensor<T, CUDA> packed = contiguous_as<T>(src);
    if (dst.isContiguous()) {
        cuda::rt::copy_to_host(dst.data(), packed.data(), src.getDevice(), size_t(n) * sizeof(T));
        return;
    }
    std::unique_ptr<T[]> host(new T[size_t(n)]);
    cuda::rt::copy_to_host(host.get(), packed.data(), src.getDevice(), size_t(n) * sizeof(T));
    host_strided_copy(dst.data(), dst.strides(), host.get(), contiguous_strides(dst.sizes()),
                      dst.sizes(), sizeof(T));
}

template <class T, class U>
void peer_copy(const Tensor<T, CUDA>& dst, const Tensor<U, CUDA>& src) {
    const int64_t n = src.nElement();
    const Tensor<T, CUDA> packed = contiguous_as<T>(src);
    const size_t bytes = size_t(n) * sizeof(T);
    if (dst.isContiguous()) {
        cuda::rt::copy_between_devices(dst.data(), dst.getDevice(), packed.data(), src.getDevice(),
                                       bytes);
        return;
    }
    Tensor<T, CUDA> landed = device_buffer<T>(dst.sizes(), dst.getDevice());
    cuda::rt::copy_between_devices(landed.data(), dst.getDevice(), packed.data(), src.getDevice(),
                                   bytes);
    scatter_on_device(dst, landed.data());
}

// copy() between devices; both tensors hold the same (non-zero) number of elements.
template <class T, class D, class U, class D2>
void copy_across_devices(const Tensor<T, D>& dst, const Tensor<U, D2>& src) {
    if constexpr (std::is_same_v<D, CUDA> && std::is_same_v<D2, CPU>)
        upload(dst, src);
    else if constexpr (std::is_same_v<D, CPU> && std::is_same_v<D2, CUDA>)
        download(dst, src);
    else if constexpr (std::is_same_v<D, CUDA> && std::is_same_v<D2, CUDA>)
        peer_copy(dst, src);
    else // one device of a kind: copy() never gets here
        fail<DeviceError>("copy: no transfer from ", D2::name, " to ", D::name);
}

} // namespace detail

template <class T, class D>
Tensor<T, CUDA> Tensor<T, D>::cuda(int device) const {
    if constexpr (std::is_same_v<D, CUDA>)
        if (getDevice() == device) return *this;
    Tensor<T, CUDA> r;
    if (dim() == 0) return r;
    r.set(Storage<T, CUDA>(nElement(), device), 0, sizes_);
    detail::copy_across_devices(r, *this);
    return r;
}

template <class T, class D>
Tensor<T, CPU> Tensor<T, D>::cpu() const {
    if constexpr (std::is_same_v<D, CPU>) {
        return *this;
    } else {
        Tensor<T, CPU> r;
        if (dim() == 0) return r;
        r.set(Storage<T, CPU>(nElement()), 0, sizes_);
        detail::copy_across_devices(r, *this);
        return r;
    }
}

} // namespace t7
