// Type-erased element-wise kernels reached from host code: strided copy (any
// layouts, with broadcasting), conversion between any two element types, and
// fill. They use the same Indexer as fused expressions; a contiguous same-type
// copy is a plain device memcpy. Few instantiations keep nvcc's time small:
// copies and fills by element size (1, 2, 4, 8 bytes), and one conversion
// kernel switching on the (warp-uniform) source and destination types.
// Complex elements are 8 or 16-byte words to copy and fill, and thrust::complex
// values to convert (eval/thrust/complex.hpp).
#include "backend.hpp"

#include <t7/eval/thrust/complex.hpp>
#include <t7/eval/thrust/system.hpp>

#include <cstring>

namespace t7::cuda::rt {

namespace {

template <class W>
struct CopyWords {
    W* dst;
    const W* src;
    gpu::Indexer<2> ix;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        int64_t off[2] = {0, 0};
        ix.add_offsets(i, off);
        dst[off[0]] = src[off[1]];
    }
};

template <class W>
struct FillWords {
    W* dst;
    W v;
    gpu::Indexer<2> ix;
    bool linear;
    T7_HOST_DEVICE void operator()(int64_t i) const { dst[dst_offset(ix, linear, i)] = v; }
};

struct ConvertCopy {
    void* dst;
    const void* src;
    DType dt, st;
    gpu::Indexer<2> ix;
    bool linear;

    template <class From>
    T7_HOST_DEVICE void store(int64_t o, From x) const {
        switch (dt) {
        case DType::u8:
            static_cast<uint8_t*>(dst)[o] = convert<uint8_t>(x);
            break;
        case DType::i8:
            static_cast<int8_t*>(dst)[o] = convert<int8_t>(x);
            break;
        case DType::i16:
            static_cast<int16_t*>(dst)[o] = convert<int16_t>(x);
            break;
        case DType::i32:
            static_cast<int32_t*>(dst)[o] = convert<int32_t>(x);
            break;
        case DType::i64:
            static_cast<int64_t*>(dst)[o] = convert<int64_t>(x);
            break;
        case DType::f32:
            static_cast<float*>(dst)[o] = convert<float>(x);
            break;
        case DType::f64:
            static_cast<double*>(dst)[o] = convert<double>(x);
            break;
        case DType::f16:
            static_cast<Half*>(dst)[o] = convert<Half>(x);
            break;
        case DType::c64:
            static_cast<thrust::complex<float>*>(dst)[o] = convert<thrust::complex<float>>(x);
            break;
        case DType::c128:
            static_cast<thrust::complex<double>*>(dst)[o] = convert<thrust::complex<double>>(x);
            break;
        }
    }
    T7_HOST_DEVICE void operator()(int64_t i) const {
        int64_t off[2] = {i, i};
        if (!linear) {
            off[0] = off[1] = 0;
            ix.add_offsets(i, off);
        }
        const int64_t o = off[0], s = off[1];
        switch (st) {
        case DType::u8:
            store(o, static_cast<const uint8_t*>(src)[s]);
            break;
        case DType::i8:
            store(o, static_cast<const int8_t*>(src)[s]);
            break;
        case DType::i16:
            store(o, static_cast<const int16_t*>(src)[s]);
            break;
        case DType::i32:
            store(o, static_cast<const int32_t*>(src)[s]);
            break;
        case DType::i64:
            store(o, static_cast<const int64_t*>(src)[s]);
            break;
        case DType::f32:
            store(o, static_cast<const float*>(src)[s]);
            break;
        case DType::f64:
            store(o, static_cast<const double*>(src)[s]);
            break;
        case DType::f16:
            store(o, static_cast<const Half*>(src)[s]);
            break;
        case DType::c64:
            store(o, static_cast<const thrust::complex<float>*>(src)[s]);
            break;
        case DType::c128:
            store(o, static_cast<const thrust::complex<double>*>(src)[s]);
            break;
        }
    }
};

bool is_linear(const Strided2& s) {
    return s.rank == 1 && s.stride[0][0] == 1 && s.stride[1][0] == 1;
}

template <class W>
void copy_words(void* dst, const void* src, const Strided2& s) {
    gpu::for_each_index(
        s.numel,
        CopyWords<W>{static_cast<W*>(dst), static_cast<const W*>(src), gpu::make_indexer(s)},
        "copy");
}

template <class W>
void fill_words(void* dst, const void* value, const Strided2& s) {
    W v;
    std::memcpy(&v, value, sizeof(W));
    gpu::for_each_index(s.numel,
                        FillWords<W>{static_cast<W*>(dst), v, gpu::make_indexer(s),
                                     s.rank == 1 && s.stride[0][0] == 1},
                        "fill");
}

} // namespace

void strided_copy(void* dst, DType dst_type, const void* src, DType src_type, const Strided2& s,
                  int device) {
    if (s.numel <= 0) return;
    require_device(device, "copy");
    DeviceGuard guard(device);
    if (dst_type == src_type) {
        const size_t e = elem_size(dst_type);
        if (is_linear(s)) return copy_on_device(dst, src, device, size_t(s.numel) * e);
        return with_word(int(e), [&](auto w) { copy_words<decltype(w)>(dst, src, s); });
    }
    gpu::for_each_index(
        s.numel, ConvertCopy{dst, src, dst_type, src_type, gpu::make_indexer(s), is_linear(s)},
        "copy");
}

void fill(void* dst, int elem_size, const void* value, const Strided2& s, int device) {
    if (s.numel <= 0) return;
    require_device(device, "fill");
    DeviceGuard guard(device);
    with_word(elem_size, [&](auto w) { fill_words<decltype(w)>(dst, value, s); });
}

} // namespace t7::cuda::rt
