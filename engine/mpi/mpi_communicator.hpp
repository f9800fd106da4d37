// The Communicator over MPI's world (built only when CMake finds MPI; see engine/CMakeLists.txt).
// Every wait is polled against a deadline (the front ends' TRAINBENCH_MPI_TIMEOUT, 60 s by default): a rank
// that died or a node that was lost ends the job with a message naming what the rank waited for,
// instead of a hang (mpirun also ends the job when it sees a rank die; the deadline covers what it
// cannot see, such as a lost node or a stuck rank).
#pragma once

#include "mpi/communicator.hpp"

#include <memory>

namespace tb {

// Initializes MPI (once per process) and returns the world; finalized when the last copy goes. A wait
// longer than `timeoutSeconds` ends the run with a message.
std::shared_ptr<Communicator> makeMpiCommunicator(double timeoutSeconds);

// See endMpiJobAfterError.
void abortMpiJob(int exitCode);

} // namespace tb
