// Owns the training thread: starts a TrainWorker on a fresh QThread, forwards its signals, and
// stops and joins it (within one batch) on Stop or when the window closes.
#pragma once

#include "common/value_types.hpp"
#include "run/worker_thread.hpp"

#include <QObject>

namespace tbui {

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    bool isRunning() const { return m_thread.isRunning(); }
    bool isPaused() const { return m_paused; }
    int64_t batchesDone() const { return m_thread.batchesDone(); } // by the worker, so far

    // paused: the worker holds after its first batch until setPaused(false).
    void start(const TrainRequest& request, bool paused = false);
    void setPaused(bool paused);
    // The next run pauses itself after this many batches (0: no), on the training thread: a pause
    // at a known step however busy the machine is (setPaused lands wherever the worker got to).
    void pauseAfterBatches(int64_t batches) { m_pauseAfter = batches; }
    void stop();        // asynchronous: finished() follows within one batch
    void stopAndWait(); // blocks until the thread has ended
    // For closing the window: stops within one batch without evaluating the weights, and joins.
    void abandonAndWait();

signals:
    void started(tbui::RunStarted info);
    void batchFinished(tb::BatchProgress progress);
    void epochFinished(tb::EpochRecord record, tbui::EvalPtr validation);
    void finished(tbui::RunOutcome outcome);
    void pausedChanged(bool paused);
    void held(int64_t batchesDone); // paused, the worker waits: no batch runs until setPaused(false)
    void stopping();                // Stop was asked for
    void textSampled(int epoch, QString sample);
    void evaluatingTestSet(int images); // the stopped run evaluates its weights before finished()

private:
    void onWorkerFinished(const RunOutcome& outcome);
    void onWorkerPaused();

    WorkerThread m_thread;
    bool m_paused = false;
    int64_t m_pauseAfter = 0; // for the next start() only
};

// Registers the value types above with Qt's meta-type system (once, before the first run).
void registerValueTypes();

} // namespace tbui
