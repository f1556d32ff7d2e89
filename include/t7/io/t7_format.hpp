// The vocabulary of Torch7's serialization format (torch.save / torch.load, File.lua):
// the two encodings, the object tags, and the limits the reader enforces.
//
// Every object is an int32 tag. NUMBER is a double, BOOLEAN an int32, STRING an int32
// length and the bytes. TABLE and TORCH carry an int32 reference index: the first time
// an object is written it gets the next index (1, 2, ...) and its contents follow; an
// index written again means "that object again" and nothing follows. TORCH is then the
// version string "V 1", the class name, and the class's own data:
//   Tensor:  int32 nDimension, int64 sizes[n], int64 strides[n], int64 storageOffset
//            (1-based), the storage as an object (NIL when there is none);
//   Storage: int64 size, then the raw elements;
//   any other class: a TABLE of its fields.
// Binary is native little-endian with 8-byte longs. Ascii writes the same values as
// text, each group of values on one line separated by spaces (%d, %ld, %hd, %.9g for
// float, %.17g for double); strings and byte/char elements are written raw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace t7 {

enum class Format { Binary, Ascii };

namespace detail::t7file {

enum Tag : int32_t {
    kNil = 0,
    kNumber = 1,
    kString = 2,
    kTable = 3,
    kTorch = 4,
    kBoolean = 5,
    kFunction = 6,
    kLegacyRecurFunction = 7,
    kRecurFunction = 8,
};

// Tables and Torch objects nested deeper than this are refused (reading and writing).
inline constexpr int kMaxDepth = 512;

// Torch7's binary files start with a small int32 tag (bytes t 0 0 0); an ascii file
// starts with the tag's digits. Anything else is judged binary, and fails as such.
inline Format detect_format(std::string_view bytes) {
    if (bytes.size() >= 4 && uint8_t(bytes[0]) <= kRecurFunction && bytes[1] == 0 &&
        bytes[2] == 0 && bytes[3] == 0)
        return Format::Binary;
    for (char c : bytes) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
        return (c >= '0' && c <= '9') || c == '-' || c == '+' ? Format::Ascii : Format::Binary;
    }
    return Format::Binary;
}

} // namespace detail::t7file
} // namespace t7
