#!/usr/bin/env bash
# Checks that a translation unit compiled below C++20 stops at tensor7's first
# header with exactly one error, which names C++20 (include/t7/core/config.hpp).
# Usage: cxx17_error.sh <include-dir> <c++ compiler command...>
#   (meson test cxx17_error runs it on the source tree, tests/installed/run.sh
#   on the installed headers)
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 <include-dir> <c++ compiler command...>" >&2
    exit 2
fi
inc=$1
shift

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
for header in t7/t7.hpp t7/tensor.hpp t7/cuda.hpp; do
    printf '#include <%s>\nint main() { return 0; }\n' "$header" >"$tmp/main.cpp"
    "$@" -std=c++17 -I"$inc" -fsyntax-only "$tmp/main.cpp" >"$tmp/out" 2>&1
    rc=$?
    errors=$(grep -c 'error:' "$tmp/out")
    if [ $rc -eq 0 ]; then
        echo "FAIL <$header> -std=c++17: compiled without an error"
        status=1
    elif [ "$errors" -ne 1 ] || ! grep 'error:' "$tmp/out" | grep -q 'C++20'; then
        echo "FAIL <$header> -std=c++17: wanted one error naming C++20, got $errors:"
        cat "$tmp/out"
        status=1
    else
        echo "ok   <$header> -std=c++17: $(grep 'error:' "$tmp/out" | sed 's/^.*error: //')"
    fi
done
exit $status
