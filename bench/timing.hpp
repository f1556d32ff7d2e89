// Small timing helpers shared by the benchmarks: best-of-reps wall time, alone
// or for contenders in interleaved rounds.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace bench {

// Best time per call (seconds) of f over `reps` repetitions of `inner` calls.
template <class F>
double best_time(F&& f, int reps, int64_t inner) {
    double best = 1e30;
    f(); // warm caches and pages
    for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < inner; ++i) f();
        auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count() / double(inner));
    }
    return best;
}

// Time per call (seconds) of each contender in each of `rounds` interleaved
// rounds of `inner` calls (times[contender][round]): drift on a shared machine
// hits every contender alike. `settle`: a pause before each contender's calls,
// so that the threads of the one before have gone to sleep. libgomp's spin for
// milliseconds after a parallel region (GOMP_SPINCOUNT): a contender timed right
// after an OpenMP one shares the second core with that spinning thread
// (measured: tensor7's y = x.t() + x at 2^24 on two threads, median 9.8 ms,
// 12.6 ms right after an OpenMP region, 9.9 ms 30 ms after it). `warm`: one
// untimed call after the pause, as a loop of calls back to back (NumPy's
// timeit.repeat) times them: the first call after an idle pause runs slower
// on this VM (mm 512^3: 1.2-1.44 ms against 0.93-1.0 for the next).
inline std::vector<std::vector<double>>
race_rounds(const std::vector<std::function<void()>>& fs, int rounds, int64_t inner = 1,
            std::chrono::milliseconds settle = std::chrono::milliseconds(0), bool warm = false) {
    std::vector<std::vector<double>> times(fs.size());
    for (const auto& f : fs) f(); // warm caches and pages
    for (int r = 0; r < rounds; ++r) {
        for (size_t k = 0; k < fs.size(); ++k) {
            if (settle.count() > 0) std::this_thread::sleep_for(settle);
            if (warm) fs[k]();
            auto t0 = std::chrono::steady_clock::now();
            for (int64_t i = 0; i < inner; ++i) fs[k]();
            auto t1 = std::chrono::steady_clock::now();
            times[k].push_back(std::chrono::duration<double>(t1 - t0).count() / double(inner));
        }
    }
    return times;
}

inline double best_of(const std::vector<double>& v) {
    return *std::min_element(v.begin(), v.end());
}
inline double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Best time per call (seconds) of each contender over `rounds` interleaved
// rounds (race_rounds).
inline std::vector<double> race(const std::vector<std::function<void()>>& fs, int rounds,
                                int64_t inner = 1,
                                std::chrono::milliseconds settle = std::chrono::milliseconds(0),
                                bool warm = false) {
    std::vector<double> best;
    for (const auto& t : race_rounds(fs, rounds, inner, settle, warm)) best.push_back(best_of(t));
    return best;
}

// Keeps the optimiser from discarding a result.
template <class T>
inline void keep(const T& v) {
    asm volatile("" : : "g"(&v) : "memory");
}

// Runs a Python script with Debian's /usr/bin/python3 (NumPy 1.24; OpenBLAS's own
// core detection) and reads its lines "word word ... seconds": the words, joined by
// single spaces, map to the seconds. Empty when python3 or NumPy is missing.
inline std::map<std::string, double> python_timings(const std::string& script) {
    std::string esc;
    for (char c : script) {
        if (c == '"' || c == '\\' || c == '$' || c == '`') esc += '\\';
        esc += c;
    }
    const std::string cmd =
        "env -u OPENBLAS_CORETYPE /usr/bin/python3 -c \"" + esc + "\" 2>/dev/null";
    std::map<std::string, double> out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) {
        std::istringstream line(buf);
        std::vector<std::string> words;
        for (std::string w; line >> w;) words.push_back(w);
        if (words.size() < 2) continue;
        std::string key = words[0];
        for (size_t k = 1; k + 1 < words.size(); ++k) key += " " + words[k];
        try {
            out[key] = std::stod(words.back());
        } catch (const std::exception&) { // not a timing line
        }
    }
    pclose(p);
    return out;
}
} // namespace bench
