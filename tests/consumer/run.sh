#!/usr/bin/env bash
# Builds tests/consumer as a separate Meson project that pulls tensor7 in as a
# subproject (subprojects/tensor7 -> this repository), then runs it.
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

opts=(-Dtensor7:tests=false -Dtensor7:examples=false)
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" "$here" "${opts[@]}"
else
    rm -rf "$build"
    meson setup "$build" "$here" "${opts[@]}"
fi
meson compile -C "$build"
"$build/consumer"
