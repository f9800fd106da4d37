// The worker object that drives the engine on its own QThread. It owns everything the run
// touches; the window only sees value types through queued signals. Per-batch progress is
// throttled here so the event loop is never flooded.
#pragma once

#include "common/value_types.hpp"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace tbui {

class TrainWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainWorker(TrainRequest request, QObject* parent = nullptr);

    // Thread-safe; take effect between batches.
    void requestStop();
    void setPaused(bool paused);

    static constexpr int kBatchSignalIntervalMs = 50;

public slots:
    void run();

signals:
    void started(tbui::RunStarted info);
    void batchFinished(tb::BatchProgress progress);
    void epochFinished(tb::EpochRecord record, tbui::EvalPtr validation);
    void finished(tbui::RunOutcome outcome);

private:
    friend class WorkerObserver;
    void waitWhilePaused();

    TrainRequest m_request;
    std::atomic<bool> m_stop{false};
    std::mutex m_pauseMutex;
    std::condition_variable m_pauseChanged;
    bool m_paused = false;  // guarded by m_pauseMutex
};

}  // namespace tbui
