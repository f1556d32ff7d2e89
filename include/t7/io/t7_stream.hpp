// The two encodings of Torch7's File (THDiskFile): reading and writing groups of
// values in binary (native little-endian) or ascii. Input checks every length
// against the bytes left before it allocates or copies, and reports failures as
// IOError naming the byte offset.
#pragma once

#include "../core/error.hpp"
#include "t7_format.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace t7::detail::t7file {

template <class T>
inline constexpr bool is_raw_in_ascii = sizeof(T) == 1; // byte and char elements

template <class T>
void to_little_endian(T* p, size_t n) {
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
        for (size_t i = 0; i < n; ++i) {
            auto* b = reinterpret_cast<unsigned char*>(p + i);
            std::reverse(b, b + sizeof(T));
        }
    } else {
        (void)p;
        (void)n;
    }
}

// What an ascii value of type T is called in messages.
template <class T>
constexpr const char* ascii_kind() {
    return std::is_floating_point_v<T> ? "a number" : "an integer";
}

class Input {
public:
    Input(std::string_view bytes, Format fmt, std::string name)
        : bytes_(bytes), fmt_(fmt), name_(std::move(name)) {}

    Format format() const { return fmt_; }
    size_t offset() const { return pos_; }
    size_t remaining() const { return bytes_.size() - pos_; }

    template <class... A>
    [[noreturn]] void fail_at(size_t at, const A&... a) const {
        fail<IOError>(name_, ": byte ", at, ": ", a...);
    }

    // The fewest bytes n values of type T can take: what a reader checks before
    // allocating room for n values.
    template <class T>
    uint64_t min_bytes(uint64_t n) const {
        if (fmt_ == Format::Binary) return n > UINT64_MAX / sizeof(T) ? UINT64_MAX : n * sizeof(T);
        return n; // ascii: at least one character per value
    }
    // Fails unless n values of type T can still fit in the file.
    template <class T>
    void need(uint64_t n, const char* what) const {
        if (min_bytes<T>(n) > remaining())
            fail_at(pos_, what, " of ", n, " elements cannot fit in the ", remaining(),
                    " bytes left in the file");
    }

    // Reads a group of n values (one line in ascii).
    template <class T>
    void read(T* dst, size_t n, const char* what) {
        if (fmt_ == Format::Binary || is_raw_in_ascii<T>) {
            if (n > remaining() / sizeof(T))
                fail_at(pos_, "truncated file: ", what, " needs ", n * sizeof(T),
                        " bytes but only ", remaining(), " are left");
            if (n) std::memcpy(dst, bytes_.data() + pos_, n * sizeof(T));
            pos_ += n * sizeof(T);
            if (fmt_ == Format::Binary) to_little_endian(dst, n);
        } else {
            for (size_t i = 0; i < n; ++i) dst[i] = parse<T>(what);
        }
        if (fmt_ == Format::Ascii && n > 0 && pos_ < bytes_.size() && bytes_[pos_] == '\n')
            ++pos_; // the end of the group's line
    }
    template <class T>
    T read1(const char* what) {
        T v{};
        read(&v, 1, what);
        return v;
    }
    // n raw bytes (a string), in either encoding.
    std::string read_chars(size_t n, const char* what) {
        std::string s(std::min(n, remaining()), '\0'); // never more than the file holds
        read(s.data(), n, what);
        return s;
    }

private:
    // One ascii number, as fscanf("%d" / "%ld" / "%hd" / "%g" / "%lg") reads it.
    template <class T>
    T parse(const char* what) {
        while (pos_ < bytes_.size() && is_space(bytes_[pos_])) ++pos_;
        size_t start = pos_;
        while (pos_ < bytes_.size() && !is_space(bytes_[pos_])) ++pos_;
        std::string_view tok = bytes_.substr(start, pos_ - start);
        if (tok.empty())
            fail_at(start, "truncated file: expected ", what, " (", ascii_kind<T>(), ")");
        std::string_view digits = tok;
        if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
        T v{};
        std::from_chars_result r;
        if constexpr (std::is_floating_point_v<T>) {
            r = std::from_chars(digits.data(), digits.data() + digits.size(), v,
                                std::chars_format::general);
            if (r.ec == std::errc::result_out_of_range) {
                // Like fscanf: too large becomes +-inf, too small +-0.
                bool negative = digits[0] == '-';
                size_t e = digits.find_first_of("eE");
                bool tiny =
                    e != std::string_view::npos && e + 1 < digits.size() && digits[e + 1] == '-';
                v = tiny ? T(0) : std::numeric_limits<T>::infinity();
                if (negative) v = -v;
                r.ec = std::errc();
            }
        } else {
            int64_t w = 0;
            r = std::from_chars(digits.data(), digits.data() + digits.size(), w);
            if (r.ec == std::errc() && (w < int64_t(std::numeric_limits<T>::min()) ||
                                        w > int64_t(std::numeric_limits<T>::max())))
                r.ec = std::errc::result_out_of_range;
            v = T(w);
        }
        if (r.ec == std::errc::result_out_of_range)
            fail_at(start, what, " '", shorten(tok), "' is out of range");
        if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
            fail_at(start, "expected ", what, " (", ascii_kind<T>(), ") but found '", shorten(tok),
                    "'");
        return v;
    }
    static bool is_space(char c) {
        return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
    }
    static std::string shorten(std::string_view s) {
        std::string r(s.substr(0, 24));
        for (char& c : r)
            if (uint8_t(c) < 32 || uint8_t(c) > 126) c = '?';
        return s.size() > 24 ? r + "..." : r;
    }

    std::string_view bytes_;
    size_t pos_ = 0;
    Format fmt_;
    std::string name_;
};

class Output {
public:
    explicit Output(Format fmt) : fmt_(fmt) {}

    // Writes a group of n values (one line in ascii, as Torch7's auto-spacing does).
    template <class T>
    void write(const T* p, size_t n) {
        if (fmt_ == Format::Binary || is_raw_in_ascii<T>) {
            size_t at = buf_.size();
            buf_.append(reinterpret_cast<const char*>(p), n * sizeof(T));
            if (fmt_ == Format::Binary) to_little_endian(reinterpret_cast<T*>(buf_.data() + at), n);
        } else {
            char tmp[64];
            for (size_t i = 0; i < n; ++i) {
                std::to_chars_result r;
                if constexpr (std::is_same_v<T, float>)
                    r = std::to_chars(tmp, tmp + sizeof tmp, p[i], std::chars_format::general, 9);
                else if constexpr (std::is_same_v<T, double>)
                    r = std::to_chars(tmp, tmp + sizeof tmp, p[i], std::chars_format::general, 17);
                else
                    r = std::to_chars(tmp, tmp + sizeof tmp, p[i]);
                if (i) buf_ += ' ';
                buf_.append(tmp, r.ptr);
            }
        }
        if (fmt_ == Format::Ascii && n > 0) buf_ += '\n';
    }
    template <class T>
    void write1(T v) {
        write(&v, 1);
    }
    void write_chars(std::string_view s) { write(s.data(), s.size()); }

    const std::string& bytes() const { return buf_; }
    std::string take() { return std::move(buf_); }

private:
    std::string buf_;
    Format fmt_;
};

} // namespace t7::detail::t7file
