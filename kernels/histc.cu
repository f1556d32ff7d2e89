// histc of CUDA tensors over values sorted on the device (cuda/histc.hpp): with
// the values ascending, each bin is one run, found by binary search; no atomics,
// and the counts are exact whatever the order of the threads.
#include "backend.hpp"

#include <t7/cuda/histc_kernel.hpp>
#include <t7/eval/thrust/system.hpp>
#include <t7/math/histc_bin.hpp>

#include <limits>

namespace t7::cuda::rt {

namespace {

// The number of leading values (an ascending run) for which pred holds.
template <class Pred>
T7_HOST_DEVICE int64_t partition_point(int64_t n, const Pred& pred) {
    int64_t a = 0, e = n;
    while (a < e) {
        const int64_t m = a + (e - a) / 2;
        if (pred(m))
            a = m + 1;
        else
            e = m;
    }
    return a;
}

// The finite values' range: out = {found, lo, hi} (one thread).
template <class T>
struct FiniteRange {
    const T* v;
    int64_t n;
    double inf; // +infinity, from the host (no constant division in device code)
    double* out;
    T7_HOST_DEVICE void operator()(int64_t) const {
        const int64_t a =
            partition_point(n, [&](int64_t i) { return convert<double>(v[i]) == -inf; });
        const int64_t e =
            partition_point(n, [&](int64_t i) { return convert<double>(v[i]) < inf; });
        out[0] = a < e ? 1 : 0;
        out[1] = a < e ? convert<double>(v[a]) : 0;
        out[2] = a < e ? convert<double>(v[e - 1]) : 0;
    }
};

template <class T>
struct BinCounts {
    const T* v;
    int64_t n, nbins;
    double lo, hi;
    T* out;
    // -1 below lo, nbins above hi or NaN, else the bin: non-decreasing along v
    T7_HOST_DEVICE int64_t key(int64_t i) const {
        const double x = convert<double>(v[i]);
        if (x < lo) return -1;
        if (!(x <= hi)) return nbins;
        return detail::histc_bin(x, lo, hi, nbins);
    }
    T7_HOST_DEVICE void operator()(int64_t b) const {
        const int64_t first = partition_point(n, [&](int64_t i) { return key(i) < b; });
        const int64_t last = partition_point(n, [&](int64_t i) { return key(i) <= b; });
        out[b] = convert<T>(last - first);
    }
};

} // namespace

void histc_sorted(DType type, const void* sorted, int64_t n, int64_t nbins, double lo, double hi,
                  void* counts, int device) {
    if (nbins <= 0) return;
    require_device(device, "histc");
    DeviceGuard guard(device);
    with_dtype(type, [&](auto t) {
        using T = decltype(t);
        const T* v = static_cast<const T*>(sorted);
        if (lo == hi) {
            gpu::DeviceBuffer<double> range(3, device);
            gpu::for_each_index(
                1, FiniteRange<T>{v, n, std::numeric_limits<double>::infinity(), range.get()},
                "histc");
            double r[3] = {0, 0, 0};
            copy_to_host(r, range.get(), device, sizeof r);
            if (r[0] == 0) n = 0; // no finite value: every count 0
            lo = r[1] - (r[1] == r[2] ? 1 : 0);
            hi = r[2] + (r[1] == r[2] ? 1 : 0);
        }
        gpu::for_each_index(nbins, BinCounts<T>{v, n, nbins, lo, hi, static_cast<T*>(counts)},
                            "histc");
    });
}

} // namespace t7::cuda::rt
