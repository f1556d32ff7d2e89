// Storage<T, D>: a reference-counted, typed chunk of memory (Torch7's
// torch.Storage). Copying a Storage handle shares the memory; the last handle
// frees it (back to the device's caching allocator). The count of handles is
// biased towards the creating thread (shared_count.hpp): plain there, atomic
// elsewhere. wrap() views external
// memory without owning it. resize() never leaves a handle dangling: a wrapped
// storage keeps its size, a shared one (a tensor views it) never shrinks, and a
// pinned one (lent through DLPack) never moves.
#pragma once

#include "dtype.hpp"
#include "error.hpp"
#include "memory.hpp"
#include "pending.hpp"
#include "shared_count.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

namespace t7 {

template <class T, class D = CPU>
class Storage {
    struct Block {
        detail::SharedCount refs; // one reference: the creating thread's (shared_count.hpp)
        T* data = nullptr;
        int64_t size = 0;
        size_t capacity = 0; // bytes obtained from the allocator (0 when not owned)
        bool owns = true;
        int device = 0;
        // Run once by the last handle of a wrapped storage (wrap with a release).
        void (*release)(void*) noexcept = nullptr;
        void* release_ctx = nullptr;
        // Non-null while the values are a recipe not yet run (core/pending.hpp).
        std::atomic<detail::PendingProducer*> pending{nullptr};
        // Exports whose consumer holds `data` (t7::toDLPack): read only by resize.
        std::atomic<int32_t> pins{0};
    };

public:
    using value_type = T;
    using device_type = D;

    Storage() = default;
    // A new storage lives on the device's current device unless one is named
    // (CUDA: t7::cuda::setDevice; the CPU has only device 0).
    explicit Storage(int64_t n, int device = DeviceMemory<D>::current_device()) {
        if (n < 0) detail::fail<ShapeError>("Storage: negative size ", n);
        size_t cap = 0;
        T* p = n > 0 ? allocate(n, cap, device) : nullptr; // may throw: nothing to free yet
        try {
            b_ = new Block;
        } catch (...) {
            if (p) DeviceMemory<D>::deallocate(p, cap, device);
            throw;
        }
        b_->device = device;
        b_->size = n;
        b_->data = p;
        b_->capacity = cap;
    }
    Storage(const Storage& o) noexcept : b_(o.b_) { retain(); }
    Storage(Storage&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
    Storage& operator=(const Storage& o) noexcept {
        Storage(o).swap(*this);
        return *this;
    }
    Storage& operator=(Storage&& o) noexcept {
        Storage(std::move(o)).swap(*this);
        return *this;
    }
    ~Storage() { release(); }
    void swap(Storage& o) noexcept { std::swap(b_, o.b_); }

    // A storage over memory the caller owns and keeps alive.
    static Storage wrap(T* p, int64_t n, int device = 0) {
        if (n < 0) detail::fail<ShapeError>("Storage::wrap: negative size ", n);
        if (!p && n > 0) detail::fail<Error>("Storage::wrap: null pointer with size ", n);
        Storage s;
        s.b_ = new Block;
        s.b_->data = p;
        s.b_->size = n;
        s.b_->owns = false;
        s.b_->device = device;
        return s;
    }
    // The same, handing the memory's release to the storage: when the last
    // handle (storage, tensor or view) goes, `release(ctx)` runs once, in the
    // thread that drops it, and must not throw. The storage still does not own
    // the memory (ownsStorage() false, never resized). If wrap throws (a
    // negative size, a null pointer with elements, out of memory), `release`
    // is not called: the memory is still the caller's. (t7::fromDLPack uses it.)
    static Storage wrap(T* p, int64_t n, int device, void (*release)(void*) noexcept, void* ctx) {
        Storage s = wrap(p, n, device);
        s.b_->refs.make_shared_only(); // `release` runs on the thread that drops the last handle
        s.b_->release = release;
        s.b_->release_ctx = ctx;
        return s;
    }

    // A storage of n elements whose values `p` computes when first accessed
    // (CPU only: the recipe writes host memory). Nothing is allocated yet.
    static Storage
    pending(int64_t n, std::unique_ptr<detail::PendingProducer> p) requires std::is_same_v<D, CPU> {
        Storage s;
        s.b_ = new Block;
        s.b_->size = n;
        s.b_->pending.store(p.release(), std::memory_order_release);
        return s;
    }

    int64_t size() const { return b_ ? b_->size : 0; }
    // Every access to the values goes through here: a pending storage is
    // materialised first (one predictable branch).
    T* data() const {
        if (!b_) return nullptr;
        if (b_->pending.load(std::memory_order_acquire)) [[unlikely]]
            materialise();
        return b_->data;
    }
    // The values' address without materialising: null for a pending storage.
    // For callers that have just read pending() (one test, not two).
    T* data_if_ready() const { return b_ ? b_->data : nullptr; }
    // The recipe of a pending storage (null otherwise), without materialising.
    const detail::PendingProducer* pending() const {
        return b_ ? b_->pending.load(std::memory_order_acquire) : nullptr;
    }
    // ProductScope's hooks (core/pending.hpp): a counted reference to the block,
    // and its release, which materialises the values if another handle remains
    // (and `compute`: not while an exception propagates) or drops the recipe
    // unrun if none does.
    void* share_block() const {
        retain();
        return b_;
    }
    static void end_scope(void* block, bool compute) {
        Storage s;
        s.b_ = static_cast<Block*>(block); // adopts the scope's reference
        if (compute && s.use_count() > 1 && s.pending()) s.materialise();
    }
    // A consumer outside tensor7 holds the values' address (t7::toDLPack): until
    // as many unpin() as pin() calls, resize() refuses to move the memory.
    void pin() const {
        if (b_) b_->pins.fetch_add(1, std::memory_order_relaxed);
    }
    void unpin() const {
        if (b_) b_->pins.fetch_sub(1, std::memory_order_relaxed);
    }
    bool ownsStorage() const { return b_ ? b_->owns : true; }
    int device() const { return b_ ? b_->device : 0; }
    bool valid() const { return b_ != nullptr; }
    int64_t use_count() const { return b_ ? b_->refs.count() : 0; }
    // Identity of the underlying memory (two handles to one storage compare equal).
    const void* id() const { return b_; }
    friend bool operator==(const Storage& a, const Storage& b) { return a.b_ == b.b_; }

    T& operator[](int64_t i) const requires std::is_same_v<D, CPU> {
        if (i < 0 || i >= size())
            detail::fail<IndexError>("Storage[]: index ", i, " out of range for storage of size ",
                                     size());
        return data()[i];
    }

    Storage& fill(T v) requires std::is_same_v<D, CPU> {
        std::fill(data(), data() + size(), v);
        return *this;
    }

    // Grows or shrinks to n elements keeping the first min(n, size()) values.
    // All handles see the new memory (Torch7's THStorage_resize). Refused as
    // check_resize says, with nothing changed.
    Storage& resize(int64_t n) {
        if (n < 0) detail::fail<ShapeError>("Storage::resize: negative size ", n);
        if (!b_) {
            *this = Storage(n);
            return *this;
        }
        if (n == b_->size) return *this;
        check_resize(n, "Storage::resize");
        (void)data(); // a pending storage's values first
        size_t cap = 0;
        T* p = n > 0 ? allocate(n, cap, b_->device) : nullptr;
        int64_t keep = std::min(n, b_->size);
        if (keep > 0)
            DeviceMemory<D>::copy_bytes(p, b_->data, size_t(keep) * sizeof(T), b_->device);
        free_data();
        b_->data = p;
        b_->size = n;
        b_->capacity = cap;
        return *this;
    }

    // ShapeError (naming `op`) unless resize(n) may run. A wrapped storage's
    // memory is the caller's: it keeps its size (as in Torch7). A storage that
    // other handles share - every tensor viewing it holds one - does not shrink:
    // those views would read freed memory; it may grow (views see the new memory).
    // A pinned one does not move: a DLPack consumer, or a real/imag view (which
    // holds the complex storage), would read the freed block.
    void check_resize(int64_t n, const char* op) const {
        if (!b_ || n == b_->size) return;
        if (const int32_t pins = b_->pins.load(std::memory_order_relaxed); pins > 0)
            detail::fail<ShapeError>(op, ": cannot resize a storage of size ", b_->size, " to ", n,
                                     " while ", pins,
                                     " view(s) hold its memory (t7::real or t7::imag of a "
                                     "complex tensor, t7::toDLPack exports); it may move once "
                                     "they are gone");
        if (!b_->owns)
            detail::fail<ShapeError>(op, ": cannot resize a wrapped storage of size ", b_->size,
                                     " to ", n, " (its memory belongs to the caller)");
        if (n < b_->size && use_count() > 1)
            detail::fail<ShapeError>(
                op, ": cannot shrink a storage of size ", b_->size, " to ", n, " that ",
                use_count(), " handles share (a tensor viewing it would read past its end)");
    }

private:
    [[gnu::cold]] [[gnu::noinline]] void materialise() const {
        std::lock_guard<std::mutex> lock(detail::pending_mutex());
        detail::PendingProducer* p = b_->pending.load(std::memory_order_relaxed);
        if (!p) return; // another thread did it
        size_t cap = 0;
        T* data = b_->size > 0 ? allocate(b_->size, cap, b_->device) : nullptr; // may throw
        try {
            if (data) p->fill(data);
        } catch (...) {
            DeviceMemory<D>::deallocate(data, cap, b_->device);
            throw;
        }
        b_->data = data;
        b_->capacity = cap;
        b_->pending.store(nullptr, std::memory_order_release);
        delete p;
    }
    static T* allocate(int64_t n, size_t& cap, int device) {
        if (uint64_t(n) > detail::max_alloc_bytes / sizeof(T))
            detail::fail<MemoryError>("Storage: cannot allocate ", n, " elements of ", sizeof(T),
                                      " bytes (more than 2^62 bytes)");
        return static_cast<T*>(DeviceMemory<D>::allocate(size_t(n) * sizeof(T), cap, device));
    }
    static void free_data(Block* b) {
        if (b->owns && b->data) DeviceMemory<D>::deallocate(b->data, b->capacity, b->device);
    }
    void free_data() { free_data(b_); }
    void retain() const {
        if (b_) b_->refs.retain();
    }
    void release() {
        if (b_ && b_->refs.release(b_, &destroy)) [[unlikely]]
            destroy(b_);
        b_ = nullptr;
    }
    // The last handle's release, out of line: release() inlines into handles'
    // destructors, which every expression leaf runs. (Also run by the owner's
    // merge of a storage another thread dropped last: shared_count.hpp.)
    [[gnu::noinline]] static void destroy(void* block) noexcept {
        Block* b = static_cast<Block*>(block);
        delete b->pending.load(std::memory_order_relaxed); // a recipe never run
        free_data(b);
        if (b->release) b->release(b->release_ctx);
        delete b;
    }

    Block* b_ = nullptr;
};

using ByteStorage = Storage<uint8_t>;
using CharStorage = Storage<int8_t>;
using ShortStorage = Storage<int16_t>;
using IntStorage = Storage<int32_t>;
using LongStorage = Storage<int64_t>;
using FloatStorage = Storage<float>;
using DoubleStorage = Storage<double>;

} // namespace t7
