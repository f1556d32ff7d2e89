// Torch7's apply / map / map2: call a C++ callable on each element of self (and
// the matching elements of other tensors) in layout (row-major) order; a
// non-void result is stored into self. Serial, since callables carry state:
// unlike the threaded writes, it may write a self that overlaps itself (an
// expanded view), visiting a shared element once per position, in order, the
// last visit winning - Torch7's documented result (tensor_expand_view.txt).
#pragma once

#include "../iter/loop.hpp"
#include "tensor.hpp"

#include <array>
#include <type_traits>
#include <utility>

namespace t7 {

namespace detail {

template <class F, class T, class... U>
void visit_layout([[maybe_unused]] const char* op, F& f, const Tensor<T>& self,
                  const Tensor<U>&... others) {
    ((others.nElement() == self.nElement()
          ? void()
          : fail<ShapeError>(op, ": tensor of size ", others.sizes(), " has ", others.nElement(),
                             " elements but self (size ", self.sizes(), ") has ", self.nElement())),
     ...);
    if (self.nElement() == 0) return;
    // Elements pair up in each tensor's own layout order: view others in self's shape.
    [[maybe_unused]] auto shaped = [&](const auto& t) { // unused by apply (no others)
        return t.sizes() == self.sizes() ? t : t.contiguous().view(self.sizes());
    };
    constexpr size_t N = 1 + sizeof...(U);
    std::tuple<Tensor<U>...> o{shaped(others)...};
    std::array<const Shape*, N> st;
    st[0] = &self.strides();
    std::apply(
        [&](const auto&... t) {
            size_t k = 1;
            ((st[k++] = &t.strides()), ...);
        },
        o);
    iter::Loop<N> L = iter::make_loop<N>(self.sizes(), st, /*reorder=*/false);
    const std::array<int64_t, N> inner = [&] {
        std::array<int64_t, N> a;
        for (size_t k = 0; k < N; ++k) a[k] = L.inner_stride(k);
        return a;
    }();
    T* s = self.data();
    iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, N>& off, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            T& x = s[off[0] + i * inner[0]];
            [&]<size_t... J>(std::index_sequence<J...>) {
                auto call = [&]() -> decltype(auto) {
                    if constexpr (sizeof...(U) == 0 && !std::is_invocable_v<F&, T&>)
                        return f(); // Torch7's function() ... end takes no argument
                    else
                        return f(x, std::get<J>(o).data()[off[J + 1] + i * inner[J + 1]]...);
                };
                if constexpr (std::is_void_v<decltype(call())>)
                    call();
                else
                    x = convert<T>(call());
            }
            (std::index_sequence_for<U...>{});
        }
    });
}

// apply/map/map2 call a host callable serially, with state, in layout order: a
// CUDA tensor's elements are not in host memory. Its fused (stateless, parallel)
// alternative is an expression: x = t7::map(f, x, y) with a host-device functor.
template <class D>
constexpr void require_host_apply() {
    static_assert(std::is_same_v<D, CPU>,
                  "t7: apply/map/map2 run a host callable on CPU tensors; on CUDA tensors write "
                  "x = t7::map(f, x, y, ...) with a __host__ __device__ functor (one fused "
                  "kernel), or call apply on x.cpu() and copy back");
}

} // namespace detail

template <class T, class D>
template <class F>
Tensor<T, D>& Tensor<T, D>::apply(F&& f) {
    detail::require_host_apply<D>();
    detail::visit_layout("apply", f, *this);
    return *this;
}

template <class T, class D>
template <class U, class F>
Tensor<T, D>& Tensor<T, D>::map(const Tensor<U, D>& t, F&& f) {
    detail::require_host_apply<D>();
    detail::visit_layout("map", f, *this, t);
    return *this;
}

template <class T, class D>
template <class U, class V, class F>
Tensor<T, D>& Tensor<T, D>::map2(const Tensor<U, D>& t1, const Tensor<V, D>& t2, F&& f) {
    detail::require_host_apply<D>();
    detail::visit_layout("map2", f, *this, t1, t2);
    return *this;
}

} // namespace t7
