// The library's mode kernel (kernels/mode.cu), declared apart from runtime.hpp:
// only cuda/order_stats.hpp and its source need it.
#pragma once

#include "../core/dtype.hpp"

#include <cstdint>

namespace t7::cuda::rt {

// For each of `lines` contiguous rows of n values sorted ascending (`values`, with
// their positions `indices`, as sort_lines writes them), the longest run of equal
// values (NaN equal to NaN, -0 to +0; the first, so the smallest, of equally long
// ones): its value into out_values[r] and its last position into out_indices[r].
void mode_lines(DType type, const void* values, const int64_t* indices, int64_t lines, int64_t n,
                void* out_values, int64_t* out_indices, int device);

} // namespace t7::cuda::rt
