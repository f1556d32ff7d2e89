// The threads behind the loops (iter/parallel.hpp, iter/thread_pool.hpp; issue
// 33): the chunks parallel_for and parallel_split make; element-wise
// assignments, reductions and a stencil equal to a serial reference at 1-4
// threads (reductions bit-identical); exceptions reaching the caller; loops
// inside loops and loops from several std::threads; the same while two busy
// sibling processes keep the cores busy; setNumThreads. Values only: no case
// asserts a time. Storage handles copied and dropped across threads (biased
// reference counts, core/shared_count.hpp): freed once, counts exact.
#include "test_util.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <signal.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>
#if defined(__linux__)
#include <sched.h>
#include <sys/prctl.h>
#endif

namespace {

using t7::DoubleTensor;
using t7::FloatTensor;

struct KeepThreads {
    int before = t7::getNumThreads();
    ~KeepThreads() { t7::setNumThreads(before); }
};

FloatTensor filled(t7::Shape s, float lo, float hi, unsigned seed) {
    FloatTensor t(s);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(x >> 8) / float(1u << 24);
    });
    return t;
}

bool same_bits(const FloatTensor& a, const FloatTensor& b) {
    if (!(a.sizes() == b.sizes())) return false;
    const FloatTensor ca = a.contiguous(), cb = b.contiguous();
    return std::memcmp(ca.data(), cb.data(), size_t(ca.nElement()) * sizeof(float)) == 0;
}

// A range of one chunk, as f(begin, end, chunk) saw it.
struct Chunk {
    int64_t begin = -1, end = -1;
    int calls = 0;
    std::thread::id thread;
};

// Runs parallel_for(n, grain) recording its chunks by index.
std::vector<Chunk> chunks_of_for(int64_t n, int64_t grain) {
    std::vector<Chunk> seen(size_t(t7::getNumThreads()) + 1);
    std::mutex m;
    t7::iter::parallel_for(n, grain, [&](int64_t b, int64_t e, int64_t c) {
        std::lock_guard<std::mutex> lock(m);
        REQUIRE(c >= 0);
        REQUIRE(size_t(c) < seen.size());
        seen[size_t(c)] = {b, e, seen[size_t(c)].calls + 1, std::this_thread::get_id()};
    });
    while (!seen.empty() && seen.back().calls == 0) seen.pop_back();
    return seen;
}

// The chunks cover [0, n) in order, contiguous, each called once.
void check_cover(const std::vector<Chunk>& seen, int64_t n) {
    REQUIRE(!seen.empty());
    int64_t at = 0;
    for (size_t c = 0; c < seen.size(); ++c) {
        CAPTURE(c);
        CHECK(seen[c].calls == 1);
        CHECK(seen[c].begin == at);
        CHECK(seen[c].end >= seen[c].begin);
        at = seen[c].end;
    }
    CHECK(at == n);
}

// The element-wise workload of bench_threads: y = a*b + c*d - a/(b+1).
struct Expr {
    FloatTensor a, b, c, d;
    explicit Expr(int64_t n)
        : a(filled({n}, -1, 1, 1)), b(filled({n}, 0, 1, 2)), c(filled({n}, -1, 1, 3)),
          d(filled({n}, -1, 1, 4)) {}
    FloatTensor run() const {
        FloatTensor y(a.size(0));
        y = a * b + c * d - a / (b + 1);
        return y;
    }
    // A naive loop, in double: the tensor's values within float rounding.
    bool close(const FloatTensor& y) const {
        for (int64_t i = 0; i < a.size(0); ++i) {
            const double av = a.data()[i], bv = b.data()[i], cv = c.data()[i], dv = d.data()[i];
            const double want = av * bv + cv * dv - av / (bv + 1);
            if (std::abs(double(y.data()[i]) - want) > 1e-5) return false;
        }
        return true;
    }
};

// A 7-point stencil over the interior of an m^3 grid (the borders stay zero).
FloatTensor stencil(const FloatTensor& x) {
    const int64_t m = x.size(0), k = m - 2;
    auto at = [&](int64_t i, int64_t j, int64_t l) {
        return x.narrow(0, i, k).narrow(1, j, k).narrow(2, l, k);
    };
    FloatTensor y(m, m, m);
    y.zero();
    FloatTensor yi = y.narrow(0, 1, k).narrow(1, 1, k).narrow(2, 1, k);
    yi = 0.4f * at(1, 1, 1) -
         0.1f * (at(0, 1, 1) + at(2, 1, 1) + at(1, 0, 1) + at(1, 2, 1) + at(1, 1, 0) + at(1, 1, 2));
    return y;
}

bool stencil_close(const FloatTensor& x, const FloatTensor& y) {
    const int64_t m = x.size(0);
    auto v = [&](int64_t i, int64_t j, int64_t l) { return double(x.data()[(i * m + j) * m + l]); };
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < m; ++j)
            for (int64_t l = 0; l < m; ++l) {
                double want = 0;
                if (i > 0 && j > 0 && l > 0 && i < m - 1 && j < m - 1 && l < m - 1)
                    want =
                        0.4 * v(i, j, l) - 0.1 * (v(i - 1, j, l) + v(i + 1, j, l) + v(i, j - 1, l) +
                                                  v(i, j + 1, l) + v(i, j, l - 1) + v(i, j, l + 1));
                if (std::abs(double(y.data()[(i * m + j) * m + l]) - want) > 1e-5) return false;
            }
    return true;
}

double naive_dot(const FloatTensor& a, const FloatTensor& b) {
    double s = 0;
    for (int64_t i = 0; i < a.nElement(); ++i) s += double(a.data()[i]) * double(b.data()[i]);
    return s;
}

// Two child processes spinning on the cores while they live (killed at the
// end, or with this process).
struct BusySiblings {
    std::vector<pid_t> kids;
    explicit BusySiblings(int n) {
        for (int i = 0; i < n; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
#if defined(__linux__)
                prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
                volatile unsigned long x = 0;
                for (;;) x = x + 1;
            }
            REQUIRE(pid > 0);
            kids.push_back(pid);
        }
    }
    ~BusySiblings() {
        for (pid_t p : kids) kill(p, SIGKILL);
        for (pid_t p : kids) waitpid(p, nullptr, 0);
    }
};

} // namespace

TEST_CASE("parallel_for: contiguous chunks in order, at most getNumThreads() of them") {
    KeepThreads keep;
    for (int threads : {1, 2, 3, 4, 7}) {
        t7::setNumThreads(threads);
        for (int64_t n : {0, 1, 5, 100, 1000, 4096, 100003}) {
            for (int64_t grain : {1, 7, 1000, 1 << 20}) {
                CAPTURE(threads);
                CAPTURE(n);
                CAPTURE(grain);
                const std::vector<Chunk> seen = chunks_of_for(n, grain);
                check_cover(seen, n);
                const int64_t want = std::min<int64_t>(
                    threads, std::max<int64_t>(1, n / std::max<int64_t>(grain, 1)));
                CHECK(int64_t(seen.size()) == want);
                std::set<std::thread::id> ids;
                for (const Chunk& c : seen) ids.insert(c.thread);
                CHECK(int64_t(ids.size()) <= want);
            }
        }
    }
    // One chunk runs on the calling thread, without the pool.
    t7::setNumThreads(4);
    const uint64_t before = t7::detail::threaded_loops();
    const std::vector<Chunk> one = chunks_of_for(1000, 1000);
    REQUIRE(one.size() == 1);
    CHECK(one[0].thread == std::this_thread::get_id());
    CHECK(t7::detail::threaded_loops() == before);
    chunks_of_for(2000, 1000);
    CHECK(t7::detail::threaded_loops() == before + 1);
}

TEST_CASE("an expression threads from two chunks' worth of work") {
    // A user functor (32 units) of a float into a float (4 + 4): 40 units per
    // element. Below two chunks' worth the loop stays on the calling thread;
    // from two chunks, with two threads, it is handed to the pool. The values
    // are the same. (What test_expr checked with omp_get_thread_num.)
    KeepThreads keep;
    t7::setNumThreads(2);
    const int64_t grain = t7::iter::grain_for(40);
    for (int64_t n : {2 * grain - 1, 2 * grain}) {
        CAPTURE(n);
        FloatTensor in(n), out(n);
        for (int64_t i = 0; i < n; ++i) in.data()[i] = float(i % 13);
        const uint64_t before = t7::detail::threaded_loops();
        out = t7::map([](float v) { return v * 2; }, in);
        CHECK(t7::detail::threaded_loops() - before == (n < 2 * grain ? 0u : 1u));
        bool same = true;
        for (int64_t i = 0; i < n; ++i) same = same && out.data()[i] == float(i % 13) * 2;
        CHECK(same);
    }
}

TEST_CASE("parallel_split: whole blocks, each once, on at most `chunks` threads") {
    KeepThreads keep;
    for (int threads : {1, 2, 3, 4}) {
        t7::setNumThreads(threads);
        for (int64_t n : {1, 2, 3, 10, 33, 1000}) {
            for (int64_t chunks : {1, 2, 3, 100}) {
                CAPTURE(threads);
                CAPTURE(n);
                CAPTURE(chunks);
                std::vector<int> hits(size_t(n), 0);
                std::vector<std::pair<int64_t, int64_t>> ranges;
                std::set<std::thread::id> ids;
                std::mutex m;
                t7::iter::parallel_split(n, chunks, [&](int64_t b, int64_t e, int64_t c) {
                    std::lock_guard<std::mutex> lock(m);
                    for (int64_t i = b; i < e; ++i) ++hits[size_t(i)];
                    ranges.push_back({c, b});
                    ids.insert(std::this_thread::get_id());
                });
                CHECK(std::count(hits.begin(), hits.end(), 1) == n);
                const int64_t most_threads = std::min<int64_t>({threads, chunks, n});
                CHECK(int64_t(ids.size()) <= most_threads);
                CHECK(int64_t(ranges.size()) <=
                      std::min(n, most_threads * t7::iter::split_chunks_per_thread));
                // In order: chunk c starts after chunk c - 1.
                std::sort(ranges.begin(), ranges.end());
                for (size_t i = 0; i < ranges.size(); ++i) {
                    CHECK(ranges[i].first == int64_t(i));
                    if (i > 0) CHECK(ranges[i].second > ranges[i - 1].second);
                }
            }
        }
    }
}

TEST_CASE("parallel_ranges: [0, n) once, up to four chunks a thread, from two grains") {
    KeepThreads keep;
    for (int threads : {1, 2, 3}) {
        t7::setNumThreads(threads);
        for (int64_t n : {0, 1, 7, 1000, 100003}) {
            for (int64_t grain : {1, 100, 1 << 20}) {
                CAPTURE(threads);
                CAPTURE(n);
                CAPTURE(grain);
                std::vector<int> hits(size_t(n), 0);
                std::set<std::thread::id> ids;
                int64_t calls = 0;
                std::mutex m;
                t7::iter::parallel_ranges(n, grain, [&](int64_t b, int64_t e, int64_t) {
                    std::lock_guard<std::mutex> lock(m);
                    for (int64_t i = b; i < e; ++i) ++hits[size_t(i)];
                    ids.insert(std::this_thread::get_id());
                    ++calls;
                });
                CHECK(std::count(hits.begin(), hits.end(), 1) == n);
                // Threads as parallel_for would use; chunks up to four times that.
                const int64_t worth = std::min<int64_t>(threads, std::max<int64_t>(1, n / grain));
                CHECK(int64_t(ids.size()) <= worth);
                CHECK(calls <= std::max<int64_t>(1, std::min(n, worth * 4)));
                if (worth == 1) CHECK(calls == 1); // below two grains: one call, here
            }
        }
    }
}

TEST_CASE("assignments, reductions and a stencil: the serial values at 1 to 4 threads") {
    KeepThreads keep;
    const Expr e((int64_t(1) << 18) + 7);
    const FloatTensor a = filled({(int64_t(1) << 20) + 13}, -1, 1, 5);
    const FloatTensor b = filled({(int64_t(1) << 20) + 13}, -1, 1, 6);
    const FloatTensor m = filled({700, 1500}, -1, 1, 8);
    const FloatTensor grid = filled({64, 64, 64}, -1, 1, 7);

    t7::setNumThreads(1);
    const FloatTensor y1 = e.run();
    CHECK(e.close(y1));
    const double s1 = t7::sum(a * b);
    CHECK(std::abs(s1 - naive_dot(a, b)) < 1e-6 * a.nElement());
    const FloatTensor rows1 = t7::sum(m, 1), cols1 = t7::sum(m, 0);
    const FloatTensor st1 = stencil(grid);
    CHECK(stencil_close(grid, st1));

    for (int threads : {2, 3, 4}) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        CHECK(same_bits(e.run(), y1));
        const double s = t7::sum(a * b);
        CHECK(std::memcmp(&s, &s1, sizeof s) == 0);
        CHECK(same_bits(t7::sum(m, 1), rows1));
        CHECK(same_bits(t7::sum(m, 0), cols1));
        CHECK(same_bits(stencil(grid), st1));
    }
}

TEST_CASE("an exception in a chunk reaches the caller: the first chunk's") {
    KeepThreads keep;
    for (int threads : {2, 3, 4}) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        std::atomic<int> ran{0};
        try {
            t7::iter::parallel_for(4000, 1, [&](int64_t, int64_t, int64_t c) {
                ++ran;
                if (c >= 1) throw std::runtime_error("chunk " + std::to_string(c));
            });
            FAIL("no exception");
        } catch (const std::runtime_error& err) {
            CHECK(std::string(err.what()) == "chunk 1");
        }
        CHECK(ran.load() == threads); // the other chunks ran to their end
        // A t7::map functor throwing inside an assignment above the grain.
        FloatTensor in = filled({int64_t(1) << 18}, 0, 1, 9), out(int64_t(1) << 18);
        in.data()[200000] = -1;
        CHECK_THROWS_AS(out = t7::map(
                            [](float v) {
                                if (v < 0) throw std::domain_error("negative");
                                return v * 2;
                            },
                            in),
                        std::domain_error);
        // The pool works after it.
        const std::vector<Chunk> seen = chunks_of_for(1000, 1);
        check_cover(seen, 1000);
        CHECK(int64_t(seen.size()) == threads);
    }
}

TEST_CASE("iter::Linger holds the pool while alive, nested, and lets go as it unwinds") {
    KeepThreads keep;
    t7::setNumThreads(2);
    const int before = t7::detail::lingering();
    {
        const t7::iter::Linger outer;
        CHECK(t7::detail::lingering() == before + 1);
        {
            const t7::iter::Linger inner;
            CHECK(t7::detail::lingering() == before + 2);
        }
        CHECK(t7::detail::lingering() == before + 1);
        // loops inside run as before: each element once, two chunks
        const std::vector<Chunk> seen = chunks_of_for(1000, 1);
        check_cover(seen, 1000);
        CHECK(seen.size() == 2);
    }
    CHECK(t7::detail::lingering() == before);
    try {
        const t7::iter::Linger held;
        throw std::runtime_error("out");
    } catch (const std::runtime_error&) {
    }
    CHECK(t7::detail::lingering() == before);
    {
        const t7::iter::Linger off(false);
        CHECK(t7::detail::lingering() == before);
    }
    // the products and factorisations that hold it let go when they return
    const FloatTensor a = filled({300, 300}, -1, 1, 3), b = filled({300, 300}, -1, 1, 4);
    const FloatTensor c = t7::mm(a, b);
    CHECK(c.size(0) == 300);
    CHECK(t7::detail::lingering() == before);
    CHECK_THROWS_AS(t7::mm(a, filled({299, 300}, -1, 1, 5)), t7::ShapeError);
    CHECK(t7::detail::lingering() == before);
    // one thread: nothing to hold
    t7::setNumThreads(1);
    {
        const t7::iter::Linger one;
        CHECK(t7::detail::lingering() == before);
    }
}

TEST_CASE("a parallel loop inside a chunk runs, with the right values, without deadlock") {
    KeepThreads keep;
    t7::setNumThreads(3);
    const int64_t outer = 6, inner = 50000;
    std::vector<int64_t> sums(size_t(outer), 0);
    const Expr e(int64_t(1) << 17);
    t7::setNumThreads(1);
    const FloatTensor want = e.run();
    t7::setNumThreads(3);
    std::vector<FloatTensor> got(static_cast<size_t>(outer));
    t7::iter::parallel_for(outer, 1, [&](int64_t b, int64_t end, int64_t) {
        for (int64_t o = b; o < end; ++o) {
            std::atomic<int64_t> s{0};
            t7::iter::parallel_for(inner, 100, [&](int64_t ib, int64_t ie, int64_t) {
                int64_t local = 0;
                for (int64_t i = ib; i < ie; ++i) local += i * (o + 1);
                s += local;
            });
            sums[size_t(o)] = s.load();
            got[size_t(o)] = e.run(); // an expression's threaded loop, nested
        }
    });
    for (int64_t o = 0; o < outer; ++o) {
        CHECK(sums[size_t(o)] == (o + 1) * inner * (inner - 1) / 2);
        CHECK(same_bits(got[size_t(o)], want));
    }
}

TEST_CASE("loops from several std::threads at once give the right values") {
    KeepThreads keep;
    const Expr e(int64_t(1) << 18);
    const FloatTensor a = filled({int64_t(1) << 20}, -1, 1, 5);
    const FloatTensor grid = filled({48, 48, 48}, -1, 1, 7);
    t7::setNumThreads(1);
    const FloatTensor y1 = e.run(), st1 = stencil(grid);
    const double s1 = t7::sum(a * a);
    t7::setNumThreads(2);
    std::atomic<int> bad{0};
    std::vector<std::thread> users;
    for (int u = 0; u < 4; ++u)
        users.emplace_back([&, u] {
            for (int it = 0; it < 20; ++it) {
                if (!same_bits(e.run(), y1)) ++bad;
                const double s = t7::sum(a * a);
                if (std::memcmp(&s, &s1, sizeof s) != 0) ++bad;
                if ((it + u) % 4 == 0 && !same_bits(stencil(grid), st1)) ++bad;
            }
        });
    for (std::thread& t : users) t.join();
    CHECK(bad.load() == 0);
}

TEST_CASE("with two busy sibling processes on the cores: the same values") {
    KeepThreads keep;
    const Expr e((int64_t(1) << 18) + 3);
    const FloatTensor a = filled({int64_t(1) << 20}, -1, 1, 5);
    const FloatTensor b = filled({int64_t(1) << 20}, -1, 1, 6);
    const FloatTensor grid = filled({96, 96, 96}, -1, 1, 7);
    t7::setNumThreads(1);
    const FloatTensor y1 = e.run(), st1 = stencil(grid);
    const double s1 = t7::sum(a * b);
    {
        BusySiblings busy(2);
        for (int threads : {1, 2, 3}) {
            CAPTURE(threads);
            t7::setNumThreads(threads);
            for (int it = 0; it < 10; ++it) {
                CHECK(same_bits(e.run(), y1));
                const double s = t7::sum(a * b);
                CHECK(std::memcmp(&s, &s1, sizeof s) == 0);
                CHECK(same_bits(stencil(grid), st1));
            }
        }
    }
    CHECK(e.close(y1));
    CHECK(stencil_close(grid, st1));
}

#if defined(__linux__)
namespace {
bool allowed_everywhere(pid_t tid, const cpu_set_t& all) {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(tid, sizeof(set), &set) == 0 && CPU_EQUAL(&set, &all);
}
// Every thread of this process may run on every CPU of `all`.
bool all_threads_free(const cpu_set_t& all) {
    bool free = true;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task"))
        free = free && allowed_everywhere(pid_t(std::stol(task.path().filename())), all);
    return free;
}
} // namespace

TEST_CASE("pool threads woken away from the caller's CPU run anywhere again") {
    // Before waking sleeping pool threads, the caller keeps the first few off its
    // own CPU (steer_away, iter/thread_pool_impl.hpp); each frees itself as it
    // wakes, before it claims a chunk. So a helper's chunks run with all the
    // process's CPUs allowed, and once the woken helpers have run, every thread
    // is free again (waited for: a woken thread runs when the scheduler says).
    cpu_set_t all;
    CPU_ZERO(&all);
    REQUIRE(sched_getaffinity(0, sizeof(all), &all) == 0);
    KeepThreads keep;
    t7::setNumThreads(3);
    std::atomic<int> helper_chunks{0}, confined{0};
    const std::thread::id caller = std::this_thread::get_id();
    for (int round = 0; round < 4; ++round) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30)); // the helpers sleep
        // 64 grains of 50 us: enough work to wake them (parallel.hpp's wake_grains)
        t7::iter::parallel_for(64, 1, [&](int64_t b, int64_t e, int64_t) {
            if (std::this_thread::get_id() != caller) {
                ++helper_chunks;
                if (!allowed_everywhere(0, all)) ++confined;
            }
            const auto end =
                std::chrono::steady_clock::now() + std::chrono::microseconds(50 * (e - b));
            while (std::chrono::steady_clock::now() < end) {
            }
        });
    }
    CHECK(confined.load() == 0);
    bool free = false;
    for (int i = 0; i < 200 && !(free = all_threads_free(all)); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(free);
    MESSAGE("chunks run by woken helpers: " << helper_chunks.load());
}
#endif

TEST_CASE("setNumThreads and getNumThreads") {
    KeepThreads keep;
    // Before any setNumThreads: OMP_NUM_THREADS when it is a positive number,
    // else at least one thread.
    const int by_default = t7::detail::default_threads();
    CHECK(by_default >= 1);
    if (const char* v = std::getenv("OMP_NUM_THREADS"); v && std::atoi(v) > 0)
        CHECK(by_default == std::atoi(v));
    t7::setNumThreads(3);
    CHECK(t7::getNumThreads() == 3);
    t7::setNumThreads(0);
    CHECK(t7::getNumThreads() == 1);
    t7::setNumThreads(-4);
    CHECK(t7::getNumThreads() == 1);
    // One thread: every chunk on the calling thread, in one chunk.
    const std::vector<Chunk> one = chunks_of_for(100000, 1);
    REQUIRE(one.size() == 1);
    CHECK(one[0].thread == std::this_thread::get_id());
    // More threads than cores: the loop still covers its range.
    t7::setNumThreads(8);
    CHECK(t7::getNumThreads() == 8);
    const std::vector<Chunk> eight = chunks_of_for(100000, 1);
    check_cover(eight, 100000);
    CHECK(eight.size() == 8);
    const Expr e(int64_t(1) << 18);
    CHECK(e.close(e.run()));
    // Back down to 2: at most two threads run the chunks.
    t7::setNumThreads(2);
    const std::vector<Chunk> two = chunks_of_for(100000, 1);
    CHECK(two.size() == 2);
}

// ---------------------------------------------------------------------------------
// Storage handles across threads (core/shared_count.hpp): the creating thread
// counts its handles without locked instructions, the others atomically; a
// storage is freed once, when the last handle goes, wherever it goes.
// ---------------------------------------------------------------------------------

namespace {

// A pending storage's recipe that counts its destruction: the storage's own.
struct FreedProbe final : t7::detail::PendingProducer {
    std::atomic<int>* freed;
    explicit FreedProbe(std::atomic<int>* f) : PendingProducer(1, 1, 4), freed(f) {}
    ~FreedProbe() override { freed->fetch_add(1); }
    void fill(void* data) const override { std::memset(data, 0, 4 * sizeof(float)); }
    void block(int64_t, int64_t, int64_t, int64_t, int64_t, void*, int64_t) const override {}
    bool reads(const void*, const void*) const override { return false; }
};

t7::Storage<float> probed(std::atomic<int>& freed) {
    return t7::Storage<float>::pending(4, std::make_unique<FreedProbe>(&freed));
}

} // namespace

TEST_CASE("a storage dropped last on another thread is freed once, by its next count") {
    std::atomic<int> freed{0};
    t7::Storage<float> kept = probed(freed);
    {
        t7::Storage<float> s = probed(freed);
        t7::Storage<float> copy = s; // counted by this thread, dropped by the other
        std::thread([h = std::move(s), c = std::move(copy)]() mutable {
            t7::Storage<float> a = std::move(h), b = std::move(c);
        }).join();
    }
    // The creating thread merges what other threads dropped when it next counts
    // handles (or creates a storage, or exits).
    CHECK(kept.use_count() == 1);
    CHECK(freed.load() == 1);
    t7::Storage<float> fresh(8);
    CHECK(freed.load() == 1);
}

TEST_CASE("a storage whose creating thread has exited is freed by its last handle") {
    std::atomic<int> freed{0};
    t7::Storage<float> s;
    std::thread([&] {
        t7::Storage<float> mine = probed(freed);
        t7::Storage<float> extra = mine; // two handles counted by the exiting thread
        s = std::move(mine);
        t7::Storage<float> gone = std::move(extra);
    }).join();
    CHECK(s.use_count() == 1);
    t7::Storage<float> second = s;
    CHECK(s.use_count() == 2);
    second = t7::Storage<float>();
    CHECK(freed.load() == 0);
    s = t7::Storage<float>();
    CHECK(freed.load() == 1);
}

TEST_CASE("the creator drops first, another thread last: freed on that thread") {
    std::atomic<int> freed{0};
    t7::Storage<float> s = probed(freed);
    std::atomic<int> step{0};
    bool freed_there = false;
    std::thread t([&] {
        t7::Storage<float> h = s; // counted by this thread
        step = 1;
        while (step.load() != 2) std::this_thread::yield();
        h = t7::Storage<float>();
        freed_there = freed.load() == 1; // before this thread returns
    });
    while (step.load() != 1) std::this_thread::yield();
    s = t7::Storage<float>();
    CHECK(freed.load() == 0);
    step = 2;
    t.join();
    CHECK(freed_there);
    CHECK(freed.load() == 1);
}

TEST_CASE("handles copied and dropped by four threads at once: exact counts, one free") {
    std::atomic<int> freed{0};
    t7::Storage<float> s = probed(freed);
    // Handles this thread counted, dropped by the others (their shared count
    // goes below zero), and handles the others count and drop themselves.
    std::vector<std::vector<t7::Storage<float>>> handed(4);
    for (auto& h : handed) h.assign(500, s);
    CHECK(s.use_count() == 2001);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20000; ++i) {
                t7::Storage<float> copy = s;
                if (i % 40 == 0) handed[t].pop_back();
            }
            CHECK(handed[t].empty());
        });
    for (int i = 0; i < 20000; ++i) t7::Storage<float> copy = s; // the creator's side
    for (auto& t : threads) t.join();
    CHECK(s.use_count() == 1);
    CHECK(freed.load() == 0);
    s = t7::Storage<float>();
    CHECK(freed.load() == 1);
}

TEST_CASE("a stored expression keeps its operands alive on another thread") {
    std::optional<FloatTensor> a(std::in_place, 1000), b(std::in_place, 1000);
    for (int64_t i = 0; i < 1000; ++i) {
        a->data()[i] = float(i);
        b->data()[i] = float(2 * i);
    }
    auto e = *a * *b + *a;
    a.reset();
    b.reset(); // only the expression holds the memory now
    FloatTensor y;
    std::thread([&y, e = std::move(e)] { y = e; }).join();
    REQUIRE(y.nElement() == 1000);
    for (int64_t i = 0; i < 1000; i += 111)
        CHECK(y.data()[i] == float(i) * float(2 * i) + float(i));
}
