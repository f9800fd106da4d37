#include "run/worker_thread.hpp"

#include <QThread>

namespace tbui {

void StoppableWorker::requestStop()
{
    m_stop.store(true);
    std::lock_guard lock(m_pauseMutex);
    m_paused = false;
    m_pauseChanged.notify_all();
}

void StoppableWorker::requestAbandon()
{
    m_abandon.store(true);
    requestStop();
}

void StoppableWorker::setPaused(bool paused)
{
    std::lock_guard lock(m_pauseMutex);
    m_paused = paused;
    m_pauseChanged.notify_all();
}

void StoppableWorker::countBatch()
{
    const int64_t done = m_batchesDone.fetch_add(1) + 1;
    if (done != m_pauseAfter.load() || m_stop.load())
        return;
    setPaused(true); // here on the worker thread, so the batch that follows waits for Resume
    emit pausedItself();
}

bool StoppableWorker::progressDue(bool force)
{
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - m_lastProgress < std::chrono::milliseconds(kProgressIntervalMs))
        return false;
    m_lastProgress = now;
    return true;
}

bool StoppableWorker::pauseRequested()
{
    std::lock_guard lock(m_pauseMutex);
    return m_paused;
}

void StoppableWorker::waitWhilePaused(const std::function<void()>& holding)
{
    std::unique_lock lock(m_pauseMutex);
    if (m_paused && !m_stop.load()) {
        if (holding)
            holding(); // a queued signal at most: nothing that takes this lock
        emit held(m_batchesDone.load());
    }
    m_pauseChanged.wait(lock, [this] { return !m_paused || m_stop.load(); });
}

void WorkerThread::start(StoppableWorker* worker, const QString& name)
{
    Q_ASSERT(!isRunning());
    m_thread = new QThread;
    m_thread->setObjectName(name);
    m_worker = worker;
    m_worker->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::started, m_worker, &StoppableWorker::run);
    QObject::connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

void WorkerThread::stop()
{
    if (m_worker)
        m_worker->requestStop();
}

void WorkerThread::setPaused(bool paused)
{
    if (m_worker)
        m_worker->setPaused(paused);
}

void WorkerThread::finish()
{
    if (!m_thread)
        return;
    m_thread->quit();
    m_thread->wait();
    delete m_thread; // the worker goes with deleteLater, processed as the thread finished
    m_thread = nullptr;
    m_worker = nullptr;
}

void WorkerThread::stopAndWait()
{
    stop();
    finish();
}

void WorkerThread::abandonAndWait()
{
    if (m_worker)
        m_worker->requestAbandon();
    finish();
}

} // namespace tbui
