// The signals that ask a run to stop (SIGINT, SIGTERM, SIGHUP) are left to the thread that starts
// the others. While a StopSignalsHeld lives, the calling thread blocks them, so the threads it starts
// (a thread pool's workers, MPI's own threads at MPI_Init) inherit the block, and the front end's
// handler runs on the thread that reads the data and trains. A handler that pauses before it ends
// the process (an MPI rank that lets rank 0 speak first) must pause that work: on another thread it
// did not, and a rank read on, passed the ranks' check and trained a step meanwhile.
#pragma once

#include <csignal>
#include <pthread.h>

namespace tb {

class StopSignalsHeld {
public:
    StopSignalsHeld()
    {
        sigset_t stop;
        sigemptyset(&stop);
        for (int s : {SIGINT, SIGTERM, SIGHUP})
            sigaddset(&stop, s);
        pthread_sigmask(SIG_BLOCK, &stop, &m_previous);
    }
    ~StopSignalsHeld() { pthread_sigmask(SIG_SETMASK, &m_previous, nullptr); }
    StopSignalsHeld(const StopSignalsHeld&) = delete;
    StopSignalsHeld& operator=(const StopSignalsHeld&) = delete;

private:
    sigset_t m_previous;
};

} // namespace tb
