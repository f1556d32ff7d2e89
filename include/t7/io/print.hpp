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
#pragma once

#include "../core/device.hpp"
#include "../core/dtype.hpp"
#include "../core/storage.hpp"
#include "../expr/nodes.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace t7 {

namespace detail::print {

// The format Torch7 picks for a whole tensor or storage.
struct NumberFormat {
    enum Kind { Integer, Fixed, Exponent, Unaligned };
    Kind kind = Integer;
    int width = 0;      // field width of one value
    double scale = 1.0; // printed values are divided by it; 1 means no scale line
    bool scaled() const { return scale != 1.0; }
};

// Torch7's count of integer digits of a magnitude: floor(log10 a) + 1, and 1 for 0
// (infinite for an infinity, which then takes the exponent format).
inline double digits(double a) { return a == 0 ? 1.0 : std::floor(std::log10(a)) + 1.0; }

inline NumberFormat choose_format(const std::vector<double>& values) {
    NumberFormat f;
    if (values.empty()) return f;
    bool integral = true;
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (double x : values) {
        if (std::isnan(x)) { // Torch7's min/max become NaN, and so does its width
            f.kind = NumberFormat::Unaligned;
            return f;
        }
        if (x != std::ceil(x)) integral = false;
        double a = std::fabs(x);
        if (a < lo) lo = a;
        if (a > hi) hi = a;
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

// The scale line's number, as C's %g writes it: "1e-05", "0.01", "100000", "1e+06".
inline std::string scale_text(double scale) {
    char buf[64];
    int n = std::snprintf(buf, sizeof buf, "%g", scale);
    return std::string(buf, size_t(n > 0 ? n : 0));
}

// One value per line, after the scale line if any (1-D tensors and storages).
inline void put_column(std::string& out, const std::vector<double>& v, const NumberFormat& f) {
    if (f.scaled()) out += scale_text(f.scale) + " *\n";
    for (double x : v) {
        put_value(out, f, f.scaled() ? x / f.scale : x);
        out += '\n';
    }
}

// A rows x cols row-major matrix starting at m. `indent` prefixes the first line and
// every row line; a scale adds one more space before each row.
inline void put_matrix(std::string& out, const double* m, int64_t rows, int64_t cols,
                       const NumberFormat& f, const std::string& indent) {
    out += indent;
    // Torch7 fits floor((80 - indent) / (width + 1)) columns on a line; with a NaN the
    // width is NaN, so all columns go on one line without a Columns header.
    const bool unaligned = f.kind == NumberFormat::Unaligned;
    const int64_t per_line = unaligned ? cols : (80 - int64_t(indent.size())) / (f.width + 1);
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
                double x = m[r * cols + c];
                put_value(out, f, f.scaled() ? x / f.scale : x);
                out += c + 1 == last ? '\n' : ' ';
            }
            if (r + 1 != rows) out += row_start;
        }
        first = last;
    }
}

// Rank >= 3: every 2-D slice over the last two dimensions, the FIRST leading index
// varying fastest, each headed "(i,j,.,.) = " with 1-based labels.
inline void put_slices(std::string& out, const std::vector<double>& v, const Shape& sizes,
                       const NumberFormat& f) {
    const int64_t lead = int64_t(sizes.size()) - 2;
    const int64_t rows = sizes[lead], cols = sizes[lead + 1];
    // Row-major strides of the leading dimensions in the gathered values.
    std::vector<int64_t> step(size_t(lead), rows * cols);
    for (int64_t d = lead - 2; d >= 0; --d) step[size_t(d)] = step[size_t(d) + 1] * sizes[d + 1];
    std::vector<int64_t> counter(size_t(lead), 0);
    for (bool first = true;; first = false) {
        if (!first) out += '\n';
        out += '(';
        int64_t offset = 0;
        for (int64_t d = 0; d < lead; ++d) {
            out += std::to_string(counter[size_t(d)] + 1) + ",";
            offset += counter[size_t(d)] * step[size_t(d)];
        }
        out += ".,.) = \n";
        put_matrix(out, v.data() + offset, rows, cols, f, " ");
        int64_t d = 0;
        for (; d < lead; ++d) {
            if (++counter[size_t(d)] < sizes[d]) break;
            counter[size_t(d)] = 0;
        }
        if (d == lead) break;
    }
}

// The elements in row-major (layout) order, as doubles.
template <class T>
std::vector<double> gather(const Tensor<T, CPU>& t) {
    std::vector<double> v;
    const int64_t n = t.nElement();
    if (n <= 0) return v;
    v.reserve(size_t(n));
    const T* base = t.data();
    const Shape& sizes = t.sizes();
    const Shape& strides = t.strides();
    const int64_t nd = t.dim();
    std::vector<int64_t> idx(size_t(nd), 0);
    int64_t off = 0;
    for (int64_t k = 0; k < n; ++k) {
        v.push_back(convert<double>(base[off]));
        for (int64_t d = nd - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < sizes[d]) {
                off += strides[d];
                break;
            }
            off -= (sizes[d] - 1) * strides[d];
            idx[size_t(d)] = 0;
        }
    }
    return v;
}

} // namespace detail::print

// Torch7's text of a tensor, ending with a newline after the footer.
template <class T>
std::string to_string(const Tensor<T, CPU>& t) {
    namespace P = detail::print;
    if (t.dim() == 0) return "[" + t.type() + " with no dimension]\n";
    const std::vector<double> v = detail::guard_alloc("print", [&] { return P::gather(t); });
    const P::NumberFormat f = P::choose_format(v);
    std::string out;
    if (t.dim() == 1) {
        P::put_column(out, v, f);
    } else if (t.nElement() > 0) {
        if (t.dim() == 2)
            P::put_matrix(out, v.data(), t.size(0), t.size(1), f, "");
        else
            P::put_slices(out, v, t.sizes(), f);
    }
    out += "[" + t.type() + " of size ";
    for (int64_t d = 0; d < t.dim(); ++d) {
        if (d > 0) out += 'x';
        out += std::to_string(t.size(d));
    }
    out += "]\n";
    return out;
}

// Torch7's text of a storage: one value per line and `[torch.XStorage of size n]`.
template <class T>
std::string to_string(const Storage<T, CPU>& s) {
    namespace P = detail::print;
    std::vector<double> v;
    v.reserve(size_t(s.size()));
    for (int64_t i = 0; i < s.size(); ++i) v.push_back(convert<double>(s.data()[i]));
    std::string out;
    P::put_column(out, v, P::choose_format(v));
    out +=
        "[" + torch_type_name<T, CPU>("Storage") + " of size " + std::to_string(s.size()) + "]\n";
    return out;
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T, CPU>& t) {
    return os << to_string(t);
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
