// One-dimensional FFT plans over contiguous buffers, from the field's libraries:
// Eigen's FFT module (KISS FFT's algorithm, MPL-2.0: the default, so that the
// library stays permissive) or, with -Dfftw=true (T7_FFTW), FFTW3 (GPL-2+: the
// program that links it becomes GPL). Neither library is fast on lengths with
// a large prime factor (KISS FFT's generic butterfly is O(p^2)), so those go
// through Bluestein's chirp z-transform: three transforms of a smooth length
// >= 2n - 1 of the same library.
//
// Plans are cached per thread and per length: a repeated transform of one size
// allocates nothing after the first.
#pragma once

#include "../core/error.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <numbers>
#include <vector>

#include <unsupported/Eigen/FFT>

#if T7_FFTW
#include <fftw3.h>
#include <mutex>
#endif

namespace t7::detail::fft {

// The largest prime factor a length may have before Bluestein's algorithm is used
// (KISS FFT's generic butterfly costs p^2 operations a stage).
inline constexpr int64_t kMaxDirectFactor = 64;

inline int64_t largest_prime_factor(int64_t n) {
    int64_t p = 1;
    for (int64_t f = 2; f * f <= n; ++f)
        while (n % f == 0) p = f, n /= f;
    return n > 1 ? n : p;
}
// The smallest 2^a 3^b 5^c >= n (KISS FFT's radix-2, 3, 4 and 5 butterflies).
inline int64_t smooth_length(int64_t n) {
    int64_t best = int64_t(1) << 62;
    for (int64_t p5 = 1; p5 < 2 * n; p5 *= 5)
        for (int64_t p35 = p5; p35 < 2 * n; p35 *= 3) {
            int64_t v = p35;
            while (v < n) v *= 2;
            if (v < best) best = v;
        }
    return best;
}

#if T7_FFTW
// FFTW's two precisions behind one name.
template <class R>
struct Fftw;
template <>
struct Fftw<double> {
    using C = std::complex<double>;
    using plan_t = fftw_plan;
    static plan_t plan(int n, C* a, C* b, int sign) {
        return fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex*>(a),
                                reinterpret_cast<fftw_complex*>(b), sign,
                                FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static plan_t plan_r2c(int n, double* a, C* b) {
        return fftw_plan_dft_r2c_1d(n, a, reinterpret_cast<fftw_complex*>(b),
                                    FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static plan_t plan_c2r(int n, C* a, double* b) {
        return fftw_plan_dft_c2r_1d(n, reinterpret_cast<fftw_complex*>(a), b,
                                    FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static void execute(plan_t p, const C* in, C* out) {
        fftw_execute_dft(p, reinterpret_cast<fftw_complex*>(const_cast<C*>(in)),
                         reinterpret_cast<fftw_complex*>(out));
    }
    static void execute_r2c(plan_t p, const double* in, C* out) {
        fftw_execute_dft_r2c(p, const_cast<double*>(in), reinterpret_cast<fftw_complex*>(out));
    }
    static void execute_c2r(plan_t p, C* in, double* out) {
        fftw_execute_dft_c2r(p, reinterpret_cast<fftw_complex*>(in), out);
    }
    static void destroy(plan_t p) {
        if (p) fftw_destroy_plan(p);
    }
};
template <>
struct Fftw<float> {
    using C = std::complex<float>;
    using plan_t = fftwf_plan;
    static plan_t plan(int n, C* a, C* b, int sign) {
        return fftwf_plan_dft_1d(n, reinterpret_cast<fftwf_complex*>(a),
                                 reinterpret_cast<fftwf_complex*>(b), sign,
                                 FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static plan_t plan_r2c(int n, float* a, C* b) {
        return fftwf_plan_dft_r2c_1d(n, a, reinterpret_cast<fftwf_complex*>(b),
                                     FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static plan_t plan_c2r(int n, C* a, float* b) {
        return fftwf_plan_dft_c2r_1d(n, reinterpret_cast<fftwf_complex*>(a), b,
                                     FFTW_ESTIMATE | FFTW_UNALIGNED);
    }
    static void execute(plan_t p, const C* in, C* out) {
        fftwf_execute_dft(p, reinterpret_cast<fftwf_complex*>(const_cast<C*>(in)),
                          reinterpret_cast<fftwf_complex*>(out));
    }
    static void execute_r2c(plan_t p, const float* in, C* out) {
        fftwf_execute_dft_r2c(p, const_cast<float*>(in), reinterpret_cast<fftwf_complex*>(out));
    }
    static void execute_c2r(plan_t p, C* in, float* out) {
        fftwf_execute_dft_c2r(p, reinterpret_cast<fftwf_complex*>(in), out);
    }
    static void destroy(plan_t p) {
        if (p) fftwf_destroy_plan(p);
    }
};
inline std::mutex& planner_mutex() { // FFTW's planner is not thread-safe
    static std::mutex m;
    return m;
}
#endif

// A library's complex transform of one length (unnormalised).
template <class R>
class Direct {
public:
    using C = std::complex<R>;
    explicit Direct(int64_t n) : n_(n) {
#if T7_FFTW
        std::lock_guard<std::mutex> lock(planner_mutex());
        std::vector<C> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
        std::vector<R> r(static_cast<size_t>(n));
        fwd_ = Fftw<R>::plan(int(n), a.data(), b.data(), FFTW_FORWARD);
        inv_ = Fftw<R>::plan(int(n), a.data(), b.data(), FFTW_BACKWARD);
        r2c_ = Fftw<R>::plan_r2c(int(n), r.data(), a.data());
        c2r_ = Fftw<R>::plan_c2r(int(n), a.data(), r.data());
        if (!fwd_ || !inv_ || !r2c_ || !c2r_)
            fail<MemoryError>("fft: FFTW could not plan a transform of ", n);
#endif
    }
    Direct(const Direct&) = delete;
    Direct& operator=(const Direct&) = delete;
    ~Direct() {
#if T7_FFTW
        std::lock_guard<std::mutex> lock(planner_mutex());
        for (auto p : {fwd_, inv_, r2c_, c2r_}) Fftw<R>::destroy(p);
#endif
    }
    // dst = DFT(src) (inverse: the conjugate kernel); dst and src do not overlap.
    void run(C* dst, const C* src, bool inverse) {
        if (n_ == 1) { // (KISS FFT has no plan of one point)
            dst[0] = src[0];
            return;
        }
#if T7_FFTW
        Fftw<R>::execute(inverse ? inv_ : fwd_, src, dst);
#else
        if (inverse)
            kiss_.inv(dst, src, int(n_));
        else
            kiss_.fwd(dst, src, int(n_));
#endif
    }
    // dst[0 .. n/2] = DFT(src) of n real values.
    void run_r2c(C* dst, const R* src) {
        if (n_ == 1) {
            dst[0] = C(src[0], R(0));
            return;
        }
#if T7_FFTW
        Fftw<R>::execute_r2c(r2c_, src, dst);
#else
        kiss_.fwd(dst, src, int(n_));
#endif
    }
    // dst = the n real values whose DFT's first n/2 + 1 terms are src
    // (unnormalised; imaginary parts of the DC and Nyquist terms ignored).
    void run_c2r(R* dst, const C* src) {
        if (n_ == 1) {
            dst[0] = src[0].real();
            return;
        }
#if T7_FFTW
        scratch_.assign(src, src + n_ / 2 + 1);
        Fftw<R>::execute_c2r(c2r_, scratch_.data(), dst);
#else
        kiss_.inv(dst, src, int(n_));
#endif
    }

private:
    int64_t n_;
#if T7_FFTW
    typename Fftw<R>::plan_t fwd_ = nullptr, inv_ = nullptr, r2c_ = nullptr, c2r_ = nullptr;
    std::vector<C> scratch_; // c2r overwrites its input
#else
    Eigen::internal::kissfft_impl<R> kiss_;
#endif
};

// A complex transform of any length n: the library's own, or Bluestein's
// chirp z-transform over a smooth length m >= 2n - 1 when n has a large prime
// factor. The chirp is computed in double (k^2 mod 2n exactly).
template <class R>
class Plan {
public:
    using C = std::complex<R>;
    explicit Plan(int64_t n) : n_(n) {
        if (n <= 16 || largest_prime_factor(n) <= kMaxDirectFactor) {
            direct_ = std::make_unique<Direct<R>>(n);
            return;
        }
        m_ = smooth_length(2 * n - 1);
        direct_ = std::make_unique<Direct<R>>(m_);
        chirp_.resize(size_t(n));
        for (int64_t k = 0; k < n; ++k) {
            const int64_t k2 = int64_t((unsigned __int128)(k)*k % (unsigned __int128)(2 * n));
            const double a = std::numbers::pi * double(k2) / double(n);
            chirp_[size_t(k)] = C(R(std::cos(a)), R(-std::sin(a))); // exp(-i pi k^2 / n)
        }
        // The kernel's transform: conj(chirp) at 0..n-1 and mirrored at m-n+1..m-1, / m.
        std::vector<C> b(size_t(m_), C(0));
        for (int64_t k = 0; k < n; ++k) {
            b[size_t(k)] = std::conj(chirp_[size_t(k)]);
            if (k > 0) b[size_t(m_ - k)] = b[size_t(k)];
        }
        kernel_.resize(size_t(m_));
        direct_->run(kernel_.data(), b.data(), false);
        for (C& v : kernel_) v /= R(m_);
        work_a_.resize(size_t(m_));
        work_b_.resize(size_t(m_));
    }
    int64_t size() const { return n_; }
    void run(C* dst, const C* src, bool inverse) {
        if (!m_) return direct_->run(dst, src, inverse);
        // The inverse transform is the conjugate of the forward one of the conjugate.
        for (int64_t k = 0; k < n_; ++k) {
            const C x = inverse ? std::conj(src[k]) : src[k];
            work_a_[size_t(k)] = x * chirp_[size_t(k)];
        }
        std::fill(work_a_.begin() + n_, work_a_.end(), C(0));
        direct_->run(work_b_.data(), work_a_.data(), false);
        for (int64_t k = 0; k < m_; ++k) work_b_[size_t(k)] *= kernel_[size_t(k)];
        direct_->run(work_a_.data(), work_b_.data(), true);
        for (int64_t k = 0; k < n_; ++k) {
            const C y = work_a_[size_t(k)] * chirp_[size_t(k)];
            dst[k] = inverse ? std::conj(y) : y;
        }
    }

    // dst[0 .. n/2] = DFT of n real values.
    void run_r2c(C* dst, const R* src) {
        if (!m_) return direct_->run_r2c(dst, src);
        real_in_.resize(size_t(n_));
        for (int64_t k = 0; k < n_; ++k) real_in_[size_t(k)] = C(src[k], R(0));
        full_.resize(size_t(n_));
        run(full_.data(), real_in_.data(), false);
        std::copy(full_.begin(), full_.begin() + n_ / 2 + 1, dst);
    }
    // dst = n real values from the half spectrum src[0 .. n/2] (unnormalised).
    void run_c2r(R* dst, const C* src) {
        if (!m_) return direct_->run_c2r(dst, src);
        real_in_.resize(size_t(n_));
        for (int64_t k = 0; k <= n_ / 2; ++k) real_in_[size_t(k)] = src[k];
        for (int64_t k = n_ / 2 + 1; k < n_; ++k) real_in_[size_t(k)] = std::conj(src[n_ - k]);
        real_in_[0] = C(src[0].real(), R(0));
        if (n_ % 2 == 0) real_in_[size_t(n_ / 2)] = C(src[n_ / 2].real(), R(0));
        full_.resize(size_t(n_));
        run(full_.data(), real_in_.data(), true);
        for (int64_t k = 0; k < n_; ++k) dst[k] = full_[size_t(k)].real();
    }

private:
    int64_t n_, m_ = 0;
    std::unique_ptr<Direct<R>> direct_;
    std::vector<C> real_in_, full_;
    std::vector<C> chirp_, kernel_, work_a_, work_b_;
};

// This thread's plan of length n (made on first use, kept for the thread's life).
template <class R>
Plan<R>& plan_for(int64_t n) {
    thread_local std::map<int64_t, std::unique_ptr<Plan<R>>> plans;
    auto& p = plans[n];
    if (!p) p = std::make_unique<Plan<R>>(n);
    return *p;
}

} // namespace t7::detail::fft
