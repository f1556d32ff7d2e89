// The fixed decomposition behind deterministic CPU reductions. Floating
// addition is not associative, so a reduction's rounding follows how its
// elements are grouped; to give bit-identical results for any thread count the
// groups depend on the shape (and strides) only: blocks reduced each from the
// identity into their own partial, partials merged in block order. Threads
// merely take contiguous ranges of whole blocks.
#pragma once

#include "../../iter/parallel.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace t7::cpu {

// Whole-tensor reductions: blocks of this many elements in loop order (a
// multiple of reduce_run's packet block of 1024, so a block changes nothing
// inside a contiguous run but where its partial starts).
inline constexpr int64_t reduce_block = iter::parallel_grain;

// One partial per block: on the stack up to Inline blocks (2^24 floats for
// 512), else on the heap (an input that large costs far more than the allocation).
template <class A, size_t Inline = 512>
class BlockPartials {
    std::array<A, Inline> inline_;
    std::unique_ptr<A[]> heap_;
    A* p_;

public:
    explicit BlockPartials(int64_t n)
        : p_(size_t(n) <= Inline ? inline_.data() : (heap_.reset(new A[size_t(n)]), heap_.get())) {}
    A& operator[](int64_t i) { return p_[i]; }
};

// Rows of partial results for reductions along a dimension, kept by the
// calling thread between calls (no allocation once warm). A reduction nested
// in another on the same thread (from a user functor) takes its own memory.
template <class A>
class PartialRows {
    struct Keep {
        std::unique_ptr<A[]> p;
        size_t n = 0;
        bool busy = false;
    };
    static Keep& keep() {
        static thread_local Keep k;
        return k;
    }
    std::unique_ptr<A[]> own_;
    A* p_ = nullptr;
    bool leased_ = false;

public:
    explicit PartialRows(size_t n) {
        if (n == 0) return;
        Keep& k = keep();
        if (k.busy) {
            own_.reset(new A[n]);
            p_ = own_.get();
            return;
        }
        if (k.n < n) {
            k.p.reset(new A[n]);
            k.n = n;
        }
        k.busy = leased_ = true;
        p_ = k.p.get();
    }
    PartialRows(const PartialRows&) = delete;
    PartialRows& operator=(const PartialRows&) = delete;
    ~PartialRows() {
        if (leased_) keep().busy = false;
    }
    A* data() const { return p_; }
};

// A reduction whose outermost loop dimension (R rows) is reduced into m
// outputs (the kept positions, in loop order): items are (row block, tile)
// pairs. Tiles cut the kept positions into pieces of at most `max_tile` (the
// row stage's width, so every run stages whatever the thread count); row
// blocks hold enough rows for a thread's worth of work, up to 512 rows but at
// least two blocks when R allows (two threads), and at most `budget` bytes of
// partial rows. (Fewer, longer blocks are faster: 512-row blocks cost about 1 %
// on a 4096^2 float column sum at one thread, 256-row ones 3-5 %.)
// Block 0 accumulates in the output itself, block b > 0 in partial row b - 1;
// the rows merge into the output in block order.
struct ColumnBlocks {
    int64_t rows = 0, m = 0;  // R and m
    int64_t rb = 0, nb = 0;   // rows per block, blocks
    int64_t tile = 0, nt = 0; // kept positions per tile, tiles

    static constexpr int64_t max_tile = 4096;
    static constexpr int64_t budget = int64_t(1) << 20;

    ColumnBlocks(int64_t R, int64_t outputs, size_t acc_size) : rows(R), m(outputs) {
        tile = std::min(m, max_tile);
        nt = (m + tile - 1) / tile;
        const int64_t max_blocks =
            std::clamp<int64_t>(budget / (m * int64_t(acc_size)), 1, int64_t(1) << 16);
        const int64_t enough = (iter::parallel_grain + tile - 1) / tile; // rows for one thread
        rb = std::max(
            {enough, std::min<int64_t>(512, (R + 1) / 2), (R + max_blocks - 1) / max_blocks});
        rb = std::min(rb, R);
        nb = (R + rb - 1) / rb;
    }
    int64_t items() const { return nb * nt; }
};

} // namespace t7::cpu
