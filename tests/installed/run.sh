#!/usr/bin/env bash
# Installs tensor7 into a staging prefix with `meson install` and builds and runs
# three programs against the installed copy, as users outside Meson would:
#   (a) g++ with `pkg-config --cflags --libs tensor7`
#   (b) CMake: find_package(tensor7) + target_link_libraries(app tensor7::tensor7)
#   (c) CMake: pkg_check_modules(T7 IMPORTED_TARGET tensor7)
# each compiling main.cpp here (it exits non-zero on a wrong value); when tensor7
# was built with its MPI component, (d) g++ with `pkg-config tensor7_mpi` and
# (e) CMake's tensor7::mpi, each compiling mpi_main.cpp and running it on 2
# ranks under mpirun; then checks
# that a C++17 translation unit gets the one error naming C++20 from the
# installed headers.
# Usage: tests/installed/run.sh [work-dir]   (default: build-installed at the
# repository root; it is emptied first). Needs meson, ninja, g++, pkg-config,
# cmake and Eigen (scripts/install-deps).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-$root/build-installed}
work=$(mkdir -p "$work" && cd "$work" && pwd)
stage=$work/stage
cxx=${CXX:-g++}

step() { printf '\n--- installed: %s\n' "$*"; }
fail() {
    echo "installed: FAIL: $*" >&2
    exit 1
}

rm -rf "${work:?}"/*

step "meson install into $stage"
meson setup "$work/meson" "$root" --prefix="$stage" \
    -Dtests=false -Dexamples=false -Dbench=false -Dcuda=disabled >"$work/meson-setup.log" ||
    { cat "$work/meson-setup.log"; fail "meson setup"; }
meson install -C "$work/meson" --quiet

# What the prefix must hold: every header under include/t7, tensor7.pc and the
# CMake package, and no -march flag in what a user's build inherits.
want=$(cd "$root/include" && find t7 -type f | sort)
have=$(cd "$stage/include" && find t7 -type f | sort)
[ "$want" = "$have" ] || fail "the installed headers differ from include/t7"
pc=$(find "$stage" -name tensor7.pc)
config=$(find "$stage" -name tensor7Config.cmake)
version=$(find "$stage" -name tensor7ConfigVersion.cmake)
[ -n "$pc" ] && [ -n "$config" ] && [ -n "$version" ] ||
    fail "tensor7.pc, tensor7Config.cmake or tensor7ConfigVersion.cmake is missing"
if grep -v '^[[:space:]]*#' "$pc" "$config" | grep -- '-march'; then
    fail "an installed file carries -march"
fi
echo "headers: $(echo "$have" | wc -l) files in $stage/include/t7"
echo "pkg-config: ${pc#"$stage"/}"
echo "cmake: ${config#"$stage"/}, ${version#"$stage"/}"
pcdir=$(dirname "$pc")
openmp=no
if grep -q -- '-fopenmp' "$pc"; then openmp=yes; fi

# Runs a consumer and checks its verdict (and that OpenMP reached it when the
# installed package has it).
run_app() {
    local name=$1 app=$2 out
    out=$("$app") || { echo "$out"; fail "$name: the program exited non-zero"; }
    echo "$out" | grep -q 'all values correct' || { echo "$out"; fail "$name: no verdict"; }
    echo "$out" | grep -q "OpenMP $openmp" ||
        { echo "$out"; fail "$name: OpenMP should be '$openmp' as in tensor7.pc"; }
    echo "$name: $(echo "$out" | grep 'OpenMP') - all values correct"
}

# The consumers are built concurrently (one translation unit each, most of this
# script's time; CI has two cores) and run in order once built: each build's
# output goes to its log, shown when it fails.
declare -A building=()
build_bg() {
    local name=$1
    shift
    "$@" >"$work/$name.log" 2>&1 &
    building[$name]=$!
}
built() {
    wait "${building[$1]}" || { cat "$work/$1.log"; fail "$1: the build failed"; }
}
cmake_app() { # <source dir> <build dir> [cmake arguments...]
    local src=$1 dir=$2
    shift 2
    cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" "$@" && cmake --build "$dir" -j 1
}

with_pc_path() { PKG_CONFIG_PATH=$pcdir "$@"; }

flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs tensor7)
# shellcheck disable=SC2086 # the flags are words
build_bg a "$cxx" "$here/main.cpp" -O2 -Wall -Wextra -Werror -march=native $flags -o "$work/app-pkg-config"
build_bg b cmake_app "$here/cmake_find_package" "$work/cmake-find-package" -DCMAKE_PREFIX_PATH="$stage"

step "(a) $cxx with pkg-config --cflags --libs tensor7"
echo "$cxx main.cpp $flags"
built a
build_bg c with_pc_path cmake_app "$here/cmake_pkg_config" "$work/cmake-pkg-config"
run_app "(a) g++ + pkg-config" "$work/app-pkg-config"

step "(b) CMake find_package(tensor7), tensor7::tensor7"
built b
run_app "(b) CMake find_package" "$work/cmake-find-package/app"

# The MPI component, when this tensor7 was built with it (an MPI was found):
# tensor7_mpi.pc and tensor7::mpi, each building mpi_main.cpp, run on 2 ranks.
mpi_pc=$(find "$stage" -name tensor7_mpi.pc)
mpi=no
if [ -n "$mpi_pc" ] && ! command -v mpirun >/dev/null 2>&1; then
    echo "(tensor7_mpi.pc is installed but mpirun is not in PATH: the MPI consumers are skipped)"
elif [ -n "$mpi_pc" ]; then
    grep -q 'tensor7::mpi' "$config" || fail "tensor7_mpi.pc is installed but tensor7::mpi is not"
    mpi=yes
    mpi_flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs tensor7_mpi)
    # shellcheck disable=SC2086 # the flags are words
    build_bg d "$cxx" "$here/mpi_main.cpp" -O2 -Wall -Wextra -Werror -march=native $mpi_flags \
        -o "$work/app-mpi-pkg-config"
fi

step "(c) CMake pkg_check_modules(T7 IMPORTED_TARGET tensor7)"
built c
run_app "(c) CMake pkg-config" "$work/cmake-pkg-config/app"

mpi_done=""
if [ $mpi = yes ]; then
    build_bg e cmake_app "$here/cmake_mpi" "$work/cmake-mpi" -DCMAKE_PREFIX_PATH="$stage"
    # mpirun as root (containers, CI) needs Open MPI's two variables.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    run_mpi() {
        local name=$1 app=$2 out
        out=$(timeout 120 mpirun --oversubscribe -np 2 "$app") ||
            { echo "$out"; fail "$name: mpirun exited non-zero"; }
        echo "$out" | grep -q '2 ranks: all values correct' || { echo "$out"; fail "$name: no verdict"; }
        echo "$name: $out"
    }

    step "(d) $cxx with pkg-config --cflags --libs tensor7_mpi, on 2 ranks"
    echo "$cxx mpi_main.cpp $mpi_flags"
    built d
    run_mpi "(d) g++ + pkg-config tensor7_mpi" "$work/app-mpi-pkg-config"

    step "(e) CMake find_package(tensor7 COMPONENTS mpi), tensor7::mpi, on 2 ranks"
    built e
    run_mpi "(e) CMake tensor7::mpi" "$work/cmake-mpi/app"
    mpi_done=", MPI: pkg-config tensor7_mpi and CMake tensor7::mpi"
fi

step "below C++20: one error naming C++20 (installed headers)"
"$here/cxx17_error.sh" "$stage/include" "$cxx"

echo
echo "installed: ok (meson install, pkg-config, CMake find_package, CMake pkg-config, C++17 error$mpi_done)"
