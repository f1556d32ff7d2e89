// histc's bin of a value, shared by the CPU's count (math/stats.hpp) and the
// device's (kernels/histc.cu), so both put every value in the same bin. Light:
// host and device code, no standard library calls.
#pragma once

#include "../core/config.hpp"

#include <cstdint>

namespace t7::detail {

// The bin of v in [lo, hi] (lo < hi): nbins equal bins, hi in the
// last. Halved when hi - lo exceeds the largest double, so that the quotient
// stays in [0, 1] and its conversion to an integer is defined.
T7_HOST_DEVICE inline int64_t histc_bin(double v, double lo, double hi, int64_t nbins) {
    double d = v - lo, w = hi - lo;
    if (!(w - w == 0)) d = v / 2 - lo / 2, w = hi / 2 - lo / 2; // w not finite
    const double t = w > 0 ? d / w * double(nbins) : 0;         // w == 0: lo == hi == v
    const int64_t b = int64_t(t);
    return b < nbins - 1 ? b : nbins - 1;
}

} // namespace t7::detail
