// The type-erased operations of the tensor7_cuda library (kernels/, built by
// nvcc): strided copy/convert, fill, scan, random fills, convolution taps,
// indexed, masked and sorting kernels, GEMM and batched GEMM, over runtime
// element type tags. Plain declarations, no CUDA header, as
// core/device_runtime.hpp; fused expressions are header templates that need a
// translation unit compiled by nvcc (eval/thrust/).
//
// Every failure (a failed launch, out of memory) throws t7::DeviceError
// carrying CUDA's own error name and message.
#pragma once

#include "dtype.hpp"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace t7 {

// Runtime element type tags for the type-erased library calls.
// c64, c128: std::complex<float>, std::complex<double> (interleaved re, im).
enum class DType : int8_t { u8, i8, i16, i32, i64, f32, f64, f16, c64, c128 };

// bool (the accumulator of all/any) is stored as a byte holding 0 or 1.
template <class T>
constexpr DType dtype_of() {
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, bool>)
        return DType::u8;
    else if constexpr (std::is_same_v<T, int8_t>)
        return DType::i8;
    else if constexpr (std::is_same_v<T, int16_t>)
        return DType::i16;
    else if constexpr (std::is_same_v<T, int32_t>)
        return DType::i32;
    else if constexpr (std::is_same_v<T, int64_t>)
        return DType::i64;
    else if constexpr (std::is_same_v<T, float>)
        return DType::f32;
    else if constexpr (std::is_same_v<T, double>)
        return DType::f64;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return DType::c64;
    else if constexpr (std::is_same_v<T, std::complex<double>>)
        return DType::c128;
    else {
        static_assert(std::is_same_v<T, Half>, "not a tensor element type");
        return DType::f16;
    }
}

namespace cuda {
namespace rt {

// ---- type-erased element-wise operations --------------------------------------------
inline constexpr int max_dims = 8;

// An iteration space of up to max_dims dimensions (outermost first) and the
// element strides of two operands over it (operand 0 written, operand 1 read).
struct Strided2 {
    int rank = 0;
    int64_t numel = 0;
    int64_t size[max_dims] = {};
    int64_t stride[2][max_dims] = {};
};

// The same with three operands (indexed operations: written, read, index).
struct Strided3 {
    int rank = 0;
    int64_t numel = 0;
    int64_t size[max_dims] = {};
    int64_t stride[3][max_dims] = {};
};

// dst[i] = convert<dst type>(src[i]) over the iteration space.
void strided_copy(void* dst, DType dst_type, const void* src, DType src_type, const Strided2& s,
                  int device);
// dst[i] = the element whose `elem_size` bytes (1 to 16) are at `value` (host memory).
void fill(void* dst, int elem_size, const void* value, const Strided2& s, int device);

// In-place inclusive scan (running sum, or product when `multiply`) of `n`
// elements `stride` apart, for every line start given by operand 0 of `lines`;
// Long, Float, Double, ComplexFloat and ComplexDouble.
void scan(DType type, bool multiply, void* data, const Strided2& lines, int64_t n, int64_t stride,
          int device);

// The distributions of random_fill (math/distributions.hpp) and their parameters.
enum class RandomKind : int8_t {
    uniform,     // rng::Uniform: a + scale * u (a = param[0], scale = param[1])
    normal,      // rng::Normal: mean = param[0], standard deviation = param[1]
    bernoulli,   // rng::Bernoulli: 1 with probability param[0]
    word01,      // rng::Word01: w / 2^32 (Double only)
    integer,     // rng::RandomInt: lo + [0, n) (lo = lo, n = n: integers, exact beyond 2^53)
    exponential, // rng::Exponential: rate param[0]
    cauchy,      // rng::Cauchy: median param[0], scale param[1]
    lognormal,   // rng::LogNormal: mean param[0], stdv param[1] of the logarithm
    geometric    // rng::Geometric: p = param[0]
};
struct RandomDraw {
    RandomKind kind = RandomKind::uniform;
    double param[2] = {0, 0};
    int64_t lo = 0; // RandomInt's range
    uint64_t n = 0;
    uint64_t seed = 0;  // the Philox key
    uint64_t block = 0; // the first Philox block of the draw (the generator's offset)
};

// Value i of the draw into the i-th element of operand 0 of `s`, which must be
// planned in row-major order (not reordered by stride): the values equal the
// CPU engine's (math/random.hpp) for the same seed and block. Every element type.
void random_fill(void* dst, DType type, const RandomDraw& draw, const Strided2& s, int device);

// ---- convolutions (kernels/conv.cu) -------------------------------------------------------
// The geometry of a valid cross-correlation over a contiguous zero-padded input
// (math/conv.hpp's ConvPlan): output maps x rows (depth x out_rows) x cols.
struct ConvShape {
    int64_t maps = 1, rows = 1, cols = 1, out_rows = 1;
    int64_t taps = 1;                      // weights per map
    int64_t plane = 0, slice = 0, row = 0; // input strides: plane, depth slice, row
    bool sum = false;                      // every map reads all planes (taps span them)
};
// out[(m, r, c)] = sum_t w[m * taps + t] * in[base(m, r) + c + off[t]], in the CPU's
// order of taps; out, in, w of `type` (not Half), off on the device.
void conv_taps(DType type, void* out, const void* in, const void* w, const int64_t* off,
               const ConvShape& s, int device);

// ---- indexed, masked and sorting operations (kernels/index.cu, kernels/sort.cu) ----------
// Iteration spaces marked "in layout order" are planned without reordering
// dimensions, so that linear index i is the i-th element in row-major order.

// Number of elements of operand `k` of `s` (of type `type`) that are not zero.
int64_t count_nonzero(DType type, const void* p, int k, const Strided2& s, int device);
// The layout-order position of the first index (operand 0 of `s`, in layout
// order) outside [0, limit), or -1; `value` receives that index.
int64_t find_bad_index(const int64_t* idx, const Strided2& s, int64_t limit, int64_t& value,
                       int device);
// Over `s` in layout order (operand 0: x, operand 1: the byte mask), the k-th
// selected element: out[k * out_stride] = x (select), x = src[k] (copy, src
// contiguous), x = the low elem_size bytes of `bits` (fill). Data moves as
// words of elem_size bytes.
void masked_select(void* out, int64_t out_stride, const void* x, int elem_size, const uint8_t* mask,
                   const Strided2& s, int device);
void masked_copy(void* x, int elem_size, const void* src, const uint8_t* mask, const Strided2& s,
                 int device);
void masked_fill(void* x, int elem_size, const void* value, const uint8_t* mask, const Strided2& s,
                 int device);
// The coordinates of the non-zero elements of x (operand 0 of `s`, in layout
// order; sizes[0..rank) its sizes) into out, contiguous count x rank.
void nonzero(int64_t* out, DType type, const void* x, const Strided2& s, const int64_t* sizes,
             int rank, int device);
// Over `s`: a[o0] = b[o1 + idx[o2] * step] (index, gather); indices checked before.
void index_gather(void* a, const void* b, int elem_size, const int64_t* idx, const Strided3& s,
                  int64_t step, int device);
// For every line of `lines` (operands a, b, idx), k = 0 .. n - 1 in order:
// a[o0 + idx[o2 + k * sx] * step] = b[o1 + k * sb] (copy), += (add), = *value (fill).
// A line's writes are sequential, so duplicates resolve as on the CPU (the last
// write wins; additions accumulate in index order); distinct lines write distinct elements.
enum class ScatterKind : int8_t { copy, add, fill };
void index_scatter(ScatterKind kind, DType type, void* a, const void* b, const void* value,
                   const int64_t* idx, const Strided3& lines, int64_t n, int64_t sb, int64_t sx,
                   int64_t step, int device);
// Stable sort of every line of `lines` (operands x, values, indices; n
// elements sx apart): the first k of each sorted line go to values (stride sv)
// and their 0-based positions to indices (stride si). Ascending, or descending
// (ties keep position order either way); NaN above +inf, -0 equal to +0.
void sort_lines(DType type, const void* x, void* values, int64_t* indices, const Strided3& lines,
                int64_t n, int64_t sx, int64_t k, int64_t sv, int64_t si, bool descending,
                int device);

// ---- discrete Fourier transforms (kernels/fft.cu, cuFFT) ------------------------------------
// `batch` transforms of n points over contiguous lines, line after line, scaled by
// `scale` (1: unnormalised, as cuFFT and the CPU's plans compute): complex to
// complex (forward, or the inverse's sign when `inverse`), real to the n/2 + 1
// terms of the half spectrum, or that half spectrum back to n real values (`in`
// is then overwritten, as cuFFT does). `dbl`: double precision (complex<double>
// and double), else float. cuFFT's plans are cached per (kind, precision, n, batch,
// device) and reused.
enum class FftKind : int8_t { c2c, r2c, c2r };
void fft_lines(FftKind kind, bool dbl, bool inverse, void* out, void* in, int64_t n, int64_t batch,
               double scale, int device);

// C = alpha * op(A) * op(B) + beta * C in cuBLAS's column-major convention
// (trans: 'N' or 'T'); float, double, Half (computed in float), complex<float>
// and complex<double>; alpha and beta as complex<double> (real types take the real
// part). beta == 0 ignores C's old values.
using GemmScalar = std::complex<double>;
void gemm(DType type, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, GemmScalar alpha,
          const void* a, int64_t lda, const void* b, int64_t ldb, GemmScalar beta, void* c,
          int64_t ldc, int device);
// The same for `batch` independent products (cublasGemmStridedBatchedEx): product
// i reads A at a + i * stride_a elements (0: one A for all), B likewise, and
// writes C at c + i * stride_c.
void gemm_batched(DType type, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k,
                  GemmScalar alpha, const void* a, int64_t lda, int64_t stride_a, const void* b,
                  int64_t ldb, int64_t stride_b, GemmScalar beta, void* c, int64_t ldc,
                  int64_t stride_c, int64_t batch, int device);

} // namespace rt
} // namespace cuda
} // namespace t7
