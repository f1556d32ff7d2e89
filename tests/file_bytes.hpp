// Hand-built file bytes for the file suites (test_io_t7, test_io_npy, misuse/files):
// Torch7 binary objects value by value, and .npy files from a header text.
#pragma once

#include <cstdint>
#include <string>

namespace test_util {

// Little-endian building blocks of a binary .t7 file (on a little-endian host).
struct Bin {
    std::string b;
    Bin& i32(int32_t v) { return raw(&v, 4); }
    Bin& i64(int64_t v) { return raw(&v, 8); }
    Bin& f64(double v) { return raw(&v, 8); }
    Bin& str(const std::string& s) { return i32(int32_t(s.size())).chars(s); }
    Bin& chars(const std::string& s) {
        b += s;
        return *this;
    }
    Bin& raw(const void* p, size_t n) {
        b.append(static_cast<const char*>(p), n);
        return *this;
    }
    // TORCH header: tag, index, "V 1", class name
    Bin& torch(int32_t index, const std::string& cls) {
        return i32(4).i32(index).str("V 1").str(cls);
    }
};

// A .npy file with the given header text (padded as NumPy pads it) and data bytes.
inline std::string npy_file(const std::string& dict, const std::string& data, int major = 1) {
    std::string h = dict;
    size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    for (size_t i = 0; i < prefix - 8; ++i) out += char((h.size() >> (8 * i)) & 0xff);
    return out + h + data;
}

} // namespace test_util
