#!/usr/bin/env bash
# Checks that a wrong argument to a function that takes a tensor or an
# expression fails to compile with an error naming the concept it misses
# (ExpressionOrSelection, tensor/fwd.hpp), not an error deep inside the library.
# Usage: concept_error.sh <include-dir> <c++ compiler command...>
#   (meson test concept_error runs it on the source tree)
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 <include-dir> <c++ compiler command...>" >&2
    exit 2
fi
inc=$1
shift

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One bad call a line (lines 2 to 5): a function of ops/expression_args.hpp,
# one of the tensor overloads' names, an element-wise function, and a linear
# algebra function (its forwarding overload from T7_TAKES_1).
cat >"$tmp/main.cpp" <<'CPP'
#include <t7/t7.hpp>
void bad1() { auto r = t7::triu(3, 1); }
void bad2() { auto r = t7::sort(std::vector<float>{1, 2}); }
void bad3() { auto r = t7::abs("x"); }
void bad4() { auto r = t7::inverse(3); }
int main() { return 0; }
CPP
calls=4
LC_ALL=C "$@" -std=c++20 -I"$inc" -fsyntax-only "$tmp/main.cpp" >"$tmp/out" 2>&1
rc=$?
errors=$(grep -c 'main.cpp:[0-9]*:[0-9]*: error: no matching function' "$tmp/out")
named=$(grep -c "required for the satisfaction of 'ExpressionOrSelection<" "$tmp/out")
if [ $rc -eq 0 ]; then
    echo "FAIL: the bad calls compiled"
    exit 1
elif [ "$errors" -ne $calls ] || [ "$named" -lt $calls ] ||
    ! grep -q 'constraints not satisfied' "$tmp/out"; then
    echo "FAIL: wanted $calls 'no matching function' errors naming ExpressionOrSelection," \
        "got $errors errors, $named naming it:"
    grep 'error:' "$tmp/out"
    exit 1
fi
echo "ok   $errors bad calls, each rejected by the concept ExpressionOrSelection"
