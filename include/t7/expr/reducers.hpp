// Reduction descriptors, device-neutral: the accumulator type, its identity,
// how one element enters it (step) and how two partial results combine
// (merge). Evaluators supply the loops (and vector versions where they can).
#pragma once

#include "../core/config.hpp"
#include "../core/dtype.hpp"
#include "functors.hpp"

#include <limits>

namespace t7::red {

struct sum {
    template <class V>
    using acc = acc_t<V>;
    template <class A>
    static constexpr A identity() {
        return A(0);
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        return op::add{}(a, A(x)); // integer sums wrap (modulo 2^64), as integer arithmetic does
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return op::add{}(a, b);
    }
};

struct prod {
    template <class V>
    using acc = acc_t<V>;
    template <class A>
    static constexpr A identity() {
        return A(1);
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        return op::mul{}(a, A(x));
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return op::mul{}(a, b);
    }
};

// max/min propagate NaN (a NaN anywhere makes the result NaN), like Torch7.
struct max {
    template <class V>
    using acc = compute_t<V>;

    template <class A>
    static constexpr A identity() {
        if constexpr (std::numeric_limits<A>::has_infinity)
            return -std::numeric_limits<A>::infinity();
        else
            return std::numeric_limits<A>::lowest();
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        static_assert(!is_complex_v<A>, "t7::max: complex numbers have no order");
        return (A(x) > a || x != x) ? A(x) : a;
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return step(a, b);
    }
};

struct min {
    template <class V>
    using acc = compute_t<V>;
    template <class A>
    static constexpr A identity() {
        if constexpr (std::numeric_limits<A>::has_infinity)
            return std::numeric_limits<A>::infinity();
        else
            return std::numeric_limits<A>::max();
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        static_assert(!is_complex_v<A>, "t7::min: complex numbers have no order");
        return (A(x) < a || x != x) ? A(x) : a;
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return step(a, b);
    }
};

struct all {
    template <class V>
    using acc = bool;
    template <class A>
    static constexpr A identity() {
        return true;
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        return a && x != V(0);
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return a && b;
    }
};

struct any {
    template <class V>
    using acc = bool;
    template <class A>
    static constexpr A identity() {
        return false;
    }
    template <class A, class V>
    T7_HOST_DEVICE static A step(A a, V x) {
        return a || x != V(0);
    }
    template <class A>
    T7_HOST_DEVICE static A merge(A a, A b) {
        return a || b;
    }
};

} // namespace t7::red
