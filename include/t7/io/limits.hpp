// The limits every file reader in io/ enforces, so that no file, however hostile,
// makes loading crash, hang or exhaust memory (each refusal is an IOError):
// - nesting: Torch7 tables and objects nest at most kMaxDepth (512) levels
//   (t7_format.hpp); the writer refuses to write deeper, so what it writes loads;
// - elements: a tensor's element count (the product of its non-zero sizes) is at
//   most kMaxElements = 2^48, the address space of today's 64-bit machines: more
//   could never be copied into memory, and without a limit a few bytes declare
//   2^62 elements (by zero strides) that no traversal would finish. Sizes times
//   strides are computed with overflow checks, and never wrap;
// - size: a file is read at the size it has when opened; a file that is not a
//   regular file (a pipe, a device such as /dev/zero) is read up to
//   kMaxStreamBytes (1 GiB), and refused past that.
// Saves are atomic (file.hpp): a failed save leaves the old file as it was.
#pragma once

#include <cstdint>
#include <span>

namespace t7::detail {

inline constexpr int64_t kMaxElements = int64_t(1) << 48;
inline constexpr uint64_t kMaxStreamBytes = uint64_t(1) << 30;

// The product of the non-zero sizes (sizes >= 0): a tensor's element count when
// none is zero, and what NumPy checks for any shape. -1 past kMaxElements; the
// product stops there, so it never overflows.
inline int64_t element_count(std::span<const int64_t> sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s == 0) continue;
        if (s > kMaxElements / n) return -1;
        n *= s;
    }
    return n;
}

} // namespace t7::detail
