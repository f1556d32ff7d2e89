// The suites' precompiled header (tests/meson.build): the two headers every suite
// includes first, parsed once for all of them.
#include <doctest/doctest.h>
#include <t7/t7.hpp>
