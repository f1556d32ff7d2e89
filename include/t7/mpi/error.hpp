// t7::mpi::Error and the translation of MPI's return codes into t7::Error
// subclasses. Every communicator tensor7 uses has MPI_ERRORS_RETURN set, so an
// MPI failure comes back here as a code instead of aborting the job.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/shape.hpp"

// The C API only: Open MPI's and MPICH's deprecated C++ bindings (which warn
// under -Wextra) stay out.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <string>

namespace t7::mpi {

// What MPI itself reports (anything that is not a size mismatch).
struct Error : t7::Error {
    using t7::Error::Error;
};

// The element-wise reductions of allreduce, reduce, reduceScatter.
enum class Op { sum, prod, max, min };

namespace detail {

using t7::detail::fail;

inline std::string error_string(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        return "MPI error " + std::to_string(code);
    return std::string(text, size_t(len));
}

inline int world_rank() {
    int r = -1, init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

// Throws for a failed MPI call: ShapeError for a truncated message, else
// t7::mpi::Error; the message names the call, the rank and the sizes.
[[noreturn]] inline void raise(int code, const char* call, const Shape& sizes) {
    int cls = code;
    MPI_Error_class(code, &cls);
    const std::string what =
        t7::detail::fmt_msg(call, " failed on rank ", world_rank(), " (tensor of size ", sizes,
                            "): ", error_string(code));
    if (cls == MPI_ERR_TRUNCATE)
        throw ShapeError(what + " (the message is larger than the receiving tensor)");
    throw Error(what);
}

inline void check(int code, const char* call, const Shape& sizes = {}) {
    if (code != MPI_SUCCESS) [[unlikely]]
        raise(code, call, sizes);
}

} // namespace detail
} // namespace t7::mpi
