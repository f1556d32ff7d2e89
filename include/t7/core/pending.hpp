// Pending storages: a storage may hold, instead of its values, the recipe that
// computes them (a matrix product or a batch of them, math/pending_product.hpp). Storage::data()
// materialises it on first access; the CPU assignment (eval/cpu/product_blocks.hpp)
// may instead consume it block by block without ever allocating it.
// ProductScope bounds how long a product may stay pending: to the end of the
// statement that created it (see math/blas.hpp, mm).
#pragma once

#include <cstdint>
#include <exception>
#include <mutex>

namespace t7::detail {

// The type-erased recipe of a pending storage's values: `batches` row-major
// rows x cols matrices of the storage's element type, one after the other (one
// matrix for mm/addmm, one per batch for bmm/baddbmm).
struct PendingProducer {
    PendingProducer(int64_t batches, int64_t rows, int64_t cols, int64_t depth = 0)
        : batches(batches), rows(rows), cols(cols), depth(depth) {}
    virtual ~PendingProducer() = default;
    // All the values, into data (contiguous), with the library's threads.
    virtual void fill(void* data) const = 0;
    // The block of rows [r0, r1) and columns [c0, c1) of matrix `batch` into buf
    // (element (i, j) at buf + (i - r0) * ld + (j - c0)), on the calling thread
    // only (it may be one of a parallel region's).
    virtual void block(int64_t batch, int64_t r0, int64_t r1, int64_t c0, int64_t c1, void* buf,
                       int64_t ld) const = 0;
    // Whole rows [r0, r1) of matrix `batch`.
    void whole_rows(int64_t batch, int64_t r0, int64_t r1, void* buf, int64_t ld) const {
        block(batch, r0, r1, 0, cols, buf, ld);
    }
    // True when the recipe reads memory in [lo, hi).
    virtual bool reads(const void* lo, const void* hi) const = 0;

    // The values' layout: `batches` matrices of rows x cols (batches is 1 for
    // mm/addmm, whose result is 2-D; bmm's 3-D result has batches >= 1), and the
    // multiply-adds of each value (a product's inner size; 0: not a product).
    const int64_t batches, rows, cols, depth;
};

// Materialisation is rare and cold: one lock for every storage.
inline std::mutex& pending_mutex() {
    static std::mutex m;
    return m;
}

// A temporary created in the caller's full-expression (a defaulted parameter of
// mm/addmm), so destroyed at its end, after the product's returned tensor and
// every expression node built from it. It holds one reference to the pending
// storage registered with it: if that is the last one, the product was
// consumed inside the statement and is dropped; otherwise it is materialised
// now, so that the result is the product of the operands of that statement.
class ProductScope {
public:
    ProductScope() noexcept : uncaught_(std::uncaught_exceptions()) {}
    ProductScope(const ProductScope&) = delete;
    ProductScope& operator=(const ProductScope&) = delete;
    // May throw MemoryError (materialising allocates), but not while an
    // exception propagates: the product then stays pending (it materialises on
    // first access, from the operands it holds).
    ~ProductScope() noexcept(false) {
        if (!end_) return;
        end_(block_, std::uncaught_exceptions() <= uncaught_);
    }
    // `end(block, materialise)` releases the scope's reference to block.
    void adopt(void* block, void (*end)(void*, bool)) const {
        if (end_) end_(block_, true); // one product per scope; never reached by mm
        block_ = block;
        end_ = end;
    }

private:
    mutable void* block_ = nullptr;
    mutable void (*end_)(void*, bool) = nullptr;
    int uncaught_;
};

} // namespace t7::detail
