#!/usr/bin/env python3
"""Checks the claims of docs/errors.md's last section ("Each rule, checked"): every
row `| `code` | `gives` |` of its table is compiled after the page's `cpp
claims-setup` block, in one program (tests/docs/examples.py builds and runs it), and
must throw exactly the t7::Error subclass named (its most derived class), or, when
`gives` is not a class, print that value.

    tests/docs/error_claims.py [--cxx g++] [docs/errors.md]

Exit status 1 when a row does not compile, throws another class, or prints another
value; or when the page has no such table.
"""

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import examples  # noqa: E402  (same folder)

CLASSES = ["MemoryError", "ShapeError", "IndexError", "TypeError", "DeviceError", "IOError",
           "Error"]  # derived first: the first match is the most derived class
ROW = re.compile(r"^\|\s*`(?P<code>[^`]+)`\s*\|\s*`(?P<gives>[^`]+)`\s*\|\s*$")

# The class a callable throws (catch clauses in CLASSES' order), or "no exception".
PRELUDE = "template <class F>\nstd::string t7_thrown(F&& f) {\n    try {\n        f();\n" + \
    "".join(f"    }} catch (const t7::{c}&) {{\n        return \"{c}\";\n" for c in CLASSES) + \
    "    }\n    return \"no exception\";\n}\n"


def claims(md):
    text = md.read_text(encoding="utf-8")
    setup = re.search(r"^```cpp claims-setup\n(.*?)^```", text, re.M | re.S)
    section = text.find("## Each rule, checked")
    if not setup or section < 0:
        return None, []
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        m = ROW.match(line)
        if m and text.count("\n", 0, section) < n:
            rows.append((n, m.group("code"), m.group("gives")))
    return setup.group(1), rows


def main():
    root = Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser()
    ap.add_argument("page", nargs="?", type=Path, default=root / "docs" / "errors.md")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = ap.parse_args()
    args.include = []
    setup, rows = claims(args.page)
    if not rows:
        print(f"{args.page}: no claims-setup block or no table of claims")
        return 1
    exs = []
    for line, code, gives in rows:
        if gives in CLASSES:
            body = f"{setup}std::cout << t7_thrown([&] {{ (void)({code}); }});"
        else:
            body = f"{setup}std::cout << ({code});"
        exs.append((args.page, line, body, gives))
    with tempfile.TemporaryDirectory() as tmp:
        bad = examples.run_page(args.page, exs, Path(tmp), args, root, PRELUDE)
    print(f"{len(rows) - bad} of {len(rows)} claims hold")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
