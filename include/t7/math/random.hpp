// Random numbers: one generator per device, reproducible across runs and thread
// counts. A generator is only (seed, offset): draws come from the counter-based
// Philox4x32-10 stream of the seed (philox.hpp), and each draw claims the next
// blocks of it. Value i of a draw is computed from its own words only, so any
// split of the work over threads (or GPU blocks) gives the same tensor.
//
// Stream layout of one draw of n values from a generator at offset o (blocks):
// a distribution consumes `words` 32-bit words per group of `group` values
// (uniform float or Half: 1 word per value; double and integers: 2; normal float:
// 2 words per pair); value i belongs to group g = i / group, whose words are
// [4o + g*words, ...). The generator then advances by ceil(groups * words / 4)
// blocks. The distributions (distributions.hpp) are shared with the GPU kernels
// (cuda/random.hpp), so CUDA tensors get the same values from the same seed.
#pragma once

#include "../core/error.hpp"
#include "../expr/operators.hpp"
#include "../expr/reductions.hpp"
#include "../iter/loop.hpp"
#include "../iter/overlap.hpp"
#include "../iter/parallel.hpp"
#include "../tensor/complex_parts.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"
#include "../tensor/transfer.hpp"
#include "distributions.hpp"
#include "normal_blocks.hpp"
#include "philox.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace t7 {

// ---- generators --------------------------------------------------------------------

// The whole state of a generator: Philox key, and blocks already consumed.
// Converts to the ByteTensor form of Generator::getState() (24 bytes: the tag
// "T7Philox", the seed, the offset), which every setter accepts as well: state
// moves between the default generator, a Generator and a .t7 file either way.
struct RNGState {
    uint64_t seed = 0;
    uint64_t offset = 0;
    friend bool operator==(const RNGState&, const RNGState&) = default;
    operator Tensor<uint8_t, CPU>() const; // defined below
};

namespace detail {
inline constexpr char rng_tag[9] = "T7Philox";
inline constexpr int64_t rng_state_bytes = 24;

inline Tensor<uint8_t, CPU> rng_state_tensor(const RNGState& st) {
    Tensor<uint8_t, CPU> r(rng_state_bytes);
    uint8_t* p = r.data();
    std::memcpy(p, rng_tag, 8);
    for (int k = 0; k < 8; ++k) {
        p[8 + k] = uint8_t(st.seed >> (8 * k));
        p[16 + k] = uint8_t(st.offset >> (8 * k));
    }
    return r;
}
// The state a ByteTensor of rng_state_tensor holds; Error naming op for another.
inline RNGState rng_state_of(const Tensor<uint8_t, CPU>& s, const char* op) {
    if (s.dim() != 1 || s.nElement() != rng_state_bytes)
        fail<Error>(op, ": expected a 1-D ByteTensor of ", rng_state_bytes,
                    " bytes from getState(), got size ", s.sizes());
    // Read through the stride (no contiguous copy: that needs the CPU evaluator,
    // which CUDA translation units do not include).
    const uint8_t* p = s.data();
    const int64_t step = s.stride(0);
    for (int k = 0; k < 8; ++k)
        if (p[k * step] != uint8_t(rng_tag[k]))
            fail<Error>(op, ": the ByteTensor is not a generator state (its tag is not "
                            "\"T7Philox\")");
    RNGState st;
    for (int k = 0; k < 8; ++k) {
        st.seed |= uint64_t(p[(8 + k) * step]) << (8 * k);
        st.offset |= uint64_t(p[(16 + k) * step]) << (8 * k);
    }
    return st;
}
template <class T, class D>
[[noreturn]] void rng_state_type_error(const char* op) {
    fail<TypeError>(op, ": a state is a torch.ByteTensor, got a ", Tensor<T, D>::typeName());
}
} // namespace detail

inline RNGState::operator Tensor<uint8_t, CPU>() const { return detail::rng_state_tensor(*this); }

class Generator {
public:
    // PyTorch's default seed: programs are reproducible without seeding.
    static constexpr uint64_t default_seed = 67280421310721ull;
    // Size in bytes of getState()'s snapshot: the tag "T7Philox", the seed, the offset.
    static constexpr int64_t state_bytes = 24;

    Generator() = default;
    explicit Generator(uint64_t seed) : state_{seed, 0} {}
    Generator(const Generator&) = delete;
    Generator& operator=(const Generator&) = delete;

    void manualSeed(uint64_t s) {
        std::lock_guard<std::mutex> g(m_);
        state_ = {s, 0};
    }
    uint64_t initialSeed() const {
        std::lock_guard<std::mutex> g(m_);
        return state_.seed;
    }
    RNGState state() const {
        std::lock_guard<std::mutex> g(m_);
        return state_;
    }
    void setState(const RNGState& s) {
        std::lock_guard<std::mutex> g(m_);
        state_ = s;
    }
    // A snapshot as a ByteTensor of state_bytes bytes (t7::save writes it; any
    // generator's setState, and t7::setRNGState, take it back).
    Tensor<uint8_t, CPU> getState() const { return detail::rng_state_tensor(state()); }
    void setState(const Tensor<uint8_t, CPU>& s) {
        setState(detail::rng_state_of(s, "Generator::setState"));
    }
    template <class T, class D>
    requires(!std::is_same_v<T, uint8_t> ||
             !std::is_same_v<D, CPU>) void setState(const Tensor<T, D>&) {
        detail::rng_state_type_error<T, D>("Generator::setState");
    }
    // Claims the next `blocks` Philox blocks: returns the seed and the first block.
    RNGState reserve(uint64_t blocks) {
        std::lock_guard<std::mutex> g(m_);
        RNGState r = state_;
        state_.offset += blocks;
        return r;
    }

private:
    mutable std::mutex m_;
    RNGState state_{default_seed, 0};
};

inline constexpr int max_generators_per_device = 64;

// The generator of device `device` of type D (the CPU has one, device 0).
template <class D = CPU>
Generator& defaultGenerator(int device = 0) {
    static std::array<Generator, max_generators_per_device> gens;
    const int n = std::is_same_v<D, CPU> ? 1 : max_generators_per_device;
    if (device < 0 || device >= n)
        detail::fail<DeviceError>("defaultGenerator: no ", D::name, " device ", device);
    return gens[size_t(device)];
}

// Seeds every device's generator (so one call makes a whole program reproducible).
inline void manualSeed(uint64_t s) {
    defaultGenerator<CPU>().manualSeed(s);
    for (int d = 0; d < max_generators_per_device; ++d) defaultGenerator<CUDA>(d).manualSeed(s);
}
// Seeds from a non-deterministic source; returns the seed.
inline uint64_t seed() {
    std::random_device rd;
    const uint64_t s = (uint64_t(rd()) << 32) ^ uint64_t(rd());
    manualSeed(s);
    return s;
}
inline uint64_t initialSeed() { return defaultGenerator<CPU>().initialSeed(); }
// The CPU generator's state; it converts to the ByteTensor of getState()
// (t7::ByteTensor st = t7::getRNGState()).
inline RNGState getRNGState() { return defaultGenerator<CPU>().state(); }
// Sets the CPU generator's state from an RNGState or a ByteTensor of getState()
// (a Generator's, or one read back with t7::load).
inline void setRNGState(const RNGState& s) { defaultGenerator<CPU>().setState(s); }
inline void setRNGState(const Tensor<uint8_t, CPU>& s) {
    defaultGenerator<CPU>().setState(detail::rng_state_of(s, "setRNGState"));
}
template <class T, class D>
requires(!std::is_same_v<T, uint8_t> ||
         !std::is_same_v<D, CPU>) void setRNGState(const Tensor<T, D>&) {
    detail::rng_state_type_error<T, D>("setRNGState");
}

// ---- filling a tensor: one engine per device ----------------------------------------
namespace detail {

// The Philox blocks a draw of n values of Dist consumes (every engine reserves this).
template <class Dist>
uint64_t draw_blocks(int64_t n) {
    constexpr int G = Dist::group, W = Dist::words;
    const uint64_t words = uint64_t((n + G - 1) / G) * W;
    return (words + 3) / 4;
}

template <class D>
struct RandomEngine; // specialised per device (cuda/random.hpp adds CUDA)

template <>
struct RandomEngine<CPU> {
    static constexpr int64_t scratch_words = 1024;
    // Fills of at least this many bytes bypass the caches (non-temporal stores).
    static constexpr int64_t streaming_bytes = int64_t(16) << 20;

    // Copies n values to dst with non-temporal stores (no read of the destination's
    // cache lines): worth it for fills much larger than the caches.
    template <class T>
    static void stream_copy(T* dst, const T* src, int64_t n) {
#if defined(__AVX2__)
        char* d = reinterpret_cast<char*>(dst);
        const char* s = reinterpret_cast<const char*>(src);
        int64_t bytes = n * int64_t(sizeof(T));
        const int64_t head = std::min<int64_t>(bytes, int64_t((32 - uintptr_t(d) % 32) % 32));
        std::memcpy(d, s, size_t(head));
        d += head, s += head, bytes -= head;
        for (; bytes >= 32; d += 32, s += 32, bytes -= 32)
            _mm256_stream_si256(reinterpret_cast<__m256i*>(d),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)));
        std::memcpy(d, s, size_t(bytes));
#else
        std::copy(src, src + n, dst);
#endif
    }

    // ng whole groups from w into out[0 .. ng * group): through the distribution's
    // vectorised `bulk` where it has one (same values as its operator()).
    template <class T, class Dist>
    static void groups(const Dist& f, const uint32_t* w, int64_t ng, T* out) {
        if constexpr (requires { f.bulk(w, ng, out); })
            f.bulk(w, ng, out);
        else
            for (int64_t g = 0; g < ng; ++g) f(w + g * Dist::words, out + g * Dist::group);
    }

    // Values [i0, i0 + m) of the draw into out[0], out[s], ...; words from word0.
    template <class T, class Dist>
    static void run(const Dist& f, uint64_t key, uint64_t word0, int64_t i0, int64_t m, T* out,
                    int64_t s, bool streaming) {
        constexpr int G = Dist::group, W = Dist::words;
        constexpr int64_t max_groups = scratch_words / W;
        alignas(64) uint32_t scratch[scratch_words + 8];
        alignas(64) T buf[max_groups * G];
        T tmp[G];
        int64_t i = i0;
        const int64_t end = i0 + m;
        auto partial = [&] { // the group holding value i, stored where it overlaps [i, end)
            const int64_t g = i / G;
            f(philox::words(key, word0 + uint64_t(g) * W, W, scratch), tmp);
            for (int64_t k = i - g * G; k < G && i < end; ++k, ++i) out[(i - i0) * s] = tmp[k];
        };
        if (i % G != 0) partial();
        while (end - i >= G) {
            int64_t ng = std::min(max_groups, (end - i) / G);
            const uint64_t wi = word0 + uint64_t(i / G) * W; // first word of group i / G
            T* o = out + (i - i0) * s;
            // whole blocks straight into values where the distribution can (the words
            // stay in registers); first the groups of a block the run starts inside
            if constexpr (requires { rng::from_blocks(f, key, wi, ng, o); }) {
                if (s == 1 && wi % 4 != 0) {
                    ng = std::min(ng, int64_t(4 - wi % 4) / W);
                } else if (s == 1 && ng * W >= 4) {
                    const int64_t nb = ng * W / 4;
                    ng = nb * 4 / W;
                    rng::from_blocks(f, key, wi / 4, nb, streaming ? buf : o);
                    if (streaming) stream_copy(o, buf, ng * G);
                    i += ng * G;
                    continue;
                }
            }
            const uint32_t* w = philox::words(key, wi, ng * W, scratch);
            if (s == 1 && streaming) {
                groups(f, w, ng, buf);
                stream_copy(o, buf, ng * G);
            } else if (s == 1) {
                groups(f, w, ng, o);
            } else {
                for (int64_t g = 0; g < ng; ++g) {
                    f(w + g * W, tmp);
                    for (int k = 0; k < G; ++k) o[(g * G + k) * s] = tmp[k];
                }
            }
            i += ng * G;
        }
        if (i < end) partial();
    }

    // Fills x (any layout) in its row-major order: value i goes to the i-th element.
    template <class T, class Dist>
    static void fill(const Tensor<T, CPU>& x, const Dist& f, Generator& gen) {
        const int64_t n = x.nElement();
        if (n == 0) return;
        const RNGState st = gen.reserve(draw_blocks<Dist>(n));
        const uint64_t word0 = st.offset * 4;
        const iter::Loop<1> L = iter::make_loop<1>(x.sizes(), {&x.strides()}, false);
        T* base = x.data();
        const int64_t s = L.inner_stride(0);
        const bool streaming = n * int64_t(sizeof(T)) >= streaming_bytes;
        iter::parallel_for(n, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t) {
            int64_t pos = b;
            iter::for_each_run(L, b, e, [&](const std::array<int64_t, 1>& off, int64_t m) {
                run(f, st.seed, word0, pos, m, base + off[0], s, streaming);
                pos += m;
            });
#if defined(__AVX2__)
            if (streaming) _mm_sfence(); // order the non-temporal stores before returning
#endif
        });
    }

    // `count` words of a fresh draw, for the host-side samplers below.
    static std::vector<uint32_t> draw_words(Generator& gen, int64_t count) {
        std::vector<uint32_t> w(size_t(count) + 8);
        if (count == 0) return w;
        const RNGState st = gen.reserve((uint64_t(count) + 3) / 4);
        philox::blocks(st.seed, st.offset, (count + 3) / 4, w.data());
        return w;
    }
};

inline void check_probability(double p, const char* op) {
    if (!(p >= 0 && p <= 1)) fail<Error>(op, ": probability ", p, " is not in [0, 1]");
}

// Draws into x for `op`: one value per position, so an x that overlaps itself
// (an expanded view) is refused before the generator advances.
template <class T, class D, class Dist>
Tensor<T, D>& random_fill(Tensor<T, D>& x, const Dist& f, const char* op = "random") {
    check_writable(op, x);
    RandomEngine<D>::fill(x, f, defaultGenerator<D>(x.getDevice()));
    return x;
}
// The same with a user's generator.
template <class T, class D, class Dist>
Tensor<T, D>& random_fill(Tensor<T, D>& x, const Dist& f, Generator& gen, const char* op) {
    check_writable(op, x);
    RandomEngine<D>::fill(x, f, gen);
    return x;
}
// The generator a fill draws from: gen, or the device's default one.
template <class T, class D>
Generator& pick_generator(const Tensor<T, D>& x, Generator* gen) {
    return gen ? *gen : defaultGenerator<D>(x.getDevice());
}

inline void check_open_probability(double p, const char* op) {
    if (!(p > 0 && p < 1)) fail<Error>(op, ": probability ", p, " is not in (0, 1)");
}

// [lo, lo + n) for random(a, b) on T: b > a, and b - 1 and a representable in T.
template <class T>
std::pair<int64_t, uint64_t> random_range(int64_t a, int64_t b) {
    if (!(b > a))
        fail<Error>("random: the range [", a, ", ", b, ") is empty (the upper bound ", b,
                    " must be greater than the lower bound ", a, ")");
    using C = compute_t<T>;
    if constexpr (std::is_integral_v<C>) {
        if (a < int64_t(std::numeric_limits<C>::lowest()) ||
            (b - 1 > 0 && uint64_t(b - 1) > uint64_t(std::numeric_limits<C>::max())))
            fail<Error>("random: the range [", a, ", ", b, ") does not fit in ",
                        Tensor<T, CPU>::typeName());
    }
    return {a, uint64_t(b) - uint64_t(a)};
}

// random(): Torch7's [0, max] per type: the type's maximum for integers, 2^mantissa
// bits for floating types (2^24 float, 2^53 double, 2^11 Half), those of the parts
// for complex types (whose real parts it fills).
template <class T>
uint64_t random_full_count() {
    using C = real_t<compute_t<T>>;
    if constexpr (std::is_integral_v<C>)
        return uint64_t(std::numeric_limits<C>::max()) + 1;
    else if constexpr (std::is_same_v<T, Half>)
        return (uint64_t(1) << 11) + 1;
    else
        return (uint64_t(1) << std::numeric_limits<C>::digits) + 1;
}

} // namespace detail

// ---- in-place fills (members declared in tensor.hpp) --------------------------------
// Each fill checks its parameters first (nothing is drawn or written on an error),
// then draws from `gen`, or from the device's default generator.
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::uniform(Generator& gen, double a, double b) {
    if (!(a <= b))
        detail::fail<Error>("uniform: lower bound ", a, " is greater than upper bound ", b);
    return detail::random_fill(*this, rng::Uniform<T>{a, b - a}, gen, "uniform");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::uniform(double a, double b) {
    if (!(a <= b))
        detail::fail<Error>("uniform: lower bound ", a, " is greater than upper bound ", b);
    return detail::random_fill(*this, rng::Uniform<T>{a, b - a}, "uniform");
}

// A complex tensor (PyTorch's rule): its real parts, then its imaginary parts,
// each N(mean, stdv^2 / 2), so that E|z - mean(1 + i)|^2 = stdv^2; drawn through
// the real views of the parts (tensor/complex_parts.hpp).
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::normal(Generator& gen, double mean, double stdv) {
    if (!(stdv >= 0)) detail::fail<Error>("normal: standard deviation ", stdv, " is negative");
    if constexpr (is_complex_v<T>) {
        const double s = stdv / std::numbers::sqrt2;
        detail::complex_part(*this, 0).normal(gen, mean, s);
        detail::complex_part(*this, 1).normal(gen, mean, s);
        return *this;
    } else {
        return detail::random_fill(*this, rng::Normal<T>{mean, stdv}, gen, "normal");
    }
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::normal(double mean, double stdv) {
    if (!(stdv >= 0)) detail::fail<Error>("normal: standard deviation ", stdv, " is negative");
    if constexpr (is_complex_v<T>) {
        const double s = stdv / std::numbers::sqrt2;
        detail::complex_part(*this, 0).normal(mean, s);
        detail::complex_part(*this, 1).normal(mean, s);
        return *this;
    } else {
        return detail::random_fill(*this, rng::Normal<T>{mean, stdv}, "normal");
    }
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::bernoulli(Generator& gen, double p) {
    detail::check_probability(p, "bernoulli");
    return detail::random_fill(*this, rng::Bernoulli<T>{p}, gen, "bernoulli");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::bernoulli(double p) {
    detail::check_probability(p, "bernoulli");
    return detail::random_fill(*this, rng::Bernoulli<T>{p}, "bernoulli");
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random(Generator& gen) {
    return detail::random_fill(*this, rng::RandomInt<T>{0, detail::random_full_count<T>()}, gen,
                               "random");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random() {
    return random(detail::pick_generator(*this, nullptr));
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random(Generator& gen, int64_t b) {
    return random(gen, 0, b);
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random(int64_t b) {
    return random(0, b);
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random(Generator& gen, int64_t a, int64_t b) {
    const auto [lo, n] = detail::random_range<T>(a, b);
    return detail::random_fill(*this, rng::RandomInt<T>{lo, n}, gen, "random");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::random(int64_t a, int64_t b) {
    detail::random_range<T>(a, b); // checked before the generator is chosen
    return random(detail::pick_generator(*this, nullptr), a, b);
}

namespace detail {
// Torch7's logNormal(mean, stdv) as its C code computes it (THRandom_logNormal:
// exp(normal(mean, stdv))): mean and stdv are those of the values' logarithm, as
// PyTorch's log_normal_. Any finite mean; stdv finite and > 0. Checked before a
// generator is chosen.
inline rng::LogNormal<double> lognormal_law(double mean, double stdv) {
    if (!std::isfinite(mean))
        fail<Error>("logNormal: the mean ", mean, " (of the logarithm) must be finite");
    if (!(stdv > 0) || !std::isfinite(stdv))
        fail<Error>("logNormal: the standard deviation ", stdv,
                    " (of the logarithm) must be positive and finite");
    return {mean, stdv};
}
} // namespace detail

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::logNormal(Generator& gen, double mean, double stdv) {
    const auto law = detail::lognormal_law(mean, stdv);
    return detail::random_fill(*this, rng::LogNormal<T>{law.mean, law.stdv}, gen, "logNormal");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::logNormal(double mean, double stdv) {
    detail::lognormal_law(mean, stdv);
    return logNormal(detail::pick_generator(*this, nullptr), mean, stdv);
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::exponential(Generator& gen, double lambda) {
    if (!(lambda > 0))
        detail::fail<Error>("exponential: rate lambda = ", lambda, " must be positive");
    return detail::random_fill(*this, rng::Exponential<T>{lambda}, gen, "exponential");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::exponential(double lambda) {
    if (!(lambda > 0))
        detail::fail<Error>("exponential: rate lambda = ", lambda, " must be positive");
    return exponential(detail::pick_generator(*this, nullptr), lambda);
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::cauchy(Generator& gen, double median, double sigma) {
    if (!(sigma > 0)) detail::fail<Error>("cauchy: scale sigma = ", sigma, " must be positive");
    return detail::random_fill(*this, rng::Cauchy<T>{median, sigma}, gen, "cauchy");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::cauchy(double median, double sigma) {
    if (!(sigma > 0)) detail::fail<Error>("cauchy: scale sigma = ", sigma, " must be positive");
    return cauchy(detail::pick_generator(*this, nullptr), median, sigma);
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::geometric(Generator& gen, double p) {
    detail::check_open_probability(p, "geometric");
    return detail::random_fill(*this, rng::Geometric<T>{p}, gen, "geometric");
}
template <class T, class D>
Tensor<T, D>& Tensor<T, D>::geometric(double p) {
    detail::check_open_probability(p, "geometric");
    return geometric(detail::pick_generator(*this, nullptr), p);
}

// Each element is 1 with the probability at the same place of p (broadcast to self).
template <class T, class D>
template <class P>
Tensor<T, D>& Tensor<T, D>::bernoulli(const Tensor<P, D>& p) {
    if (p.nElement() == 0) detail::fail<ShapeError>("bernoulli: the probability tensor is empty");
    Shape joined = sizes_;
    if (!detail::broadcast_into(joined, p.sizes()) || !(joined == sizes_))
        detail::fail<ShapeError>("bernoulli: probabilities of size ", p.sizes(),
                                 " do not broadcast to size ", sizes_);
    const double lo = double(t7::min(p)), hi = double(t7::max(p));
    if (!(lo >= 0 && hi <= 1))
        detail::fail<Error>("bernoulli: probabilities must be in [0, 1], got values in [", lo, ", ",
                            hi, "]");
    if (dim() == 0) return *this;
    detail::check_writable("bernoulli", *this);
    // One word per element, as bernoulli(p): u < p with u = w / 2^32.
    const typename DeviceMemory<D>::Scope scope(getDevice()); // u goes where self is
    Tensor<double, D> u(sizes_);
    detail::random_fill(u, rng::Word01{});
    return assign(t7::cast<T>(t7::lt(u, t7::cast<double>(p))));
}

// ---- factories ------------------------------------------------------------------------
template <class T, class D = CPU>
Tensor<T, D> rand(const Shape& sizes) {
    static_assert(std::is_floating_point_v<compute_t<T>>,
                  "rand: element type must be float, double or Half");
    Tensor<T, D> r(sizes);
    return r.uniform(0, 1);
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> rand(I... sizes) {
    return rand<T, D>(Shape{int64_t(sizes)...});
}

template <class T, class D = CPU>
Tensor<T, D> randn(const Shape& sizes) {
    static_assert(std::is_floating_point_v<compute_t<T>> || is_complex_v<T>,
                  "randn: element type must be float, double, Half or complex");
    Tensor<T, D> r(sizes);
    return r.normal(0, 1);
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> randn(I... sizes) {
    return randn<T, D>(Shape{int64_t(sizes)...});
}

// The same factories drawing from a user's generator.
template <class T, class D = CPU>
Tensor<T, D> rand(Generator& gen, const Shape& sizes) {
    static_assert(std::is_floating_point_v<compute_t<T>>,
                  "rand: element type must be float, double or Half");
    Tensor<T, D> r(sizes);
    return r.uniform(gen, 0, 1);
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> rand(Generator& gen, I... sizes) {
    return rand<T, D>(gen, Shape{int64_t(sizes)...});
}
template <class T, class D = CPU>
Tensor<T, D> randn(Generator& gen, const Shape& sizes) {
    static_assert(std::is_floating_point_v<compute_t<T>> || is_complex_v<T>,
                  "randn: element type must be float, double, Half or complex");
    Tensor<T, D> r(sizes);
    return r.normal(gen, 0, 1);
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> randn(Generator& gen, I... sizes) {
    return randn<T, D>(gen, Shape{int64_t(sizes)...});
}

// Probabilities given as an expression or x[mask]: evaluated once (ops/expression_args.hpp).
template <class T, class D>
template <ExpressionOrSelection E>
requires(!is_tensor_v<E>) Tensor<T, D>
&Tensor<T, D>::bernoulli(const E& p) { return bernoulli(detail::materialize(p)); }

// A new tensor like p holding 0/1 draws with the probabilities of p.
template <class T, class D>
Tensor<T, D> bernoulli(const Tensor<T, D>& p) {
    Tensor<T, D> r(p.sizes());
    return r.bernoulli(p);
}
// A new tensor of the given size holding 0/1 draws with probability p.
template <class T, class D = CPU>
Tensor<T, D> bernoulli(const Shape& sizes, double p) {
    Tensor<T, D> r(sizes);
    return r.bernoulli(p);
}

namespace detail {
// Uniform integer in [0, n) from two words (multiply-shift; bias below n / 2^64).
inline uint64_t below(const uint32_t* w, uint64_t n) {
    const uint64_t x = (uint64_t(w[0]) << 32) | w[1];
    return uint64_t((static_cast<unsigned __int128>(x) * n) >> 64);
}
} // namespace detail

// A random permutation of 0 .. n-1 (Fisher-Yates; step k uses words 2k, 2k+1).
// CUDA: the same sequential shuffle on the host, with the same words of the
// device's generator (so the CPU's permutation for a seed), then one transfer
// to the current device.
template <class D = CPU>
Tensor<int64_t, D> randperm(Generator& gen, int64_t n) {
    if (n < 0) detail::fail<ShapeError>("randperm: n = ", n, " must not be negative");
    if (n == 0) return Tensor<int64_t, D>();
    Tensor<int64_t, CPU> r(n);
    int64_t* p = r.data();
    for (int64_t i = 0; i < n; ++i) p[i] = i;
    const auto w = detail::RandomEngine<CPU>::draw_words(gen, 2 * (n - 1));
    for (int64_t i = n - 1, k = 0; i > 0; --i, ++k)
        std::swap(p[i], p[int64_t(detail::below(&w[size_t(2 * k)], uint64_t(i + 1)))]);
    if constexpr (std::is_same_v<D, CPU>) {
        return r;
    } else {
        Tensor<int64_t, D> g(n);
        return g.copy(r);
    }
}
template <class D = CPU>
Tensor<int64_t, D> randperm(int64_t n) {
    return randperm<D>(defaultGenerator<D>(DeviceMemory<D>::current_device()), n);
}

namespace detail {
// Weights are scaled by 2^-shift, shift the exponent of the largest one (or 0
// when that is below 2^64): exact, so ordinary weights sample as before, and the
// sum of up to 2^62 scaled weights stays finite. A positive weight never
// becomes 0 (which would change which categories can be drawn).
inline int weight_shift(double largest) { return largest >= 0x1p64 ? std::ilogb(largest) : 0; }
inline double scale_weight(double v, int shift) {
    if (shift == 0 || v == 0) return v;
    const double s = std::ldexp(v, -shift);
    return s > 0 ? s : std::numeric_limits<double>::denorm_min();
}
} // namespace detail

// n category indices (0-based) per row of p (1-D: one distribution; 2-D: one per
// row), drawn with the row's non-negative weights (they need not sum to 1).
// Without replacement a category is drawn at most once per row. Sample j of row r
// uses words 2(r n + j) and 2(r n + j) + 1 of the draw.
template <class T, class D>
Tensor<int64_t, D> multinomial(Generator& gen, const Tensor<T, D>& p, int64_t n,
                               bool replacement = false) {
    if (p.dim() != 1 && p.dim() != 2)
        detail::fail<ShapeError>("multinomial: expected a 1-D or 2-D tensor of probabilities, got ",
                                 p.dim(), "-D of size ", p.sizes());
    if (n < 1) detail::fail<ShapeError>("multinomial: number of samples ", n, " must be positive");
    // CUDA: the weights converted on the device, then sampled on the host with the
    // device generator's words (the CPU's samples for a seed), the result sent back.
    const Tensor<double, CPU> w = [&] {
        const Tensor<double, D> c = p.template to<double>().contiguous();
        const Tensor<double, CPU> h = c.cpu();
        return p.dim() == 1 ? h.view(1, -1) : h;
    }();
    const int64_t rows = w.size(0), k = w.size(1);
    const double* wp = w.data();
    std::vector<int> row_shift(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
        int64_t positive = 0;
        double total = 0, big = 0;
        for (int64_t j = 0; j < k; ++j) {
            const double v = wp[r * k + j];
            if (!(v >= 0) || !std::isfinite(v))
                detail::fail<Error>("multinomial: invalid weight ", v, " at index ", j, " of row ",
                                    r, " (weights must be finite and non-negative)");
            positive += v > 0;
            total += v;
            big = std::max(big, v);
        }
        row_shift[size_t(r)] = detail::weight_shift(big);
        if (total <= 0)
            detail::fail<Error>("multinomial: row ", r, " of size ", k, " has no positive weight");
        if (!replacement && n > positive)
            detail::fail<Error>("multinomial: cannot draw ", n,
                                " samples without replacement from row ", r, " with only ",
                                positive, " categories of positive weight");
    }
    Tensor<int64_t, CPU> out(rows, n); // checks rows * n; MemoryError when it cannot exist
    const int64_t count = detail::mul_size(2 * rows, n, "multinomial", "random words for ", rows,
                                           " rows of ", n, " samples");
    const auto words = detail::guard_alloc(
        "multinomial", [&] { return detail::RandomEngine<CPU>::draw_words(gen, count); });
    int64_t* op = out.data();
    iter::parallel_for(rows, 1, [&](int64_t r0, int64_t r1, int64_t) {
        std::vector<double> cum(static_cast<size_t>(k)), weight(static_cast<size_t>(k));
        for (int64_t r = r0; r < r1; ++r) {
            // scaled by a power of two below the largest weight: the sums cannot
            // overflow (1e308 1e308 1), and ordinary weights draw the same values
            for (int64_t c = 0; c < k; ++c)
                weight[size_t(c)] = detail::scale_weight(wp[r * k + c], row_shift[size_t(r)]);
            for (int64_t j = 0; j < n; ++j) {
                double total = 0;
                int64_t last = 0;
                for (int64_t c = 0; c < k; ++c) {
                    total += weight[size_t(c)];
                    cum[size_t(c)] = total;
                    if (weight[size_t(c)] > 0) last = c;
                }
                const double u = rng::u53(&words[size_t(2 * (r * n + j))]) * total;
                // first category whose cumulative weight exceeds u (never a zero weight)
                int64_t c = int64_t(std::upper_bound(cum.begin(), cum.end(), u) - cum.begin());
                if (c > last) c = last; // u rounded up to the total
                op[r * n + j] = c;
                if (!replacement) weight[size_t(c)] = 0;
            }
        }
    });
    if constexpr (std::is_same_v<D, CPU>) {
        return p.dim() == 1 ? out.view(n) : out;
    } else {
        const typename DeviceMemory<D>::Scope scope(p.getDevice());
        Tensor<int64_t, D> g(out.sizes());
        g.copy(out);
        return p.dim() == 1 ? g.view(n) : g;
    }
}
template <class T, class D>
Tensor<int64_t, D> multinomial(const Tensor<T, D>& p, int64_t n, bool replacement = false) {
    return multinomial(defaultGenerator<D>(p.getDevice()), p, n, replacement);
}

// ---- Walker's alias method (Torch7's multinomialAliasSetup / multinomialAlias) --------

// The alias table of a 1-D tensor of non-negative weights (normalised by their sum):
// J[k] (0-based) is the category that slot k falls back to, q[k] the probability of
// keeping k. Drawing: k uniform in [0, K), then k with probability q[k], else J[k].
template <class T>
struct AliasTable {
    Tensor<int64_t, CPU> J;
    Tensor<T, CPU> q;
};

template <class T>
AliasTable<T> multinomialAliasSetup(const Tensor<T, CPU>& probs) {
    static_assert(std::is_floating_point_v<compute_t<T>>,
                  "multinomialAliasSetup: probabilities must be float, double or Half");
    if (probs.dim() != 1 || probs.nElement() == 0)
        detail::fail<ShapeError>("multinomialAliasSetup: expected a non-empty 1-D tensor of "
                                 "probabilities, got size ",
                                 probs.sizes());
    const Tensor<double, CPU> w = probs.template to<double>().contiguous();
    const int64_t K = w.nElement();
    const double* wp = w.data();
    double big = 0;
    for (int64_t k = 0; k < K; ++k) {
        if (!(wp[k] >= 0) || !std::isfinite(wp[k]))
            detail::fail<Error>("multinomialAliasSetup: invalid probability ", wp[k], " at index ",
                                k, " (probabilities must be finite and non-negative)");
        big = std::max(big, wp[k]);
    }
    if (!(big > 0)) detail::fail<Error>("multinomialAliasSetup: the probabilities sum to 0");
    // Normalised after scaling by a power of two below the largest weight: the
    // total cannot overflow ({1e308, 1e308, 1}), and ordinary weights give the same table.
    const int shift = detail::weight_shift(big);
    double total = 0;
    for (int64_t k = 0; k < K; ++k) total += detail::scale_weight(wp[k], shift);
    std::vector<double> q(static_cast<size_t>(K));
    std::vector<int64_t> J(static_cast<size_t>(K)), small, large;
    for (int64_t k = 0; k < K; ++k) {
        q[size_t(k)] = detail::scale_weight(wp[k], shift) / total * double(K);
        J[size_t(k)] = k;
        (q[size_t(k)] < 1 ? small : large).push_back(k);
    }
    while (!small.empty() && !large.empty()) {
        const int64_t s = small.back(), l = large.back();
        small.pop_back();
        large.pop_back();
        J[size_t(s)] = l;
        q[size_t(l)] -= 1 - q[size_t(s)];
        (q[size_t(l)] < 1 ? small : large).push_back(l);
    }
    for (int64_t k : small) q[size_t(k)] = 1; // rounding leftovers keep their own slot
    for (int64_t k : large) q[size_t(k)] = 1;
    AliasTable<T> r{Tensor<int64_t, CPU>(K), Tensor<T, CPU>(K)};
    for (int64_t k = 0; k < K; ++k) {
        r.J.data()[k] = J[size_t(k)];
        r.q.data()[k] = convert<T>(q[size_t(k)]);
    }
    return r;
}

// n category indices (0-based) from the table of multinomialAliasSetup. Sample i uses
// words 4i .. 4i + 3 of the draw (slot from two, the coin from two), so the values do
// not depend on the thread count.
template <class T>
Tensor<int64_t, CPU> multinomialAlias(Generator& gen, int64_t n, const Tensor<int64_t, CPU>& J,
                                      const Tensor<T, CPU>& q) {
    if (n < 0) detail::fail<ShapeError>("multinomialAlias: number of samples ", n, " is negative");
    if (J.dim() != 1 || J.nElement() == 0 || !(q.sizes() == J.sizes()))
        detail::fail<ShapeError>("multinomialAlias: J and q must be non-empty 1-D tensors of the "
                                 "same size (from multinomialAliasSetup), got sizes ",
                                 J.sizes(), " and ", q.sizes());
    const int64_t K = J.nElement();
    const Tensor<int64_t, CPU> Jc = J.contiguous();
    const Tensor<double, CPU> qc = q.template to<double>().contiguous();
    for (int64_t k = 0; k < K; ++k) {
        if (Jc.data()[k] < 0 || Jc.data()[k] >= K)
            detail::fail<IndexError>("multinomialAlias: J[", k, "] = ", Jc.data()[k],
                                     " is out of range [0, ", K, ")");
        if (!(qc.data()[k] >= 0 && qc.data()[k] <= 1))
            detail::fail<Error>("multinomialAlias: q[", k, "] = ", qc.data()[k],
                                " is not a probability");
    }
    if (n == 0) return Tensor<int64_t, CPU>();
    Tensor<int64_t, CPU> out(n);
    const int64_t count =
        detail::mul_size(4, n, "multinomialAlias", "random words for ", n, " samples");
    const auto words = detail::guard_alloc(
        "multinomialAlias", [&] { return detail::RandomEngine<CPU>::draw_words(gen, count); });
    const int64_t* jp = Jc.data();
    const double* qp = qc.data();
    int64_t* op = out.data();
    iter::parallel_for(n, iter::parallel_grain, [&](int64_t b, int64_t e, int64_t) {
        for (int64_t i = b; i < e; ++i) {
            const uint32_t* w = &words[size_t(4 * i)];
            const int64_t k = int64_t(detail::below(w, uint64_t(K)));
            op[i] = rng::u53(w + 2) < qp[k] ? k : jp[k];
        }
    });
    return out;
}
template <class T>
Tensor<int64_t, CPU> multinomialAlias(int64_t n, const Tensor<int64_t, CPU>& J,
                                      const Tensor<T, CPU>& q) {
    return multinomialAlias(defaultGenerator<CPU>(), n, J, q);
}

} // namespace t7
