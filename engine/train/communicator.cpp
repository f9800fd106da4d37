#include "train/communicator.hpp"

#include "core/errors.hpp"

#include <cstdlib>

#if TRAINBENCH_HAVE_MPI
#include "mpi/mpi_communicator.hpp"
#endif

namespace tb {

namespace {
// The world size mpirun (Open MPI), srun (PMIx, PMI-2) or MPICH's hydra give the processes they start.
int launcherWorldSize()
{
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS"})
        if (const char* s = std::getenv(v))
            return std::atoi(s);
    return 0;
}
} // namespace

std::shared_ptr<Communicator> processCommunicator()
{
    const int size = launcherWorldSize();
    if (size <= 0 || (size == 1 && !std::getenv("OMPI_COMM_WORLD_SIZE")))
        return nullptr;
#if TRAINBENCH_HAVE_MPI
    return makeMpiCommunicator();
#else
    if (size > 1)
        throw ConfigError("started as one of " + std::to_string(size) +
                          " ranks, but this build has no MPI: install libopenmpi-dev and rebuild "
                          "(scripts/setup-debian.sh), or run one process without mpirun");
    return nullptr;
#endif
}

std::string mpiAvailability()
{
#if TRAINBENCH_HAVE_MPI
    return "data-parallel training on N processes or nodes: mpirun -np N trainbench-cli train ... (same "
           "weights as one process)";
#else
    return "not in this build (install libopenmpi-dev and rebuild)";
#endif
}

std::string describeCommunicator(const Communicator* comm, const std::string& deviceId)
{
    if (!comm)
        return {};
    return "MPI: " + std::to_string(comm->size()) + (comm->size() == 1 ? " rank" : " ranks") + " \xc3\x97 " + deviceId;
}

} // namespace tb
