#!/usr/bin/env python3
"""Checks that the headers of include/t7 include only downwards (docs/architecture.md).

    scripts/check_floors.py [--root DIR]

Each folder of include/t7 is a floor; a header may include its own floor and the
floors below it, never one above (the components, mpi/, sit above the library and
include from any floor; the umbrella headers, include/t7/*.hpp, include anything).
The few includes that go up one step by design are listed in EXCEPTIONS with their
reason. Exit status 1, listing them, when another upward include exists, or when an
exception no longer exists (so that the list stays true).
"""

import argparse
import re
import sys
from pathlib import Path

# Bottom first; folders on one line share a floor.
FLOORS = [["core"], ["iter"], ["tensor"], ["expr"], ["eval"], ["math", "io"], ["ops"],
          ["cuda"], ["mpi"]]
LEVEL = {f: k for k, fs in enumerate(FLOORS) for f in fs}

# (including header, included header): why it goes up.
EXCEPTIONS = {
    ("tensor/copy.hpp", "eval/assign.hpp"): "copy() is an assignment: it runs the engine",
    ("tensor/transfer.hpp", "eval/thrust/indexer.hpp"):
        "a device copy's strided plan (host code, no Thrust)",
    ("expr/inplace.hpp", "eval/assign.hpp"): "compound assignments run the engine",
    ("expr/reductions.hpp", "eval/assign.hpp"): "reductions run the engine",
    ("eval/cpu/blas.hpp", "math/blas.hpp"): "the CPU's GEMM behind math/blas.hpp's products",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def upward_includes(t7):
    found = set()
    for h in sorted(t7.rglob("*.hpp")):
        rel = h.relative_to(t7)
        if len(rel.parts) < 2:
            continue  # umbrella headers
        for inc in INCLUDE.findall(h.read_text(encoding="utf-8")):
            target = (h.parent / inc).resolve()
            try:
                trel = target.relative_to(t7.resolve())
            except ValueError:
                continue
            if len(trel.parts) < 2:
                continue
            a, b = LEVEL.get(rel.parts[0]), LEVEL.get(trel.parts[0])
            if a is not None and b is not None and b > a:
                found.add((rel.as_posix(), trel.as_posix()))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = ap.parse_args()
    found = upward_includes(args.root / "include" / "t7")
    bad = sorted(found - EXCEPTIONS.keys())
    stale = sorted(EXCEPTIONS.keys() - found)
    for a, b in bad:
        print(f"include/t7/{a} includes {b}, a floor above it (docs/architecture.md)")
    for a, b in stale:
        print(f"scripts/check_floors.py: the exception {a} -> {b} no longer exists: remove it")
    print(f"{len(found)} upward includes, {len(EXCEPTIONS)} allowed")
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
