// The exception hierarchy of API.md. Messages always name the operation and the
// offending sizes or indices; `fmt_msg` keeps building them short at call sites.
#pragma once

#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace t7 {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct ShapeError : Error {
    using Error::Error;
};
struct IndexError : Error {
    using Error::Error;
};
struct TypeError : Error {
    using Error::Error;
};
struct DeviceError : Error {
    using Error::Error;
};
struct IOError : Error {
    using Error::Error;
};
// An allocation that cannot succeed (out of memory, or more bytes than the
// device can address); the tensor asked to grow is left as it was.
struct MemoryError : Error {
    using Error::Error;
};

namespace detail {

// Concatenates anything streamable: fmt_msg("narrow: index ", i, " out of range").
template <class... A>
std::string fmt_msg(const A&... a) {
    std::ostringstream os;
    (os << ... << a);
    return os.str();
}

template <class E = Error, class... A>
[[noreturn]] void fail(const A&... a) {
    throw E(fmt_msg(a...));
}

// Runs f, turning the standard library's allocation failures (a std::vector or
// std::string too large for memory) into MemoryError naming the operation.
template <class F>
decltype(auto) guard_alloc(const char* op, F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        fail<MemoryError>(op, ": out of memory");
    } catch (const std::length_error&) {
        fail<MemoryError>(op, ": more memory than can be addressed");
    }
}

} // namespace detail
} // namespace t7
