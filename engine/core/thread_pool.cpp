#include "core/thread_pool.hpp"

#include "core/stop_signals.hpp"

#include <sched.h>

namespace tb {

int hardwareThreads()
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(int threads) : m_threads(std::max(1, threads))
{
    const StopSignalsHeld held; // the workers never take the stop signals
    for (int i = 1; i < m_threads; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers)
        t.join();
}

void ThreadPool::drain(int worker)
{
    std::unique_lock lock(m_mutex);
    while (m_next < m_tasks) {
        const int task = m_next++;
        lock.unlock();
        try {
            (*m_fn)(task, worker);
        } catch (...) {
            lock.lock();
            if (!m_error)
                m_error = std::current_exception();
            lock.unlock();
        }
        lock.lock();
        if (--m_pending == 0)
            m_done.notify_all();
    }
}

void ThreadPool::workerLoop(int worker)
{
    unsigned seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop)
                return;
            seen = m_generation;
            ++m_busy;
        }
        drain(worker);
        std::lock_guard lock(m_mutex);
        if (--m_busy == 0)
            m_done.notify_all();
    }
}

void ThreadPool::run(int tasks, const std::function<void(int, int)>& fn)
{
    if (tasks <= 0)
        return;
    if (m_threads == 1 || tasks == 1) {
        for (int t = 0; t < tasks; ++t)
            fn(t, 0);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_fn = &fn;
        m_tasks = tasks;
        m_next = 0;
        m_pending = tasks;
        m_error = nullptr;
        ++m_generation;
    }
    m_wake.notify_all();
    drain(0);
    std::unique_lock lock(m_mutex);
    // Wait for all tasks and for every worker to leave drain(), so fn may die after we return.
    m_done.wait(lock, [&] { return m_pending == 0 && m_busy == 0; });
    m_fn = nullptr;
    m_tasks = 0;
    if (m_error)
        std::rethrow_exception(m_error);
}

} // namespace tb
