// Statistics over tensors: dist, histc, histogram (NumPy's), bhistc, renorm. (std, var, mean,
// cumsum, norm live with the reductions in expr/reductions.hpp; cmax, cmin, lerp with the
// element-wise functions in expr/operators.hpp; median and mode with sorting.)
#pragma once

#include "../core/error.hpp"
#include "../expr/operators.hpp"
#include "../expr/reductions.hpp"
#include "../iter/parallel.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "factories.hpp"
#include "histc_bin.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace t7 {

// p-norm of a - b (Torch7's torch.dist); the operands broadcast.
template <Expression A, Expression B>
double dist(const A& a, const B& b, double p = 2) {
    return t7::norm(a - b, p);
}

namespace detail {

// The smallest and largest finite elements of p[0, n) (NaN and infinities
// skipped); false if there is none.
template <class T>
bool finite_range(const T* p, int64_t n, double& lo, double& hi) {
    struct Range {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -std::numeric_limits<double>::infinity();
    };
    std::vector<Range> parts(static_cast<size_t>(std::max(1, getNumThreads())));
    iter::parallel_for(n, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t chunk) {
        Range& r = parts[size_t(chunk)];
        for (int64_t i = b; i < e; ++i) {
            const double v = double(p[i]);
            if (!std::isfinite(v)) continue;
            r.lo = std::min(r.lo, v);
            r.hi = std::max(r.hi, v);
        }
    });
    Range all;
    for (const Range& r : parts) all.lo = std::min(all.lo, r.lo), all.hi = std::max(all.hi, r.hi);
    lo = all.lo, hi = all.hi;
    return lo <= hi;
}

} // namespace detail

namespace detail {
// Reaches the CUDA histc (cuda/histc.hpp) by argument-dependent lookup.
struct HistcTag {};

// histc's nbins counts of p[0 .. n) into rp (every bin written), as T.
template <class T>
void histc_count(T* rp, const T* p, int64_t n, int64_t nbins, double lo, double hi) {
    for (int64_t k = 0; k < nbins; ++k) rp[k] = convert<T>(0);
    if (lo == hi && !detail::finite_range(p, n, lo, hi)) return;
    if (lo == hi) {
        lo -= 1;
        hi += 1;
    }
    const int threads = std::max(1, getNumThreads());
    // One row of counters per thread: checked before the allocator is asked.
    detail::require_memory("histc", detail::ws_mul(uint64_t(threads), uint64_t(nbins)),
                           sizeof(int64_t), "the per-thread counters");
    auto parts = detail::guard_alloc("histc", [&] {
        return std::vector<std::vector<int64_t>>(size_t(threads),
                                                 std::vector<int64_t>(size_t(nbins)));
    });
    iter::parallel_for(n, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t chunk) {
        int64_t* h = parts[size_t(chunk)].data();
        for (int64_t i = b; i < e; ++i) {
            const double v = double(p[i]);
            if (v >= lo && v <= hi) ++h[detail::histc_bin(v, lo, hi, nbins)]; // false for NaN
        }
    });
    for (int64_t k = 0; k < nbins; ++k) {
        int64_t total = 0;
        for (const auto& h : parts) total += h[size_t(k)];
        rp[k] = convert<T>(total);
    }
}
} // namespace detail

// Histogram of x in nbins equal bins over [lo, hi]; lo == hi (the default) uses
// the range of x's finite elements (Torch7 uses x's minimum and maximum; NaN or
// an infinity there would make the bins meaningless), widened by 1 on each side
// if it is a single value. As Torch7, only the elements inside [lo, hi] are
// counted: never NaN, and never an infinity, since the bounds must be finite
// (else Error). A value equal to hi falls in the last bin. Result: 1-D, x's
// element type (all zeros when x has no finite element).
template <class T, class D>
Tensor<T, D> histc(const Tensor<T, D>& x, int64_t nbins = 100, double lo = 0, double hi = 0) {
    static_assert(!is_complex_v<T>, "t7::histc: complex numbers have no order");
    if (nbins < 1) detail::fail<ShapeError>("histc: number of bins ", nbins, " must be positive");
    if (!std::isfinite(lo) || !std::isfinite(hi))
        detail::fail<Error>("histc: the range [", lo, ", ", hi, "] is not finite");
    if (lo > hi) detail::fail<Error>("histc: min ", lo, " is greater than max ", hi);
    if (x.nElement() == 0) detail::fail<ShapeError>("histc: the tensor is empty");
    if constexpr (!std::is_same_v<D, CPU>) {
        return op_histc(detail::HistcTag{}, x, nbins, lo, hi); // cuda/histc.hpp
    } else {
        const Tensor<T, D> c = x.contiguous();
        Tensor<T, D> r(nbins);
        detail::histc_count(r.data(), c.data(), c.nElement(), nbins, lo, hi);
        return r;
    }
}

namespace detail {

// np.histogram's uniform bins over [lo, hi] (lo == hi widened by 0.5 each
// side), computed as NumPy computes them, in C: float for float data, double
// for the rest. The edges are linspace's (i * step + lo in double, the last
// exactly hi, then rounded to C); a value's bin is its scaled offset,
// truncated, then moved by one where it falls the other side of an edge.
template <class C>
class UniformBins {
public:
    UniformBins(int64_t n, double lo, double hi) : n_(n) {
        if (lo == hi) lo -= 0.5, hi += 0.5;
        const double step = (hi - lo) / double(n);
        edges_.resize(size_t(n) + 1);
        for (int64_t i = 0; i < n; ++i) edges_[size_t(i)] = C(double(i) * step + lo);
        edges_[size_t(n)] = C(hi);
        first_ = C(lo);
        last_ = C(hi);
        norm_ = C(double(n) / (hi - lo));
    }
    // The bin of v, or -1 outside [lo, hi] (NaN too).
    int64_t bin(C v) const {
        if (!(v >= first_ && v <= last_)) return -1;
        int64_t i = int64_t(C((v - first_) * norm_));
        if (i >= n_) i = n_ - 1;
        if (v < edges_[size_t(i)])
            --i;
        else if (i != n_ - 1 && v >= edges_[size_t(i) + 1])
            ++i;
        return i;
    }

private:
    int64_t n_;
    std::vector<C> edges_;
    C first_, last_, norm_;
};

template <class T>
using histogram_t = std::conditional_t<std::is_same_v<compute_t<T>, float>, float, double>;

inline void check_histogram(int64_t bins, double lo, double hi) {
    if (bins < 1) fail<ShapeError>("histogram: number of bins ", bins, " must be positive");
    if (!std::isfinite(lo) || !std::isfinite(hi))
        fail<Error>("histogram: the range [", lo, ", ", hi, "] is not finite");
    if (lo > hi) fail<Error>("histogram: min ", lo, " is greater than max ", hi);
}

// f(bin, position in layout order) for each element of x inside [lo, hi].
template <class T, class F>
void for_each_binned(const Tensor<T>& x, int64_t bins, double lo, double hi, F&& f) {
    using C = histogram_t<T>;
    const UniformBins<C> b(bins, lo, hi);
    const Tensor<T> c = x.contiguous();
    const T* p = c.data();
    for (int64_t i = 0; i < c.nElement(); ++i)
        if (const int64_t k = b.bin(C(compute_t<T>(p[i]))); k >= 0) f(k, i);
}

} // namespace detail

// NumPy's np.histogram(x, bins, range=(lo, hi)): counts of x's elements in
// `bins` equal bins over [lo, hi], the last bin closed (a value equal to hi
// counts), values outside (and NaN) not counted; LongTensor of size bins.
// Errors: bins < 1 ShapeError, a range that is not finite or lo > hi Error.
template <class T>
Tensor<int64_t> histogram(const Tensor<T>& x, int64_t bins, double lo, double hi) {
    detail::check_histogram(bins, lo, hi);
    Tensor<int64_t> r = zeros<int64_t>(bins);
    int64_t* o = r.data();
    detail::for_each_binned(x, bins, lo, hi, [&](int64_t k, int64_t) { ++o[k]; });
    return r;
}
// With weights (x's sizes): each bin sums the weights of its elements, in
// double in layout order, then rounded to W (NumPy's bincount): Tensor<W>.
template <class T, class W>
Tensor<W> histogram(const Tensor<T>& x, int64_t bins, double lo, double hi,
                    const Tensor<W>& weights) {
    detail::check_histogram(bins, lo, hi);
    if (!(weights.sizes() == x.sizes()))
        detail::fail<ShapeError>("histogram: weights of size ", weights.sizes(),
                                 " for values of size ", x.sizes());
    std::vector<double> acc(size_t(bins), 0.0);
    const Tensor<W> w = weights.contiguous();
    const W* wp = w.data();
    detail::for_each_binned(x, bins, lo, hi,
                            [&](int64_t k, int64_t i) { acc[size_t(k)] += double(wp[i]); });
    Tensor<W> r(bins);
    for (int64_t k = 0; k < bins; ++k) r.data()[k] = convert<W>(acc[size_t(k)]);
    return r;
}

// Batched histc (Torch7's bhistc): one histogram of nbins equal bins per row of
// the 2-D x, result x.size(0) x nbins. As Torch7's C code, lo == hi (the default)
// takes the range from the whole of x (its finite elements), not from each row,
// widened by 1 on each side if it is a single value; elements outside [lo, hi]
// (and NaN) are not counted; a value equal to hi falls in the last bin. Errors as
// histc, and ShapeError unless x is 2-D.
template <class T, class D>
Tensor<T, D> bhistc(const Tensor<T, D>& x, int64_t nbins = 100, double lo = 0, double hi = 0) {
    static_assert(std::is_same_v<D, CPU>, "bhistc: the GPU version belongs to the GPU backend");
    if (x.dim() != 2)
        detail::fail<ShapeError>("bhistc: x must be a 2-D tensor, got ", x.dim(), "-D of size ",
                                 x.sizes());
    if (nbins < 1) detail::fail<ShapeError>("bhistc: number of bins ", nbins, " must be positive");
    if (!std::isfinite(lo) || !std::isfinite(hi))
        detail::fail<Error>("bhistc: the range [", lo, ", ", hi, "] is not finite");
    if (lo > hi) detail::fail<Error>("bhistc: min ", lo, " is greater than max ", hi);
    if (x.nElement() == 0)
        detail::fail<ShapeError>("bhistc: the tensor of size ", x.sizes(), " is empty");
    const Tensor<T, D> c = x.contiguous();
    const T* p = c.data();
    const int64_t rows = c.size(0), cols = c.size(1);
    // A row's counts go straight into its row of the result when T counts them
    // exactly (integers wrap, as the conversion of the count would): no scratch
    // memory. Otherwise (float rows of more than 2^24 elements) each thread
    // counts in int64, memory checked before the allocator is asked.
    using C = compute_t<T>;
    const bool direct = std::is_integral_v<C> ||
                        cols <= (int64_t(1) << std::min(std::numeric_limits<C>::digits, 62));
    const int threads = std::max(1, getNumThreads());
    detail::require_memory(
        "bhistc",
        detail::ws_add(detail::ws_mul(detail::ws_mul(uint64_t(rows), sizeof(T)), uint64_t(nbins)),
                       direct ? 0 : detail::ws_mul(uint64_t(threads) * 8u, uint64_t(nbins))),
        "the result and counters");
    Tensor<T, D> r = zeros<T, D>(rows, nbins);
    if (lo == hi && !detail::finite_range(p, c.nElement(), lo, hi)) return r;
    if (lo == hi) {
        lo -= 1;
        hi += 1;
    }
    T* rp = r.data();
    const int64_t grain = 1 + iter::parallel_grain / std::max<int64_t>(cols, 1);
    if (direct) {
        iter::parallel_for(rows, grain, [&](int64_t b, int64_t e, int64_t) {
            for (int64_t i = b; i < e; ++i) {
                T* h = rp + i * nbins;
                for (int64_t j = 0; j < cols; ++j) {
                    const double v = double(p[i * cols + j]);
                    if (v >= lo && v <= hi) {
                        T& bin = h[detail::histc_bin(v, lo, hi, nbins)];
                        if constexpr (std::is_integral_v<C>) {
                            using U = std::conditional_t<(sizeof(C) < 4), uint32_t,
                                                         std::make_unsigned_t<C>>;
                            bin = T(C(U(C(bin)) + 1u));
                        } else {
                            bin = T(C(bin) + 1);
                        }
                    }
                }
            }
        });
        return r;
    }
    iter::parallel_for(rows, grain, [&](int64_t b, int64_t e, int64_t) {
        std::vector<int64_t> h(static_cast<size_t>(nbins));
        for (int64_t i = b; i < e; ++i) {
            std::fill(h.begin(), h.end(), 0);
            for (int64_t j = 0; j < cols; ++j) {
                const double v = double(p[i * cols + j]);
                if (v >= lo && v <= hi) ++h[size_t(detail::histc_bin(v, lo, hi, nbins))];
            }
            for (int64_t k = 0; k < nbins; ++k) rp[i * nbins + k] = convert<T>(h[size_t(k)]);
        }
    });
    return r;
}

// Each slice x.select(dim, i) whose p-norm exceeds maxnorm is scaled down to norm
// maxnorm (Torch7: by maxnorm / (norm + 1e-7)); the others are copied as they are.
template <class T, class D>
Tensor<T, D> renorm(const Tensor<T, D>& x, double p, int64_t dim, double maxnorm) {
    static_assert(std::is_floating_point_v<T>, "renorm: element type must be float or double");
    if (x.dim() < 2)
        detail::fail<ShapeError>("renorm: needs a tensor of at least 2 dimensions, got ", x.dim(),
                                 "-D of size ", x.sizes());
    if (!(p > 0)) detail::fail<Error>("renorm: p = ", p, " must be positive");
    if (!(maxnorm >= 0)) detail::fail<Error>("renorm: maxnorm ", maxnorm, " must not be negative");
    const int64_t d = x.wrap_dim(dim, "renorm"), n = x.size(d);
    // norms of the slices: move dim to the front, one row per slice
    const Tensor<T, D> rows = x.transpose(0, d).contiguous().view(n, -1);
    const auto norms = t7::norm(rows, p, 1); // n x 1
    Shape fs(size_t(x.dim()), 1);
    fs[size_t(d)] = n;
    const Tensor<T, D> scale =
        t7::eval(t7::cast<T>(t7::where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0))).view(fs);
    return t7::eval(x * scale);
}

} // namespace t7
