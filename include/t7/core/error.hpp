// The exception hierarchy of API.md. Messages always name the operation and the
// offending sizes or indices; `fmt_msg` keeps building them short at call sites.
#pragma once

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

} // namespace detail
} // namespace t7
