// MPI datatypes for tensor7 views: the base type of each element type, and a
// derived datatype that describes any strided layout (sizes, strides) so that
// MPI reads and writes the view's own memory with nothing packed by tensor7.
//
// A layout is simplified first (size-1 dimensions dropped, neighbours that are
// contiguous with each other merged); a layout that is then one run of
// elements is sent as a count of the base type. Otherwise the type is built
// from the innermost dimension outwards with MPI_Type_create_hvector (byte
// strides: a stride 0 of an expanded source works too), optionally resized to
// an extent (gather/scatter chunks). Built types are kept in a small cache keyed
// by the simplified layout, freed when the Environment finalises MPI.
#pragma once

#include "error.hpp"

#include "../core/dtype.hpp"
#include "../core/half.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace t7::mpi::detail {

// Half travels as 16-bit words; its reductions use the user-defined ops below.
// std::complex<R> is C's R _Complex in memory (two R, real part first): MPI's C
// complex types, which MPI_SUM and MPI_PROD take (MPI 4.1, 6.9.2).
template <class T>
MPI_Datatype base_type() {
    if constexpr (std::is_same_v<T, uint8_t>)
        return MPI_UINT8_T;
    else if constexpr (std::is_same_v<T, int8_t>)
        return MPI_INT8_T;
    else if constexpr (std::is_same_v<T, int16_t>)
        return MPI_INT16_T;
    else if constexpr (std::is_same_v<T, int32_t>)
        return MPI_INT32_T;
    else if constexpr (std::is_same_v<T, int64_t>)
        return MPI_INT64_T;
    else if constexpr (std::is_same_v<T, float>)
        return MPI_FLOAT;
    else if constexpr (std::is_same_v<T, double>)
        return MPI_DOUBLE;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return MPI_C_FLOAT_COMPLEX;
    else if constexpr (std::is_same_v<T, std::complex<double>>)
        return MPI_C_DOUBLE_COMPLEX;
    else {
        static_assert(std::is_same_v<T, Half>, "t7::mpi: not a tensor7 element type");
        return MPI_UINT16_T;
    }
}

// One element-wise step of a reduction, acc = acc op v, in T's arithmetic
// (Half: in float, rounded back to Half at each step, as the MPI op does).
// Complex numbers take sum and prod only (mpi_op refuses the others first).
template <class T>
void combine(Op op, T* acc, const T* v, int64_t n) {
    using C = std::conditional_t<std::is_same_v<T, Half>, float, T>;
    for (int64_t i = 0; i < n; ++i) {
        const C a = C(acc[i]), b = C(v[i]);
        C r;
        if constexpr (is_complex_v<T>) {
            r = op == Op::prod ? a * b : a + b;
        } else {
            switch (op) {
            case Op::sum:
                r = C(a + b);
                break;
            case Op::prod:
                r = C(a * b);
                break;
            case Op::max:
                r = a < b ? b : a;
                break;
            default:
                r = b < a ? b : a;
                break;
            }
        }
        acc[i] = T(r);
    }
}

// ---- what the Environment frees before MPI_Finalize --------------------------

struct Registry {
    MPI_Op half_ops[4] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL};
    struct Entry {
        std::vector<int64_t> key;
        MPI_Datatype type;
    };
    std::vector<Entry> types; // most recently used last
    uint64_t hits = 0, builds = 0;
};
inline Registry& registry() {
    static Registry r;
    return r;
}
// Frees the cached datatypes and ops (MPI must still be initialised). A
// pending operation that uses a freed datatype still completes (MPI 3.1, 4.1).
inline void release_all() {
    Registry& r = registry();
    for (auto& e : r.types) MPI_Type_free(&e.type);
    r.types.clear();
    for (MPI_Op& op : r.half_ops)
        if (op != MPI_OP_NULL) MPI_Op_free(&op);
}

template <Op O>
void half_op_fn(void* in, void* inout, int* len, MPI_Datatype*) {
    combine(O, static_cast<Half*>(inout), static_cast<const Half*>(in), *len);
}

// Max and min of complex numbers, which have no order: TypeError naming fn. Op is
// a run-time argument, so this is the compile-time refusal of t7::max on complex
// tensors moved to run time; every reduction checks it first, before anything is
// packed, sent or written, and mpi_op (the MPI op of `op` on T) again.
template <class T>
void check_op(Op op, const char* fn) {
    if constexpr (is_complex_v<T>) {
        if (op != Op::sum && op != Op::prod)
            fail<TypeError>("t7::mpi::", fn, ": Op::", op == Op::max ? "max" : "min",
                            " of complex numbers, which have no order (sum and prod only)");
    }
}
template <class T>
MPI_Op mpi_op(Op op, const char* fn) {
    check_op<T>(op, fn);
    if constexpr (std::is_same_v<T, Half>) {
        MPI_Op& h = registry().half_ops[int(op)];
        if (h == MPI_OP_NULL) {
            static MPI_User_function* const fns[4] = {&half_op_fn<Op::sum>, &half_op_fn<Op::prod>,
                                                      &half_op_fn<Op::max>, &half_op_fn<Op::min>};
            check(MPI_Op_create(fns[int(op)], 1, &h), "MPI_Op_create");
        }
        return h;
    } else {
        static const MPI_Op ops[4] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
        return ops[int(op)];
    }
}

// ---- layouts -----------------------------------------------------------------

// A view's layout with size-1 dimensions dropped and neighbours merged where
// the outer stride is the inner one times the inner size: (size, stride) pairs
// from the outermost dimension in, strides in elements.
struct Layout {
    std::vector<int64_t> sizes, strides;
    int64_t count = 1; // elements
    bool contiguous() const { return sizes.empty() || (sizes.size() == 1 && strides[0] == 1); }
};
inline Layout simplify(const int64_t* sizes, const int64_t* strides, size_t n) {
    Layout l;
    for (size_t d = 0; d < n; ++d) {
        l.count *= sizes[d];
        if (sizes[d] == 1) continue;
        if (!l.sizes.empty() && l.strides.back() == sizes[d] * strides[d]) {
            l.sizes.back() *= sizes[d];
            l.strides.back() = strides[d];
        } else {
            l.sizes.push_back(sizes[d]);
            l.strides.push_back(strides[d]);
        }
    }
    if (l.count == 0) l.sizes.clear(), l.strides.clear();
    return l;
}
inline Layout simplify(const Shape& sizes, const Shape& strides) {
    return simplify(sizes.data(), strides.data(), sizes.size());
}

// How to hand a layout to MPI: `count` items of `type` starting at the view's
// first element.
struct TypedBuffer {
    MPI_Datatype type;
    int count;
};

inline void check_count(int64_t n, const char* op) {
    if (n > INT_MAX)
        fail<Error>(op, ": ", n, " elements in one message; MPI counts stop at ", INT_MAX);
}

// The cached (or new) derived datatype of layout l of base type `base` (element
// size `esize` bytes), its extent resized to `extent` bytes when extent >= 0.
inline MPI_Datatype derived_type(const Layout& l, MPI_Datatype base, int64_t esize,
                                 int64_t extent) {
    Registry& r = registry();
    std::vector<int64_t> key;
    key.reserve(2 * l.sizes.size() + 2);
    key.push_back(int64_t(reinterpret_cast<intptr_t>(base)));
    key.push_back(extent);
    for (size_t d = 0; d < l.sizes.size(); ++d)
        key.push_back(l.sizes[d]), key.push_back(l.strides[d]);
    for (size_t i = r.types.size(); i-- > 0;)
        if (r.types[i].key == key) { // least recently used first: an operation's
            ++r.hits;                // types are all newer than what a miss evicts
            if (i + 1 != r.types.size())
                std::rotate(r.types.begin() + long(i), r.types.begin() + long(i) + 1,
                            r.types.end());
            return r.types.back().type;
        }
    // innermost first: a unit-stride innermost dimension becomes the block length
    MPI_Datatype t = base, next;
    int64_t block = 1;
    size_t d = l.sizes.size();
    if (d > 0 && l.strides[d - 1] == 1) block = l.sizes[--d];
    bool built = false;
    auto step = [&](int count, int blocklen, MPI_Aint stride) {
        if (stride == -1) {
            // A 1-byte type walked backwards one byte at a time: Open MPI 4.1's
            // hvector reads it forwards (checked: hvector(6, 1, -1, MPI_UINT8_T)
            // sends 10 11 12 ..., stride -2 and wider types are right). The same
            // layout as explicit displacements, one per element.
            std::vector<MPI_Aint> at(static_cast<size_t>(count));
            for (int i = 0; i < count; ++i) at[size_t(i)] = -MPI_Aint(i);
            check(MPI_Type_create_hindexed_block(count, blocklen, at.data(), t, &next),
                  "MPI_Type_create_hindexed_block");
        } else {
            check(MPI_Type_create_hvector(count, blocklen, stride, t, &next),
                  "MPI_Type_create_hvector");
        }
        if (built) MPI_Type_free(&t);
        t = next;
        built = true;
    };
    if (d == 0) { // one run (resized contiguous chunk)
        check_count(block, "t7::mpi");
        check(MPI_Type_contiguous(int(block), base, &next), "MPI_Type_contiguous");
        t = next;
        built = true;
    } else {
        check_count(l.sizes[d - 1], "t7::mpi");
        check_count(block, "t7::mpi");
        step(int(l.sizes[d - 1]), int(block), MPI_Aint(l.strides[d - 1] * esize));
        for (--d; d > 0; --d) {
            check_count(l.sizes[d - 1], "t7::mpi");
            step(int(l.sizes[d - 1]), 1, MPI_Aint(l.strides[d - 1] * esize));
        }
    }
    if (extent >= 0) {
        check(MPI_Type_create_resized(t, 0, MPI_Aint(extent), &next), "MPI_Type_create_resized");
        MPI_Type_free(&t);
        t = next;
    }
    check(MPI_Type_commit(&t), "MPI_Type_commit");
    ++r.builds;
    // Small cache: a program uses a handful of layouts; the least recently used goes.
    constexpr size_t capacity = 64;
    if (r.types.size() == capacity) {
        MPI_Type_free(&r.types.front().type);
        r.types.erase(r.types.begin());
    }
    r.types.push_back({std::move(key), t});
    return t;
}

// The buffer description of a view: a count of the base type when contiguous
// (no datatype is built), else one item of its derived type.
template <class T>
TypedBuffer typed(const Layout& l, const char* op) {
    if (l.contiguous()) {
        check_count(l.count, op);
        return {base_type<T>(), int(l.count)};
    }
    return {derived_type(l, base_type<T>(), int64_t(sizeof(T)), -1), 1};
}
template <class T>
TypedBuffer typed(const Shape& sizes, const Shape& strides, const char* op) {
    return typed<T>(simplify(sizes, strides), op);
}

// ---- packing (reductions of non-contiguous views) ----------------------------

// Copies between a strided view and a row-major buffer, in the view's logical order.
template <class T, bool ToBuffer>
void copy_layout(T* view, T* buf, const Layout& l) {
    const size_t n = l.sizes.size();
    if (n == 0) {
        if (l.count == 1) ToBuffer ? (void)(*buf = *view) : (void)(*view = *buf);
        return;
    }
    std::vector<int64_t> idx(n, 0);
    const int64_t inner = l.sizes[n - 1], is = l.strides[n - 1];
    for (int64_t done = 0; done < l.count; done += inner) {
        int64_t off = 0;
        for (size_t d = 0; d + 1 < n; ++d) off += idx[d] * l.strides[d];
        T* v = view + off;
        if (ToBuffer)
            for (int64_t i = 0; i < inner; ++i) buf[i] = v[i * is];
        else
            for (int64_t i = 0; i < inner; ++i) v[i * is] = buf[i];
        buf += inner;
        for (size_t d = n - 1; d-- > 0;) {
            if (++idx[d] < l.sizes[d]) break;
            idx[d] = 0;
        }
    }
}

// A reused scratch buffer (one per thread) for packed reductions: grows, never shrinks.
template <class T>
T* scratch(size_t n, int slot = 0) {
    thread_local std::vector<unsigned char> bufs[2];
    auto& b = bufs[slot];
    if (b.size() < n * sizeof(T)) b.resize(n * sizeof(T));
    return reinterpret_cast<T*>(b.data());
}

} // namespace t7::mpi::detail
