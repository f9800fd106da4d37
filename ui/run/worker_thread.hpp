// The thread plumbing that training and comparison share: a worker object with a stop flag and
// a pause gate (both thread-safe, checked between batches), and the owner that runs one worker on
// a fresh QThread and joins it.
#pragma once

#include <QObject>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

class QThread;

namespace tbui {

class StoppableWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Thread-safe; take effect between batches.
    void requestStop();
    // Stop, and skip the work a stopped run still does (the test-set evaluation): the window is closing.
    void requestAbandon();
    void setPaused(bool paused);
    // Pause by itself once this many batches are done (0: never), as if Pause were pressed then;
    // set before run(), it holds at that exact batch however busy the machine is.
    void pauseAfterBatches(int64_t batches) { m_pauseAfter.store(batches); }
    // Batches finished so far (thread-safe), to check that Stop takes effect within one batch.
    int64_t batchesDone() const { return m_batchesDone.load(); }

public slots:
    virtual void run() = 0;

signals:
    void pausedItself(); // pauseAfterBatches's pause took hold (sent from the worker thread)
    // The worker waits paused, this many batches done: the batch in flight when Pause was pressed
    // has finished (sent from the worker thread, after that batch's progress).
    void held(int64_t batchesDone);

protected:
    const std::atomic<bool>* stopFlag() const { return &m_stop; }
    bool stopRequested() const { return m_stop.load(); }
    bool abandonRequested() const { return m_abandon.load(); }
    const std::atomic<bool>* abandonFlag() const { return &m_abandon; }
    // Called by the worker between batches; `holding` runs once, first, when it is about to wait.
    void waitWhilePaused(const std::function<void()>& holding = {});
    bool pauseRequested();
    void countBatch(); // after each batch, before its progress is sent; may pause there
    // Whether to send a batch's progress now: when forced, else at most every kProgressIntervalMs.
    // Worker thread only.
    bool progressDue(bool force);
    static constexpr int kProgressIntervalMs = 50;

private:
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_abandon{false};
    std::atomic<int64_t> m_batchesDone{0};
    std::atomic<int64_t> m_pauseAfter{0};
    std::chrono::steady_clock::time_point m_lastProgress{};
    std::mutex m_pauseMutex;
    std::condition_variable m_pauseChanged;
    bool m_paused = false; // guarded by m_pauseMutex
};

class WorkerThread {
public:
    WorkerThread() = default;
    ~WorkerThread() { stopAndWait(); }
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    bool isRunning() const { return m_thread != nullptr; }
    // Takes ownership of `worker` and calls its run() on a new thread.
    void start(StoppableWorker* worker, const QString& name);
    void stop();
    void setPaused(bool paused);
    int64_t batchesDone() const { return m_worker ? m_worker->batchesDone() : 0; }
    // Call when the worker has sent its final signal: joins the thread (run() has returned).
    void finish();
    // Stops the worker and joins the thread (within one batch).
    void stopAndWait();
    // The same, skipping the stopped run's evaluation: bounded by one batch.
    void abandonAndWait();

private:
    QThread* m_thread = nullptr;
    StoppableWorker* m_worker = nullptr;
};

} // namespace tbui
