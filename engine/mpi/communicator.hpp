// The ranks of a data-parallel run (mpirun -np N trainbench-cli train ...), as the CPU backend needs
// them: a few collectives with a fixed reduction order, so that N ranks give the weights of one
// process to the bit. This header knows nothing of MPI; engine/mpi/ implements it when the build
// has MPI, and a run without a communicator is the ordinary single process.
//
// How a step is split (train/cpu_executor.cpp): the global batch is cut into the same 16-sample
// shards as on one process, and rank r takes the contiguous shards [S*r/N, S*(r+1)/N). Every sum
// over shards is a left fold in shard order, so it is reproduced exactly: per-shard partials
// (BatchNorm sums, loss) are gathered to every rank, which folds them in global order; the
// parameter gradient is passed down the ranks as a running sum (rank r receives the sum of the
// shards before its own, adds its shards in order, sends it on), and the last rank broadcasts it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tb {

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Every rank's `counts[r]` doubles, rank after rank, into `all` (displs[r] is where rank r's go).
    virtual void allgatherv(const double* mine, double* all, const std::vector<int>& counts,
                            const std::vector<int>& displs) = 0;
    // Every rank's n values, rank after rank.
    virtual void allgather(const uint64_t* mine, int n, uint64_t* all) = 0;
    // Whether any rank's `mine` is true; every rank gets the answer (a stop asked of one rank).
    virtual bool anyRank(bool mine) = 0;
    // The running sum down the ranks: from rank-1 (rank 0 never receives), to rank+1 (the last rank
    // never sends). Tags keep the pieces of one step apart.
    virtual void receiveFromPrevious(float* data, int64_t n, int tag) = 0;
    virtual void sendToNext(const float* data, int64_t n, int tag) = 0;
    // Waits until every send of this step has been taken.
    virtual void finishSends() = 0;
    // The last rank's n values to every rank.
    virtual void broadcastFromLast(float* data, int64_t n) = 0;

    // Bytes this rank sent and received so far (payload, as the collectives' algorithms see it).
    virtual uint64_t bytesCommunicated() const = 0;

    // The sentence the watchdog's message ends with when this rank gives up on the others: what the
    // run kept (its last checkpoint, or that it has none). Only what this rank knows to be true; empty:
    // nothing is said of checkpoints.
    virtual void setEndNote(std::string note) { (void)note; }
};

// Every rank's `mine`, rank after rank (two allgathers: the lengths, then the texts).
std::vector<std::string> allgatherText(Communicator& comm, const std::string& mine);

// How this process was started, as its front end read it from the environment (app/environment:
// what mpirun (Open MPI), srun (PMIx, PMI-2) or MPICH's hydra set).
struct ProcessLaunch {
    bool byLauncher = false;         // started by mpirun or srun
    int size = 0, rank = 0;          // as the launcher said (0 when it did not)
    double mpiTimeoutSeconds = 60.0; // how long a rank waits for the others before it gives up
    std::string timeoutProblem;      // why the timeout the environment gave is refused (empty: none)
};

// The communicator of this process: the MPI world when the process was started by mpirun or srun and
// the build has MPI; null otherwise (a single process, MPI untouched). Throws ConfigError when
// started as one of several ranks by a build without MPI, or with a timeout it refuses.
std::shared_ptr<Communicator> processCommunicator(const ProcessLaunch& launch);

// Says an error that ends this process (`say`), then ends every rank of the MPI job this process is one
// of, with `exitCode` as mpirun's. The others would otherwise wait for this rank in their next
// collective until the deadline, and end with a message that blames a lost rank. An error every rank
// meets (a missing dataset, a mistyped option) is said once: rank 0 says it at once and ends the job
// (mpirun ends it when rank 0 exits before it joined the MPI world); the others wait two seconds
// before they say theirs, and are ended first. Only `say` when this process is no rank of a job of
// several (or the build has no MPI).
void endMpiJobAfterError(int exitCode, const ProcessLaunch& launch, const std::function<void()>& say);

// What `devices` says of MPI: how to start a data-parallel run, or why this build cannot.
std::string mpiAvailability();

// "MPI: 4 ranks × cpu:1" style line for headers, from every rank's device (`deviceIds`, rank after
// rank): ranks on different devices (other thread counts) are each named, "MPI: 3 ranks: cpu:2 (ranks
// 0, 2), cpu:1 (rank 1)". Empty without a communicator.
std::string describeCommunicator(const Communicator* comm, const std::vector<std::string>& deviceIds);

} // namespace tb
