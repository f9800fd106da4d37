// A fixed pool of worker threads that runs "task i of n" loops. The calling thread takes part.
// Which thread runs a task never affects a result: every task writes only its own outputs and
// the engine reduces them afterwards in task order.
//
// Hand-written rather than OpenMP or a task library (TBB, Taskflow) on purpose: those schedule
// reductions and work-stealing in whatever order they like, and bit-identical weights on any
// thread count need the reduction order fixed by the engine, not the scheduler.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tb {

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threads() const { return m_threads; }
    // Runs fn(task, worker) for task in [0, tasks); worker in [0, threads()). Returns when all are
    // done; rethrows the first exception a task threw.
    void run(int tasks, const std::function<void(int task, int worker)>& fn);

private:
    void workerLoop(int worker);
    void drain(int worker);

    int m_threads;
    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(int, int)>* m_fn = nullptr;
    int m_tasks = 0;
    int m_next = 0;
    int m_pending = 0; // tasks not yet finished
    int m_busy = 0;    // workers inside drain()
    unsigned m_generation = 0;
    bool m_stop = false;
    std::exception_ptr m_error;
};

// Hardware threads available to this process.
int hardwareThreads();

} // namespace tb
