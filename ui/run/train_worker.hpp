// The worker object that drives the engine on its own QThread. It owns everything the run
// touches; the window only sees value types through queued signals. Per-batch progress is
// throttled (StoppableWorker::progressDue) so the event loop is never flooded. Every run has a run
// folder with its checkpoints, as the CLI's; a request with a run folder resumes that run.
#pragma once

#include "common/value_types.hpp"
#include "run/worker_thread.hpp"

#include <memory>

namespace tb {
class TrainingSession;
}

namespace tbui {

class TrainWorker : public StoppableWorker {
    Q_OBJECT
public:
    explicit TrainWorker(TrainRequest request, QObject* parent = nullptr);

    void run() override;

    // The dataset a resumed run trains on: `loaded` when it is the checkpoint's, else null when the
    // checkpoint's own (an IDX folder or a text) is still where it was, to be loaded; else throws
    // DataError naming the difference. The window checks a folder with it before it starts anything.
    static DatasetPtr resumeDataset(const tb::Checkpoint& saved, DatasetPtr loaded, const std::string& checkpointPath);

signals:
    void started(tbui::RunStarted info);
    void batchFinished(tb::BatchProgress progress);
    void epochFinished(tb::EpochRecord record, tbui::EvalPtr validation);
    // A text model: a sample of its writing after every epoch (120 symbols at temperature 0.5, seeded
    // by the epoch, as the CLI prints).
    void textSampled(int epoch, QString sample);
    void evaluatingTestSet(int images); // stopped: what is left to do before finished()
    void finished(tbui::RunOutcome outcome);

private:
    friend class WorkerObserver;
    // A resumed run's `ranOn`: the device it ran on before, when it goes on elsewhere (else empty).
    std::unique_ptr<tb::TrainingSession> makeSession(DatasetPtr& data, QString& ranOn);

    TrainRequest m_request;
};

} // namespace tbui
