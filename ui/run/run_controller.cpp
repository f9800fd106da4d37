#include "run/run_controller.hpp"

#include "run/train_worker.hpp"

#include <utility>

namespace tbui {

void registerValueTypes()
{
    qRegisterMetaType<tb::BatchProgress>();
    qRegisterMetaType<tb::EpochRecord>();
    qRegisterMetaType<tbui::EvalPtr>();
    qRegisterMetaType<tbui::RunStarted>();
    qRegisterMetaType<tbui::RunOutcome>();
    qRegisterMetaType<tbui::DatasetPtr>();
}

RunController::RunController(QObject* parent) : QObject(parent)
{
    registerValueTypes();
}

RunController::~RunController()
{
    stopAndWait();
}

void RunController::start(const TrainRequest& request, bool paused)
{
    Q_ASSERT(!isRunning());
    auto* worker = new TrainWorker(request);
    connect(worker, &TrainWorker::started, this, &RunController::started);
    connect(worker, &TrainWorker::batchFinished, this, &RunController::batchFinished);
    connect(worker, &TrainWorker::epochFinished, this, &RunController::epochFinished);
    connect(worker, &TrainWorker::textSampled, this, &RunController::textSampled);
    connect(worker, &TrainWorker::evaluatingTestSet, this, &RunController::evaluatingTestSet);
    connect(worker, &TrainWorker::finished, this, &RunController::onWorkerFinished);
    connect(worker, &TrainWorker::pausedItself, this, &RunController::onWorkerPaused);
    connect(worker, &TrainWorker::held, this, &RunController::held);
    worker->setPaused(paused); // before the thread starts, so no batch can slip past it
    worker->pauseAfterBatches(std::exchange(m_pauseAfter, 0));
    m_paused = paused;
    m_thread.start(worker, QStringLiteral("trainbench-training"));
}

void RunController::setPaused(bool paused)
{
    if (!isRunning() || paused == m_paused)
        return;
    m_paused = paused;
    m_thread.setPaused(paused);
    emit pausedChanged(paused);
}

void RunController::stop()
{
    if (!isRunning())
        return;
    m_thread.stop();
    emit stopping();
}

void RunController::stopAndWait()
{
    m_thread.stopAndWait();
}

void RunController::abandonAndWait()
{
    m_thread.abandonAndWait();
}

void RunController::onWorkerPaused()
{
    if (!isRunning() || m_paused)
        return;
    m_paused = true; // as setPaused(true), the worker already holds
    emit pausedChanged(true);
}

void RunController::onWorkerFinished(const RunOutcome& outcome)
{
    // The worker's run() has returned: join its thread first, so isRunning() is false for the
    // window's handlers.
    m_thread.finish();
    m_paused = false;
    emit finished(outcome);
}

} // namespace tbui
