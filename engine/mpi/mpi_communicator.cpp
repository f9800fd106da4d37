#include "mpi/mpi_communicator.hpp"

#include "core/stop_signals.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;

class MpiCommunicator final : public Communicator {
public:
    explicit MpiCommunicator(double timeoutSeconds) : m_timeout(timeoutSeconds)
    {
        int provided = 0;
        {
            const StopSignalsHeld held; // nor do the threads MPI starts
            MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    }
    ~MpiCommunicator() override
    {
        // An error on its way out of this rank: the other ranks wait for it in a collective, so
        // finalizing would wait for them until the deadline, and this rank's message, said once the
        // error is caught, would never be seen; endMpiJobAfterError ends the job after the message.
        if (std::uncaught_exceptions() > 0 && m_size > 1)
            return;
        finishSends();
        MPI_Finalize();
    }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    void allgatherv(const double* mine, double* all, const std::vector<int>& counts,
                    const std::vector<int>& displs) override
    {
        MPI_Request req;
        MPI_Iallgatherv(mine, counts[size_t(m_rank)], MPI_DOUBLE, all, counts.data(), displs.data(), MPI_DOUBLE,
                        MPI_COMM_WORLD, &req);
        int64_t total = 0;
        for (int c : counts)
            total += c;
        m_bytes += uint64_t(total) * sizeof(double);
        wait(req, "gathering the step's partial sums from every rank", -1);
    }

    void allgather(const uint64_t* mine, int n, uint64_t* all) override
    {
        MPI_Request req;
        MPI_Iallgather(mine, n, MPI_UINT64_T, all, n, MPI_UINT64_T, MPI_COMM_WORLD, &req);
        m_bytes += uint64_t(n) * uint64_t(m_size) * sizeof(uint64_t);
        wait(req, "the start-up check of every rank's configuration", -1);
    }

    bool anyRank(bool mine) override
    {
        const int in = mine ? 1 : 0;
        int out = 0;
        MPI_Request req;
        MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD, &req);
        m_bytes += sizeof(int);
        wait(req, "whether a rank was asked to stop", -1);
        return out != 0;
    }

    void receiveFromPrevious(float* data, int64_t n, int tag) override
    {
        for (int64_t done = 0; done < n;) {
            const int count = int(std::min<int64_t>(n - done, INT_MAX / 2));
            MPI_Request req;
            MPI_Irecv(data + done, count, MPI_FLOAT, m_rank - 1, tag, MPI_COMM_WORLD, &req);
            wait(req, "the running gradient sum", m_rank - 1);
            done += count;
        }
        m_bytes += uint64_t(n) * sizeof(float);
    }

    void sendToNext(const float* data, int64_t n, int tag) override
    {
        for (int64_t done = 0; done < n;) {
            const int count = int(std::min<int64_t>(n - done, INT_MAX / 2));
            m_sends.emplace_back();
            MPI_Isend(data + done, count, MPI_FLOAT, m_rank + 1, tag, MPI_COMM_WORLD, &m_sends.back());
            done += count;
        }
        m_bytes += uint64_t(n) * sizeof(float);
    }

    void finishSends() override
    {
        for (MPI_Request& r : m_sends)
            wait(r, "rank to take the running gradient sum", m_rank + 1);
        m_sends.clear();
    }

    void broadcastFromLast(float* data, int64_t n) override
    {
        for (int64_t done = 0; done < n;) {
            const int count = int(std::min<int64_t>(n - done, INT_MAX / 2));
            MPI_Request req;
            MPI_Ibcast(data + done, count, MPI_FLOAT, m_size - 1, MPI_COMM_WORLD, &req);
            wait(req, "the gradient's broadcast from the last rank", m_size - 1);
            done += count;
        }
        m_bytes += uint64_t(n) * sizeof(float);
    }

    uint64_t bytesCommunicated() const override { return m_size > 1 ? m_bytes : 0; } // one rank: no-ops

    void setEndNote(std::string note) override { m_note = std::move(note); }

private:
    // Polls the request until it completes or the deadline passes; then the job cannot go on: the
    // message names this rank, what it waited for and from whom, and MPI_Abort ends every rank
    // (an exception could not, the others would wait for this one). Only the time this process ran
    // counts: a rank that was itself stopped (SIGSTOP, a suspended VM) and continues, as mpirun
    // continues a stopped rank to end it, did not wait for the others and must not blame them; the
    // healthy rank that did wait says so.
    void wait(MPI_Request& req, const char* what, int peer)
    {
        double waited = 0;
        auto last = Clock::now();
        for (int polls = 0;; ++polls) {
            int done = 0;
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (done)
                return;
            if (polls < 2000)
                continue;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
            const auto now = Clock::now();
            const double gap = std::chrono::duration<double>(now - last).count();
            last = now;
            if (gap < kLongestPollGap) // a longer one: this process did not run
                waited += gap;
            if (waited > m_timeout) {
                const std::string from = peer >= 0 ? "rank " + std::to_string(peer) : std::string("the other ranks");
                std::fprintf(stderr,
                             "trainbench-cli: MPI rank %d of %d waited %.0f s for %s (%s): it died, hangs or its "
                             "node is lost; ending the job (TRAINBENCH_MPI_TIMEOUT=%.0f).%s%s\n",
                             m_rank, m_size, waited, from.c_str(), what, m_timeout, m_note.empty() ? "" : " ",
                             m_note.c_str());
                std::fflush(stderr);
                MPI_Abort(MPI_COMM_WORLD, 6);
            }
        }
    }

    // Between two polls 50 us apart; a gap longer than this one is a pause of this process, not a wait.
    static constexpr double kLongestPollGap = 0.5;

    int m_rank = 0, m_size = 1;
    double m_timeout;
    uint64_t m_bytes = 0;
    std::vector<MPI_Request> m_sends;
    std::string m_note; // setEndNote's
};
} // namespace

std::shared_ptr<Communicator> makeMpiCommunicator(double timeoutSeconds)
{
    return std::make_shared<MpiCommunicator>(timeoutSeconds);
}

void abortMpiJob(int exitCode)
{
    int initialized = 0, finalized = 0, size = 1;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
        return;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size <= 1)
        return;
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, exitCode);
}

} // namespace tb
