// Whole-file reads and writes for the readers and writers of io/: a file is read
// into memory once (so a reader can check every length against what is really
// there), and written from a buffer in one go.
#pragma once

#include "../core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace t7::detail {

inline std::string read_file(const std::string& path, const char* op) {
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) fail<IOError>(op, ": cannot open '", path, "': ", std::strerror(errno));
    std::string bytes;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) bytes.append(buf, n);
    if (std::ferror(f.get())) fail<IOError>(op, ": error reading '", path, "'");
    return bytes;
}

inline void write_file(const std::string& path, std::string_view bytes, const char* op) {
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f) fail<IOError>(op, ": cannot open '", path, "' for writing: ", std::strerror(errno));
    if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size() ||
        std::fclose(f.release()) != 0)
        fail<IOError>(op, ": error writing '", path, "'");
}

} // namespace t7::detail
