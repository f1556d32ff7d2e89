// t7::mpi::DistTensor<T>: a tensor of global sizes split in blocks over a
// Cartesian grid of a communicator's ranks (MPI_Cart_create; MPI_Dims_create
// when the grid is not given), each rank holding its block plus halo layers.
//
//   t7::mpi::DistTensor<float> u(world, {G, G}, {1, 1}), v(world, {G, G}, {1, 1});
//   using S = t7::slice;
//   v(S(1, -1), S(1, -1)) = 0.25f * (u(S(0, -2), S(1, -1)) + u(S(2), S(1, -1)) +
//                                    u(S(1, -1), S(0, -2)) + u(S(1, -1), S(2)));
//
// u(i0, i1, ...) (integers, t7::all, t7::slice of step 1) is a global window
// (DistWindow<T>), an expression node. Assigning an expression of windows and
// scalars to a window computes, on every rank, the part of the destination
// window that rank owns, as one fused pass of tensor7's engine over local views:
// every window of the expression becomes a Leaf of the local view shifted by
// the window's offset from the destination (read through the halo). Before
// that, every check is made on metadata every rank has (no message is sent when
// one fails, so no rank waits forever), and the halos an operand needs are
// exchanged when stale (every write through a window marks them stale):
// nonblocking sends and receives of views (derived datatypes, nothing packed),
// one dimension after the other, including the halos of the dimensions before,
// so that corners arrive too. While the first dimension's messages travel, the
// interior (the points whose reads all lie in the rank's block) is computed;
// the boundary strips follow (t7::mpi::setOverlap(false): exchange first).
//
// Block distribution: along dimension d of size n over g ranks the first n % g
// blocks have n / g + 1 elements, the others n / g (MPI's and PETSc's convention).
#pragma once

#include "communicator.hpp"
#include "error.hpp"
#include "request.hpp"

#include "../tensor.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace t7::mpi {

template <class T>
class DistTensor;
template <class T>
class DistWindow;

namespace detail {

// The distribution shared by every element type: global sizes, process grid,
// this rank's block (offset and sizes), halo widths and neighbours.
struct DistLayout {
    Communicator cart; // the Cartesian communicator (owned)
    Shape sizes, grid, halo;
    Shape coords, offset, local; // this rank's grid coordinates and block
    std::vector<int> lo, hi;     // neighbour ranks per dimension (MPI_PROC_NULL at the edge)

    int64_t dim() const { return int64_t(sizes.size()); }
    // Block c of n elements over g ranks: its first index and length.
    static int64_t block_start(int64_t n, int64_t g, int64_t c) {
        return c * (n / g) + std::min(c, n % g);
    }
    static int64_t block_size(int64_t n, int64_t g, int64_t c) { return n / g + (c < n % g); }

    // Same distribution: global sizes, grid and a congruent communicator.
    bool same_as(const DistLayout& o) const {
        if (sizes != o.sizes || grid != o.grid) return false;
        if (cart.native() == o.cart.native()) return true;
        int res = MPI_UNEQUAL;
        MPI_Comm_compare(cart.native(), o.cart.native(), &res);
        return res == MPI_IDENT || res == MPI_CONGRUENT;
    }
};

template <class T>
struct DistState : DistLayout {
    Tensor<T> data;    // the block with its halo layers (contiguous)
    bool stale = true; // the halo layers do not hold the neighbours' values
};

// Whether an assignment overlaps the halo exchange with the interior (on by
// default; t7::mpi::setOverlap).
inline bool& overlap_flag() {
    static bool on = true;
    return on;
}

// One tensor's halo exchange in steps (collective over s.cart): for each split
// dimension d in turn, the slabs of width halo[d] go to the lower and upper
// neighbours (nonblocking, views sent and received in place); along the
// dimensions before d the slabs include the halos (filled already: the corners
// travel on), along those after d only the block. start() posts the first
// dimension's messages and returns; finish() waits for them, then does the
// other dimensions. Different tensors' exchanges use different (Cartesian)
// communicators, so several may be in flight at once.
struct HaloJob {
    virtual ~HaloJob() = default;
    virtual void start() = 0;
    // Lets MPI move the messages in flight (one MPI_Test), without waiting.
    virtual void progress() = 0;
    virtual void finish() = 0;
};
template <class T>
struct HaloExchange final : HaloJob {
    explicit HaloExchange(DistState<T>& st) : s(st) {}
    DistState<T>& s;
    int64_t next = 0;
    std::vector<Request> pending;

    // Posts the messages of the next dimension that has any; false when none is left.
    bool post() {
        const int64_t n = s.dim();
        for (; next < n; ++next) {
            const int64_t d = next;
            const size_t k = size_t(d);
            const int64_t h = s.halo[k], m = s.local[k];
            if (s.grid[k] == 1 || h == 0) continue;
            Tensor<T> base = s.data;
            for (int64_t e = d + 1; e < n; ++e)
                base.set(base.narrow(e, s.halo[size_t(e)], s.local[size_t(e)]));
            const int up = int(2 * d + 1), down = int(2 * d + 2); // the direction data moves
            pending.reserve(4);
            if (s.lo[k] != MPI_PROC_NULL) {
                pending.push_back(s.cart.irecv(base.narrow(d, 0, h), s.lo[k], up));
                pending.push_back(s.cart.isend(base.narrow(d, h, h), s.lo[k], down));
            }
            if (s.hi[k] != MPI_PROC_NULL) {
                pending.push_back(s.cart.irecv(base.narrow(d, h + m, h), s.hi[k], down));
                pending.push_back(s.cart.isend(base.narrow(d, m, h), s.hi[k], up));
            }
            ++next;
            return true;
        }
        return false;
    }
    void start() override { post(); }
    void progress() override {
        for (auto& r : pending)
            if (r.pending()) {
                r.test();
                return;
            }
    }
    void finish() override {
        do {
            waitAll(pending);
            pending.clear();
        } while (post());
        s.stale = false;
    }
};

// Fills s's halo layers from the neighbours now.
template <class T>
void exchange_halos(DistState<T>& s) {
    HaloExchange<T> x(s);
    x.start();
    x.finish();
}

template <class X>
struct is_window : std::false_type {};
template <class T>
struct is_window<DistWindow<T>> : std::true_type {};
template <class X>
inline constexpr bool is_window_v = is_window<std::remove_cvref_t<X>>::value;

template <class X>
struct is_apply : std::false_type {};
template <class Op, class... C>
struct is_apply<Apply<Op, C...>> : std::true_type {};

template <class X>
struct is_scalar_node : std::false_type {};
template <class T>
struct is_scalar_node<Scalar<T>> : std::true_type {};

// Calls f(window) for every window of an expression tree, in tree order (the
// same order on every rank). A tensor in the tree is refused at compile time.
template <class N, class F>
void for_each_window(const N& n, F&& f) {
    if constexpr (is_window_v<N>) {
        f(n);
    } else if constexpr (is_apply<N>::value) {
        std::apply([&](const auto&... c) { (for_each_window(c, f), ...); }, n.children);
    } else if constexpr (is_scalar_node<N>::value) {
    } else {
        static_assert(is_window_v<N> || is_scalar_node<N>::value,
                      "t7::mpi: an expression assigned to (or reduced over) a distributed "
                      "window may hold windows of DistTensors and scalars only (no Tensor)");
    }
}

template <class N>
constexpr bool has_window() {
    if constexpr (is_window_v<N>)
        return true;
    else if constexpr (is_apply<N>::value)
        return []<class Op, class... C>(std::type_identity<Apply<Op, C...>>) {
            return (has_window<C>() || ...);
        }(std::type_identity<N>{});
    else
        return false;
}

// Where the part a rank computes lies: the anchor window's (the destination's)
// owned part, in global indices (first, count per dimension), and the anchor's
// first indices.
struct LocalPart {
    Shape first, count, anchor;
    bool empty = false;
};

// Computes the interior `p` in pieces along its first dimension, letting the
// halo messages progress between them. A message over the transport's eager
// limit (Open MPI's shared memory: 4 KiB, one row of 1,024 floats) moves only
// while both ranks are inside MPI: without these tests it would wait for the
// boundary's waitAll, and the ranks would step in lockstep (measured: 0.33 ms
// a step of 2^20 floats a rank instead of 0.21).
// A piece's elements: each piece is one assignment (its fixed cost, ~1 us),
// and 2^17 floats take ~20 us here, a message's latency on shared memory.
// Tests lower it to split small grids.
inline int64_t& progress_piece_elements() {
    static int64_t n = int64_t(1) << 17;
    return n;
}

template <class Compute>
void compute_progressing(const LocalPart& p, std::vector<std::unique_ptr<HaloJob>>& jobs,
                         Compute&& compute) {
    constexpr int64_t max_pieces = 8;
    const int64_t rows = p.count.empty() ? 1 : p.count[0];
    const int64_t pieces = std::clamp<int64_t>(p.count.numel() / progress_piece_elements(), 1,
                                               std::min(rows, max_pieces));
    LocalPart piece = p;
    for (int64_t k = 0; k < pieces; ++k) {
        const int64_t a = rows * k / pieces, b = rows * (k + 1) / pieces;
        piece.first[0] = p.first[0] + a;
        piece.count[0] = b - a;
        compute(piece);
        for (auto& j : jobs) j->progress();
    }
}

// The windows' internals, for the functions below (not part of the API).
struct WindowAccess {
    template <class W>
    static auto& state(const W& w) {
        return w.state();
    }
    template <class W>
    static auto leaf(const W& w, const LocalPart& p) {
        return w.local_leaf(p);
    }
    template <class W, class E>
    static void prepare(const W& w, const E& e, const char* op) {
        w.prepare(e, op);
    }
    template <class U>
    static DistState<typename U::value_type>& tensor(const U& u) {
        return u.st();
    }
};

// The tree with every window replaced by a Leaf of its local view for `part`.
template <class N>
auto localize(const N& n, const LocalPart& part) {
    if constexpr (is_window_v<N>) {
        return WindowAccess::leaf(n, part);
    } else if constexpr (is_apply<N>::value) {
        return std::apply(
            [&](const auto&... c) {
                using Op = typename N::op_type;
                return Apply<Op, decltype(localize(c, part))...>(n.op, localize(c, part)...);
            },
            n.children);
    } else {
        return n;
    }
}

} // namespace detail

// ---- DistTensor -----------------------------------------------------------------

template <class T>
class DistTensor {
public:
    using value_type = T;

    DistTensor() = default;
    // Global sizes, halo widths per dimension ({}: none), ranks per dimension
    // ({}: MPI_Dims_create chooses; a dimension of size 1 gets one rank).
    // Collective over comm. ShapeError (on every rank, before any message) for
    // a grid whose product is not comm.size(), a dimension with fewer elements
    // than ranks, or a halo wider than the smallest block of its dimension.
    DistTensor(const Communicator& comm, const Shape& sizes, const Shape& halo = {},
               const Shape& grid = {})
        : s_(std::make_shared<detail::DistState<T>>()) {
        static_assert(!std::is_same_v<T, bool>, "t7::mpi::DistTensor: not a tensor7 element type");
        auto& s = *s_;
        const size_t n = sizes.size();
        if (n == 0) detail::fail<ShapeError>("t7::mpi::DistTensor: no dimensions (sizes {})");
        for (size_t d = 0; d < n; ++d)
            if (sizes[d] < 1)
                detail::fail<ShapeError>("t7::mpi::DistTensor: sizes ", sizes,
                                         ": every dimension needs at least one element");
        if (!halo.empty() && halo.size() != n)
            detail::fail<ShapeError>("t7::mpi::DistTensor: halo ", halo, " for sizes ", sizes,
                                     " (one width per dimension, or {})");
        if (!grid.empty() && grid.size() != n)
            detail::fail<ShapeError>("t7::mpi::DistTensor: grid ", grid, " for sizes ", sizes,
                                     " (ranks per dimension, or {})");
        s.sizes = sizes;
        s.halo = halo.empty() ? Shape(n, 0) : halo;
        std::vector<int> dims(n, 0);
        if (!grid.empty()) {
            int64_t p = 1;
            for (size_t d = 0; d < n; ++d) {
                if (grid[d] < 1)
                    detail::fail<ShapeError>("t7::mpi::DistTensor: grid ", grid,
                                             ": every dimension needs at least one rank");
                p *= grid[d];
                dims[d] = int(grid[d]);
            }
            if (p != comm.size())
                detail::fail<ShapeError>("t7::mpi::DistTensor: grid ", grid, " has ", p,
                                         " ranks, the communicator ", comm.size());
        } else {
            for (size_t d = 0; d < n; ++d)
                if (sizes[d] == 1) dims[d] = 1;
            if (MPI_Dims_create(comm.size(), int(n), dims.data()) != MPI_SUCCESS)
                detail::fail<ShapeError>("t7::mpi::DistTensor: sizes ", sizes, " cannot be split ",
                                         "over ", comm.size(), " ranks (MPI_Dims_create)");
        }
        s.grid = Shape(n, 1);
        for (size_t d = 0; d < n; ++d) s.grid[d] = dims[d];
        for (size_t d = 0; d < n; ++d) {
            if (s.halo[d] < 0)
                detail::fail<ShapeError>("t7::mpi::DistTensor: negative halo width in ", s.halo);
            if (sizes[d] < s.grid[d])
                detail::fail<ShapeError>("t7::mpi::DistTensor: dimension ", d, " of size ",
                                         sizes[d], " cannot be split over ", s.grid[d],
                                         " ranks (grid ", s.grid, ")");
            if (s.grid[d] > 1 && s.halo[d] > sizes[d] / s.grid[d])
                detail::fail<ShapeError>("t7::mpi::DistTensor: halo width ", s.halo[d],
                                         " of dimension ", d, " is wider than its smallest block (",
                                         sizes[d] / s.grid[d], " = ", sizes[d], " / ", s.grid[d],
                                         ")");
        }
        std::vector<int> periods(n, 0);
        MPI_Comm cart = MPI_COMM_NULL;
        detail::check(MPI_Cart_create(comm.native(), int(n), dims.data(), periods.data(), 0, &cart),
                      "t7::mpi::DistTensor: MPI_Cart_create", sizes);
        s.cart = Communicator(cart, true);
        s.cart.setDeterministic(comm.deterministic());
        std::vector<int> c(n, 0);
        detail::check(MPI_Cart_coords(cart, s.cart.rank(), int(n), c.data()),
                      "t7::mpi::DistTensor: MPI_Cart_coords", sizes);
        s.coords = Shape(n, 0);
        s.offset = Shape(n, 0);
        s.local = Shape(n, 0);
        s.lo.assign(n, MPI_PROC_NULL);
        s.hi.assign(n, MPI_PROC_NULL);
        Shape with(n, 0);
        for (size_t d = 0; d < n; ++d) {
            s.coords[d] = c[d];
            s.offset[d] = detail::DistLayout::block_start(sizes[d], s.grid[d], c[d]);
            s.local[d] = detail::DistLayout::block_size(sizes[d], s.grid[d], c[d]);
            with[d] = s.local[d] + 2 * s.halo[d];
            detail::check(MPI_Cart_shift(cart, int(d), 1, &s.lo[d], &s.hi[d]),
                          "t7::mpi::DistTensor: MPI_Cart_shift", sizes);
        }
        s.data = Tensor<T>(with);
        s.data.fill(T(0));
    }

    // Handles share (as Tensor handles): a copy is the same distributed tensor.
    DistTensor(const DistTensor&) = default;
    DistTensor(DistTensor&&) noexcept = default;
    // Moving rebinds the handle (std::swap(u, v) swaps two tensors, no copy).
    DistTensor& operator=(DistTensor&&) noexcept = default;
    // Copying values (as Tensor's): u = v is u() = v().
    DistTensor& operator=(const DistTensor& o) {
        if (this != &o) (*this)() = o();
        return *this;
    }
    template <Expression E>
    DistTensor& operator=(const E& e) {
        (*this)() = e;
        return *this;
    }
    template <Arithmetic S>
    DistTensor& operator=(S v) {
        (*this)() = v;
        return *this;
    }
    void swap(DistTensor& o) noexcept { s_.swap(o.s_); }

    bool valid() const { return bool(s_); }
    int64_t dim() const { return st().dim(); }
    const Shape& sizes() const { return st().sizes; }
    const Shape& grid() const { return st().grid; }
    const Shape& halo() const { return st().halo; }
    // This rank's block: its first global index per dimension, its sizes, its
    // grid coordinates.
    const Shape& offset() const { return st().offset; }
    const Shape& localSizes() const { return st().local; }
    const Shape& coords() const { return st().coords; }
    // The Cartesian communicator (its deterministic flag is the one of the
    // communicator given at construction; setDeterministic changes it for every
    // handle of this tensor).
    Communicator& communicator() const { return st().cart; }
    int64_t nElement() const { return sizes().numel(); }

    // The block this rank owns, a view (writing through it is not seen by the
    // stale tracking: call exchangeHalos() or markStale() after).
    Tensor<T> local() const {
        const auto& s = st();
        Tensor<T> v = s.data;
        for (int64_t d = 0; d < s.dim(); ++d)
            v.set(v.narrow(d, s.halo[size_t(d)], s.local[size_t(d)]));
        return v;
    }
    // The block with its halo layers (a view of the whole local storage).
    Tensor<T> localWithHalo() const { return st().data; }

    bool stale() const { return st().stale; }
    void markStale() const { st().stale = true; }

    // Fills the halo layers from the neighbours (collective). Nonblocking
    // sends and receives of views, one dimension after the other; a
    // dimension's slabs include the halos of the dimensions before it, so the
    // corners arrive too.
    void exchangeHalos() const { detail::exchange_halos(st()); }

    // A global window: integers (negative from the end; the dimension is
    // dropped), t7::all, t7::slice(start, stop) of step 1; missing trailing
    // indices are t7::all. IndexError for an index or slice out of range.
    template <class... I>
    DistWindow<T> operator()(I... idx) const {
        static_assert(
            ((std::is_integral_v<I> || std::is_same_v<I, all_t> || std::is_same_v<I, slice>)&&...),
            "t7::mpi::DistTensor::operator(): indices must be integers, t7::all or "
            "t7::slice");
        const auto& s = st();
        const int64_t n = s.dim();
        if (int64_t(sizeof...(I)) > n)
            detail::fail<IndexError>("t7::mpi::DistTensor: ", sizeof...(I), " indices for a ", n,
                                     "-D distributed tensor of size ", s.sizes);
        DistWindow<T> w;
        w.s_ = s_;
        w.first_ = Shape(size_t(n), 0);
        w.count_ = s.sizes;
        w.dropped_.assign(size_t(n), false);
        int64_t d = 0;
        auto one = [&](auto i) {
            using A = decltype(i);
            const size_t k = size_t(d);
            if constexpr (std::is_integral_v<A>) {
                w.first_[k] =
                    t7::detail::wrap_index(int64_t(i), s.sizes[k], d, "t7::mpi::DistTensor window");
                w.count_[k] = 1;
                w.dropped_[k] = true;
            } else if constexpr (std::is_same_v<A, slice>) {
                const auto sw = t7::detail::slice_window(i, s.sizes[k], d);
                if (sw.step != 1)
                    detail::fail<IndexError>("t7::mpi::DistTensor window: slice step ", sw.step,
                                             " in dimension ", d, " (only step 1)");
                w.first_[k] = sw.first;
                w.count_[k] = sw.count;
            }
            ++d;
        };
        (one(idx), ...);
        (void)one; // no indices: the whole tensor
        return w;
    }

    // The whole tensor on root (an empty tensor on the other ranks). Collective.
    Tensor<T> gather(int root = 0) const {
        const auto& s = st();
        const Communicator& c = s.cart;
        if (root < 0 || root >= c.size())
            detail::fail<IndexError>("t7::mpi::DistTensor::gather: root ", root,
                                     " out of range (communicator of size ", c.size(), ")");
        constexpr int tag = 100;
        if (c.rank() != root) {
            c.send(local(), root, tag);
            return Tensor<T>();
        }
        Tensor<T> whole(s.sizes);
        std::vector<Request> rs;
        for (int r = 0; r < c.size(); ++r) {
            Tensor<T> part = block_of(whole, r);
            if (r == root)
                part = local();
            else
                rs.push_back(c.irecv(part, r, tag));
        }
        waitAll(rs);
        return whole;
    }

    // Root's x (a CPU tensor) distributed: x's sizes are broadcast from root,
    // then each rank receives its block. Collective over comm.
    template <class D>
    static DistTensor scatter(const Communicator& comm, const Tensor<T, D>& x, int root = 0,
                              const Shape& halo = {}, const Shape& grid = {}) {
        if constexpr (!std::is_same_v<D, CPU>) {
            detail::no_cuda("DistTensor::scatter");
        } else {
            if (root < 0 || root >= comm.size())
                detail::fail<IndexError>("t7::mpi::DistTensor::scatter: root ", root,
                                         " out of range (communicator of size ", comm.size(), ")");
            constexpr int hdr = 33;
            std::vector<int64_t> h(hdr, 0);
            if (comm.rank() == root) {
                h[0] = x.dim() > hdr - 1 ? -1 : x.dim();
                for (int64_t d = 0; d < x.dim() && d < hdr - 1; ++d) h[size_t(d + 1)] = x.size(d);
            }
            detail::check(MPI_Bcast(h.data(), hdr, MPI_INT64_T, root, comm.native()),
                          "t7::mpi::DistTensor::scatter: MPI_Bcast (sizes)");
            if (h[0] <= 0)
                detail::fail<ShapeError>("t7::mpi::DistTensor::scatter: root ", root,
                                         "'s tensor has ", h[0] < 0 ? "too many" : "no",
                                         " dimensions");
            const Shape sizes(h.data() + 1, h.data() + 1 + h[0]);
            DistTensor u(comm, sizes, halo, grid);
            const Communicator& c = u.communicator();
            constexpr int tag = 101;
            const int me = c.rank(); // the Cartesian communicator keeps comm's ranks
            if (me != root) {
                c.recv(u.local(), root, tag);
            } else {
                std::vector<Request> rs;
                for (int r = 0; r < c.size(); ++r)
                    if (r == root)
                        u.local() = u.block_of(x, r);
                    else
                        rs.push_back(c.isend(u.block_of(x, r), r, tag));
                waitAll(rs);
            }
            u.markStale();
            return u;
        }
    }

private:
    friend class DistWindow<T>;
    friend struct detail::WindowAccess;
    // Rank r's block of a tensor of the global sizes.
    template <class U>
    Tensor<U> block_of(const Tensor<U>& whole, int r) const {
        const auto& s = st();
        const int n = int(s.dim());
        std::vector<int> c(size_t(n), 0);
        detail::check(MPI_Cart_coords(s.cart.native(), r, n, c.data()),
                      "t7::mpi::DistTensor: MPI_Cart_coords");
        Tensor<U> v = whole;
        for (int d = 0; d < n; ++d) {
            const size_t k = size_t(d);
            v.set(v.narrow(d, detail::DistLayout::block_start(s.sizes[k], s.grid[k], c[k]),
                           detail::DistLayout::block_size(s.sizes[k], s.grid[k], c[k])));
        }
        return v;
    }

    detail::DistState<T>& st() const {
        if (!s_)
            detail::fail<Error>("t7::mpi::DistTensor: an empty handle (default-constructed or "
                                "moved from)");
        return *s_;
    }
    std::shared_ptr<detail::DistState<T>> s_;
};

template <class T>
void swap(DistTensor<T>& a, DistTensor<T>& b) noexcept {
    a.swap(b);
}

// Whether a window assignment that must exchange stale halos computes the
// interior while the messages travel (on by default), or exchanges first. The
// values are the same either way (to the bit); the switch is for measuring.
// An assignment whose destination is also an operand never overlaps (the
// boundary strips would read what the interior pass wrote).
inline void setOverlap(bool on) { detail::overlap_flag() = on; }
inline bool overlap() { return detail::overlap_flag(); }

// ---- DistWindow -----------------------------------------------------------------

namespace detail {

// The part of the anchor window (first, count, dropped) this rank owns.
inline LocalPart owned_part(const DistLayout& l, const Shape& first, const Shape& count) {
    LocalPart p;
    const size_t n = first.size();
    p.first = Shape(n, 0);
    p.count = Shape(n, 0);
    p.anchor = first;
    for (size_t d = 0; d < n; ++d) {
        const int64_t a = std::max(first[d], l.offset[d]);
        const int64_t b = std::min(first[d] + count[d], l.offset[d] + l.local[d]);
        p.first[d] = a;
        p.count[d] = b > a ? b - a : 0;
        if (b <= a) p.empty = true;
    }
    return p;
}

} // namespace detail

// A window in global indices of a DistTensor: an expression node (value_type T)
// that turns into a local Tensor view (a Leaf) when its expression is evaluated.
template <class T>
class DistWindow : public ExprTag {
public:
    using value_type = T;
    using device_type = CPU;
    static constexpr int leaves = 1;

    DistWindow() = default;
    DistWindow(const DistWindow&) = default; // a handle: the same window
    DistWindow(DistWindow&&) noexcept = default;

    // Assignment writes values (as a Tensor view's).
    DistWindow& operator=(const DistWindow& o) { return assign(o); }
    DistWindow& operator=(DistWindow&& o) { return assign(o); }
    template <Expression E>
    DistWindow& operator=(const E& e) {
        return assign(e);
    }
    template <Arithmetic S>
    DistWindow& operator=(S v) {
        const auto part = detail::owned_part(*s_, first_, count_);
        if (!part.empty) view(part, first_) = convert<T>(v);
        s_->stale = true;
        return *this;
    }

    // The window's sizes (dropped dimensions left out), as a tensor's.
    Shape sizes() const {
        Shape r;
        for (size_t d = 0; d < count_.size(); ++d)
            if (!dropped_[d]) r.push_back(count_[d]);
        return r;
    }
    int64_t nElement() const { return count_.numel(); }
    const Shape& first() const { return first_; }
    const Shape& count() const { return count_; }
    const std::vector<bool>& dropped() const { return dropped_; }
    template <class E>
    DistWindow& assign(const E& e) {
        const char* op = "t7::mpi::DistWindow assignment";
        detail::for_each_window(e, [&](const auto& w) { check_operand(w, op); });
        const auto part = detail::owned_part(*s_, first_, count_);
        // The stale halos the expression reads, each tensor once (tree order,
        // the same on every rank); the extreme shifts along split dimensions.
        std::vector<std::unique_ptr<detail::HaloJob>> jobs;
        std::vector<const void*> seen;
        bool alias = false;
        const size_t n = count_.size();
        Shape lo_shift(n, 0), hi_shift(n, 0);
        detail::for_each_window(e, [&](const auto& w) {
            auto& st = w.state();
            alias = alias || static_cast<const void*>(&st) == static_cast<const void*>(s_.get());
            for (size_t d = 0; d < n; ++d) {
                const int64_t sh = w.first()[d] - first_[d];
                lo_shift[d] = std::min(lo_shift[d], sh);
                hi_shift[d] = std::max(hi_shift[d], sh);
            }
            if (!st.stale || !needs_halo(w)) return;
            if (std::find(seen.begin(), seen.end(), static_cast<const void*>(&st)) != seen.end())
                return;
            seen.push_back(&st);
            using U = typename std::remove_cvref_t<decltype(w)>::value_type;
            jobs.push_back(std::make_unique<detail::HaloExchange<U>>(st));
        });
        auto compute = [&](const detail::LocalPart& p) {
            Tensor<T> dst = view(p, first_);
            if constexpr (detail::is_window_v<E>)
                dst = e.view(p, first_);
            else
                dst = detail::localize(e, p);
        };
        // The interior: the points whose every read lies in the rank's own block.
        detail::LocalPart inner = part;
        const auto& s = *s_;
        for (size_t d = 0; d < n && !part.empty; ++d) {
            if (s.grid[d] == 1) continue;
            const int64_t a = std::max(part.first[d], s.offset[d] - lo_shift[d]);
            const int64_t b =
                std::min(part.first[d] + part.count[d], s.offset[d] + s.local[d] - hi_shift[d]);
            inner.first[d] = a;
            inner.count[d] = b > a ? b - a : 0;
            if (b <= a) inner.empty = true;
        }
        if (jobs.empty() || alias || part.empty || inner.empty || !detail::overlap_flag()) {
            for (auto& j : jobs) j->start(), j->finish();
            if (!part.empty) compute(part);
        } else {
            // Messages in flight while the interior computes, then the
            // boundary strips: along dimension d, below and above the interior,
            // within the interior along the dimensions before d.
            for (auto& j : jobs) j->start();
            compute_progressing(inner, jobs, compute);
            for (auto& j : jobs) j->finish();
            detail::LocalPart strip = part;
            for (size_t d = 0; d < n; ++d) {
                const int64_t a = part.first[d], b = a + part.count[d];
                const int64_t ia = inner.first[d], ib = ia + inner.count[d];
                if (ia > a) {
                    strip.first[d] = a, strip.count[d] = ia - a;
                    compute(strip);
                }
                if (b > ib) {
                    strip.first[d] = ib, strip.count[d] = b - ib;
                    compute(strip);
                }
                strip.first[d] = ia, strip.count[d] = ib - ia;
            }
        }
        s_->stale = true;
        return *this;
    }

private:
    template <class U>
    friend class DistTensor;
    template <class U>
    friend class DistWindow;
    friend struct detail::WindowAccess;

    detail::DistState<T>& state() const { return *s_; }

    // The local view of this window for the part `p` of the anchor window: the
    // same global part shifted by (this window's first - the anchor's first),
    // read through the halo.
    Tensor<T> view(const detail::LocalPart& p, const Shape& anchor) const {
        const auto& s = *s_;
        Tensor<T> v = s.data;
        const int64_t n = s.dim();
        for (int64_t d = 0; d < n; ++d) {
            const size_t k = size_t(d);
            const int64_t start = p.first[k] + first_[k] - anchor[k] - s.offset[k] + s.halo[k];
            v.set(v.narrow(d, start, p.count[k]));
        }
        for (int64_t d = n; d-- > 0;)
            if (dropped_[size_t(d)]) v.set(v.select(d, 0));
        return v;
    }
    Leaf<T, CPU> local_leaf(const detail::LocalPart& p) const {
        return Leaf<T, CPU>(view(p, p.anchor));
    }

    // Checks an operand window against this (the anchor) window: same
    // distribution, same sizes and dropped dimensions, a shift within the
    // operand's halo (or along a dimension that is not split). Local: every
    // rank has the same metadata, so every rank throws the same error.
    template <class U>
    void check_operand(const DistWindow<U>& w, const char* op) const {
        const auto& a = *s_;
        const auto& b = w.state();
        if (!a.same_as(b))
            detail::fail<ShapeError>(op, ": operands of different distributions (global sizes ",
                                     a.sizes, " on grid ", a.grid, " and ", b.sizes, " on grid ",
                                     b.grid, ", or another communicator)");
        if (w.count() != count_ || w.dropped() != dropped_)
            detail::fail<ShapeError>(op, ": windows of different sizes (", count_, " at ", first_,
                                     " and ", w.count(), " at ", w.first(), ", in global indices)");
        for (size_t d = 0; d < count_.size(); ++d) {
            const int64_t shift = w.first()[d] - first_[d];
            if (b.grid[d] > 1 && (shift > b.halo[d] || -shift > b.halo[d]))
                detail::fail<ShapeError>(op, ": a window shifted by ", shift, " along dimension ",
                                         d, " (window at ", w.first(), ", destination at ", first_,
                                         ") beyond the halo width ", b.halo[d]);
        }
    }
    // Whether reading w for this anchor needs w's halos.
    template <class U>
    bool needs_halo(const DistWindow<U>& w) const {
        const auto& b = w.state();
        for (size_t d = 0; d < count_.size(); ++d)
            if (b.grid[d] > 1 && w.first()[d] != first_[d]) return true;
        return false;
    }

    // The expression's windows: checked, then their stale halos exchanged
    // (collective; the same decisions on every rank).
    template <class E>
    void prepare(const E& e, const char* op) const {
        detail::for_each_window(e, [&](const auto& w) { check_operand(w, op); });
        detail::for_each_window(e, [&](const auto& w) {
            auto& st = w.state();
            if (st.stale && needs_halo(w)) detail::exchange_halos(st);
        });
    }

    std::shared_ptr<detail::DistState<T>> s_;
    Shape first_, count_;
    std::vector<bool> dropped_;
};

// ---- global reductions ------------------------------------------------------------

// An expression holding at least one distributed window.
template <class E>
concept DistExpression = Expression<E> && detail::has_window<std::remove_cvref_t<E>>();

namespace detail {

template <class N>
const auto& first_window(const N& n);
template <size_t I, class Tup>
const auto& first_window_in(const Tup& t) {
    using C = std::tuple_element_t<I, Tup>;
    if constexpr (has_window<C>())
        return first_window(std::get<I>(t));
    else
        return first_window_in<I + 1>(t);
}
// The first window of a tree (tree order): the anchor of a reduction, whose
// owned part each rank reduces.
template <class N>
const auto& first_window(const N& n) {
    if constexpr (is_window_v<N>)
        return n;
    else
        return first_window_in<0>(n.children);
}

// A reduction of a window expression: each rank reduces the part of the anchor
// window it owns (local(e) of the local views, or `none` when it owns nothing),
// then one allreduce of the partial values (deterministic as the tensor's
// communicator is).
template <class V, class E, class Local>
V dist_reduce(const E& e, const char* op, Op how, V none, Local local) {
    const auto& a = first_window(e);
    if (a.nElement() == 0 && how != Op::sum)
        fail<ShapeError>(op, ": a distributed window of no elements");
    WindowAccess::prepare(a, e, op);
    const auto part = owned_part(WindowAccess::state(a), a.first(), a.count());
    Tensor<V> buf(1);
    buf.data()[0] = part.empty ? none : V(local(localize(e, part)));
    WindowAccess::state(a).cart.allreduce(buf, how);
    return buf.data()[0];
}

template <class E>
using local_expr_t = decltype(localize(std::declval<const E&>(), std::declval<const LocalPart&>()));

template <class V>
V lowest_of() {
    if constexpr (std::numeric_limits<V>::has_infinity)
        return -std::numeric_limits<V>::infinity();
    else
        return std::numeric_limits<V>::lowest();
}
template <class V>
V highest_of() {
    if constexpr (std::numeric_limits<V>::has_infinity)
        return std::numeric_limits<V>::infinity();
    else
        return std::numeric_limits<V>::max();
}

} // namespace detail
} // namespace t7::mpi

// t7::sum / mean / max / min / norm of a distributed window (or an expression of
// windows) and of a DistTensor: global, every rank gets the value. Collective.
namespace t7 {

template <mpi::DistExpression E>
auto sum(const E& e) {
    using V = decltype(t7::sum(std::declval<const mpi::detail::local_expr_t<E>&>()));
    return mpi::detail::dist_reduce<V>(e, "t7::sum", mpi::Op::sum, V(0),
                                       [](const auto& l) { return t7::sum(l); });
}
template <mpi::DistExpression E>
auto max(const E& e) {
    using V = decltype(t7::max(std::declval<const mpi::detail::local_expr_t<E>&>()));
    return mpi::detail::dist_reduce<V>(e, "t7::max", mpi::Op::max, mpi::detail::lowest_of<V>(),
                                       [](const auto& l) { return t7::max(l); });
}
template <mpi::DistExpression E>
auto min(const E& e) {
    using V = decltype(t7::min(std::declval<const mpi::detail::local_expr_t<E>&>()));
    return mpi::detail::dist_reduce<V>(e, "t7::min", mpi::Op::min, mpi::detail::highest_of<V>(),
                                       [](const auto& l) { return t7::min(l); });
}
// mean: the global sum in double (complex<double> for complex elements, as
// t7::mean's) over the element count (NaN for no elements).
template <mpi::DistExpression E>
auto mean(const E& e) {
    using V = decltype(t7::mean(std::declval<const mpi::detail::local_expr_t<E>&>()));
    const int64_t n = mpi::detail::first_window(e).nElement();
    const V s = mpi::detail::dist_reduce<V>(e, "t7::mean", mpi::Op::sum, V(0), [](const auto& l) {
        return V(t7::sum(t7::cast<V>(l)));
    });
    return n == 0 ? V(std::numeric_limits<double>::quiet_NaN()) : s / double(n);
}
namespace mpi::detail {
// What a norm sums powers of: the values, or the moduli of complex ones (NumPy's).
template <class L>
decltype(auto) norm_input(const L& l) {
    if constexpr (is_complex_v<typename node_t<L>::value_type>)
        return t7::abs(l);
    else
        return (l);
}
} // namespace mpi::detail
// p-norm as t7::norm's: the ranks' sums of |x|^p (in double) added, then the root.
template <mpi::DistExpression E>
double norm(const E& e, double p = 2) {
    const double s =
        mpi::detail::dist_reduce<double>(e, "t7::norm", mpi::Op::sum, 0.0, [p](const auto& l) {
            const auto x = t7::cast<double>(mpi::detail::norm_input(l));
            if (p == 0) return double(t7::sum(t7::cast<double>(x != 0.0)));
            if (p == 2) return double(t7::sum(x * x));
            if (p == 1) return double(t7::sum(t7::abs(x)));
            return double(t7::sum(t7::pow(t7::abs(x), p)));
        });
    if (p == 0 || p == 1) return s;
    if (p == 2) return std::sqrt(s);
    return std::pow(s, 1.0 / p);
}

template <class T>
auto sum(const mpi::DistTensor<T>& u) {
    return t7::sum(u());
}
template <class T>
auto max(const mpi::DistTensor<T>& u) {
    return t7::max(u());
}
template <class T>
auto min(const mpi::DistTensor<T>& u) {
    return t7::min(u());
}
template <class T>
auto mean(const mpi::DistTensor<T>& u) {
    return t7::mean(u());
}
template <class T>
double norm(const mpi::DistTensor<T>& u, double p = 2) {
    return t7::norm(u(), p);
}

} // namespace t7
