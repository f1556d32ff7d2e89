// Small helpers shared by the doctest suites.
#pragma once

#include <doctest/doctest.h>

#include <string>

namespace test_util {

// Runs f, which must throw E, and returns the exception's message.
template <class E, class F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    FAIL("expected an exception");
    return {};
}

} // namespace test_util
