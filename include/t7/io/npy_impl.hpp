// The definitions behind npy.hpp: the header parser, the dtype table, decoding and
// encoding. libtensor7 compiles them (src/io.cpp) for the seven element types; a
// translation unit sees them only when it does not link the library (npy.hpp).
#pragma once

#include "npy.hpp"

#include "../eval/cpu/evaluator.hpp"
#include "../tensor/copy.hpp"
#include "file.hpp"
#include "limits.hpp"
#include "object.hpp"
#include "t7_stream.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace t7 {
namespace detail::npy {

inline constexpr char kMagic[] = "\x93NUMPY";
inline constexpr size_t kMagicLen = 6;

// NumPy's type string for each element type ("<f8", "|u1", ...).
template <class T>
std::string descr() {
    const char order = sizeof(T) == 1 ? '|' : '<';
    const char kind = is_complex_v<T>               ? 'c'
                      : std::is_floating_point_v<T> ? 'f'
                      : std::is_signed_v<T>         ? 'i'
                                                    : 'u';
    return std::string{order, kind} + std::to_string(sizeof(T));
}

struct Header {
    std::string descr;
    bool fortran = false;
    std::vector<int64_t> shape;
    size_t data_at = 0; // byte offset of the first element
};

// A strict parser for the header's Python dict literal:
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
// (The readers are templates only so that programs that read no file do not
// compile them.)
template <class = void>
class HeaderParser {
public:
    HeaderParser(std::string_view text, size_t base, const std::string& name)
        : s_(text), base_(base), name_(name) {}

    void parse(Header& h) {
        bool seen_descr = false, seen_fortran = false, seen_shape = false;
        expect('{');
        for (;;) {
            skip_ws();
            if (peek() == '}') break;
            size_t key_at = pos_;
            std::string key = string_literal();
            expect(':');
            if (key == "descr") {
                skip_ws();
                if (peek() != '\'' && peek() != '"')
                    fail_at(pos_, "unsupported descr (structured dtypes cannot be loaded)");
                h.descr = string_literal();
                seen_descr = true;
            } else if (key == "fortran_order") {
                h.fortran = boolean();
                seen_fortran = true;
            } else if (key == "shape") {
                shape(h.shape);
                seen_shape = true;
            } else {
                fail_at(key_at, "unexpected key '", Shortened{key}, "' in the header");
            }
            skip_ws();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            skip_ws();
            if (peek() != '}') fail_at(pos_, "expected ',' or '}' in the header");
        }
        ++pos_;
        skip_ws();
        if (pos_ != s_.size()) fail_at(pos_, "unexpected text after the header's '}'");
        if (!seen_descr || !seen_fortran || !seen_shape)
            fail_at(0, "the header lacks '",
                    !seen_descr     ? "descr"
                    : !seen_fortran ? "fortran_order"
                                    : "shape",
                    "'");
    }

private:
    struct Shortened {
        std::string_view s;
        friend std::ostream& operator<<(std::ostream& os, const Shortened& x) {
            for (char c : x.s.substr(0, 32)) os << (uint8_t(c) < 32 || uint8_t(c) > 126 ? '?' : c);
            return os << (x.s.size() > 32 ? "..." : "");
        }
    };
    template <class... A>
    [[noreturn]] void fail_at(size_t at, const A&... a) const {
        fail<IOError>(name_, ": byte ", base_ + at, ": ", a...);
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skip_ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n'))
            ++pos_;
    }
    void expect(char c) {
        skip_ws();
        if (peek() != c) fail_at(pos_, "expected '", c, "' in the header");
        ++pos_;
    }
    std::string string_literal() {
        skip_ws();
        char q = peek();
        if (q != '\'' && q != '"') fail_at(pos_, "expected a quoted string in the header");
        size_t end = s_.find(q, pos_ + 1);
        if (end == std::string_view::npos) fail_at(pos_, "unterminated string in the header");
        std::string r(s_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end + 1;
        return r;
    }
    bool boolean() {
        skip_ws();
        if (s_.substr(pos_, 4) == "True") return pos_ += 4, true;
        if (s_.substr(pos_, 5) == "False") return pos_ += 5, false;
        fail_at(pos_, "expected True or False for fortran_order");
    }
    // A Python tuple: (), (3,), (2, 3) or (2, 3,). NumPy refuses (3), the number 3.
    void shape(std::vector<int64_t>& out) {
        expect('(');
        out.clear();
        bool comma = false; // after the last entry
        for (;;) {
            skip_ws();
            if (peek() == ')') break;
            size_t at = pos_;
            int64_t v = 0;
            auto r = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
            if (r.ec == std::errc::result_out_of_range) fail_at(at, "shape entry out of range");
            if (r.ec != std::errc() || r.ptr == s_.data() + pos_)
                fail_at(at, "expected an integer in the shape");
            if (v < 0) fail_at(at, "negative size ", v, " in the shape");
            pos_ = size_t(r.ptr - s_.data());
            if (out.size() >= 64) fail_at(at, "more than 64 dimensions in the shape");
            out.push_back(v);
            skip_ws();
            comma = peek() == ',';
            if (comma)
                ++pos_;
            else if (peek() != ')')
                fail_at(pos_, "expected ',' or ')' in the shape");
        }
        if (out.size() == 1 && !comma)
            fail_at(pos_, "the shape (", out[0], ") is no tuple: NumPy writes (", out[0], ",)");
        ++pos_;
    }

    std::string_view s_;
    size_t pos_ = 0;
    size_t base_;
    const std::string& name_;
};

template <class = void>
Header read_header(std::string_view b, const std::string& name) {
    auto fail_at = [&](size_t at, const auto&... a) -> void {
        fail<IOError>(name, ": byte ", at, ": ", a...);
    };
    if (b.size() < kMagicLen + 2 || b.substr(0, kMagicLen) != std::string_view(kMagic, kMagicLen))
        fail_at(0, "not a .npy file (no \\x93NUMPY magic)");
    uint8_t major = uint8_t(b[6]), minor = uint8_t(b[7]);
    if ((major < 1 || major > 3) || minor != 0)
        fail_at(6, "unsupported .npy version ", int(major), ".", int(minor));
    size_t len_bytes = major == 1 ? 2 : 4;
    if (b.size() < 8 + len_bytes) fail_at(8, "truncated file: the header length is missing");
    uint64_t hlen = 0;
    for (size_t i = 0; i < len_bytes; ++i) hlen |= uint64_t(uint8_t(b[8 + i])) << (8 * i);
    size_t start = 8 + len_bytes;
    if (hlen > b.size() - start)
        fail_at(8, "truncated file: header of ", hlen, " bytes but only ", b.size() - start,
                " are left");
    Header h;
    HeaderParser<>(b.substr(start, size_t(hlen)), start, name).parse(h);
    h.data_at = start + size_t(hlen);
    return h;
}

// What a descr stores: a kind ('b' bool, 'u' unsigned, 'i' signed integer,
// 'f' floating point, 'c' complex) and a width in bytes: every NumPy integer,
// float, complex and bool dtype (b1 u1 u2 u4 u8 i1 i2 i4 i8 f2 f4 f8 c8 c16).
struct Dtype {
    char kind;
    size_t size; // bytes per element in the file
    bool swap;   // stored in the other byte order (each part of a complex value)
};

// The dtype of a descr; IOError for descrs no tensor type can hold.
template <class = void>
Dtype parse_descr(const std::string& d, const std::string& name, size_t at) {
    static constexpr std::string_view known[] = {"b1", "u1", "u2", "u4", "u8", "i1", "i2",
                                                 "i4", "i8", "f2", "f4", "f8", "c8", "c16"};
    const bool order_ok = (d.size() == 3 || d.size() == 4) &&
                          (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=');
    const std::string_view body = order_ok ? std::string_view(d).substr(1) : std::string_view();
    if (std::find(std::begin(known), std::end(known), body) == std::end(known))
        fail<IOError>(
            name, ": byte ", at, ": unsupported dtype '", d,
            "' (integer, float, complex and bool dtypes: b1 u1 u2 u4 u8 i1 i2 i4 i8 f2 f4 "
            "f8 c8 c16)");
    const char other = std::endian::native == std::endian::little ? '>' : '<';
    const size_t size = body.size() == 3 ? 16 : size_t(body[1] - '0');
    return Dtype{body[0], size, size > 1 && d[0] == other};
}

// The dtype a tensor of T is saved as ('f', 4 for float).
template <class T>
constexpr Dtype dtype_of_element() {
    return Dtype{is_complex_v<T>               ? 'c'
                 : std::is_floating_point_v<T> ? 'f'
                 : std::is_signed_v<T>         ? 'i'
                                               : 'u',
                 sizeof(T), false};
}

// Calls f(S{}) with the C++ type that holds a file's elements as stored
// (float16 is read as float: every float16 value is a float exactly).
template <class F>
decltype(auto) with_file_type(const Dtype& dt, F&& f) {
    switch (dt.kind) {
    case 'b':
        return f(bool{});
    case 'u':
        if (dt.size == 1) return f(uint8_t{});
        if (dt.size == 2) return f(uint16_t{});
        if (dt.size == 4) return f(uint32_t{});
        return f(uint64_t{});
    case 'i':
        if (dt.size == 1) return f(int8_t{});
        if (dt.size == 2) return f(int16_t{});
        if (dt.size == 4) return f(int32_t{});
        return f(int64_t{});
    case 'c':
        if (dt.size == 16) return f(std::complex<double>{});
        return f(std::complex<float>{});
    default:
        if (dt.size == 8) return f(double{});
        return f(float{}); // f4, and f2 widened
    }
}

// Reverses the bytes of a value, of each part of a complex one.
template <class S>
void swap_parts(S& v) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    constexpr size_t part = sizeof(real_t<S>);
    for (size_t at = 0; at < sizeof(S); at += part) std::reverse(b + at, b + at + part);
}

// Element i of the file's data as S (its type, float for float16).
template <class S>
S read_element(const char* in, int64_t i, const Dtype& dt) {
    if constexpr (std::is_same_v<S, bool>) {
        return in[i] != 0; // NumPy's bools are bytes: any non-zero one is true
    } else if constexpr (std::is_same_v<S, float>) {
        if (dt.size == 2) {
            uint16_t h;
            std::memcpy(&h, in + 2 * i, 2);
            if (dt.swap) h = uint16_t((h >> 8) | (h << 8));
            return Half::to_float(h);
        }
    }
    if constexpr (!std::is_same_v<S, bool>) {
        S v;
        std::memcpy(&v, in + i * int64_t(sizeof(S)), sizeof(S));
        if (dt.swap) swap_parts(v);
        return v;
    }
}

// v as a T, when T holds it exactly (NaN and infinities hold in any float type).
template <class T, class S>
bool convert_exact(S v, T& out) {
    if constexpr (is_complex_v<T>) { // both parts exactly (a real value: imaginary 0)
        real_t<T> re, im = 0;
        bool ok;
        if constexpr (is_complex_v<S>)
            ok = convert_exact(v.real(), re) && convert_exact(v.imag(), im);
        else
            ok = convert_exact(v, re);
        out = T(re, im);
        return ok;
    } else if constexpr (is_complex_v<S>) { // read_tensor refused it
        return false;
    } else if constexpr (std::is_same_v<S, bool>) {
        out = T(v);
        return true;
    } else if constexpr (std::is_integral_v<T> && std::is_integral_v<S>) {
        if (!std::in_range<T>(v)) return false;
        out = T(v);
        return true;
    } else if constexpr (std::is_integral_v<T>) { // from floating point
        // [min, max + 1) as powers of two (or 0), which doubles hold exactly.
        const double lo = double(std::numeric_limits<T>::min());
        const double hi = std::ldexp(1.0, std::numeric_limits<T>::digits);
        if (!(double(v) >= lo && double(v) < hi) || std::trunc(v) != v) return false;
        out = T(v);
        return true;
    } else if constexpr (std::is_floating_point_v<S>) { // float from float
        out = T(v);
        return v != v || S(out) == v;
    } else { // float from integer: exact when it converts back to the same integer
        out = T(v);
        const double hi = std::ldexp(1.0, std::numeric_limits<S>::digits);
        return double(out) < hi && S(out) == v;
    }
}

// "(1, 2)": the position of element i of a file of this shape, in its order.
inline std::string file_position(int64_t i, const std::vector<int64_t>& shape, bool fortran) {
    std::vector<int64_t> idx(shape.size());
    for (size_t k = 0; k < shape.size(); ++k) {
        const size_t d = fortran ? k : shape.size() - 1 - k;
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    std::string r = "(";
    for (size_t d = 0; d < idx.size(); ++d) r += (d ? ", " : "") + std::to_string(idx[d]);
    return r + (idx.size() == 1 ? ",)" : ")");
}

// v in full (a float's 17 digits), numbers for 1-byte integers.
template <class S>
std::string show_value(S v) {
    std::ostringstream o;
    o << std::setprecision(std::numeric_limits<real_t<S>>::max_digits10) << +v;
    return o.str();
}

// The n elements at `in` (of dtype dt) into out, each converted exactly to T;
// TypeError naming the first that does not convert (out's values are then
// partial: the caller returns nothing).
template <class T>
void decode(T* out, const char* in, int64_t n, const Dtype& dt, const Header& h,
            const std::string& name) {
    const Dtype same = dtype_of_element<T>();
    if (dt.kind == same.kind && dt.size == same.size) { // the common case: a copy
        std::memcpy(out, in, size_t(n) * sizeof(T));
        if (dt.swap)
            for (int64_t i = 0; i < n; ++i) swap_parts(out[i]);
        return;
    }
    with_file_type(dt, [&](auto s) {
        using S = decltype(s);
        for (int64_t i = 0; i < n; ++i) {
            const S v = read_element<S>(in, i, dt);
            if (!convert_exact(v, out[i]))
                fail<TypeError>(name, ": the value ", show_value(v), " at ",
                                file_position(i, h.shape, h.fortran), " of dtype '", h.descr,
                                "' does not convert exactly to ", Tensor<T>::typeName(),
                                " (nothing was loaded)");
        }
    });
}

// The tensor of a parsed file (dt must load as T).
template <class T>
Tensor<T> read_tensor(std::string_view bytes, const Header& h, const Dtype& dt,
                      const std::string& name) {
    // The other sizes' product is checked beside a zero too (NumPy: "array is too big").
    std::vector<int64_t> counted;
    for (int64_t s : h.shape)
        if (s != 0) counted.push_back(s);
    const bool no_elements = counted.size() != h.shape.size();
    if (detail::element_count(counted) < 0)
        fail<IOError>(name, ": byte ", kMagicLen,
                      ": the shape's element count exceeds the limit of 2^48");
    const int64_t numel = no_elements ? 0 : detail::element_count(counted);
    if (dt.kind == 'c' && !is_complex_v<T>)
        fail<TypeError>(name, ": the file holds complex values (dtype '", h.descr,
                        "'), which a real ", Tensor<T>::typeName(),
                        " cannot hold: load it as a ComplexFloatTensor or ComplexDoubleTensor");
    const size_t left = bytes.size() - h.data_at;
    if (uint64_t(numel) > left / dt.size)
        fail<IOError>(name, ": byte ", h.data_at, ": truncated file: ", numel, " elements need ",
                      uint64_t(numel) * dt.size, " bytes but only ", left, " are left");
    Shape sizes(h.shape.begin(), h.shape.end());
    if (numel == 0) return Tensor<T>(sizes); // the shape kept, empty dimensions and all
    if (sizes.empty()) sizes = Shape{1};
    Tensor<T> r(sizes);
    decode(r.data(), bytes.data() + h.data_at, numel, dt, h, name);
    if (h.fortran && sizes.size() > 1) {
        // The data is column-major: view it with reversed strides, then copy to C order.
        Shape st(sizes.size());
        int64_t run = 1;
        for (size_t d = 0; d < sizes.size(); ++d) st[d] = run, run *= sizes[d];
        return Tensor<T>(r.storage(), 0, sizes, st).clone();
    }
    return r;
}

} // namespace detail::npy

template <NpyElement T>
std::string toNpy(const Tensor<T>& x) {
    std::string shape;
    if (x.dim() == 0) shape = "(0,)"; // an empty tensor has no elements
    for (int64_t d = 0; d < x.dim(); ++d)
        shape += (d ? ", " : "(") + std::to_string(x.size(d)) + (x.dim() == 1 ? ",)" : "");
    if (x.dim() > 1) shape += ")";
    std::string dict = "{'descr': '" + detail::npy::descr<T>() +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
    // NumPy leaves room for the first dimension to grow to 21 digits, and pads the
    // header with spaces and a final newline to a multiple of 64 bytes.
    std::string first = x.dim() ? std::to_string(x.size(0)) : "0";
    dict.append(21 - std::min<size_t>(21, first.size()), ' ');
    size_t hlen = dict.size() + 1; // with the final newline
    auto padding = [&](size_t prefix) { return (64 - (prefix + hlen) % 64) % 64; };
    int major = hlen + padding(10) <= 65535 ? 1 : 2; // 2.0 has a 4-byte header length
    size_t prefix = major == 1 ? 10 : 12;
    size_t pad = padding(prefix);
    dict.append(pad, ' ');
    dict += '\n';
    std::string out(detail::npy::kMagic, detail::npy::kMagicLen);
    out += char(major);
    out += char(0);
    uint64_t n = dict.size();
    for (size_t i = 0; i < prefix - 8; ++i) out += char((n >> (8 * i)) & 0xff);
    out += dict;
    Tensor<T> c = x.contiguous();
    size_t at = out.size();
    out.resize(at + size_t(c.nElement()) * sizeof(T));
    if (c.nElement()) {
        std::memcpy(out.data() + at, c.data(), size_t(c.nElement()) * sizeof(T));
        detail::t7file::to_little_endian(reinterpret_cast<real_t<T>*>(out.data() + at),
                                         size_t(c.nElement()) * (is_complex_v<T> ? 2 : 1));
    }
    return out;
}

template <NpyElement T>
Tensor<T> fromNpy(std::string_view bytes, const std::string& name) {
    using namespace detail::npy;
    const Header h = read_header(bytes, name);
    const Dtype dt = parse_descr(h.descr, name, kMagicLen);
    return read_tensor<T>(bytes, h, dt, name);
}

template <class>
Object fromNpyAny(std::string_view bytes, const std::string& name) {
    using namespace detail::npy;
    const Header h = read_header(bytes, name);
    const Dtype dt = parse_descr(h.descr, name, kMagicLen);
    // The smallest tensor type holding every value of the dtype exactly; uint64
    // has none: int64, when every value of the file fits (else TypeError).
    const size_t n = dt.size;
    switch (dt.kind) {
    case 'b':
        return read_tensor<uint8_t>(bytes, h, dt, name);
    case 'u':
        if (n == 1) return read_tensor<uint8_t>(bytes, h, dt, name);
        if (n == 2) return read_tensor<int32_t>(bytes, h, dt, name);
        return read_tensor<int64_t>(bytes, h, dt, name);
    case 'i':
        if (n == 1) return read_tensor<int8_t>(bytes, h, dt, name);
        if (n == 2) return read_tensor<int16_t>(bytes, h, dt, name);
        if (n == 4) return read_tensor<int32_t>(bytes, h, dt, name);
        return read_tensor<int64_t>(bytes, h, dt, name);
    case 'c':
        detail::fail<TypeError>(name, ": a complex file (dtype '", h.descr,
                                "'): t7::Object holds Torch7's types; load it with "
                                "loadNpy<std::complex<float>> or loadNpy<std::complex<double>>");
    default:
        if (n == 8) return read_tensor<double>(bytes, h, dt, name);
        return read_tensor<float>(bytes, h, dt, name);
    }
}

template <NpyElement T>
void saveNpy(const std::string& path, const Tensor<T>& x) {
    detail::write_file(path, toNpy(x), "saveNpy");
}

template <NpyElement T>
Tensor<T> loadNpy(const std::string& path) {
    return fromNpy<T>(detail::read_file(path, "loadNpy"), "loadNpy('" + path + "')");
}

template <class>
Object loadNpyAny(const std::string& path) {
    return fromNpyAny(detail::read_file(path, "loadNpyAny"), "loadNpyAny('" + path + "')");
}

} // namespace t7
