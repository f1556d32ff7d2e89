// t7::mpi::Environment: MPI's lifetime as an object. The constructor calls
// MPI_Init_thread asking for MPI_THREAD_FUNNELED (tensor7's thread pool never
// calls MPI: only the thread that made the Environment does), the destructor
// frees tensor7's cached datatypes and ops, then calls MPI_Finalize.
#pragma once

#include "datatype.hpp"
#include "error.hpp"

#include <mpi.h>

namespace t7::mpi {

class Environment {
public:
    Environment() : Environment(nullptr, nullptr) {}
    Environment(int& argc, char**& argv) : Environment(&argc, &argv) {}
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;
    ~Environment() {
        if (!owner_ || !initialized()) return;
        detail::release_all();
        MPI_Finalize();
    }

    // True between MPI_Init and MPI_Finalize (whoever called them).
    static bool initialized() {
        int init = 0, fin = 0;
        MPI_Initialized(&init);
        MPI_Finalized(&fin);
        return init && !fin;
    }
    // The thread support MPI granted (MPI_THREAD_FUNNELED or more).
    int threadLevel() const { return provided_; }

private:
    Environment(int* argc, char*** argv) {
        int init = 0;
        MPI_Initialized(&init);
        if (init) { // MPI initialised by someone else: they finalise it
            MPI_Query_thread(&provided_);
        } else {
            detail::check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided_),
                          "MPI_Init_thread");
            owner_ = true;
        }
        if (provided_ < MPI_THREAD_FUNNELED)
            detail::fail<Error>("t7::mpi::Environment: MPI grants thread level ", provided_,
                                ", below MPI_THREAD_FUNNELED");
        // Errors come back as codes (detail::check), not as an abort.
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    }

    int provided_ = 0;
    bool owner_ = false;
};

} // namespace t7::mpi
