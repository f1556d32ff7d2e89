// Printing exactly as Torch7 does: `std::cout << x` writes, byte for byte, the text
// Torch7's print(x) shows (without the extra blank line Lua's print adds).
//
// How Torch7 lays a tensor out:
// * One number format for all elements, chosen from the values converted to double:
//   integer-valued data prints as `%<d+1>d` (d = digits of the largest magnitude), or
//   `%11.4e` from 1e9 up; other data prints `%<w>.4f`, or `%<11|12>.4e` when the
//   magnitudes span more than 4 decades, or `%7.4f` of the values divided by a power
//   of ten (announced by a `1e-05 *` line) when the largest magnitude is below 0.1
//   or has more than 5 integer digits. A NaN anywhere switches to unaligned `%f`.
//   "Digits" of |x| is floor(log10 |x|) + 1, and a zero counts as 1 digit.
// * 1-D tensors and storages: one value per line. 2-D: rows, columns separated by a
//   space, split into `Columns a to b` blocks when a row would pass 80 characters.
//   Rank >= 3: 2-D slices headed `(i,j,.,.) = ` (1-based, first index fastest).
// * A footer `[torch.FloatTensor of size 2x3]`, `[torch.DoubleStorage of size 10]`,
//   or `[torch.DoubleTensor with no dimension]` for an empty tensor.
// * Complex tensors (Torch7 had none) print each element as `re+imj` in that layout:
//   one format chosen from every real and imaginary part (never the integer one, so
//   1+2i prints `1.0000+2.0000j`), right-aligned in cells two numbers wide.
#pragma once

#include "../core/allocator.hpp"
#include "../core/device.hpp"
#include "../core/dtype.hpp"
#include "../core/storage.hpp"
#include "../expr/nodes.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace t7 {

namespace detail::print {

// The format Torch7 picks for a whole tensor or storage.
struct NumberFormat {
    enum Kind { Integer, Fixed, Exponent, Unaligned };
    Kind kind = Integer;
    int width = 0;        // field width of one value
    double scale = 1.0;   // printed values are divided by it; 1 means no scale line
    bool complex = false; // re+imj: two numbers a cell
    bool scaled() const { return scale != 1.0; }
    int cell() const { return complex ? 2 * width + 1 : width; } // width of one element
};

// Torch7's count of integer digits of a magnitude: floor(log10 a) + 1, and 1 for 0
// (infinite for an infinity, which then takes the exponent format).
inline double digits(double a) { return a == 0 ? 1.0 : std::floor(std::log10(a)) + 1.0; }

// The format of the values that each(visit) passes to visit, one by one.
template <class Each>
NumberFormat choose_format_of(Each&& each, bool complex = false) {
    NumberFormat f;
    f.complex = complex;
    bool any = false, nan = false, integral = !complex;
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    each([&](double x) {
        any = true;
        if (std::isnan(x)) { // Torch7's min/max become NaN, and so does its width
            nan = true;
            return;
        }
        if (x != std::ceil(x)) integral = false;
        double a = std::fabs(x);
        if (a < lo) lo = a;
        if (a > hi) hi = a;
    });
    if (!any) return f;
    if (nan) {
        f.kind = NumberFormat::Unaligned;
        return f;
    }
    const double exp_min = digits(lo), exp_max = digits(hi);
    if (integral) {
        if (exp_max > 9) {
            f.kind = NumberFormat::Exponent;
            f.width = 11;
        } else {
            f.kind = NumberFormat::Integer;
            f.width = int(exp_max) + 1;
        }
    } else if (exp_max - exp_min > 4) {
        f.kind = NumberFormat::Exponent;
        f.width = (std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99) ? 12 : 11;
    } else if (exp_max > 5 || exp_max < 0) {
        f.kind = NumberFormat::Fixed;
        f.width = 7;
        f.scale = std::pow(10.0, exp_max - 1);
    } else {
        f.kind = NumberFormat::Fixed;
        f.width = exp_max == 0 ? 7 : int(exp_max) + 6;
    }
    return f;
}
inline NumberFormat choose_format(const std::vector<double>& values) {
    return choose_format_of([&](auto&& visit) {
        for (double x : values) visit(x);
    });
}

// The text being written: a string that, when printing to a stream, is written
// out and emptied every 64 KiB (printing never holds the whole text, nor a copy
// of the tensor).
struct Sink {
    std::string buf;
    std::ostream* os = nullptr;
    void spill() {
        if (os && buf.size() >= (size_t(1) << 16)) {
            os->write(buf.data(), std::streamsize(buf.size()));
            buf.clear();
        }
    }
    void finish() {
        if (os) {
            os->write(buf.data(), std::streamsize(buf.size()));
            buf.clear();
        }
    }
};

// A CPU tensor's elements read in place, as doubles (complex: complex<double>),
// at element offsets.
template <class T>
struct Reader {
    const T* base;
    auto operator()(int64_t off) const {
        if constexpr (is_complex_v<T>)
            return std::complex<double>(base[off]);
        else
            return convert<double>(base[off]);
    }
};
// Passes every number of a value to visit: a complex value's two parts.
template <class V, class Visit>
void visit_parts(const V& v, Visit&& visit) {
    if constexpr (is_complex_v<V>) {
        visit(v.real());
        visit(v.imag());
    } else {
        visit(v);
    }
}

// Appends one value (already divided by the scale where one applies).
inline void put_value(std::string& out, const NumberFormat& f, double x) {
    char buf[512]; // %f of the largest double needs ~320 characters
    int n = 0;
    switch (f.kind) {
    case NumberFormat::Integer: // |x| < 1e9 here; -0 prints as 0
        n = std::snprintf(buf, sizeof buf, "%*lld", f.width, static_cast<long long>(x));
        break;
    case NumberFormat::Fixed:
        n = std::snprintf(buf, sizeof buf, "%*.4f", f.width, x);
        break;
    case NumberFormat::Exponent:
        n = std::snprintf(buf, sizeof buf, "%*.4e", f.width, x);
        break;
    case NumberFormat::Unaligned: // LuaJIT writes every NaN as "nan", whatever its sign bit
        n = std::isnan(x) ? std::snprintf(buf, sizeof buf, "nan")
                          : std::snprintf(buf, sizeof buf, "%f", x);
        break;
    }
    if (n > 0) out.append(buf, size_t(n) < sizeof buf ? size_t(n) : sizeof buf - 1);
}
inline void put_value(std::string& out, const NumberFormat& f, std::complex<double> z) {
    // re+imj, unpadded inside, right-aligned in the cell as one number is
    NumberFormat g = f;
    g.width = 0;
    std::string text;
    put_value(text, g, z.real());
    const double im = z.imag();
    text += std::signbit(im) && !std::isnan(im) ? '-' : '+';
    put_value(text, g, std::fabs(im));
    text += 'j';
    if (f.kind != NumberFormat::Unaligned && int(text.size()) < f.cell())
        out.append(size_t(f.cell()) - text.size(), ' ');
    out += text;
}

// The scale line's number, as C's %g writes it: "1e-05", "0.01", "100000", "1e+06".
inline std::string scale_text(double scale) {
    char buf[64];
    int n = std::snprintf(buf, sizeof buf, "%g", scale);
    return std::string(buf, size_t(n > 0 ? n : 0));
}

// One value per line, after the scale line if any (1-D tensors and storages):
// n values at offsets 0, step, 2 step, ...
template <class R>
void put_column(Sink& out, const R& v, int64_t n, int64_t step, const NumberFormat& f) {
    if (f.scaled()) out.buf += scale_text(f.scale) + " *\n";
    for (int64_t i = 0; i < n; ++i) {
        const auto x = v(i * step);
        put_value(out.buf, f, f.scaled() ? x / f.scale : x);
        out.buf += '\n';
        out.spill();
    }
}

// A rows x cols matrix at offset `at` with row and column strides rs, cs.
// `indent` prefixes the first line and every row line; a scale adds one more
// space before each row.
template <class R>
void put_matrix(Sink& sink, const R& m, int64_t at, int64_t rows, int64_t cols, int64_t rs,
                int64_t cs, const NumberFormat& f, const std::string& indent) {
    std::string& out = sink.buf;
    out += indent;
    // Torch7 fits floor((80 - indent) / (width + 1)) columns on a line; with a NaN the
    // width is NaN, so all columns go on one line without a Columns header.
    const bool unaligned = f.kind == NumberFormat::Unaligned;
    const int64_t per_line = unaligned ? cols : (80 - int64_t(indent.size())) / (f.cell() + 1);
    const bool blocks = !unaligned && per_line < cols;
    const std::string row_start = f.scaled() ? indent + " " : indent;
    for (int64_t first = 0; first < cols;) {
        const int64_t last = first + per_line < cols ? first + per_line : cols; // exclusive
        if (blocks) {
            // Only the first header follows the indent: later ones follow a blank line.
            if (first != 0) out += '\n';
            out += "Columns " + std::to_string(first + 1) + " to " + std::to_string(last) + "\n" +
                   indent;
        }
        if (f.scaled()) out += scale_text(f.scale) + " *\n " + indent;
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = first; c < last; ++c) {
                const auto x = m(at + r * rs + c * cs);
                put_value(out, f, f.scaled() ? x / f.scale : x);
                out += c + 1 == last ? '\n' : ' ';
                sink.spill();
            }
            if (r + 1 != rows) out += row_start;
        }
        first = last;
    }
}

// Rank >= 3: every 2-D slice over the last two dimensions, the FIRST leading index
// varying fastest, each headed "(i,j,.,.) = " with 1-based labels.
template <class R>
void put_slices(Sink& out, const R& v, const Shape& sizes, const Shape& strides,
                const NumberFormat& f) {
    const int64_t lead = int64_t(sizes.size()) - 2;
    const int64_t rows = sizes[lead], cols = sizes[lead + 1];
    std::vector<int64_t> counter(size_t(lead), 0);
    for (bool first = true;; first = false) {
        if (!first) out.buf += '\n';
        out.buf += '(';
        int64_t offset = 0;
        for (int64_t d = 0; d < lead; ++d) {
            out.buf += std::to_string(counter[size_t(d)] + 1) + ",";
            offset += counter[size_t(d)] * strides[d];
        }
        out.buf += ".,.) = \n";
        put_matrix(out, v, offset, rows, cols, strides[lead], strides[lead + 1], f, " ");
        int64_t d = 0;
        for (; d < lead; ++d) {
            if (++counter[size_t(d)] < sizes[d]) break;
            counter[size_t(d)] = 0;
        }
        if (d == lead) break;
    }
}

// Every element's offset in layout order, passed to f (nothing is copied).
template <class F>
void for_each_offset(const Shape& sizes, const Shape& strides, int64_t n, F&& f) {
    const int64_t nd = int64_t(sizes.size());
    std::vector<int64_t> idx(size_t(nd), 0);
    int64_t off = 0;
    for (int64_t k = 0; k < n; ++k) {
        f(off);
        for (int64_t d = nd - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < sizes[d]) {
                off += strides[d];
                break;
            }
            off -= (sizes[d] - 1) * strides[d];
            idx[size_t(d)] = 0;
        }
    }
}

// The smallest text of n values: at least one character and a separator each.
// A tensor whose text could not be held in this machine's memory is refused
// (MemoryError) before anything is read or written: no stream could hold it,
// and a terminal or file would take hours (10^12 elements of an expanded view).
inline void require_text(int64_t n, uint64_t bytes_per_value, bool hold) {
    const uint64_t bytes = ws_mul(uint64_t(n), bytes_per_value);
    if (hold) {
        require_memory("print", bytes, "the text");
        return;
    }
    const uint64_t sys = system_memory_bytes();
    if (bytes > max_alloc_bytes || (sys != 0 && bytes > sys))
        fail<MemoryError>("print: the text of ", n, " elements needs at least ", bytes,
                          " bytes, more than the ", sys,
                          " bytes of memory and swap of this machine (print a part of it)");
}

// Writes t's text to out (the tensor is read in place). `hold`: the whole text
// stays in out.buf (to_string), so its memory is checked first.
template <class T>
void put_tensor(Sink& out, const Tensor<T, CPU>& t, bool hold) {
    if (t.dim() == 0) {
        out.buf += "[" + t.type() + " with no dimension]\n";
        return;
    }
    const int64_t n = t.nElement();
    require_text(n, 2, hold);
    const Reader<T> rd{t.data()};
    const Shape& sizes = t.sizes();
    const Shape& strides = t.strides();
    const NumberFormat f = choose_format_of(
        [&](auto&& visit) {
            for_each_offset(sizes, strides, n, [&](int64_t off) { visit_parts(rd(off), visit); });
        },
        is_complex_v<T>);
    if (hold && f.kind != NumberFormat::Unaligned) require_text(n, uint64_t(f.cell()) + 1, true);
    if (t.dim() == 1) {
        put_column(out, rd, n, t.stride(0), f);
    } else if (n > 0) {
        if (t.dim() == 2)
            put_matrix(out, rd, 0, t.size(0), t.size(1), t.stride(0), t.stride(1), f, "");
        else
            put_slices(out, rd, sizes, strides, f);
    }
    out.buf += "[" + t.type() + " of size ";
    for (int64_t d = 0; d < t.dim(); ++d) {
        if (d > 0) out.buf += 'x';
        out.buf += std::to_string(t.size(d));
    }
    out.buf += "]\n";
}

} // namespace detail::print

// Torch7's text of a tensor, ending with a newline after the footer.
template <class T>
std::string to_string(const Tensor<T, CPU>& t) {
    detail::print::Sink out;
    detail::guard_alloc("print", [&] { detail::print::put_tensor(out, t, true); });
    return std::move(out.buf);
}

// Torch7's text of a storage: one value per line and `[torch.XStorage of size n]`.
template <class T>
std::string to_string(const Storage<T, CPU>& s) {
    namespace P = detail::print;
    P::Sink out;
    detail::guard_alloc("print", [&] {
        P::require_text(s.size(), 2, true);
        const P::Reader<T> rd{s.data()};
        const int64_t n = s.size();
        const P::NumberFormat f = P::choose_format_of(
            [&](auto&& visit) {
                for (int64_t i = 0; i < n; ++i) P::visit_parts(rd(i), visit);
            },
            is_complex_v<T>);
        P::put_column(out, rd, n, 1, f);
        out.buf += "[" + torch_type_name<T, CPU>("Storage") + " of size " +
                   std::to_string(s.size()) + "]\n";
    });
    return std::move(out.buf);
}

namespace detail::print {
// Streams the text a slice at a time: never a copy of the tensor or its whole text.
// A function of its own so that libtensor7 holds it compiled (precompiled.hpp).
template <class T>
void stream_tensor(std::ostream& os, const Tensor<T, CPU>& t) {
    Sink out;
    out.os = &os;
    guard_alloc("print", [&] { put_tensor(out, t, false); });
    out.finish();
}
} // namespace detail::print

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T, CPU>& t) {
    detail::print::stream_tensor(os, t);
    return os;
}

// An expression prints its value: std::cout << a + b.
template <class Op, class... C>
std::ostream& operator<<(std::ostream& os, const Apply<Op, C...>& e) {
    using D = typename Apply<Op, C...>::device_type;
    static_assert(std::is_same_v<D, CPU>,
                  "printing an expression evaluates it on the CPU: copy CUDA tensors with "
                  ".cpu() first, and give a scalar-only expression a tensor operand");
    return os << to_string(t7::eval(e));
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Storage<T, CPU>& s) {
    return os << to_string(s);
}

} // namespace t7
