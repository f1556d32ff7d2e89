// The misuse suite, files (issue 16): hostile .t7 and .npy files, endless input and
// failing saves. Each must end in its t7::Error subclass (IOError for a malformed
// file) or the documented answer: nothing may crash, hang, overflow the stack, throw
// std::bad_alloc, or lose the file that a failed save was replacing. The rules these
// cases check are listed in include/t7/io/limits.hpp.
#include <t7/io/file.hpp>
#include <t7/io/limits.hpp>
#include <t7/io/npy.hpp>
#include <t7/io/t7_reader.hpp>
#include <t7/io/t7_writer.hpp>
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "file_bytes.hpp"
#include "test_util.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

using namespace t7;
using test_util::Bin;
using test_util::message_of;
namespace fs = std::filesystem;

namespace {

// What must take linear time takes well under a second here; the quadratic
// versions these cases caught took minutes, so a generous budget tells them apart
// even on a loaded machine or under the sanitizers.
constexpr double kLinearBudget = 20; // seconds

template <class F>
double seconds(F&& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}
std::string bytes_of(const std::string& path) { return detail::read_file(path, "test"); }

// A folder of its own for a test's files, removed afterwards.
struct TempDir {
    fs::path path = fs::temp_directory_path() / ("t7_misuse_files_" + std::to_string(getpid()));
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
    std::vector<std::string> names() const {
        std::vector<std::string> r;
        for (const auto& e : fs::directory_iterator(path)) r.push_back(e.path().filename());
        std::sort(r.begin(), r.end());
        return r;
    }
};

// While it lives, this process cannot write files past `bytes` (RLIMIT_FSIZE): a
// write there fails with EFBIG, as on a full disk. SIGXFSZ is ignored meanwhile, so
// that the failing write reports the error instead of killing the process.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &old_);
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit lim = old_;
        lim.rlim_cur = bytes;
        REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }

private:
    rlimit old_{};
    void (*old_handler_)(int) = SIG_DFL;
};

// A DoubleTensor of the given sizes and strides over a storage of n elements, at offset 0.
std::string tensor_file(const Shape& sizes, const Shape& strides, int64_t n) {
    Bin b;
    b.torch(1, "torch.DoubleTensor").i32(int32_t(sizes.size()));
    for (int64_t s : sizes) b.i64(s);
    for (int64_t s : strides) b.i64(s);
    b.i64(1).torch(2, "torch.DoubleStorage").i64(n);
    for (int64_t i = 0; i < n; ++i) b.f64(double(i));
    return b.b;
}

// {[1] = {}, [2] = {[1] = <table 1>}, [3] = {[1] = <table 2>}, ...}: each table refers
// back to the one before (index i + 1 is the i-th), so reading never nests more than
// two levels deep, but the tables loaded form a chain n deep.
std::string referenced_chain(int n) {
    Bin b;
    b.i32(3).i32(1).i32(n);
    for (int i = 1; i <= n; ++i) {
        b.i32(1).f64(i).i32(3).i32(i + 1).i32(i == 1 ? 0 : 1);
        if (i > 1) b.i32(1).f64(1).i32(3).i32(i); // [1] = the table read before
    }
    return b.b;
}

} // namespace

TEST_CASE("files: a chain of 300000 tables linked by references loads and is freed") {
    TempDir dir;
#if defined(T7_TEST_SANITIZED)
    // 60000 under the sanitizers (23 s at 300000): still far past what a
    // recursive load or free could take on their frames.
    const int n = 60000;
#else
    const int n = 300000;
#endif
    std::string path = dir.file("chain.t7");
    detail::write_file(path, referenced_chain(n), "test"); // 13 MB at 300000
    CHECK_THROWS_AS(load<double>(path), TypeError);        // it holds a table, freed here
    Object o = loadObject(path);
    REQUIRE(o.size() == n);
    int depth = 1;
    for (Object t = o.at(n); t.contains(1); t = t.at(1)) ++depth;
    CHECK(depth == n);
    o = Object(); // frees the chain from its head (table n), without recursion
}

TEST_CASE("files: freeing a 200000-deep chain of tables built with set() does not recurse") {
    Object root = Object::table();
    Object cur = root;
    for (int i = 0; i < 200000; ++i) {
        Object next = Object::table();
        cur.set("next", next);
        cur = next;
    }
    cur = Object();
    // the writer refuses it (Error, not a stack overflow): no reader could read it back
    CHECK(has(message_of<Error>([&] { serialize(root); }), "nested deeper than 512 levels"));
    root = Object();
}

TEST_CASE("files: objects nested deeper than the limit are an IOError when read") {
    Bin b;
    for (int i = 1; i <= 300000; ++i) b.i32(3).i32(i).i32(1).i32(1).f64(1);
    b.i32(0);
    std::string m = message_of<IOError>([&] { deserialize(b.b); });
    CHECK(has(m, "byte 12288: objects nested deeper than 512 levels"));
}

TEST_CASE("files: building a chain of 20000 tables takes linear time; cycles are still refused") {
    CHECK(seconds([] {
              Object t = Object::table();
              for (int i = 0; i < 20000; ++i) {
                  Object u = Object::table();
                  u.set(1, t);
                  t = u;
              }
              Object w = Object::table();
              for (int i = 0; i < 20000; ++i) w = Object::table({{1, w}});
          }) < kLinearBudget);
    Object a = Object::table();
    Object chain = a;
    for (int i = 0; i < 1000; ++i) chain = Object::table({{"down", chain}});
    CHECK_THROWS_AS(a.set("up", chain), Error); // a is 1000 levels below chain
    CHECK_THROWS_AS(a.set(chain, 1), Error);    // as a key too
    CHECK_THROWS_AS(a.set("self", a), Error);
    CHECK(a.size() == 0);
    Object b = Object::table();
    b.set("a", a); // a table under two parents is no cycle
    CHECK_NOTHROW(chain.set("b", b));
}

TEST_CASE("files: reading 10^5 references, 10^5 objects and an 8 MB ascii storage is linear") {
    const int n = 100000;
    Bin refs; // {[0] = {}, [1] = <that table>, ..., [n] = <that table>}
    refs.i32(3).i32(1).i32(n + 1).i32(1).f64(0).i32(3).i32(2).i32(0);
    for (int i = 1; i <= n; ++i) refs.i32(1).f64(i).i32(3).i32(2);
    Bin objects; // {[1] = {}, ..., [n] = {}}
    objects.i32(3).i32(1).i32(n);
    for (int i = 1; i <= n; ++i) objects.i32(1).f64(i).i32(3).i32(i + 1).i32(0);
    const int m = 4 << 20; // "1 1 1 ...": 4M doubles in 8 MB
    std::string ascii = "4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n" + std::to_string(m) + "\n";
    for (int i = 0; i < m; ++i) ascii += "1 ";
    ascii.back() = '\n';
    Object r, o, s;
    CHECK(seconds([&] {
              r = deserialize(refs.b);
              o = deserialize(objects.b);
              s = deserialize(ascii, Format::Ascii);
          }) < kLinearBudget);
    CHECK(r.at(n).sameAs(r.at(0)));
    CHECK(o.size() == n);
    CHECK(s.storage<double>().size() == m);
}

TEST_CASE("files: writing 10^5 references to a 10^5-dimensional tensor is linear") {
    const int n = 100000;
    Bin b; // {[0] = a ByteTensor of n dimensions of size 1, [1..n] = <that tensor>}
    b.i32(3).i32(1).i32(n + 1).i32(1).f64(0).torch(2, "torch.ByteTensor").i32(n);
    for (int i = 0; i < 2 * n; ++i) b.i64(1);
    b.i64(1).torch(3, "torch.ByteStorage").i64(1).chars("x");
    for (int i = 1; i <= n; ++i) b.i32(1).f64(i).i32(4).i32(2);
    Object o = deserialize(b.b);
    std::string once;
    CHECK(seconds([&] { once = serialize(o); }) < kLinearBudget);
    CHECK((once == b.b)); // written once, then referred to by index
}

TEST_CASE("files: endless input (/dev/zero) is an IOError, never read until memory runs out") {
    if (!fs::exists("/dev/zero")) return;
    std::string m = message_of<IOError>([] { loadObject("/dev/zero"); });
    CHECK(has(m, "not a regular file"));
    CHECK_THROWS_AS(loadNpy<float>("/dev/zero"), IOError);
}

TEST_CASE("files: absurd element counts are an IOError") {
    const int64_t big = int64_t(1) << 62;
    // 2^62 copies of one element (stride 0): it would load, and no traversal would end
    std::string m = message_of<IOError>([&] { deserialize(tensor_file({big}, {0}, 1)); });
    CHECK(has(m, "element count exceeds the limit of 2^48"));
    CHECK_THROWS_AS(deserialize(tensor_file({int64_t(1) << 31, int64_t(1) << 31}, {0, 0}, 1)),
                    IOError);
    // 62 dimensions of size 2 over 63 elements: non-zero strides, 2^62 elements
    Shape sizes(62, 2), strides(62, 1);
    CHECK_THROWS_AS(deserialize(tensor_file(sizes, strides, 63)), IOError);
    // the limit itself loads
    const int64_t limit = detail::kMaxElements;
    CHECK(deserialize(tensor_file({limit}, {0}, 1)).tensor<double>().nElement() == limit);
    CHECK_THROWS_AS(deserialize(tensor_file({limit + 1}, {0}, 1)), IOError);
    // sizes * strides that overflow int64 never wrap
    CHECK_THROWS_AS(deserialize(tensor_file({big}, {4}, 1)), IOError);
    CHECK_THROWS_AS(deserialize(tensor_file({3, INT64_MAX}, {INT64_MAX, 1}, 1)), IOError);
    // and through a file: load<T> reports the IOError, not a TypeError
    TempDir dir;
    std::string path = dir.file("huge.t7");
    detail::write_file(path, tensor_file({big}, {0}, 1), "test");
    CHECK_THROWS_AS(load<double>(path), IOError);
}

TEST_CASE("files: .npy shapes NumPy refuses are an IOError") {
    auto npy = [](const std::string& shape, size_t data_bytes) {
        return test_util::npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': " + shape +
                                       ", }",
                                   std::string(data_bytes, '\0'));
    };
    // (3) is the number 3, not a tuple: NumPy writes (3,)
    CHECK(has(message_of<IOError>([&] { fromNpy<double>(npy("(3)", 24)); }), "(3,)"));
    CHECK(fromNpy<double>(npy("(3,)", 24)).sizes() == Shape{3});
    CHECK(fromNpy<double>(npy("(2, 3,)", 48)).sizes() == Shape{2, 3});
    CHECK(fromNpy<double>(npy("()", 8)).sizes() == Shape{1});
    // element counts that overflow int64, even beside a zero (NumPy: "array is too big")
    CHECK_THROWS_AS(fromNpy<double>(npy("(4294967296, 4294967296, 4294967296)", 0)), IOError);
    CHECK_THROWS_AS(fromNpy<double>(npy("(0, 4611686018427387904, 4611686018427387904)", 0)),
                    IOError);
    CHECK_THROWS_AS(fromNpy<double>(npy("(9223372036854775807, 2)", 0)), IOError);
}

TEST_CASE("files: a failed save leaves the old file as it was, and no temporary file") {
    TempDir dir;
    const std::string t7 = dir.file("model.t7"), npy = dir.file("x.npy");
    save(t7, DoubleTensor(3).fill(1));
    saveNpy(npy, DoubleTensor(3).fill(1));
    const std::string old_t7 = bytes_of(t7), old_npy = bytes_of(npy);
    DoubleTensor big = DoubleTensor(10000).fill(2); // 80 KB
    {
        FileSizeLimit limit(4096); // as a disk that fills up after 4 KB
        std::string m = message_of<IOError>([&] { save(t7, big); });
        CHECK(has(m, t7));
        CHECK(has(m, "File too large"));
        CHECK_THROWS_AS(saveObject(t7, Object::table({{"w", big}}), Format::Ascii), IOError);
        CHECK_THROWS_AS(saveNpy(npy, big), IOError);
    }
    CHECK((bytes_of(t7) == old_t7));
    CHECK((bytes_of(npy) == old_npy));
    CHECK(dir.names() == std::vector<std::string>{"model.t7", "x.npy"});
    // with room again, the saves replace the files
    save(t7, big);
    saveNpy(npy, big);
    CHECK(load<double>(t7).nElement() == 10000);
    CHECK(loadNpy<double>(npy).nElement() == 10000);
    CHECK(dir.names() == std::vector<std::string>{"model.t7", "x.npy"});
}

TEST_CASE("files: a save replaces its target whole, keeping its mode and symbolic links") {
    TempDir dir;
    const std::string target = dir.file("target.t7"), link = dir.file("link.t7");
    save(target, DoubleTensor(2).fill(1));
    fs::permissions(target, fs::perms(0640));
    fs::create_symlink("target.t7", link);
    save(link, DoubleTensor(5).fill(3)); // through the link
    CHECK(fs::is_symlink(link));
    CHECK(load<double>(target).nElement() == 5);
    CHECK((fs::status(target).permissions() & fs::perms::all) == fs::perms(0640));
    CHECK(dir.names() == std::vector<std::string>{"link.t7", "target.t7"});
    if (geteuid() != 0) { // root may write anywhere
        fs::permissions(target, fs::perms(0444));
        CHECK_THROWS_AS(save(target, DoubleTensor(1)), IOError);
        CHECK(load<double>(target).nElement() == 5);
    }
    // no folder to put it in; a device that is full (written in place: nothing to replace)
    CHECK_THROWS_AS(save("/nonexistent/dir/x.t7", DoubleTensor(1)), IOError);
    if (fs::exists("/dev/full")) CHECK_THROWS_AS(saveObject("/dev/full", Object(1)), IOError);
}
