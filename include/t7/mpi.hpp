// MPI for tensor7 (optional component; not part of <t7/t7.hpp>): tensors and
// any views of them sent, received and reduced across processes through MPI,
// with no packing by tensor7 for point-to-point and data-movement collectives.
// Build: the Meson option -Dmpi (dependency tensor7_mpi_dep, tensor7_mpi.pc,
// CMake tensor7::mpi). Reference: docs/mpi.md.
//
//   t7::mpi::Environment env(argc, argv);
//   t7::mpi::Communicator world;
//   world.allreduce(grad);                          // in place, sum
//   world.sendrecv(u.select(1, 1), left, halo, right); // a column, no copy
#pragma once

#include "core/config.hpp" // first, as in every public header: one error below C++20

#include "mpi/communicator.hpp"
#include "mpi/datatype.hpp"
#include "mpi/dist_io.hpp"
#include "mpi/dist_tensor.hpp"
#include "mpi/environment.hpp"
#include "mpi/error.hpp"
#include "mpi/request.hpp"
