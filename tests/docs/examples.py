#!/usr/bin/env python3
"""Compiles and runs the examples of the reference manual (docs/*.md).

An example is a fenced block whose info string is `cpp example`: statements that
run inside main() after `#include <t7/t7.hpp>` (and <iostream>, <fstream>, <vector>,
<string>, <cstdio>). When the next fenced block is a `text` block, the example's
output must equal it (trailing spaces ignored). The examples of one page are
compiled as one program, each in its own block and its own try/catch, and run in a
temporary folder. The pages that use names not merged yet need --include with the
headers that have them.

    tests/docs/examples.py [--cxx g++] [--include DIR ...] [--keep DIR] [FILE.md ...]

Exit status 1 when an example does not compile, throws, or prints something else.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def examples(md):
    text = md.read_text(encoding="utf-8")
    blocks = [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1, m.start(), m.end())
              for m in FENCE.finditer(text)]
    out = []
    for k, (info, body, line, start, end) in enumerate(blocks):
        if info.split()[:2] != ["cpp", "example"]:
            continue
        expected = None
        if k + 1 < len(blocks):
            ninfo, nbody, _, nstart, _ = blocks[k + 1]
            if ninfo == "text" and text[end:nstart].strip() == "":
                expected = nbody
        out.append((md, line, body, expected))
    return out


def norm(s):
    return "\n".join(l.rstrip() for l in s.rstrip("\n").split("\n"))


def main():
    root = Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--include", action="append", default=[], help="more include folders, first")
    ap.add_argument("--keep", type=Path, help="write the program here and keep it")
    args = ap.parse_args()

    files = args.files or sorted((root / "docs").glob("*.md"))
    total = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for md in files:
            exs = examples(md)
            if not exs:
                continue
            total += len(exs)
            bad += run_page(md, exs, work, args, root)
    print(f"{total - bad} of {total} examples ok")
    return 1 if bad else 0


def run_page(md, exs, work, args, root, prelude=""):
    """Builds and runs one page's examples as one program; the number that failed.
    `prelude` goes before main() (tests/docs/error_claims.py's helpers)."""
    parts = ["#include <t7/t7.hpp>", "#include <algorithm>", "#include <cstdio>",
             "#include <fstream>", "#include <iostream>", "#include <numeric>",
             "#include <string>", "#include <vector>", "", prelude, "int main() {"]
    for k, (_, line, body, _) in enumerate(exs):
        parts.append(f'    std::cout << "\\n@@@{k}@@@\\n" << std::flush;')
        parts.append(f"#line {line + 1} \"{md.name}\"")
        parts.append("    try {")
        parts.append(body)
        parts.append("    } catch (const std::exception& e) {")
        parts.append('        std::cout << "uncaught exception: " << e.what() << "\\n";')
        parts.append("    }")
    parts.append('    std::cout << "\\n@@@end@@@\\n";')
    parts.append("}")
    src, exe = work / (md.stem + ".cpp"), work / md.stem
    src.write_text("\n".join(parts) + "\n")
    incs = [f"-I{d}" for d in args.include] + [f"-I{root / 'include'}", "-I/usr/include/eigen3"]
    cmd = [args.cxx, "-std=c++20", "-O0", "-w", *incs, str(src), "-o", str(exe), "-lsleef"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr[-6000:])
        print(f"{md.name}: the examples do not compile ({len(exs)} examples)")
        return len(exs)
    r = subprocess.run([str(exe)], capture_output=True, text=True, cwd=work)
    chunks = re.split(r"\n@@@(\d+|end)@@@\n", "\n" + r.stdout)
    got = {chunks[i]: chunks[i + 1] for i in range(1, len(chunks) - 1, 2)}
    bad = 0
    for k, (_, line, body, expected) in enumerate(exs):
        o = got.get(str(k))
        if o is None:
            print(f"{md.name}:{line}: did not run (the program stopped: {r.returncode})")
            bad += 1
        elif "uncaught exception:" in o:
            print(f"{md.name}:{line}: {o.strip()}")
            bad += 1
        elif expected is not None and norm(o) != norm(expected):
            print(f"{md.name}:{line}: output differs\n--- expected\n{norm(expected)}\n"
                  f"--- got\n{norm(o)}\n---")
            bad += 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
