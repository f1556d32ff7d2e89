// Whole-file reads and writes for the readers and writers of io/: a file is read
// into memory once (so a reader can check every length against what is really
// there), and written from a buffer in one go. Both keep the rules of limits.hpp:
// - reads are bounded: a regular file is read at the size it had when opened; any
//   other file (a pipe, /dev/zero) up to kMaxStreamBytes, and refused past that;
// - saves are atomic: the bytes go to a new temporary file beside the target, which
//   replaces the target (rename) only once written, flushed to disk and closed. On
//   any failure (disk full, file size limit) the temporary is removed and the old
//   file is left as it was. The target keeps its permissions; a symbolic link is
//   followed, and a target that is no regular file (a device) is written in place.
// Every failure is an IOError naming the file and the system's reason.
#pragma once

#include "../core/error.hpp"
#include "limits.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace t7::detail {

// A file descriptor, closed when it goes out of scope unless close() closed it first.
class FileDesc {
public:
    explicit FileDesc(int fd) : fd_(fd) {}
    FileDesc(const FileDesc&) = delete;
    ~FileDesc() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    bool close() { return ::close(std::exchange(fd_, -1)) == 0; }

private:
    int fd_;
};

inline std::string errno_text() { return std::strerror(errno); }

// Reads into buf until it is full or the file ends; the number of bytes read.
inline size_t read_some(int fd, char* buf, size_t n, const std::string& path, const char* op) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = ::read(fd, buf + got, n - got);
        if (r == 0) break;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) fail<IOError>(op, ": error reading '", path, "': ", errno_text());
        got += size_t(r);
    }
    return got;
}

// Reads a file that tells no size (a pipe, a device) up to kMaxStreamBytes. The
// chunks are neither copied nor cleared as they come, and are joined once the end
// is reached: a string grown by doubling moved three times the bytes, and took 6 s
// to refuse /dev/zero on a loaded machine (1.6 s this way).
inline std::string read_stream(int fd, const std::string& path, const char* op) {
    constexpr size_t chunk = size_t(1) << 20;
    std::vector<std::unique_ptr<char[]>> chunks;
    size_t total = 0, last = chunk; // bytes in the last chunk
    while (last == chunk) {
        if (total >= kMaxStreamBytes) {
            char extra;
            if (read_some(fd, &extra, 1, path, op) == 0) break;
            fail<IOError>(op, ": '", path, "' is not a regular file and holds more than the ",
                          kMaxStreamBytes, " bytes read from such files");
        }
        chunks.emplace_back(new char[chunk]);
        last = read_some(fd, chunks.back().get(), chunk, path, op);
        total += last;
    }
    std::string bytes(total, '\0');
    for (size_t i = 0; i < chunks.size(); ++i)
        std::memcpy(bytes.data() + i * chunk, chunks[i].get(), std::min(chunk, total - i * chunk));
    return bytes;
}

inline std::string read_file(const std::string& path, const char* op) {
    FileDesc f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (f.get() < 0) fail<IOError>(op, ": cannot open '", path, "': ", errno_text());
    struct stat st {};
    if (::fstat(f.get(), &st) != 0) fail<IOError>(op, ": cannot read '", path, "': ", errno_text());
    try {
        // Only a regular file tells its size (procfs files say 0: read them as streams).
        if (!S_ISREG(st.st_mode) || st.st_size == 0) return read_stream(f.get(), path, op);
        std::string bytes(size_t(st.st_size), '\0'); // what it held when opened
        bytes.resize(read_some(f.get(), bytes.data(), bytes.size(), path, op));
        return bytes;
    } catch (const std::bad_alloc&) {
        fail<IOError>(op, ": '", path, "' does not fit in memory");
    }
}

// Writes all of bytes, or throws.
inline void write_all(int fd, std::string_view bytes, const std::string& path, const char* op) {
    while (!bytes.empty()) {
        ssize_t r = ::write(fd, bytes.data(), bytes.size());
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) fail<IOError>(op, ": error writing '", path, "': ", errno_text());
        bytes.remove_prefix(size_t(r));
    }
}

// The file a save replaces: the target of a symbolic link, else path itself.
// (POSIX calls rather than <filesystem>, which costs every includer compile time.)
inline std::string save_target(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::unique_ptr<char, void (*)(void*)> t(::realpath(path.c_str(), nullptr), &std::free);
    return t ? std::string(t.get()) : path; // a dangling link: written as itself
}

// A new file beside path (same folder, so that rename() can replace path with it),
// with permissions `mode` (less the umask, as for any new file). Sets tmp to its name.
inline int create_temporary(const std::string& path, mode_t mode, std::string& tmp,
                            const char* op) {
    static std::atomic<unsigned> counter{0};
    for (;;) {
        tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) {
            if (fd < 0)
                fail<IOError>(op, ": cannot create a temporary file beside '", path,
                              "': ", errno_text());
            return fd;
        }
    }
}

inline void write_file(const std::string& path_in, std::string_view bytes, const char* op) {
    const std::string path = save_target(path_in);
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) { // a device or a pipe: nothing to replace
        FileDesc f(::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
        if (f.get() < 0)
            fail<IOError>(op, ": cannot open '", path_in, "' for writing: ", errno_text());
        write_all(f.get(), bytes, path_in, op);
        if (!f.close()) fail<IOError>(op, ": error writing '", path_in, "': ", errno_text());
        return;
    }
    // rename() needs no write permission on the file itself: a read-only file is
    // refused here, as opening it for writing would be.
    if (exists && ::access(path.c_str(), W_OK) != 0)
        fail<IOError>(op, ": cannot open '", path_in, "' for writing: ", errno_text());
    std::string tmp;
    FileDesc f(create_temporary(path, exists ? st.st_mode & 0777 : 0666, tmp, op));
    try {
        // the umask applies to new files only: an existing file keeps its mode
        if (exists && ::fchmod(f.get(), st.st_mode & 0777) != 0)
            fail<IOError>(op, ": cannot set the permissions of '", tmp, "': ", errno_text());
        write_all(f.get(), bytes, path_in, op);
        if (::fsync(f.get()) != 0 || !f.close())
            fail<IOError>(op, ": error writing '", path_in, "': ", errno_text());
        if (::rename(tmp.c_str(), path.c_str()) != 0)
            fail<IOError>(op, ": cannot replace '", path_in, "': ", errno_text());
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
}

} // namespace t7::detail
