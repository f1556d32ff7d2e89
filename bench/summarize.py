#!/usr/bin/env python3
"""Turns the benchmarks' own printed output into the Markdown tables of the summary at
the top of bench/RESULTS.md.

    build/bench/bench_expr 7 | python3 bench/summarize.py
    python3 bench/summarize.py expr.txt vmath.txt ...   (one bench's output per file)

Each line a bench prints is recognised by its shape (the printf formats of
bench/bench_*.cpp); lines of one bench go into one table, under the headings the bench
prints (thread counts, sizes, element types). bench_masked already prints Markdown
rows: they pass through. Lines of no known shape (banners, notes) are dropped.
Exit status 1 when no line was recognised.
"""

import re
import sys

NUM = r"(-?[\d.]+(?:e[-+]?\d+)?)"
TOK = r"(\S+)"


def spec(bench, pattern, columns):
    return bench, re.compile(pattern), columns


# (bench, regex of a data line, column names), tried in this order.
ROWS = [
    spec("bench_expr",
         rf"^(.+?)\s+n=(\d+)\s+thr=(\d+)\s+t7\s+{NUM} us\s+hand\s+{NUM} us\s+eigen\s+{NUM} us"
         rf"\s+t7/hand\s+{NUM}x\s+t7/eigen\s+{NUM}x\s+{NUM} GB/s \(\s*{NUM}% of copy\)",
         ["row", "n", "threads", "t7 us", "hand us", "eigen us", "hand/t7", "eigen/t7", "GB/s",
          "% of copy"]),
    spec("bench_fusion",
         rf"^adam n=(\d+)\s+thr=(\d+)\s+assign\s+{NUM} us\s+3 assigns\s+{NUM} us\s+hand\s+{NUM}"
         rf" us\s+eigen\s+{NUM} us\s+3assigns/assign\s+{NUM}x\s+hand/assign\s+{NUM}x"
         rf"\s+eigen/assign\s+{NUM}x\s+{NUM} GB/s",
         ["n", "threads", "t7::assign us", "3 assignments us", "hand us", "eigen us",
          "3 assigns / assign", "hand / assign", "eigen / assign", "GB/s"]),
    spec("bench_fusion_mm",
         rf"^(n=\d+|bmm \d+x\d+\^2)\s+thr=(\d+)\s+fused\s+{NUM} ms\s+two-step\s+{NUM} ms"
         rf"\s+eigen two-step\s+{NUM} ms\s+two-step/fused\s+{NUM}x\s+eigen/fused\s+{NUM}x",
         ["case", "threads", "fused ms", "two-step ms", "eigen two-step ms", "two-step/fused",
          "eigen/fused"]),
    spec("bench_ops",
         rf"^(.+?)\s+thr=(\d+)\s+t7\s+{NUM} ms\s+(.+?)\s+{NUM} ms\s+ratio\s+{NUM}x",
         ["operation", "threads", "t7 ms", "against", "its ms", "ratio"]),
    spec("bench_fixed_cost", rf"^(\S.*?)\s+t7\s+{NUM}\s+eigen\s+{NUM}\s*$",
         ["statement", "t7 ns", "eigen ns"]),
    spec("bench_math/conv",
         rf"^\s+(.+?)\s+{NUM} ms\s+{NUM} GFLOP/s(?:\s+{NUM}x (\w+))?",
         ["contender", "ms", "GFLOP/s", "ratio", "against"]),
    spec("bench_math/conv", rf"^\s+(.+?)\s+{NUM} ms\s+{NUM} Gvalues/s\s+{NUM}x copy",
         ["contender", "ms", "Gvalues/s", "of copy"]),
    spec("bench_vmath",
         rf"^(?!function){TOK}\s+{TOK}\s+{TOK}\s+{TOK}\s+{TOK}\s+\|\s+{TOK}\s+{TOK}\s+{TOK}"
         rf"\s+\|\s+{TOK}\s+{TOK}\s*$",
         ["function", "t7 2^10 ms", "t7 2^16 ms", "t7 2^20 ms", "t7 2^24 ms", "loop/t7",
          "eigen/t7", "numpy/t7", "2^10 loop ms", "2^16 loop ms"]),
    spec("bench_workloads",
         rf"^(?!workload){TOK}\s+(quiet|busy)\s+(\d+)\s+{NUM}\s+{TOK}\s+{TOK}\s+{NUM}\s+{TOK}"
         rf"\s+\|\s*(.*)$",
         ["workload", "load", "threads", "t7 ms", "numpy ms", "numpy/t7", "t/1 thread",
          "t7 checksum", "numpy checksum"]),
    spec("bench_threads",
         rf"^(.+?)\s+\|\s+(quiet|busy)\s+\|\s+{NUM}\s*/\s*{NUM}\s+\|\s+{NUM}\s*/\s*{NUM}"
         rf"\s+\|\s+{NUM}\s*/\s*{NUM}\s*$",
         ["workload", "load", "1 thread best ms", "1 thread median ms", "2 threads best ms",
          "2 threads median ms", "2t/1t best", "2t/1t median"]),
    spec("bench_mpi", rf"^\s*(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s*$",
         ["floats", "raw MPI us", "t7 us", "raw/t7", "t7 deterministic us", "raw/det"]),
]

# Lines that head a group of rows (printed before them by the benches).
HEADINGS = [
    re.compile(r"^== (\d+ thread\(s\)) ==$"),                          # expr, fusion, ops
    re.compile(r"^((?:float|double)\w*, \d+ thread\(s\)), best of"),    # vmath
    re.compile(r"^((?:mm|copy of|2-D|layer|panel) .*?)(?:, best of.*|:)?$"),  # math, conv
    re.compile(r"^(n = \d+ floats, 1 thread)"),                        # fixed_cost
    re.compile(r"^(\(\d\) .*)$"),                                      # mpi
]


def cell(v):
    return "-" if v is None else v.strip()


def summarize(lines):
    tables = []  # [bench, heading, columns, rows]
    heading, owner = "", None  # a heading belongs to the first bench whose rows follow it
    masked = []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("|") and line.endswith("|"):
            masked.append(line)  # bench_masked prints its table itself
            continue
        for h in HEADINGS:
            m = h.match(line)
            if m:
                heading, owner = m.group(1), None
                break
        else:
            for bench, rx, cols in ROWS:
                m = rx.match(line)
                if not m:
                    continue
                row = [cell(v) for v in m.groups()]
                owner = owner or bench
                if owner != bench:
                    heading = ""  # another bench's heading
                if not tables or tables[-1][:3] != [bench, heading, cols]:
                    tables.append([bench, heading, cols, []])
                tables[-1][3].append(row)
                break
    out = []
    for bench, head, cols, rows in tables:
        out.append(f"**{bench}**" + (f", {head}" if head else "") + "\n")
        out.append("| " + " | ".join(cols) + " |")
        out.append("|" + "---|" * len(cols))
        out += ["| " + " | ".join(r) + " |" for r in rows]
        out.append("")
    if masked:
        out.append("**bench_masked**\n")
        out += masked
        out.append("")
    return "\n".join(out), bool(tables or masked)


def main():
    lines = []
    for path in sys.argv[1:] or ["-"]:
        f = sys.stdin if path == "-" else open(path, encoding="utf-8")
        lines += f.readlines()
    text, found = summarize(lines)
    print(text)
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
