// t7::mpi::Request: one pending non-blocking operation (isend, irecv,
// iallreduce, ibroadcast). It holds handles on the tensors the operation reads
// or writes (in `done_`), so their memory stays alive while the Request exists,
// even when the caller's handles are gone; `done_` runs once the operation
// completed (checks of what arrived, unpacking, a deterministic reduction).
#pragma once

#include "error.hpp"

#include <mpi.h>

#include <exception>
#include <functional>
#include <utility>
#include <vector>

namespace t7::mpi {

class Request {
public:
    Request() = default;
    Request(MPI_Request r, std::function<void(const MPI_Status&)> done)
        : req_(r), done_(std::move(done)), pending_(true) {}
    Request(Request&& o) noexcept
        : req_(std::exchange(o.req_, MPI_REQUEST_NULL)), done_(std::move(o.done_)),
          pending_(std::exchange(o.pending_, false)) {
        o.done_ = nullptr;
    }
    Request& operator=(Request&& o) noexcept {
        if (this != &o) {
            finish_quietly();
            req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
            done_ = std::move(o.done_);
            o.done_ = nullptr;
            pending_ = std::exchange(o.pending_, false);
        }
        return *this;
    }
    Request(const Request&) = delete;
    Request& operator=(const Request&) = delete;
    // Waits when still pending (errors are dropped here: call wait() to see them).
    ~Request() { finish_quietly(); }

    // True while the operation has not been waited for or tested complete.
    bool pending() const { return pending_; }

    // Blocks until the operation completes; throws what it reports (ShapeError
    // for a receive of the wrong size, t7::mpi::Error).
    void wait() {
        if (!pending()) return;
        MPI_Status st;
        st.MPI_ERROR = MPI_SUCCESS;
        const int rc = MPI_Wait(&req_, &st);
        finish(rc, st);
    }
    // True (and the operation finished, as wait()) when it has completed.
    bool test() {
        if (!pending()) return true;
        int flag = 0;
        MPI_Status st;
        st.MPI_ERROR = MPI_SUCCESS;
        const int rc = MPI_Test(&req_, &flag, &st);
        if (rc == MPI_SUCCESS && !flag) return false;
        finish(rc, st);
        return true;
    }

    MPI_Request& native() { return req_; }

private:
    friend void waitAll(std::vector<Request>&);
    // The tensors stay held (in done_) until the Request is destroyed.
    // A truncated receive goes to done_ first, with MPI_ERROR set, so that the
    // receive names itself, its tensor and what arrived (irecv: check_arrived).
    void finish(int rc, const MPI_Status& st) {
        req_ = MPI_REQUEST_NULL;
        pending_ = false;
        int code = rc;
        if (code == MPI_SUCCESS && st.MPI_ERROR != MPI_ERR_PENDING) code = st.MPI_ERROR;
        if (code != MPI_SUCCESS) {
            int cls = code;
            MPI_Error_class(code, &cls);
            if (cls == MPI_ERR_TRUNCATE && done_) {
                MPI_Status truncated = st;
                truncated.MPI_ERROR = code;
                done_(truncated);
            }
            detail::check(code, "t7::mpi::Request: MPI_Wait");
        }
        if (done_) done_(st);
    }
    void finish_quietly() noexcept {
        if (!pending()) return;
        try {
            int fin = 0;
            MPI_Finalized(&fin);
            if (fin) { // too late to wait: MPI is gone
                req_ = MPI_REQUEST_NULL;
                pending_ = false;
                return;
            }
            wait();
        } catch (...) {
        }
    }

    MPI_Request req_ = MPI_REQUEST_NULL;
    std::function<void(const MPI_Status&)> done_;
    bool pending_ = false;
};

// Waits for every request (one MPI_Waitall), finishes each, then throws the
// first error any of them reported.
inline void waitAll(std::vector<Request>& rs) {
    std::vector<MPI_Request> raw(rs.size());
    std::vector<MPI_Status> st(rs.size());
    for (auto& s : st) s.MPI_ERROR = MPI_SUCCESS;
    for (size_t i = 0; i < rs.size(); ++i) raw[i] = rs[i].req_;
    const int rc = MPI_Waitall(int(raw.size()), raw.data(), st.data());
    std::exception_ptr first;
    for (size_t i = 0; i < rs.size(); ++i) {
        if (!rs[i].pending()) continue;
        int code = MPI_SUCCESS;
        if (rc == MPI_ERR_IN_STATUS)
            code = st[i].MPI_ERROR;
        else if (rc != MPI_SUCCESS)
            code = rc;
        try {
            rs[i].finish(code, st[i]);
        } catch (...) {
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
}

} // namespace t7::mpi
