// The library's histogram kernel (kernels/histc.cu), declared apart from
// runtime.hpp: only cuda/histc.hpp and its source need it.
#pragma once

#include "../core/dtype.hpp"

#include <cstdint>

namespace t7::cuda::rt {

// counts[b] (of `type`, nbins of them) = how many of the n ascending values
// `sorted` (NaN last, as sort_lines orders them) fall in bin b of [lo, hi] as
// histc counts; lo == hi: the finite values' range, widened by 1 if a single
// value (all zero without finite values). One thread per bin, two binary
// searches each: every value's bin is monotone in the sorted order.
void histc_sorted(DType type, const void* sorted, int64_t n, int64_t nbins, double lo, double hi,
                  void* counts, int device);

} // namespace t7::cuda::rt
