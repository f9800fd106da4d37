#include "mpi/communicator.hpp"

#include "core/errors.hpp"

#if TRAINBENCH_HAVE_MPI
#include "mpi/mpi_communicator.hpp"
#endif

#include <chrono>
#include <thread>

namespace tb {

std::shared_ptr<Communicator> processCommunicator(const ProcessLaunch& launch)
{
    if (!launch.timeoutProblem.empty())
        throw ConfigError(launch.timeoutProblem);
    // A process started otherwise (even inside a Slurm allocation) is a single process.
    if (!launch.byLauncher)
        return nullptr;
#if TRAINBENCH_HAVE_MPI
    return makeMpiCommunicator(launch.mpiTimeoutSeconds);
#else
    if (launch.size > 1 || launch.rank > 0)
        throw ConfigError("started by mpirun or srun as one of several ranks, but this build has no MPI: install "
                          "libopenmpi-dev and rebuild (scripts/setup-debian.sh), or run one process without mpirun");
    return nullptr;
#endif
}

void endMpiJobAfterError(int exitCode, const ProcessLaunch& launch, const std::function<void()>& say)
{
    if (launch.size > 1 && launch.rank > 0)
        std::this_thread::sleep_for(std::chrono::seconds(2)); // rank 0's message first, if it has one
    say();
#if TRAINBENCH_HAVE_MPI
    abortMpiJob(exitCode);
#else
    (void)exitCode;
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
