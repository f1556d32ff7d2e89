#!/usr/bin/env python3
"""Ordering complex numbers must not compile, and the compiler's error must name the
function (issue 42). Each snippet is compiled alone (-fsyntax-only); the test fails
when one compiles, or when its errors do not contain the expected message.

    tests/compile_fail/complex_order.py [--cxx g++]
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = [  # (code on z, a ComplexFloatTensor, and the message expected)
    ("t7::FloatTensor m = t7::cmax(z, z);", "t7::cmax: complex numbers have no order"),
    ("t7::ByteTensor m = z < z;", "t7::<: complex numbers have no order"),
    ("t7::ComplexFloatTensor m = t7::clamp(z, 0.f, 1.f);", "t7::clamp: complex numbers have no order"),
    ("t7::ComplexFloatTensor m = t7::floor(z);", "t7::floor is not defined on complex numbers"),
    ("t7::ComplexFloatTensor m = t7::sign(z);", "t7::sign: complex numbers have no order"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for code, expected in SNIPPETS:
            src = Path(work) / "snippet.cpp"
            src.write_text("#include <t7/t7.hpp>\nvoid f(const t7::ComplexFloatTensor& z) {\n    "
                           + code + "\n    (void)m;\n}\n")
            r = subprocess.run([args.cxx, "-std=c++20", "-fsyntax-only", f"-I{ROOT / 'include'}",
                                "-isystem", "/usr/include/eigen3", str(src)],
                               capture_output=True, text=True)
            if r.returncode == 0:
                print(f"FAIL: compiled: {code}")
                failures += 1
            elif expected not in r.stderr:
                print(f"FAIL: {code}: no '{expected}' in the errors:\n{r.stderr[-2000:]}")
                failures += 1
            else:
                print(f"ok: {code} -> {expected}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
