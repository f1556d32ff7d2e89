// t7::mpi::Communicator: tensor7 views over an MPI communicator. Every tensor
// argument may be any view of a CPU tensor: MPI reads and writes the view's own
// memory through a derived datatype (datatype.hpp), except the reductions,
// which pack a non-contiguous view into a reused buffer (Open MPI 4.1 answers
// MPI_ERR_OP to a predefined op on a derived datatype).
// Collectives match elements in the row-major order of each rank's view, so
// ranks may pass different layouts of the same sizes.
#pragma once

#include "datatype.hpp"
#include "error.hpp"
#include "request.hpp"

#include "../core/device.hpp"
#include "../core/error.hpp"
#include "../core/shape.hpp"
#include "../iter/overlap.hpp"
#include "../tensor/tensor.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace t7::mpi {

// What probe() learns of an incoming message.
struct Message {
    int source = -1, tag = -1;
    int64_t bytes = 0;
    // Its element count as T (Half: 2 bytes).
    template <class T>
    int64_t count() const {
        return bytes / int64_t(sizeof(T));
    }
};

namespace detail {

template <class D>
inline constexpr bool is_cpu = std::is_same_v<D, CPU>;

// The API takes CPU tensors: a CUDA tensor is refused (stage it through
// t7::toCPU / copy into a CPU tensor; docs/mpi.md).
[[noreturn]] inline void no_cuda(const char* op) {
    fail<DeviceError>("t7::mpi::", op, ": tensors must be on the CPU (copy a CUDA tensor to a ",
                      "CPU tensor first; MPI here is not CUDA-aware)");
}

// The layout with dimension `dim` moved first and its size replaced by `n`
// (a chunk along dim); the others in order. dim < 0: as is.
inline Layout dim_first(const Shape& sizes, const Shape& strides, int64_t dim, int64_t n) {
    std::vector<int64_t> sz, st;
    sz.reserve(sizes.size());
    st.reserve(sizes.size());
    sz.push_back(n);
    st.push_back(strides[size_t(dim)]);
    for (size_t d = 0; d < sizes.size(); ++d)
        if (int64_t(d) != dim) sz.push_back(sizes[d]), st.push_back(strides[d]);
    return simplify(sz.data(), st.data(), sz.size());
}

template <class T>
constexpr bool is_floating =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || is_complex_v<T>;

} // namespace detail

class Communicator {
public:
    // MPI_COMM_WORLD (MPI must be initialised: make the Environment first).
    Communicator() : Communicator(MPI_COMM_WORLD, false) {}
    // A view of an existing communicator; owned: MPI_Comm_free when the last
    // copy goes.
    explicit Communicator(MPI_Comm c, bool owned = false) {
        if (!mpi_ready())
            detail::fail<Error>("t7::mpi::Communicator: MPI is not initialised (create a ",
                                "t7::mpi::Environment first)");
        if (c != MPI_COMM_NULL) {
            MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
            MPI_Comm_rank(c, &rank_);
            MPI_Comm_size(c, &size_);
        }
        if (owned)
            comm_ = std::shared_ptr<MPI_Comm>(new MPI_Comm(c), [](MPI_Comm* p) {
                int fin = 0;
                MPI_Finalized(&fin);
                if (!fin && *p != MPI_COMM_NULL) MPI_Comm_free(p);
                delete p;
            });
        else
            comm_ = std::make_shared<MPI_Comm>(c);
    }

    int rank() const { return rank_; }
    int size() const { return size_; }
    MPI_Comm native() const { return *comm_; }

    // Deterministic mode (off by default): floating sums and products of
    // allreduce, reduce, reduceScatter and iallreduce are computed in rank
    // order (((x0 + x1) + x2) + ...) by tensor7, whatever algorithm MPI would
    // pick: bit-identical on every rank, for every run with the same number of
    // ranks. Cost: an alltoall and an allgather (or gather) instead of MPI's
    // allreduce (about the same bytes as a ring allreduce, one more latency);
    // iallreduce allgathers every rank's whole tensor (size() times the memory).
    // Integer types, max and min are exact in any order and do not change.
    void setDeterministic(bool on) { deterministic_ = on; }
    bool deterministic() const { return deterministic_; }

    void barrier() const { detail::check(MPI_Barrier(native()), "t7::mpi::barrier: MPI_Barrier"); }

    // MPI_Comm_split: ranks of the same color form a new communicator, ordered
    // by key (then by rank here). color MPI_UNDEFINED: a null communicator (size 0).
    Communicator split(int color, int key = 0) const {
        MPI_Comm nc = MPI_COMM_NULL;
        detail::check(MPI_Comm_split(native(), color, key, &nc), "t7::mpi::split: MPI_Comm_split");
        return Communicator(nc, true);
    }

    // The next message from source (MPI_ANY_SOURCE too) with tag (MPI_ANY_TAG
    // too), without receiving it: who sent it and how many bytes it holds.
    Message probe(int source, int tag = 0) const {
        check_peer(source, "probe", "source", true);
        MPI_Status st;
        detail::check(MPI_Probe(source, tag, native(), &st), "t7::mpi::probe: MPI_Probe");
        int b = 0;
        MPI_Get_count(&st, MPI_BYTE, &b);
        return {st.MPI_SOURCE, st.MPI_TAG, b};
    }

    // ---- point to point ----------------------------------------------------------

    template <class T, class D>
    void send(const Tensor<T, D>& x, int dest, int tag = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("send");
        else {
            check_peer(dest, "send", "dest");
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::send");
            chk(MPI_Send(x.data(), tb.count, tb.type, dest, tag, native()), "send: MPI_Send", x);
        }
    }

    // Receives into x's memory: the message must hold exactly x.nElement()
    // elements (ShapeError otherwise, with x unchanged: the message is taken
    // and dropped).
    template <class T, class D>
    void recv(const Tensor<T, D>& x, int source, int tag = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("recv");
        else {
            check_peer(source, "recv", "source", true);
            check_dest(x, "recv");
            if (source == MPI_PROC_NULL) return;
            MPI_Message msg;
            MPI_Status st;
            chk(MPI_Mprobe(source, tag, native(), &msg, &st), "recv: MPI_Mprobe", x);
            int bytes = 0;
            MPI_Get_count(&st, MPI_BYTE, &bytes);
            if (int64_t(bytes) != x.nElement() * int64_t(sizeof(T))) {
                char* sink = detail::scratch<char>(size_t(bytes), 1);
                MPI_Mrecv(sink, bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
                wrong_size("recv", x, bytes / int64_t(sizeof(T)), st.MPI_SOURCE, true);
            }
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::recv");
            chk(MPI_Mrecv(x.data(), tb.count, tb.type, &msg, &st), "recv: MPI_Mrecv", x);
        }
    }

    // Sends x to dest and receives into y from source (one MPI_Sendrecv: no
    // deadlock in a ring or a halo exchange). A message of the wrong size:
    // ShapeError (y written at most within its own elements).
    template <class T, class D>
    void sendrecv(const Tensor<T, D>& x, int dest, const Tensor<T, D>& y, int source,
                  int tag = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("sendrecv");
        else {
            check_peer(dest, "sendrecv", "dest", true);
            check_peer(source, "sendrecv", "source", true);
            check_dest(y, "sendrecv");
            // To itself: the size is known here (and Open MPI 4.1's self path
            // truncates without reporting it).
            if (dest == rank_ && source == rank_ && x.nElement() != y.nElement())
                wrong_size("sendrecv", y, x.nElement(), rank_, true);
            const auto a = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::sendrecv");
            const auto b = detail::typed<T>(y.sizes(), y.strides(), "t7::mpi::sendrecv");
            MPI_Status st;
            st.MPI_ERROR = MPI_SUCCESS; // Open MPI reports a truncated receive here
            chk(MPI_Sendrecv(x.data(), a.count, a.type, dest, tag, y.data(), b.count, b.type,
                             source, tag, native(), &st),
                "sendrecv: MPI_Sendrecv", y);
            chk(st.MPI_ERROR, "sendrecv: MPI_Sendrecv", y);
            check_arrived("sendrecv", y, st);
        }
    }

    // ---- collectives -------------------------------------------------------------

    // Root's x into every rank's x. Root's element count goes first (one small
    // broadcast): a rank whose x holds another count takes part, keeps nothing
    // and throws ShapeError with x unchanged.
    template <class T, class D>
    void broadcast(const Tensor<T, D>& x, int root = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("broadcast");
        else {
            check_peer(root, "broadcast", "root");
            if (rank_ != root) check_dest(x, "broadcast");
            int64_t n = x.nElement();
            chk(MPI_Bcast(&n, 1, MPI_INT64_T, root, native()), "broadcast: MPI_Bcast (size)", x);
            if (n != x.nElement()) {
                detail::check_count(n, "t7::mpi::broadcast");
                chk(MPI_Bcast(detail::scratch<T>(size_t(n), 1), int(n), detail::base_type<T>(),
                              root, native()),
                    "broadcast: MPI_Bcast", x);
                wrong_size("broadcast", x, n, root, true);
            }
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::broadcast");
            chk(MPI_Bcast(x.data(), tb.count, tb.type, root, native()), "broadcast: MPI_Bcast", x);
        }
    }

    // x <- the element-wise op of every rank's x (same sizes everywhere).
    template <class T, class D>
    void allreduce(const Tensor<T, D>& x, Op op = Op::sum) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("allreduce");
        else {
            detail::check_op<T>(op, "allreduce");
            check_dest(x, "allreduce");
            if (x.isContiguous()) return allreduce_buf(x.data(), x.nElement(), op, x);
            const auto l = detail::simplify(x.sizes(), x.strides());
            T* buf = detail::scratch<T>(size_t(l.count));
            detail::copy_layout<T, true>(x.data(), buf, l);
            allreduce_buf(buf, l.count, op, x);
            detail::copy_layout<T, false>(x.data(), buf, l);
        }
    }

    // out <- the element-wise op of every rank's x; x is not written.
    template <class T, class D>
    void allreduce(const Tensor<T, D>& x, const Tensor<T, D>& out, Op op = Op::sum) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("allreduce");
        else {
            detail::check_op<T>(op, "allreduce");
            same_sizes("allreduce", x, out);
            check_dest(out, "allreduce");
            const bool direct = x.isContiguous() && out.isContiguous();
            if (direct && x.data() == out.data())
                return allreduce_buf(out.data(), out.nElement(), op, out);
            if (direct && !use_ordered<T>(op)) {
                detail::check_count(x.nElement(), "t7::mpi::allreduce");
                chk(MPI_Allreduce(x.data(), out.data(), int(x.nElement()), detail::base_type<T>(),
                                  detail::mpi_op<T>(op, "allreduce"), native()),
                    "allreduce: MPI_Allreduce", x);
                return;
            }
            const auto lx = detail::simplify(x.sizes(), x.strides());
            const auto lo = detail::simplify(out.sizes(), out.strides());
            T* buf = out.isContiguous() ? out.data() : detail::scratch<T>(size_t(lo.count));
            detail::copy_layout<T, true>(x.data(), buf, lx);
            allreduce_buf(buf, lo.count, op, out);
            if (!out.isContiguous()) detail::copy_layout<T, false>(out.data(), buf, lo);
        }
    }

    // out (on root only; other ranks' out is not touched) <- the op of every
    // rank's x.
    template <class T, class D>
    void reduce(const Tensor<T, D>& x, const Tensor<T, D>& out, int root = 0,
                Op op = Op::sum) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("reduce");
        else {
            detail::check_op<T>(op, "reduce");
            check_peer(root, "reduce", "root");
            const bool me = rank_ == root;
            if (me) {
                same_sizes("reduce", x, out);
                check_dest(out, "reduce");
            }
            const int64_t n = x.nElement();
            detail::check_count(n, "t7::mpi::reduce");
            const auto lx = detail::simplify(x.sizes(), x.strides());
            // x packed into slot 0 when not contiguous; the result lands in out
            // when contiguous, else in the same buffer (reduce reads it first).
            T* send = x.data();
            if (!x.isContiguous()) {
                send = detail::scratch<T>(size_t(n));
                detail::copy_layout<T, true>(x.data(), send, lx);
            }
            T* recv = nullptr;
            if (me) recv = out.isContiguous() ? out.data() : detail::scratch<T>(size_t(n));
            if (use_ordered<T>(op)) {
                ordered(send, recv, n, op, root, x);
            } else {
                const void* s = me && send == recv ? MPI_IN_PLACE : send;
                chk(MPI_Reduce(s, recv, int(n), detail::base_type<T>(),
                               detail::mpi_op<T>(op, "reduce"), root, native()),
                    "reduce: MPI_Reduce", x);
            }
            if (me && !out.isContiguous())
                detail::copy_layout<T, false>(out.data(), recv,
                                              detail::simplify(out.sizes(), out.strides()));
        }
    }

    // Every rank's x concatenated along dim in rank order (as t7::cat): the
    // sizes must agree except along dim (ShapeError on every rank otherwise).
    template <class T, class D>
    Tensor<T, D> allgather(const Tensor<T, D>& x, int64_t dim = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("allgather");
        else
            return gather_impl(x, -1, dim, "allgather");
    }
    // The same on root; an empty tensor on the other ranks.
    template <class T, class D>
    Tensor<T, D> gather(const Tensor<T, D>& x, int root = 0, int64_t dim = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("gather");
        else {
            check_peer(root, "gather", "root");
            return gather_impl(x, root, dim, "gather");
        }
    }

    // Root's x split in size() equal chunks along dim, chunk r into rank r's out.
    template <class T, class D>
    void scatter(const Tensor<T, D>& x, const Tensor<T, D>& out, int root = 0,
                 int64_t dim = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("scatter");
        else
            scatter_impl(x, out, root, dim);
    }

    // The ranks' x (equal sizes) reduced element-wise, chunk r (along dim) into
    // rank r's out.
    template <class T, class D>
    void reduceScatter(const Tensor<T, D>& x, const Tensor<T, D>& out, Op op = Op::sum,
                       int64_t dim = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("reduceScatter");
        else
            reduce_scatter_impl(x, out, op, dim);
    }

    // x split in size() chunks along dim, chunk r to rank r; out (x's sizes)
    // holds the chunks received, in rank order along dim.
    template <class T, class D>
    void alltoall(const Tensor<T, D>& x, const Tensor<T, D>& out, int64_t dim = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("alltoall");
        else {
            same_sizes("alltoall", x, out);
            check_dest(out, "alltoall");
            const int64_t d = split_dim(x, dim, "alltoall");
            const int64_t c = x.size(d) / size_;
            const int64_t esize = sizeof(T);
            const auto lx = detail::dim_first(x.sizes(), x.strides(), d, c);
            const auto lo = detail::dim_first(out.sizes(), out.strides(), d, c);
            const MPI_Datatype st =
                detail::derived_type(lx, detail::base_type<T>(), esize, c * x.stride(d) * esize);
            const MPI_Datatype rt =
                detail::derived_type(lo, detail::base_type<T>(), esize, c * out.stride(d) * esize);
            chk(MPI_Alltoall(x.data(), 1, st, out.data(), 1, rt, native()),
                "alltoall: MPI_Alltoall", x);
        }
    }

    // ---- non-blocking ------------------------------------------------------------

    template <class T, class D>
    Request isend(const Tensor<T, D>& x, int dest, int tag = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("isend");
        else {
            check_peer(dest, "isend", "dest");
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::isend");
            MPI_Request r;
            chk(MPI_Isend(x.data(), tb.count, tb.type, dest, tag, native(), &r), "isend: MPI_Isend",
                x);
            return Request(r, [x](const MPI_Status&) {});
        }
    }

    // As recv, but a message of the wrong size is reported by wait() (x may
    // then be written within its own elements).
    template <class T, class D>
    Request irecv(const Tensor<T, D>& x, int source, int tag = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("irecv");
        else {
            check_peer(source, "irecv", "source", true);
            check_dest(x, "irecv");
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::irecv");
            MPI_Request r;
            chk(MPI_Irecv(x.data(), tb.count, tb.type, source, tag, native(), &r),
                "irecv: MPI_Irecv", x);
            Communicator self = *this;
            return Request(r,
                           [x, self](const MPI_Status& st) { self.check_arrived("irecv", x, st); });
        }
    }

    template <class T, class D>
    Request ibroadcast(const Tensor<T, D>& x, int root = 0) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("ibroadcast");
        else {
            check_peer(root, "ibroadcast", "root");
            if (rank_ != root) check_dest(x, "ibroadcast");
            const auto tb = detail::typed<T>(x.sizes(), x.strides(), "t7::mpi::ibroadcast");
            MPI_Request r;
            chk(MPI_Ibcast(x.data(), tb.count, tb.type, root, native(), &r),
                "ibroadcast: MPI_Ibcast", x);
            return Request(r, [x](const MPI_Status&) {});
        }
    }

    template <class T, class D>
    Request iallreduce(const Tensor<T, D>& x, Op op = Op::sum) const {
        return iallreduce(x, x, op);
    }
    // Non-contiguous x or out go through a buffer the Request owns.
    template <class T, class D>
    Request iallreduce(const Tensor<T, D>& x, const Tensor<T, D>& out, Op op = Op::sum) const {
        if constexpr (!detail::is_cpu<D>)
            detail::no_cuda("iallreduce");
        else
            return iallreduce_impl(x, out, op);
    }

private:
    static bool mpi_ready() {
        int init = 0, fin = 0;
        MPI_Initialized(&init);
        MPI_Finalized(&fin);
        return init && !fin;
    }

    template <class T>
    bool use_ordered(Op op) const {
        return deterministic_ && detail::is_floating<T> && (op == Op::sum || op == Op::prod) &&
               size_ > 1;
    }

    void check_peer(int r, const char* op, const char* what, bool any = false) const {
        if (any && (r == MPI_ANY_SOURCE || r == MPI_PROC_NULL)) return;
        if (r < 0 || r >= size_)
            detail::fail<IndexError>("t7::mpi::", op, ": ", what, " rank ", r,
                                     " out of range (communicator of size ", size_,
                                     ", this is rank ", rank_, ")");
    }
    template <class T>
    void check_dest(const Tensor<T, CPU>& x, const char* op) const {
        if (iter::overlaps_itself(x.sizes(), x.strides()))
            detail::fail<ShapeError>("t7::mpi::", op, " on rank ", rank_,
                                     ": cannot receive into a tensor of size ", x.sizes(),
                                     " with strides ", x.strides(),
                                     ": some of its elements share memory (an expanded view)");
    }
    template <class T>
    void same_sizes(const char* op, const Tensor<T, CPU>& x, const Tensor<T, CPU>& out) const {
        if (x.sizes() != out.sizes())
            detail::fail<ShapeError>("t7::mpi::", op, " on rank ", rank_, ": out has size ",
                                     out.sizes(), ", x has size ", x.sizes());
    }
    template <class T>
    void chk(int rc, const char* call, const Tensor<T, CPU>& x) const {
        if (rc != MPI_SUCCESS) [[unlikely]]
            detail::raise(rc, (std::string("t7::mpi::") + call).c_str(), x.sizes());
    }
    template <class T>
    [[noreturn]] void wrong_size(const char* op, const Tensor<T, CPU>& x, int64_t got, int source,
                                 bool unchanged, const char* more = "") const {
        detail::fail<ShapeError>("t7::mpi::", op, " on rank ", rank_, ": ", more, got,
                                 " elements arrived from rank ", source, " for a tensor of size ",
                                 x.sizes(), " (", x.nElement(), " elements)",
                                 unchanged ? "; the tensor is unchanged" : "");
    }
    // After a receive: exactly x.nElement() elements must have arrived. A
    // truncated one (MPI_ERROR set by Request::finish) counts what arrived as
    // Open MPI reports it, or as "more than" x's count where the MPI does not.
    template <class T>
    void check_arrived(const char* op, const Tensor<T, CPU>& x, const MPI_Status& st) const {
        if (st.MPI_SOURCE == MPI_PROC_NULL) return;
        int bytes = 0;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        const int64_t got = bytes / int64_t(sizeof(T));
        if (st.MPI_ERROR != MPI_SUCCESS && got <= x.nElement())
            wrong_size(op, x, x.nElement(), st.MPI_SOURCE, false, "more than ");
        if (int64_t(bytes) != x.nElement() * int64_t(sizeof(T)))
            wrong_size(op, x, got, st.MPI_SOURCE, false);
    }
    // The dimension a collective splits in size() equal chunks.
    template <class T>
    int64_t split_dim(const Tensor<T, CPU>& x, int64_t dim, const char* op) const {
        const int64_t nd = x.dim();
        if (dim < -nd || dim >= nd || nd == 0)
            detail::fail<IndexError>("t7::mpi::", op, ": dim ", dim,
                                     " out of range for a tensor of size ", x.sizes());
        const int64_t d = dim < 0 ? dim + nd : dim;
        if (x.size(d) % size_ != 0)
            detail::fail<ShapeError>("t7::mpi::", op, " on rank ", rank_, ": size ", x.size(d),
                                     " of dim ", d, " of a tensor of size ", x.sizes(),
                                     " does not split in ", size_, " equal chunks");
        return d;
    }

    // A contiguous buffer of n elements <- the op over the ranks.
    template <class T>
    void allreduce_buf(T* buf, int64_t n, Op op, const Tensor<T, CPU>& x) const {
        detail::check_count(n, "t7::mpi::allreduce");
        if (use_ordered<T>(op)) return ordered(buf, buf, n, op, -1, x);
        chk(MPI_Allreduce(MPI_IN_PLACE, buf, int(n), detail::base_type<T>(),
                          detail::mpi_op<T>(op, "allreduce"), native()),
            "allreduce: MPI_Allreduce", x);
    }

    // The deterministic reduction: element block r (of a near-even split) is
    // sent by every rank to rank r (alltoallv), which reduces the ranks' blocks
    // in rank order; the blocks are then allgathered (root < 0) or gathered
    // onto root into recv. send is read before recv is written (may alias).
    template <class T>
    void ordered(const T* send, T* recv, int64_t n, Op op, int root,
                 const Tensor<T, CPU>& x) const {
        const int p = size_;
        const size_t np = static_cast<size_t>(p);
        std::vector<int> cnt(np), dsp(np), rc(np), rd(np);
        for (int r = 0, off = 0; r < p; ++r) {
            cnt[size_t(r)] = int(n / p + (r < n % p));
            dsp[size_t(r)] = off;
            off += cnt[size_t(r)];
        }
        const int mine = cnt[size_t(rank_)];
        for (int r = 0; r < p; ++r) rc[size_t(r)] = mine, rd[size_t(r)] = r * mine;
        T* tmp = detail::scratch<T>(size_t(p) * size_t(mine), 1);
        const MPI_Datatype b = detail::base_type<T>();
        chk(MPI_Alltoallv(send, cnt.data(), dsp.data(), b, tmp, rc.data(), rd.data(), b, native()),
            "allreduce (deterministic): MPI_Alltoallv", x);
        for (int r = 1; r < p; ++r) detail::combine(op, tmp, tmp + size_t(r) * size_t(mine), mine);
        if (root < 0)
            chk(MPI_Allgatherv(tmp, mine, b, recv, cnt.data(), dsp.data(), b, native()),
                "allreduce (deterministic): MPI_Allgatherv", x);
        else
            chk(MPI_Gatherv(tmp, mine, b, recv, cnt.data(), dsp.data(), b, root, native()),
                "reduce (deterministic): MPI_Gatherv", x);
    }

    // One slice along dim d of a (sizes, strides) view (the other dimensions),
    // as a type whose extent is the stride along d: n slices are n items.
    template <class T>
    static MPI_Datatype slice_type(const Shape& sizes, const Shape& strides, int64_t d) {
        std::vector<int64_t> sz, st;
        for (size_t k = 0; k < sizes.size(); ++k)
            if (int64_t(k) != d) sz.push_back(sizes[k]), st.push_back(strides[k]);
        const auto l = detail::simplify(sz.data(), st.data(), sz.size());
        const int64_t esize = sizeof(T);
        if (l.count == 1 && strides[size_t(d)] == 1) return detail::base_type<T>();
        return detail::derived_type(l, detail::base_type<T>(), esize, strides[size_t(d)] * esize);
    }

    // allgather (root < 0) and gather: every rank learns every rank's sizes
    // first (one small allgather), so that a mismatch throws on every rank.
    template <class T>
    Tensor<T, CPU> gather_impl(const Tensor<T, CPU>& x, int root, int64_t dim,
                               const char* op) const {
        constexpr int hdr = 33; // dim count, then up to 32 sizes
        if (x.dim() > hdr - 1)
            detail::fail<ShapeError>("t7::mpi::", op, ": at most ", hdr - 1, " dimensions");
        std::vector<int64_t> mine(hdr, 0), all(size_t(hdr) * size_t(size_));
        mine[0] = x.dim();
        for (int64_t d = 0; d < x.dim(); ++d) mine[size_t(d + 1)] = x.size(d);
        chk(MPI_Allgather(mine.data(), hdr, MPI_INT64_T, all.data(), hdr, MPI_INT64_T, native()),
            "allgather: MPI_Allgather (sizes)", x);
        const int64_t nd = x.dim();
        if (dim < -nd || dim >= nd || nd == 0) {
            if (nd == 0) {
                bool all_empty = true;
                for (int r = 0; r < size_; ++r) all_empty = all_empty && all[size_t(r) * hdr] == 0;
                if (all_empty) return Tensor<T, CPU>();
            }
            detail::fail<IndexError>("t7::mpi::", op, " on rank ", rank_, ": dim ", dim,
                                     " out of range for a tensor of size ", x.sizes());
        }
        const int64_t d = dim < 0 ? dim + nd : dim;
        std::vector<int> cnt(static_cast<size_t>(size_)), dsp(static_cast<size_t>(size_));
        int64_t total = 0;
        for (int r = 0; r < size_; ++r) {
            const int64_t* h = &all[size_t(r) * hdr];
            bool ok = h[0] == nd;
            for (int64_t k = 0; ok && k < nd; ++k) ok = k == d || h[k + 1] == x.size(k);
            if (!ok) {
                const Shape other(h + 1, h + 1 + h[0]);
                detail::fail<ShapeError>("t7::mpi::", op, " on rank ", rank_, ": rank ", r,
                                         " has a tensor of size ", other, ", this rank ", x.sizes(),
                                         ": the sizes must agree except along dim ", d);
            }
            detail::check_count(total, "t7::mpi::allgather");
            dsp[size_t(r)] = int(total);
            cnt[size_t(r)] = int(h[d + 1]);
            total += h[d + 1];
        }
        Tensor<T, CPU> res;
        const bool me = root < 0 || root == rank_;
        if (me) {
            Shape sz = x.sizes();
            sz[size_t(d)] = total;
            res = Tensor<T, CPU>(sz);
        }
        // Both sides count in slices along dim (the other dimensions): Open MPI
        // 4.1 picks its allgatherv algorithm from the send type's size times the
        // receive counts, so every rank's send unit must have the receive
        // unit's size, or ranks pick different algorithms and deadlock.
        const MPI_Datatype send = slice_type<T>(x.sizes(), x.strides(), d);
        const MPI_Datatype slice = me ? slice_type<T>(res.sizes(), res.strides(), d) : send;
        detail::check_count(x.size(d), "t7::mpi::allgather");
        const int nsend = int(x.size(d));
        if (root < 0)
            chk(MPI_Allgatherv(x.data(), nsend, send, res.data(), cnt.data(), dsp.data(), slice,
                               native()),
                "allgather: MPI_Allgatherv", x);
        else
            chk(MPI_Gatherv(x.data(), nsend, send, me ? res.data() : nullptr, cnt.data(),
                            dsp.data(), slice, root, native()),
                "gather: MPI_Gatherv", x);
        return res;
    }

    template <class T>
    void scatter_impl(const Tensor<T, CPU>& x, const Tensor<T, CPU>& out, int root,
                      int64_t dim) const {
        check_peer(root, "scatter", "root");
        const bool me = rank_ == root;
        // Root tells everyone the chunk's sizes (or that x cannot be split).
        constexpr int hdr = 34; // status, dim, then up to 32 sizes
        std::vector<int64_t> h(hdr, 0);
        std::string why;
        if (me) {
            try {
                const int64_t d = split_dim(x, dim, "scatter");
                if (x.dim() > hdr - 2)
                    detail::fail<ShapeError>("t7::mpi::scatter: too many dimensions");
                h[0] = x.dim();
                h[1] = d;
                for (int64_t k = 0; k < x.dim(); ++k)
                    h[size_t(k + 2)] = k == d ? x.size(k) / size_ : x.size(k);
            } catch (const t7::Error& e) {
                h[0] = -1;
                why = e.what();
            }
        }
        chk(MPI_Bcast(h.data(), hdr, MPI_INT64_T, root, native()), "scatter: MPI_Bcast (sizes)",
            out);
        if (h[0] < 0) {
            if (me) throw ShapeError(why);
            detail::fail<ShapeError>("t7::mpi::scatter on rank ", rank_, ": root ", root,
                                     "'s tensor cannot be scattered (see the error on rank ", root,
                                     ")");
        }
        const int64_t d = h[1];
        const Shape chunk(h.data() + 2, h.data() + 2 + h[0]);
        const int64_t esize = sizeof(T);
        MPI_Datatype st = MPI_DATATYPE_NULL;
        if (me)
            st = detail::derived_type(
                detail::dim_first(x.sizes(), x.strides(), d, chunk[size_t(d)]),
                detail::base_type<T>(), esize, chunk[size_t(d)] * x.stride(d) * esize);
        const bool fits =
            out.sizes() == chunk && !iter::overlaps_itself(out.sizes(), out.strides());
        if (!fits) { // take part (root would wait for us), keep nothing, then throw
            const int64_t n = chunk.numel();
            detail::check_count(n, "t7::mpi::scatter");
            chk(MPI_Scatter(x.data(), 1, st, detail::scratch<T>(size_t(n), 1), int(n),
                            detail::base_type<T>(), root, native()),
                "scatter: MPI_Scatter", out);
            check_dest(out, "scatter");
            detail::fail<ShapeError>("t7::mpi::scatter on rank ", rank_, ": out has size ",
                                     out.sizes(), ", the chunks have size ", chunk,
                                     "; out is unchanged");
        }
        const auto rt = detail::typed<T>(
            detail::dim_first(out.sizes(), out.strides(), d, out.size(d)), "t7::mpi::scatter");
        chk(MPI_Scatter(me ? x.data() : nullptr, 1, st, out.data(), rt.count, rt.type, root,
                        native()),
            "scatter: MPI_Scatter", out);
    }

    template <class T>
    void reduce_scatter_impl(const Tensor<T, CPU>& x, const Tensor<T, CPU>& out, Op op,
                             int64_t dim) const {
        detail::check_op<T>(op, "reduceScatter");
        const int64_t d = split_dim(x, dim, "reduceScatter");
        Shape chunk = x.sizes();
        chunk[size_t(d)] /= size_;
        if (out.sizes() != chunk)
            detail::fail<ShapeError>("t7::mpi::reduceScatter on rank ", rank_, ": out has size ",
                                     out.sizes(), ", the chunks of x (size ", x.sizes(),
                                     ") have size ", chunk);
        check_dest(out, "reduceScatter");
        const int64_t c = chunk.numel(), n = x.nElement();
        detail::check_count(n, "t7::mpi::reduceScatter");
        // x with dim first, so that chunk r is block r of a contiguous buffer.
        const auto lx = detail::dim_first(x.sizes(), x.strides(), d, x.size(d));
        const T* send = x.data();
        std::vector<T> packed;
        if (!lx.contiguous()) {
            packed.resize(size_t(n));
            detail::copy_layout<T, true>(x.data(), packed.data(), lx);
            send = packed.data();
        }
        const auto lo = detail::dim_first(out.sizes(), out.strides(), d, out.size(d));
        std::vector<T> res;
        T* recv = out.data();
        if (!lo.contiguous()) {
            res.resize(size_t(c));
            recv = res.data();
        }
        const MPI_Datatype b = detail::base_type<T>();
        if (use_ordered<T>(op)) {
            T* tmp = detail::scratch<T>(size_t(n), 1);
            chk(MPI_Alltoall(send, int(c), b, tmp, int(c), b, native()),
                "reduceScatter (deterministic): MPI_Alltoall", x);
            for (int r = 1; r < size_; ++r)
                detail::combine(op, tmp, tmp + size_t(r) * size_t(c), c);
            std::copy(tmp, tmp + c, recv);
        } else {
            chk(MPI_Reduce_scatter_block(send, recv, int(c), b,
                                         detail::mpi_op<T>(op, "reduceScatter"), native()),
                "reduceScatter: MPI_Reduce_scatter_block", x);
        }
        if (!lo.contiguous()) detail::copy_layout<T, false>(out.data(), recv, lo);
    }

    template <class T>
    Request iallreduce_impl(const Tensor<T, CPU>& x, const Tensor<T, CPU>& out, Op op) const {
        detail::check_op<T>(op, "iallreduce");
        same_sizes("iallreduce", x, out);
        check_dest(out, "iallreduce");
        const int64_t n = x.nElement();
        detail::check_count(n, "t7::mpi::iallreduce");
        const auto lx = detail::simplify(x.sizes(), x.strides());
        const auto lo = detail::simplify(out.sizes(), out.strides());
        const MPI_Datatype b = detail::base_type<T>();
        // Contiguous x and out: MPI works in them. Otherwise x is packed into a
        // buffer the Request owns, reduced there, and unpacked into out.
        auto buf = std::make_shared<std::vector<T>>();
        const bool direct = x.isContiguous() && out.isContiguous();
        T* src = x.data();
        if (!direct) {
            buf->resize(size_t(n));
            detail::copy_layout<T, true>(x.data(), buf->data(), lx);
            src = buf->data();
        }
        MPI_Request r;
        if (use_ordered<T>(op)) { // every rank's x, then the rank-order reduction here
            const int p = size_;
            auto all = std::make_shared<std::vector<T>>(size_t(n) * size_t(p));
            chk(MPI_Iallgather(src, int(n), b, all->data(), int(n), b, native(), &r),
                "iallreduce (deterministic): MPI_Iallgather", x);
            return Request(r, [x, out, buf, all, lo, n, p, op](const MPI_Status&) {
                T* a = all->data();
                for (int q = 1; q < p; ++q) detail::combine(op, a, a + size_t(q) * size_t(n), n);
                detail::copy_layout<T, false>(out.data(), a, lo);
            });
        }
        T* dst = direct ? out.data() : src;
        const void* s = src == dst ? MPI_IN_PLACE : src;
        chk(MPI_Iallreduce(s, dst, int(n), b, detail::mpi_op<T>(op, "iallreduce"), native(), &r),
            "iallreduce: MPI_Iallreduce", x);
        return Request(r, [x, out, buf, lo, direct](const MPI_Status&) {
            if (!direct) detail::copy_layout<T, false>(out.data(), buf->data(), lo);
        });
    }

    std::shared_ptr<MPI_Comm> comm_;
    int rank_ = -1, size_ = 0;
    bool deterministic_ = false;
};

} // namespace t7::mpi
