// Fused reductions on the device, the tree evaluated inside the reduction
// (sum(a * b) materialises nothing); red::sum of floats accumulates in double.
//
// One scheme serves whole-tensor reductions and reductions along dimensions:
// the iteration space splits into kept dimensions (m outputs; m = 1 for a
// whole-tensor reduction) and reduced ones (K elements each). Pass 1 gives
// each output C chunks, one thread per (output, chunk), a thread folding the
// elements c, c + C, c + 2C, ... of its output four at a time, so neighbouring
// threads read neighbouring elements whichever dimension is contiguous; C grows
// when there are few outputs, so even a single 2^26-element sum fills the
// device. Merge passes then fold the C partials of each output in groups of
// 128, the last one writing the outputs through the output's strides (pass 1
// writes them itself when each output is one chunk).
//
// Only for_each_index (system.hpp; thrust::for_each on the Thrust host
// system): it runs on every Thrust system, results do not depend
// on timing (fixed chunking and merge order; the chunking follows the shape
// alone, not the device's size: the same input gives the same bits on every
// run, as the CPU's reductions do for any thread count), and nvcc compiles one small
// kernel per reduced tree. (CUB's DeviceReduce, behind thrust::transform_reduce,
// instantiates four kernels of 10-20k PTX lines per tree: 87% of the test
// program's PTX, and minutes of ptxas.)
#pragma once

#include "../../expr/reducers.hpp"
#include "assign.hpp"

#include <algorithm>

namespace t7::gpu {

// ---- along dimensions: accumulator policies ------------------------------------------
// A reducer R folding into A; the result is merged into the output tensor
// (or stored, for a whole-tensor reduction's single value).
template <class R, class A>
struct FoldPolicy {
    using acc = A;
    A id;
    A* out;
    bool merge_into_out;
    T7_HOST_DEVICE A identity() const { return id; }
    template <class X>
    T7_HOST_DEVICE A step(A a, X x, int64_t) const {
        return R::step(a, x);
    }
    T7_HOST_DEVICE A merge(A a, A b) const { return R::merge(a, b); }
    T7_HOST_DEVICE void write(int64_t off, const A& a) const {
        out[off] = merge_into_out ? R::merge(out[off], a) : a;
    }
};

// The extreme value (R = red::max / red::min) and its position along the
// dimension, with the CPU's rules: a NaN beats any number, the first of equal
// values (or of NaNs) wins. The merge is a total order, so chunks combine in any order.
template <class R, class V>
struct ArgPolicy {
    struct acc {
        V v;
        int64_t i; // -1: no element yet
    };
    V* vals;
    int64_t* idx;
    T7_HOST_DEVICE acc identity() const { return acc{V(0), -1}; }
    template <class X>
    T7_HOST_DEVICE acc step(acc a, X x, int64_t r) const {
        return merge(a, acc{convert<V>(x), r});
    }
    T7_HOST_DEVICE acc merge(acc a, acc b) const {
        if (a.i < 0) return b;
        if (b.i < 0) return a;
        const bool an = a.v != a.v, bn = b.v != b.v;
        if (an || bn) {
            if (an && bn) return a.i < b.i ? a : b;
            return an ? a : b;
        }
        if (R::step(a.v, b.v) != a.v) return b; // b strictly better
        if (R::step(b.v, a.v) != b.v) return a;
        return a.i < b.i ? a : b;
    }
    T7_HOST_DEVICE void write(int64_t off, const acc& a) const {
        vals[off] = a.v;
        idx[off] = a.i;
    }
};

// ---- along dimensions: the passes --------------------------------------------------
template <class P, class B, size_t N>
struct ChunkPass {
    typename P::acc* partial;
    B tree;
    Indexer<N> outer, inner;
    P pol;
    int64_t m, K, C;
    bool chunk_fastest; // thread t = j * C + c, else t = c * m + j
    T7_HOST_DEVICE void operator()(int64_t t) const {
        int64_t j, c;
        if (chunk_fastest) {
            j = t / C;
            c = t - j * C;
        } else {
            c = t / m;
            j = t - c * m;
        }
        OffsetsAt<N> base{};
        outer.add_offsets(j, base.off);
        typename P::acc a = pol.identity();
        int64_t r = c;
        if (inner.rank == 1) {
            // One reduced dimension after merging (the usual case): element r is
            // at r * stride, no division; four loads in flight, then four steps.
            int64_t st[N];
            for (size_t k = 0; k < N; ++k) st[k] = inner.stride[0][k];
            for (; r + 3 * C < K; r += 4 * C) {
                const auto x0 = at(base, st, r), x1 = at(base, st, r + C);
                const auto x2 = at(base, st, r + 2 * C), x3 = at(base, st, r + 3 * C);
                a = pol.step(pol.step(pol.step(pol.step(a, x0, r), x1, r + C), x2, r + 2 * C), x3,
                             r + 3 * C);
            }
            for (; r < K; r += C) a = pol.step(a, at(base, st, r), r);
        } else {
            for (; r < K; r += C) {
                OffsetsAt<N> o = base;
                inner.add_offsets(r, o.off);
                a = pol.step(a, value(tree, o), r);
            }
        }
        if (C == 1)
            pol.write(base.off[0], a); // one chunk per output: no merge pass follows
        else
            partial[j * C + c] = a;
    }
    T7_HOST_DEVICE auto at(const OffsetsAt<N>& base, const int64_t* st, int64_t r) const {
        OffsetsAt<N> o = base;
        for (size_t k = 0; k < N; ++k) o.off[k] += r * st[k];
        return value(tree, o);
    }
};

// The last pass (C2 == 1) writes each output through the output tensor's
// offsets over the kept dimensions.
template <class P>
struct MergePass {
    const typename P::acc* in;
    typename P::acc* out;
    Indexer<1> out_ix;
    P pol;
    int64_t C, C2, G; // C partials per output become C2 = ceil(C / G)
    T7_HOST_DEVICE void operator()(int64_t t) const {
        const int64_t j = t / C2, g = t - j * C2;
        const int64_t end = (g + 1) * G < C ? (g + 1) * G : C;
        typename P::acc a = pol.identity();
        for (int64_t c = g * G; c < end; ++c) a = pol.merge(a, in[j * C + c]);
        if (C2 == 1) {
            int64_t off = 0;
            out_ix.add_offsets(j, &off);
            pol.write(off, a);
        } else {
            out[j * C2 + g] = a;
        }
    }
};

// How pass 1 splits the work: chunks per output, and the thread order.
inline int64_t chunks_for(int64_t m, int64_t K) {
    constexpr int64_t threads = int64_t(1) << 17; // enough to fill a large GPU
    constexpr int64_t min_per_thread = 16;
    if (m >= threads) return 1;
    int64_t c = std::min((threads + m - 1) / m, (K + min_per_thread - 1) / min_per_thread);
    return std::max<int64_t>(c, 1);
}

// Splits `shape` into kept dimensions (where `kept_size` has the full size)
// and reduced ones, with every operand's strides, and plans both loops.
template <size_t N>
struct SplitPlan {
    iter::Loop<N> outer, inner;
};
template <size_t N>
SplitPlan<N> split_plan(const Shape& shape, const Shape& kept_size,
                        const std::array<Shape, N>& strides) {
    Shape ks, rs;
    std::array<Shape, N> kst, rst;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;
        const bool kept = kept_size[d] == shape[d];
        (kept ? ks : rs).push_back(shape[d]);
        for (size_t k = 0; k < N; ++k) (kept ? kst : rst)[k].push_back(strides[k][d]);
    }
    return {plan_loop<N>(ks, kst), plan_loop<N>(rs, rst)};
}

// Reduces e over `shape` with policy P: outputs are the kept positions.
template <class P, class E, size_t N>
void segmented_reduce(const E& e, const std::array<Shape, N>& strides, const Shape& shape,
                      const Shape& kept_size, const P& pol, int device, const char* op) {
    using Acc = typename P::acc;
    const SplitPlan<N> plan = split_plan<N>(shape, kept_size, strides);
    const int64_t m = plan.outer.numel, K = plan.inner.numel;
    if (m == 0 || K == 0) return;
    cuda::DeviceGuard guard(device);
    int64_t C = chunks_for(m, K);
    // Neighbouring threads take neighbouring outputs when the first leaf is
    // contiguous along the kept dimensions but not along the reduced ones
    // (column sums); neighbouring chunks of one output otherwise (row sums).
    static_assert(N >= 2, "a device reduction reads at least one tensor");
    const bool chunk_fastest =
        !(plan.outer.inner_stride(1) == 1 && plan.inner.inner_stride(1) != 1);
    const auto b = bind<1>(e);
    using B = std::remove_const_t<decltype(b)>;
    DeviceBuffer<Acc> partial(C > 1 ? m * C : 1, device);
    for_each_index(m * C,
                   ChunkPass<P, B, N>{partial.get(), b, make_indexer(plan.outer, op),
                                      make_indexer(plan.inner, op), pol, m, K, C, chunk_fastest},
                   op);
    if (C == 1) return; // pass 1 wrote the outputs
    // Operand 0's offsets over the kept dimensions, for the last merge pass.
    iter::Loop<1> out_loop;
    out_loop.sizes = plan.outer.sizes;
    out_loop.strides[0] = plan.outer.strides[0];
    out_loop.numel = plan.outer.numel;
    const Indexer<1> out_ix = make_indexer(out_loop, op);
    constexpr int64_t G = 128;
    const Acc* cur = partial.get();
    const int64_t first = C > G ? m * ((C + G - 1) / G) : 1; // the largest merge output
    DeviceBuffer<Acc> buf0(first, device), buf1(C > G * G ? first : 1, device);
    Acc* bufs[2] = {buf0.get(), buf1.get()};
    int flip = 0;
    while (C > 1) {
        const int64_t C2 = (C + G - 1) / G;
        Acc* out = bufs[flip];
        for_each_index(m * C2, MergePass<P>{cur, out, out_ix, pol, C, C2, G}, op);
        cur = out;
        flip ^= 1;
        C = C2;
    }
}

// Complex accumulators fold as device_t (complex.hpp), over the same bytes.
template <class R, class A0, class E>
void fused_reduce_into(const Tensor<A0, CUDA>& acc, const E& e, const Shape& shape) {
    using A = device_t<A0>;
    constexpr size_t N = size_t(E::leaves) + 1;
    std::array<Shape, N> strides;
    strides[0] = detail::broadcast_strides(acc.sizes(), acc.strides(), shape);
    leaf_strides<1>(e, shape, strides);
    Shape kept(shape.size(), 1);
    const size_t off = shape.size() - size_t(acc.dim());
    for (size_t d = off; d < shape.size(); ++d) kept[d] = acc.size(int64_t(d - off));
    FoldPolicy<R, A> pol{to_device(R::template identity<A0>()), device_ptr(acc.data()), true};
    segmented_reduce(e, strides, shape, kept, pol, acc.getDevice(), "reduce");
}

// Every element of e (over `shape`, non-empty) reduced with R, on the current
// device (the one of e's tensors).
template <class R, class E>
auto fused_reduce_all(const E& e, const Shape& shape) {
    using A0 = typename R::template acc<typename E::value_type>;
    using A = device_t<A0>;
    constexpr size_t N = size_t(E::leaves) + 1;
    std::array<Shape, N> strides;
    strides[0] = Shape(shape.size(), 0); // one output, at offset 0
    leaf_strides<1>(e, shape, strides);
    const int device = cuda::getDevice();
    DeviceBuffer<A> out(1, device);
    const FoldPolicy<R, A> pol{to_device(R::template identity<A0>()), out.get(), false};
    segmented_reduce(e, strides, shape, Shape(shape.size(), 1), pol, device, "reduce");
    A0 result;
    cuda::rt::copy_to_host(&result, out.get(), device, sizeof(A0));
    return result;
}

template <class R, class V, class E>
void fused_arg_reduce_into(const Tensor<V, CUDA>& vals, const Tensor<int64_t, CUDA>& idx,
                           const E& e, const Shape& shape, int64_t dim) {
    if (!(vals.strides() == idx.strides()) || !(vals.sizes() == idx.sizes()))
        detail::fail<ShapeError>("arg reduce: values (size ", vals.sizes(), ", stride ",
                                 vals.strides(), ") and indices (size ", idx.sizes(), ", stride ",
                                 idx.strides(), ") must have the same layout");
    constexpr size_t N = size_t(E::leaves) + 1;
    std::array<Shape, N> strides;
    strides[0] = detail::broadcast_strides(vals.sizes(), vals.strides(), shape);
    leaf_strides<1>(e, shape, strides);
    Shape kept = shape;
    kept[size_t(dim)] = 0; // only `dim` is reduced
    ArgPolicy<R, V> pol{vals.data(), idx.data()};
    segmented_reduce(e, strides, shape, kept, pol, vals.getDevice(), "arg reduce");
}

} // namespace t7::gpu
