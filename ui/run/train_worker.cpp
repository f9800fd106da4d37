#include "run/train_worker.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/errors.hpp"
#include "environment.hpp"
#include "kernels/isa.hpp"
#include "predict/text_generator.hpp"
#include "train/progress_text.hpp"
#include "train/session.hpp"

#include <QFileInfo>

namespace tbui {

class WorkerObserver : public tb::TrainObserver {
public:
    explicit WorkerObserver(TrainWorker& w) : m_worker(w) {}

    void batchFinished(const tb::BatchProgress& p) override
    {
        m_worker.countBatch();
        // The first and last steps, a pause and a stop are always shown: a paused or stopped run shows
        // where it stands.
        const bool sent = m_worker.progressDue(p.step == p.steps || p.step == 1 || m_worker.pauseRequested() ||
                                               m_worker.stopRequested());
        if (sent)
            emit m_worker.batchFinished(p);
        // A pause asked for since: the step it holds at is shown too.
        m_worker.waitWhilePaused([&] {
            if (!sent)
                emit m_worker.batchFinished(p);
        });
    }

    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult& validation) override
    {
        emit m_worker.epochFinished(r, std::make_shared<const tb::EvalResult>(validation));
        // On the training thread, between epochs: the network holds this epoch's weights. The CLI's sample.
        if (m_textNet)
            emit m_worker.textSampled(r.epoch, qs(tb::epochSample(*m_textNet, m_vocab, r.epoch)));
    }

    void testStarted(int images) override { emit m_worker.evaluatingTestSet(images); }

    void showText(const tb::Network& net, const tb::Dataset& data)
    {
        m_textNet = &net;
        m_vocab = tb::vocabularyOf(data);
    }

    const tb::Network* m_textNet = nullptr; // a text model's, for the samples
    tb::TextVocabulary m_vocab;

private:
    TrainWorker& m_worker;
};

TrainWorker::TrainWorker(TrainRequest request, QObject* parent) : StoppableWorker(parent), m_request(std::move(request))
{
}

DatasetPtr TrainWorker::resumeDataset(const tb::Checkpoint& saved, DatasetPtr loaded, const std::string& checkpointPath)
{
    if (!loaded)
        return nullptr;
    try {
        tb::requireSameDataset(saved.data, *loaded, checkpointPath);
        return loaded;
    } catch (const tb::DataError&) {
        // Another dataset is loaded: the checkpoint's own, if it is still there (a text run's is a
        // file, an image run's a folder).
        if (!QFileInfo::exists(qs(saved.data.directory)))
            throw;
        return nullptr;
    }
}

// The session of a fresh run (with its run folder) or of a resumed one, and the dataset it trains on.
std::unique_ptr<tb::TrainingSession> TrainWorker::makeSession(DatasetPtr& data, QString& ranOn)
{
    const TrainRequest& r = m_request;
    if (r.resumeFolder.empty()) {
        if (!r.data)
            throw tb::ConfigError(ss(tr("No dataset is loaded.")));
        data = r.data;
        tb::TrainConfig cfg = r.config;
        cfg.device = r.device;
        auto session = std::make_unique<tb::TrainingSession>(r.spec, *data, cfg);
        session->createRunFolder(r.runsDir.empty() ? tb::env::runsDir() : r.runsDir, r.checkpointEvery);
        return session;
    }
    const tb::RunFolder folder = tb::RunFolder::open(r.resumeFolder);
    tb::Checkpoint saved = r.checkpoint ? *r.checkpoint : tb::readCheckpoint(folder.checkpoint());
    data = resumeDataset(saved, r.data, folder.checkpoint());
    if (!data)
        data = std::make_shared<const tb::Dataset>(tb::loadDatasetFor(saved.data.directory, saved.weights));
    // The accelerator panel's device, at the run's kernel level where it runs here in the panel's
    // precision (the window chooses no level).
    tb::DeviceSpec device = r.device;
    const tb::DeviceSpec& before = saved.config.device;
    if (device.kind == tb::DeviceKind::Cpu && before.kind == tb::DeviceKind::Cpu && !device.isa && before.isa &&
        tb::precisionUnavailableReason(device.precision, *before.isa).empty())
        device.isa = before.isa;
    if (!(device == before))
        ranOn = qs(before.id());
    return tb::TrainingSession::resume(folder, std::move(saved), *data, device, r.checkpointEvery, nullptr,
                                       r.config.kernelCacheDir);
}

void TrainWorker::run()
{
    RunOutcome outcome;
    std::unique_ptr<tb::TrainingSession> session;
    WorkerObserver observer(*this);
    auto snapshot = [&] {
        if (session)
            outcome.weights = std::make_shared<const tb::WeightsFile>(session->weightsFile());
    };
    try {
        DatasetPtr data;
        QString ranOn;
        session = makeSession(data, ranOn);
        session->setClock(m_request.clock); // a pause waits inside the observer: not training time
        const tb::TrainConfig& cfg = session->config();
        const tb::RunInfo run = session->info();

        RunStarted info;
        info.stepsPerEpoch = run.stepsPerEpoch;
        info.epochs = cfg.epochs;
        info.trainImages = session->data().train.count;
        info.replicas = cfg.device.replicas();
        info.globalBatch = cfg.batchSize;
        info.header =
            EngineText::runHeaderFacts(session->network(), session->data(), cfg, run); // the CLI's first lines
        info.config = cfg;
        info.data = data;
        info.validationImages = run.validationImages;
        if (session->runFolder())
            info.runFolder = qs(session->runFolder()->path);
        info.resumed = !m_request.resumeFolder.empty();
        info.resumedEpoch = run.position.epoch;
        info.resumedStep = run.position.step;
        info.ranOn = ranOn;
        info.datasetNote = qs(session->datasetNote());
        info.curveNote = qs(session->curveNote());
        info.history = run.history;
        info.batches = run.batches;
        outcome.runFolder = info.runFolder;
        if (session->data().isText())
            observer.showText(session->network(), session->data());
        emit started(info);

        // Stop evaluates the stopped weights on the test set: a Stop in the test set's own validation
        // lets it end (it is that evaluation); closing the window stops it at once.
        const tb::TrainConfig& c = session->config();
        const bool validatesOnTest = c.validationSplit <= 0 && c.validationLimit <= 0;
        const tb::TrainStatus status =
            session->run(&observer, stopFlag(), validatesOnTest ? abandonFlag() : stopFlag());
        outcome.status = status == tb::TrainStatus::Completed ? RunStatus::Completed : RunStatus::Stopped;
        if (outcome.status == RunStatus::Stopped) {
            const tb::RunPosition& at = session->position(); // batches finished, as run.json records them
            outcome.stoppedEpoch = at.epoch + 1;
            outcome.stoppedStep = at.step;
        }
        tb::FinishOptions finishing;
        finishing.keepPredictions = true; // the Results page
        finishing.finishStopped = true;   // the stopped weights' test accuracy, in the log and the Runs page
        finishing.abandon = abandonFlag();
        const tb::RunResult result = session->finish(status, finishing, &observer);
        outcome.preciseBn = result.preciseBn;
        outcome.batchNormWarmth = result.batchNormWarmth;
        outcome.bestEpoch = result.bestEpoch;
        outcome.restoredBest = result.restoredBest;
        if (result.abandoned) {
            emit finished(outcome); // the window is closing: nothing will show the weights
            return;
        }
        outcome.testLoss = result.test.loss;
        outcome.testAccuracy = result.test.accuracy;
        // The results pages show the final (or stopped) weights on the test set, unless the last epoch's
        // validation already showed that very pass. A run stopped in its first epoch has nothing else to show.
        if (result.evaluated && !result.testWasLastValidation)
            outcome.test = std::make_shared<const tb::EvalResult>(result.test);
        outcome.weightsSha256 = qs(result.weightsSha256);
        snapshot();
    } catch (const tb::DivergedError& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
        if (e.weightsKept())
            snapshot(); // the last good weights, so the run is not lost
    } catch (const tb::IoError& e) {
        // A checkpoint that could not be written (a full disk) ends the run; its weights are sound, and
        // File > Save weights can put them elsewhere (none before the session exists).
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
        snapshot();
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
    }
    emit finished(outcome);
}

} // namespace tbui
