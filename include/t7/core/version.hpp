// The library's version: T7_VERSION_MAJOR/MINOR/PATCH for the preprocessor and
// t7::version() at run time. They follow meson.build's project version.
// (t7::config(), which also names SIMD, threads and CUDA, is in ops/config.hpp.)
#pragma once

#include <string>

#define T7_VERSION_MAJOR 0
#define T7_VERSION_MINOR 1
#define T7_VERSION_PATCH 0

// One number for comparisons: MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100).
#define T7_VERSION (T7_VERSION_MAJOR * 10000 + T7_VERSION_MINOR * 100 + T7_VERSION_PATCH)

#define T7_VERSION_STR_(x) #x
#define T7_VERSION_XSTR_(x) T7_VERSION_STR_(x)
// "0.1.0": the three numbers above, as a string literal.
#define T7_VERSION_STRING                                                                          \
    T7_VERSION_XSTR_(T7_VERSION_MAJOR)                                                             \
    "." T7_VERSION_XSTR_(T7_VERSION_MINOR) "." T7_VERSION_XSTR_(T7_VERSION_PATCH)

namespace t7 {

// The library's version, "MAJOR.MINOR.PATCH" ("0.1.0").
inline std::string version() { return T7_VERSION_STRING; }

} // namespace t7
