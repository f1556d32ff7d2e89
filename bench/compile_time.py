#!/usr/bin/env python3
"""User compile times of tensor7 against Eigen (issue 12), in CPU seconds.

Compiles (to an object file, g++ -O2 by default) generated programs that a user
would write: the umbrella header alone, the lighter <t7/tensor.hpp> alone,
Eigen's Tensor header alone, a small program (three expressions, a sum, a max,
printing) with tensor7 (through either header) / Eigen::Tensor / Eigen::Array, programs with 0 and
20 distinct expressions, whose difference / 20 is the cost of one more distinct
expression, and programs with 0, 1 and 5 row or column sums of distinct expressions
(the first sum also compiles what all of them share; (5 - 1) / 4 is the cost of each
further one). Each figure is the best of --reps compilations.

tensor7's probes are compiled as its Meson dependency, tensor7.pc and CMake target
compile them: with -DT7_PRECOMPILED (the machinery in libtensor7 is not compiled
again); --header-only measures the headers used alone.

    bench/compile_time.py [--cxx g++] [--reps 3] [--flags "-O2"] [--only TEXT] [--header-only]
                          [--ggc]

--ggc reports g++'s garbage-collected memory (the TOTAL of -ftime-report, in MB)
instead of CPU seconds: the same figure on every run, where CPU seconds on a shared
VM vary by 10-15 % from run to run; it follows the compiler's work on templates
(parsing, instantiation, optimisation) but not its speed.
"""
import argparse, os, resource, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (tensor7, Eigen::Array) spellings of 20 expressions of distinct types.
EXPRS = [
    ("a + b", "a + b"),
    ("a * b + c", "a * b + c"),
    ("a - b * c", "a - b * c"),
    ("a / (b + 1)", "a / (b + 1)"),
    ("t7::sin(a) + b", "a.sin() + b"),
    ("t7::exp(a) * b", "a.exp() * b"),
    ("t7::sqrt(t7::abs(a)) + c", "a.abs().sqrt() + c"),
    ("a * a * a", "a * a * a"),
    ("(a + b) * (c - a)", "(a + b) * (c - a)"),
    ("a * 2 + b * 3 + c", "a * 2 + b * 3 + c"),
    ("t7::log1p(t7::abs(a)) - b", "a.abs().log1p() - b"),
    ("t7::cos(b) * t7::sin(c)", "b.cos() * c.sin()"),
    ("t7::tanh(a) + t7::exp(b)", "a.tanh() + b.exp()"),
    ("t7::pow(a, 2) + b", "a.pow(2) + b"),
    ("-a + b", "-a + b"),
    ("a * b - c * a", "a * b - c * a"),
    ("t7::exp(-a) + t7::exp(-b)", "(-a).exp() + (-b).exp()"),
    ("(a - b) / (c + 2)", "(a - b) / (c + 2)"),
    ("t7::sqrt(a * a + b * b)", "(a * a + b * b).sqrt()"),
    ("a + b + c + a", "a + b + c + a"),
]

T7_HEAD = """#include <t7/{header}>
#include <iostream>
int main() {{
    t7::FloatTensor a(1000), b(1000), c(1000), y(1000);
    a.fill(1); b.fill(2); c.fill(3);
{body}    std::cout << y.data()[0] << "\\n";
}}
"""
EIGEN_HEAD = """#include <Eigen/Dense>
#include <iostream>
int main() {{
    Eigen::ArrayXf a = Eigen::ArrayXf::Constant(1000, 1), b = a * 2, c = a * 3, y(1000);
{body}    std::cout << y[0] << "\\n";
}}
"""
# Reductions along a dimension (row and column sums) of the first expressions.
DIM_EXPRS = 5
T7_DIM_HEAD = """#include <t7/tensor.hpp>
#include <iostream>
int main() {{
    t7::FloatTensor a(64, 64), b(64, 64), c(64, 64), r;
    a.fill(1); b.fill(2); c.fill(3);
{body}    std::cout << r.nElement() << "\\n";
}}
"""
EIGEN_DIM_HEAD = """#include <Eigen/Dense>
#include <iostream>
int main() {{
    Eigen::ArrayXXf a = Eigen::ArrayXXf::Constant(64, 64, 1), b = a * 2, c = a * 3, r;
{body}    std::cout << r.size() << "\\n";
}}
"""

SMALL = {
    "tensor7": """#include <t7/t7.hpp>
#include <iostream>
int main() {
    t7::FloatTensor a = t7::rand<float>(1000), b = t7::rand<float>(1000), c = t7::rand<float>(1000);
    t7::FloatTensor y = a * b + c;
    y = t7::sin(a) * t7::exp(-b) + t7::sqrt(t7::abs(c));
    y += a / (b + 1);
    std::cout << t7::sum(a * b) << " " << t7::max(y) << "\\n" << y.narrow(0, 0, 3);
}
""",
    "Eigen::Tensor": """#include <unsupported/Eigen/CXX11/Tensor>
#include <iostream>
int main() {
    Eigen::Tensor<float, 1> a(1000), b(1000), c(1000), y(1000);
    a.setRandom(); b.setRandom(); c.setRandom();
    y = a * b + c;
    y = a.unaryExpr([](float x) { return std::sin(x); }) * (-b).exp() + c.abs().sqrt();
    y += a / (b + 1.f);
    Eigen::Tensor<float, 0> s = (a * b).sum(), m = y.maximum();
    std::cout << s() << " " << m() << "\\n" << y.slice(Eigen::array<long, 1>{0}, Eigen::array<long, 1>{3});
}
""",
    "Eigen::Array": """#include <Eigen/Dense>
#include <iostream>
int main() {
    Eigen::ArrayXf a = Eigen::ArrayXf::Random(1000), b = Eigen::ArrayXf::Random(1000);
    Eigen::ArrayXf c = Eigen::ArrayXf::Random(1000), y = a * b + c;
    y = a.sin() * (-b).exp() + c.abs().sqrt();
    y += a / (b + 1);
    std::cout << (a * b).sum() << " " << y.maxCoeff() << "\\n" << y.head(3);
}
""",
}


def cpu_seconds(cxx, flags, source, tmp, ggc=False):
    path = os.path.join(tmp, "probe.cpp")
    with open(path, "w") as f:
        f.write(source)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [cxx, *flags, "-c", path, "-o", os.path.join(tmp, "probe.o")]
    if ggc:
        out = subprocess.run(cmd + ["-ftime-report"], check=True, capture_output=True, text=True)
        total = [l for l in out.stderr.splitlines() if l.strip().startswith("TOTAL")][-1].split()[-1]
        scale = {"k": 1 / 1024, "M": 1, "G": 1024}
        return float(total[:-1]) * scale[total[-1]] if total[-1] in scale else float(total) / 2**20
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--flags", default="-O2")
    ap.add_argument("--only", default="", help="run the probes whose name contains this text")
    ap.add_argument("--ggc", action="store_true",
                    help="report g++'s GC memory in MB (deterministic) instead of CPU seconds")
    ap.add_argument("--header-only", action="store_true",
                    help="compile tensor7's probes without -DT7_PRECOMPILED")
    args = ap.parse_args()
    eigen = subprocess.run(["pkg-config", "--cflags", "eigen3"], capture_output=True, text=True,
                           check=True).stdout.split()
    flags = ["-std=c++20", "-fopenmp", *args.flags.split(), "-I" + os.path.join(ROOT, "include"), *eigen]

    def t7_program(header, exprs):
        return T7_HEAD.format(header=header, body="".join(f"    y = {e[0]};\n" for e in exprs))

    def eigen_program(exprs):
        return EIGEN_HEAD.format(body="".join(f"    y = {e[1]};\n" for e in exprs))

    def t7_dim_program(exprs):
        return T7_DIM_HEAD.format(body="".join(
            f"    t7::sum(r, {e[0]}, {i % 2});\n" for i, e in enumerate(exprs)))

    def eigen_dim_program(exprs):
        return EIGEN_DIM_HEAD.format(body="".join(
            f"    r = ({e[1]}).{'colwise' if i % 2 == 0 else 'rowwise'}().sum();\n"
            for i, e in enumerate(exprs)))

    probes = [
        ("<t7/t7.hpp> alone", "#include <t7/t7.hpp>\nint main() {}\n"),
        ("<t7/tensor.hpp> alone", "#include <t7/tensor.hpp>\nint main() {}\n"),
        ("<unsupported/Eigen/CXX11/Tensor> alone", "#include <unsupported/Eigen/CXX11/Tensor>\nint main() {}\n"),
        ("<Eigen/Dense> alone", "#include <Eigen/Dense>\nint main() {}\n"),
        ("small program, tensor7", SMALL["tensor7"]),
        ("small program, tensor7 (tensor.hpp)",
         SMALL["tensor7"].replace("<t7/t7.hpp>", "<t7/tensor.hpp>")),
        ("small program, Eigen::Tensor", SMALL["Eigen::Tensor"]),
        ("small program, Eigen::Array", SMALL["Eigen::Array"]),
        ("0 expressions, tensor7 (t7.hpp)", t7_program("t7.hpp", [])),
        ("20 expressions, tensor7 (t7.hpp)", t7_program("t7.hpp", EXPRS)),
        ("0 expressions, tensor7 (tensor.hpp)", t7_program("tensor.hpp", [])),
        ("20 expressions, tensor7 (tensor.hpp)", t7_program("tensor.hpp", EXPRS)),
        ("0 expressions, Eigen::Array", eigen_program([])),
        ("20 expressions, Eigen::Array", eigen_program(EXPRS)),
        ("0 sums along a dimension, tensor7 (tensor.hpp)", t7_dim_program([])),
        ("1 sums along a dimension, tensor7 (tensor.hpp)", t7_dim_program(EXPRS[:1])),
        (f"{DIM_EXPRS} sums along a dimension, tensor7 (tensor.hpp)",
         t7_dim_program(EXPRS[:DIM_EXPRS])),
        ("0 sums along a dimension, Eigen::Array", eigen_dim_program([])),
        ("1 sums along a dimension, Eigen::Array", eigen_dim_program(EXPRS[:1])),
        (f"{DIM_EXPRS} sums along a dimension, Eigen::Array", eigen_dim_program(EXPRS[:DIM_EXPRS])),
    ]
    t7_flags = flags + ([] if args.header_only else ["-DT7_PRECOMPILED"])
    unit = "MB" if args.ggc else "s"
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{args.cxx} {' '.join(flags)}\n(tensor7's probes with {' '.join(t7_flags[len(flags):]) or 'no macro'};"
              + (" g++ GC memory, MB)" if args.ggc else f" CPU seconds, best of {args.reps})"))
        for name, src in probes:
            if args.only not in name:
                continue
            fl = t7_flags if "<t7/" in src else flags
            try:
                best = min(cpu_seconds(args.cxx, fl, src, tmp, args.ggc)
                           for _ in range(1 if args.ggc else args.reps))
            except subprocess.CalledProcessError:
                print(f"{name:45s} did not compile", file=sys.stderr)
                continue
            results[name] = best
            print(f"{name:45s} {best:6.2f} {unit}", flush=True)
    def per_expr(lib):
        hi, lo = results.get(f"20 expressions, {lib}"), results.get(f"0 expressions, {lib}")
        return None if hi is None or lo is None else (hi - lo) / len(EXPRS)
    for lib in ["tensor7 (t7.hpp)", "tensor7 (tensor.hpp)", "Eigen::Array"]:
        p = per_expr(lib)
        if p is not None:
            print(f"per distinct expression, {lib:28s} {p:6.3f} {unit}")
    # The first sum also compiles what every reduction along a dimension shares
    # (the checks' messages, the accumulator tensor's conversion): reported
    # apart from each further sum of a distinct expression.
    for lib in ["tensor7 (tensor.hpp)", "Eigen::Array"]:
        zero, one, hi = (results.get(f"{k} sums along a dimension, {lib}") for k in (0, 1, DIM_EXPRS))
        if zero is not None and hi is not None:
            print(f"per sum along a dimension, {lib:24s} {(hi - zero) / DIM_EXPRS:6.3f} {unit}"
                  " (all five against none)")
        if one is not None and hi is not None:
            print(f"each further sum along a dimension, {lib:16s} {(hi - one) / (DIM_EXPRS - 1):6.3f} {unit}")
    eigen_small = results.get("small program, Eigen::Tensor")
    for name in ["small program, tensor7", "small program, tensor7 (tensor.hpp)"]:
        if name in results and eigen_small:
            print(f"{name} / Eigen::Tensor: {results[name] / eigen_small:.2f}x")


if __name__ == "__main__":
    main()
