// The engine's expression-independent machinery, compiled once into libtensor7
// rather than in every translation unit that assigns an expression (issue 12:
// code generation for it was most of a small program's compile time).
//
// With T7_PRECOMPILED defined (tensor7_dep, tensor7.pc and the CMake target
// tensor7::tensor7 define it and link libtensor7), the instantiations listed
// here are `extern template`: the compiler may still inline them, but emits
// none. src/precompiled.cpp compiles the same list (T7_PRECOMPILED_BUILD) into
// the library. Without either macro the headers stay self-contained.
//
// Only code that does not depend on the SIMD flags is listed (loop planning,
// checks, allocation, printing: no Eigen packets), since the library is built
// without -march and a program may use any. Included last by <t7/tensor.hpp>.
#pragma once

#if defined(T7_PRECOMPILED_BUILD)
#define T7_INSTANTIATION template
#elif defined(T7_PRECOMPILED) && !defined(__CUDACC__)
#define T7_INSTANTIATION extern template
#endif

#if defined(T7_INSTANTIATION)
// (lists of macro calls, formatted by hand)
// clang-format off
namespace t7 {

namespace iter {
#define T7_LOOP_N(N)                                                                               \
    T7_INSTANTIATION Loop<N> make_loop<N>(const Shape&, const std::array<const Shape*, N>&, bool);
T7_LOOP_N(1) T7_LOOP_N(2) T7_LOOP_N(3) T7_LOOP_N(4) T7_LOOP_N(5) T7_LOOP_N(6) T7_LOOP_N(7)
T7_LOOP_N(8)
#undef T7_LOOP_N
} // namespace iter

namespace cpu {
// Operand counts (destination + leaves) of trees with up to seven leaves (1: a
// scalar fill).
#define T7_DRIVE_ASSIGN_N(N)                                                                       \
    T7_INSTANTIATION void drive_flat_threads<N>(const LeafRef&, const LeafRef*, AssignKernel,      \
                                                const void*, bool, int64_t);                       \
    T7_INSTANTIATION void drive_planned<N>(const LeafRef&, const LeafRef*, AssignKernel,           \
                                           const void*, int64_t);
#define T7_DRIVE_N(N)                                                                              \
    T7_DRIVE_ASSIGN_N(N)                                                                           \
    T7_INSTANTIATION void drive_rows<N>(const detail::FastAssign&, const LeafRef*, AssignKernel,   \
                                        const void*, int64_t);                                     \
    T7_INSTANTIATION void drive_product_blocks<N>(const LeafRef&, const LeafRef*,                  \
                                                  const detail::PendingProducer&, AssignKernel,    \
                                                  const void*, bool);
T7_DRIVE_ASSIGN_N(1) T7_DRIVE_N(2) T7_DRIVE_N(3) T7_DRIVE_N(4) T7_DRIVE_N(5) T7_DRIVE_N(6)
T7_DRIVE_N(7) T7_DRIVE_N(8)
#undef T7_DRIVE_N
#undef T7_DRIVE_ASSIGN_N

// Full reductions of one to three leaves: sums and products accumulate floating
// types in double, max and min in the element type.
#define T7_REDUCE(R, A, N)                                                                         \
    T7_INSTANTIATION A drive_reduce_all<R, A, N>(const Shape&, const LeafRef*, ReduceKernel,       \
                                                 const void*, int64_t);                            \
    T7_INSTANTIATION A drive_reduce_blocks<R, A, N>(const Shape&, const LeafRef*, ReduceKernel,    \
                                                    const void*, int64_t);
T7_REDUCE(red::sum, double, 1) T7_REDUCE(red::sum, double, 2) T7_REDUCE(red::sum, double, 3)
T7_REDUCE(red::prod, double, 1)
T7_REDUCE(red::max, float, 1) T7_REDUCE(red::min, float, 1)
T7_REDUCE(red::max, double, 1) T7_REDUCE(red::min, double, 1)
#undef T7_REDUCE

// Float and double reductions along a dimension of one to three leaves (sums,
// with a double accumulator) into a result of the input's type.
#define T7_REDUCE_DIM(V, N)                                                                        \
    T7_INSTANTIATION bool drive_reduce_rows<red::sum, double, V, N>(V*, const Shape&, int64_t,     \
                                                                  const LeafRef*, const DimFold&); \
    T7_INSTANTIATION bool drive_reduce_cols<red::sum, double, V, N>(V*, const Shape&, int64_t,     \
                                                                  const LeafRef*, const DimFold&);
T7_REDUCE_DIM(float, 1) T7_REDUCE_DIM(float, 2) T7_REDUCE_DIM(float, 3)
T7_REDUCE_DIM(double, 1) T7_REDUCE_DIM(double, 2) T7_REDUCE_DIM(double, 3)
#define T7_REDUCE_INTO(N)                                                                          \
    T7_INSTANTIATION void drive_reduce_into<red::sum, double, N + 1>(double*, const Shape&,        \
                                                                     const Operands<N + 1>&,       \
                                                                     const DimFold&);
T7_REDUCE_INTO(1) T7_REDUCE_INTO(2) T7_REDUCE_INTO(3)
#undef T7_REDUCE_INTO
#undef T7_REDUCE_DIM
} // namespace cpu

// Per CPU element type: the general checks of an assignment (the flat case stays
// inline), allocation, narrow, printing.
#define T7_PER_TYPE(T)                                                                             \
    T7_INSTANTIATION void detail::assign_leaves_general<T, CPU>(                                   \
        Tensor<T, CPU>&, const LeafRef*, size_t, detail::RunAssign<T, CPU>, const void*,           \
        void (*)(const void*), void (*)(const void*), const char*);                                \
    T7_INSTANTIATION void Tensor<T, CPU>::allocate(const Shape&, const Shape&);                    \
    T7_INSTANTIATION Tensor<T, CPU> Tensor<T, CPU>::narrow(int64_t, int64_t, int64_t) const;       \
    T7_INSTANTIATION std::string to_string<T>(const Tensor<T, CPU>&);                             \
    T7_INSTANTIATION void detail::print::stream_tensor<T>(std::ostream&, const Tensor<T, CPU>&);
T7_PER_TYPE(uint8_t)
T7_PER_TYPE(int8_t)
T7_PER_TYPE(int16_t)
T7_PER_TYPE(int32_t)
T7_PER_TYPE(int64_t)
T7_PER_TYPE(float)
T7_PER_TYPE(double)
#undef T7_PER_TYPE

} // namespace t7
// clang-format on
#undef T7_INSTANTIATION
#endif
