#include "mpi/communicator.hpp"

#include "core/errors.hpp"

#if TRAINBENCH_HAVE_MPI
#include "mpi/mpi_communicator.hpp"
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

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

std::vector<std::string> allgatherText(Communicator& comm, const std::string& mine)
{
    const size_t n = size_t(comm.size());
    const uint64_t length = mine.size();
    std::vector<uint64_t> lengths(n);
    comm.allgather(&length, 1, lengths.data());
    uint64_t longest = 0;
    for (uint64_t l : lengths)
        longest = std::max(longest, l);
    const size_t words = size_t((longest + 7) / 8);
    std::vector<std::string> all(n);
    if (words == 0)
        return all;
    std::vector<uint64_t> packed(words, 0), gathered(words * n);
    std::memcpy(packed.data(), mine.data(), mine.size());
    comm.allgather(packed.data(), int(words), gathered.data());
    for (size_t r = 0; r < n; ++r)
        all[r].assign(reinterpret_cast<const char*>(gathered.data() + r * words), size_t(lengths[r]));
    return all;
}

std::string describeCommunicator(const Communicator* comm, const std::vector<std::string>& deviceIds)
{
    if (!comm || deviceIds.empty())
        return {};
    const std::string ranks = "MPI: " + std::to_string(comm->size()) + (comm->size() == 1 ? " rank" : " ranks");
    std::vector<std::pair<std::string, std::vector<int>>> groups; // each device, in the order of its first rank
    for (int r = 0; r < int(deviceIds.size()); ++r) {
        auto same =
            std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == deviceIds[size_t(r)]; });
        if (same == groups.end())
            groups.push_back({deviceIds[size_t(r)], {r}});
        else
            same->second.push_back(r);
    }
    if (groups.size() == 1)
        return ranks + " \xc3\x97 " + groups[0].first;
    std::string text = ranks + ":";
    for (size_t g = 0; g < groups.size(); ++g) {
        const std::vector<int>& of = groups[g].second;
        text += std::string(g == 0 ? " " : ", ") + groups[g].first + (of.size() == 1 ? " (rank " : " (ranks ");
        for (size_t i = 0; i < of.size(); ++i)
            text += (i == 0 ? "" : ", ") + std::to_string(of[i]);
        text += ")";
    }
    return text;
}

} // namespace tb
