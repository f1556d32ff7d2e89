// The parts of a complex tensor as real views over its memory (strides doubled):
// below ops/complex.hpp's real() and imag(), so that the library's lower floors
// (math/random.hpp's complex normal) reach them too.
#pragma once

#include "../core/storage.hpp"
#include "tensor.hpp"
#include "views.hpp"

#include <complex>
#include <cstdint>
#include <utility>

namespace t7 {

namespace detail {
// Keeps the complex storage alive (and pinned: it never moves) while a real view
// of its memory exists.
template <class C, class D>
struct ComplexPartOwner {
    Storage<C, D> held;
    static void release(void* ctx) noexcept {
        auto* self = static_cast<ComplexPartOwner*>(ctx);
        self->held.unpin();
        delete self;
    }
};

// The real tensor over part `part` (0: real, 1: imaginary) of every element of z:
// the same memory, strides doubled, reversed dimensions kept reversed.
template <class R, class D>
Tensor<R, D> complex_part(const Tensor<std::complex<R>, D>& z, int part) {
    using C = std::complex<R>;
    if (z.dim() == 0) return Tensor<R, D>();
    const Storage<C, D>& s = z.storage();
    const int64_t n = s.size();
    C* base = s.data(); // materialises a pending storage first
    auto* owner = new ComplexPartOwner<C, D>{s};
    s.pin();
    Storage<R, D> parts;
    try {
        parts = Storage<R, D>::wrap(reinterpret_cast<R*>(base), 2 * n, s.device(),
                                    &ComplexPartOwner<C, D>::release, owner);
    } catch (...) {
        ComplexPartOwner<C, D>::release(owner);
        throw;
    }
    // Forward strides first (the constructor reads a negative stride as Torch7's
    // "contiguous"), then the reversed dimensions flipped back.
    Shape sizes = z.sizes(), strides(size_t(z.dim())), reversed;
    int64_t offset = z.storageOffset();
    for (int64_t d = 0; d < z.dim(); ++d) {
        int64_t st = z.stride(d);
        if (st < 0) {
            offset += (sizes[d] - 1) * st;
            st = -st;
            reversed.push_back(d);
        }
        strides[d] = 2 * st;
    }
    Tensor<R, D> v(std::move(parts), 2 * offset + part, sizes, strides);
    return reversed.empty() ? v : v.flip(reversed);
}
} // namespace detail

} // namespace t7
