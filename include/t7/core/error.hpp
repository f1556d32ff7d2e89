// The exception hierarchy of API.md. Messages always name the operation and the
// offending sizes or indices; `fmt_msg` keeps building them short at call sites.
#pragma once

#include <cstddef>
#include <new>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// One argument of a message, type-erased: the stream is written once per
// translation unit (join_message), not once per list of argument types, of
// which the library's checks use dozens (20 such lists compiled 0.6 s into
// every program). Strings and char arrays share one writer; any other type
// streams through put_arg<T>, one small function per type.
struct MsgArg {
    void (*put)(std::ostream&, const void*);
    const void* p;
};
template <class T>
void put_arg(std::ostream& os, const void* p) {
    os << *static_cast<const T*>(p);
}
inline void put_text(std::ostream& os, const void* p) { os << static_cast<const char*>(p); }
template <class T>
MsgArg msg_arg(const T& a) {
    if constexpr (std::is_convertible_v<const T&, const char*>)
        return {&put_text, static_cast<const char*>(a)};
    else
        return {&put_arg<T>, &a};
}
inline std::string join_message(const MsgArg* a, size_t n) {
    std::ostringstream os;
    for (size_t i = 0; i < n; ++i) a[i].put(os, a[i].p);
    return os.str();
}

// Concatenates anything streamable: fmt_msg("narrow: index ", i, " out of range").
template <class... A>
std::string fmt_msg(const A&... a) {
    if constexpr (sizeof...(A) == 0) {
        return std::string();
    } else {
        const MsgArg args[] = {msg_arg(a)...};
        return join_message(args, sizeof...(A));
    }
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
