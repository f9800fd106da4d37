#include "run/run_controller.hpp"

#include "run/train_worker.hpp"

#include <QThread>

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

RunController::RunController(QObject* parent) : QObject(parent) { registerValueTypes(); }

RunController::~RunController() { stopAndWait(); }

void RunController::start(const TrainRequest& request)
{
    Q_ASSERT(!isRunning());
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("trainbench-training"));
    m_worker = new TrainWorker(request);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::started, m_worker, &TrainWorker::run);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TrainWorker::started, this, &RunController::started);
    connect(m_worker, &TrainWorker::batchFinished, this, &RunController::batchFinished);
    connect(m_worker, &TrainWorker::epochFinished, this, &RunController::epochFinished);
    connect(m_worker, &TrainWorker::finished, this, &RunController::onWorkerFinished);
    m_paused = false;
    m_thread->start();
}

void RunController::setPaused(bool paused)
{
    if (!m_worker || paused == m_paused)
        return;
    m_paused = paused;
    m_worker->setPaused(paused);
    emit pausedChanged(paused);
}

void RunController::stop()
{
    if (m_worker)
        m_worker->requestStop();
}

void RunController::stopAndWait()
{
    if (!m_thread)
        return;
    m_worker->requestStop();
    m_thread->quit();
    m_thread->wait();
    delete m_thread;  // the worker went with deleteLater when the thread finished
    m_thread = nullptr;
    m_worker = nullptr;
}

void RunController::onWorkerFinished(const RunOutcome& outcome)
{
    // The worker's run() has returned: end its thread (unless stopAndWait already did), then tell
    // the window.
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
        m_thread->deleteLater();
        m_thread = nullptr;
        m_worker = nullptr;
    }
    m_paused = false;
    emit finished(outcome);
}

}  // namespace tbui
