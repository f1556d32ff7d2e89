#!/usr/bin/env bash
# Builds tests/consumer as a separate Meson project that pulls tensor7 in as a
# subproject (subprojects/tensor7 -> this repository), with default options as a
# user would, checks that the build builds only the consumer's own targets and
# the library they link (libtensor7: no tensor7 tests, examples or CUDA
# backend), then runs it (and consumer_mpi on 2 ranks when an MPI was found).
# Usage: tests/consumer/run.sh [build-dir]   (default: tests/consumer/build)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$here/build}

mkdir -p "$here/subprojects"
link="$here/subprojects/tensor7"
if [ -L "$link" ] || [ ! -e "$link" ]; then
    ln -sfn "$root" "$link"
else
    echo "consumer: $link exists and is not a symlink; leaving it alone" >&2
fi

# Default options: as a subproject, tensor7's tests and examples are off.
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" "$here"
else
    rm -rf "$build"
    meson setup "$build" "$here"
fi

# What the default build compiles: only files of the consumer, none of tensor7's.
inputs=$(ninja -C "$build" -t inputs all)
if echo "$inputs" | grep -E '(^|/)subprojects/' | grep -v -E '(src/precompiled\.cpp|src/io\.cpp|src/thread_pool\.cpp|libtensor7\.a)'; then
    echo "consumer: FAIL: the default build compiles the tensor7 files above" >&2
    exit 1
fi
echo "$inputs" | grep -q 'libtensor7\.a' ||
    { echo "consumer: FAIL: the consumer does not link libtensor7" >&2; exit 1; }
echo "consumer: the default build compiles only the consumer and libtensor7:" $inputs

meson compile -C "$build"
"$build/consumer"
# The MPI consumer, built when the subproject found an MPI: run on 2 ranks.
if [ -x "$build/consumer_mpi" ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout 120 mpirun --oversubscribe -np 2 "$build/consumer_mpi"
else
    echo "consumer: no MPI in the subproject: consumer_mpi not built"
fi
