#!/usr/bin/env python3
"""Ordering complex numbers must not compile, and the compiler's error must name the
function (issue 42). The snippets are compiled as one file (-fsyntax-only: each is a
function of its own, and g++ reports every failed static_assert); the test fails when
it compiles, or when the errors lack one snippet's message. Where mpicxx is found, the
same for t7::max / t7::min of a t7::mpi::DistTensor of complex numbers.

    tests/compile_fail/complex_order.py [--cxx g++]
"""

import argparse
import os
import shutil
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
    ("auto m = t7::max(z);", "t7::max: complex numbers have no order"),
    ("auto m = t7::min(z, 0);", "t7::min: complex numbers have no order"),
    ("auto m = t7::sort(z);", "t7::sort: complex numbers have no order"),
    ("auto m = z.topk(2);", "t7::topk: complex numbers have no order"),
    ("auto m = t7::kthvalue(z, 1);", "t7::kthvalue, t7::median: complex numbers have no order"),
    ("auto m = t7::median(z);", "t7::kthvalue, t7::median: complex numbers have no order"),
    ("auto m = t7::mode(z);", "t7::mode: complex numbers have no order"),
    ("auto m = t7::histc(z);", "t7::histc: complex numbers have no order"),
]
# The same of a distributed tensor (<t7/mpi.hpp>, compiled by mpicxx when there is one):
# u is a DistTensor<std::complex<float>>.
MPI_SNIPPETS = [
    ("auto m = t7::max(u);", "t7::max: complex numbers have no order"),
    ("auto m = t7::min(u(t7::slice(0, 2)));", "t7::min: complex numbers have no order"),
]


def check(cxx, header, param, snippets, work):
    """Compiles the snippets (each a function taking `param`), returns the failures."""
    src = Path(work) / "snippets.cpp"
    body = header
    for i, (code, _) in enumerate(snippets):
        body += f"void f{i}({param}) {{\n    {code}\n    (void)m;\n}}\n"
    src.write_text(body)
    r = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", f"-I{ROOT / 'include'}",
                        "-isystem", "/usr/include/eigen3", str(src)],
                       capture_output=True, text=True)
    if r.returncode == 0:
        print("FAIL: the snippets compiled")
        return 1
    failures = 0
    for code, expected in snippets:
        if expected not in r.stderr:
            print(f"FAIL: {code}: no '{expected}' in the errors")
            failures += 1
        else:
            print(f"ok: {code} -> {expected}")
    if failures:
        print(r.stderr[-4000:])
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        failures = check(args.cxx, "#include <t7/t7.hpp>\n", "const t7::ComplexFloatTensor& z",
                         SNIPPETS, work)
        mpicxx = shutil.which("mpicxx")
        if mpicxx:
            failures += check(mpicxx, "#include <t7/mpi.hpp>\n#include <t7/t7.hpp>\n",
                              "const t7::mpi::DistTensor<std::complex<float>>& u",
                              MPI_SNIPPETS, work)
        else:
            print("skipped the DistTensor snippets: no mpicxx")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
