#include "run/train_worker.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/errors.hpp"
#include "environment.hpp"
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
        // The first and last steps and a pause are always shown; a paused run shows where it stands.
        if (m_worker.progressDue(p.step == p.steps || p.step == 1 || m_worker.pauseRequested()))
            emit m_worker.batchFinished(p);
        m_worker.waitWhilePaused();
    }

    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult& validation) override
    {
        m_lastValidation = std::make_shared<const tb::EvalResult>(validation);
        emit m_worker.epochFinished(r, m_lastValidation);
        // On the training thread, between epochs: the network holds this epoch's weights. The CLI's sample.
        if (m_textNet)
            emit m_worker.textSampled(r.epoch, qs(tb::epochSample(*m_textNet, m_vocab, r.epoch)));
    }

    void showText(const tb::Network& net, const tb::Dataset& data)
    {
        m_textNet = &net;
        m_vocab = tb::vocabularyOf(data);
    }

    EvalPtr m_lastValidation;
    const tb::Network* m_textNet = nullptr; // a text model's, for the samples
    tb::TextVocabulary m_vocab;

private:
    TrainWorker& m_worker;
};

TrainWorker::TrainWorker(TrainRequest request, QObject* parent) : StoppableWorker(parent), m_request(std::move(request))
{
}

// The session of a fresh run (with its run folder) or of a resumed one, and the dataset it trains on.
std::unique_ptr<tb::TrainingSession> TrainWorker::makeSession(DatasetPtr& data)
{
    const TrainRequest& r = m_request;
    if (r.resumeFolder.empty()) {
        if (!r.data)
            throw tb::ConfigError(ss(tr("No dataset is loaded.")));
        data = r.data;
        tb::TrainConfig cfg = r.config;
        cfg.device = r.device;
        auto session = std::make_unique<tb::TrainingSession>(r.spec, *data, cfg);
        // The CLI's folder name, so runs from either front end sort together.
        session->enableCheckpoints(tb::RunFolder::create(r.runsDir.empty() ? tb::env::runsDir() : r.runsDir,
                                                         r.spec.name + "-" + cfg.device.id()),
                                   r.checkpointEvery);
        return session;
    }
    const tb::RunFolder folder = tb::RunFolder::open(r.resumeFolder);
    const tb::Checkpoint saved = tb::readCheckpoint(folder.checkpoint());
    data = r.data;
    if (data) {
        try {
            tb::requireSameDataset(saved.data, *data, folder.checkpoint());
        } catch (const tb::DataError&) {
            // Another dataset is loaded: the checkpoint's own, if it is still there.
            if (!QFileInfo(qs(saved.data.directory)).isDir())
                throw;
            data.reset();
        }
    }
    if (!data && saved.weights.spec.isText()) {
        // The text as the run cut it: its sequence length and vocabulary are the model's (as the CLI).
        tb::TextOptions t;
        t.sequenceLength = saved.weights.input.h;
        t.vocabulary = tb::TextVocabulary::fromClassNames(saved.weights.classNames).kind;
        data = std::make_shared<const tb::Dataset>(tb::loadTextDataset(saved.data.directory, t));
    }
    if (!data)
        data = std::make_shared<const tb::Dataset>(tb::loadDataset(saved.data.directory));
    return tb::TrainingSession::resume(folder, *data, r.device, r.checkpointEvery, nullptr, r.config.kernelCacheDir);
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
        session = makeSession(data);
        session->trainer().setClock(m_request.clock); // a pause waits inside the observer: not training time
        const tb::TrainConfig& cfg = session->config();
        const tb::Trainer& trainer = session->trainer();

        RunStarted info;
        info.stepsPerEpoch = trainer.stepsPerEpoch();
        info.epochs = cfg.epochs;
        info.trainImages = session->data().train.count;
        info.replicas = cfg.device.replicas();
        info.globalBatch = cfg.batchSize;
        info.header = qs(session->header()); // the CLI's first lines
        info.config = cfg;
        info.data = data;
        info.validationImages = trainer.validationSplit().count;
        if (session->runFolder())
            info.runFolder = qs(session->runFolder()->path);
        info.resumed = !m_request.resumeFolder.empty();
        info.resumedEpoch = trainer.position().epoch;
        info.resumedStep = trainer.position().step;
        info.history = trainer.history();
        outcome.runFolder = info.runFolder;
        if (session->data().isText())
            observer.showText(session->network(), session->data());
        emit started(info);

        const tb::TrainStatus status = session->run(&observer, stopFlag());
        outcome.status = status == tb::TrainStatus::Completed ? RunStatus::Completed : RunStatus::Stopped;
        if (m_request.preciseBnBatches > 0 && !abandonRequested())
            outcome.preciseBn = session->recomputeBatchNorm(m_request.preciseBnBatches);
        else
            outcome.batchNormWarmth = session->batchNormWarmth();
        const tb::RunPosition& end = trainer.position();
        outcome.bestEpoch = end.early.bestEpoch;
        outcome.restoredBest = cfg.earlyStopping.restoreBestWeights && end.early.bestEpoch > 0;
        // The last validation is the test set's evaluation of the final weights only when the test set
        // validated, whole, and no other epoch's weights were put back.
        const bool lastValidationIsTest = cfg.validationSplit == 0 && cfg.validationLimit == 0 &&
                                          !outcome.restoredBest && !outcome.preciseBn && observer.m_lastValidation;
        if (outcome.status == RunStatus::Completed && lastValidationIsTest) {
            outcome.testLoss = observer.m_lastValidation->loss;
            outcome.testAccuracy = observer.m_lastValidation->accuracy;
        } else if (abandonRequested()) {
            emit finished(outcome); // the window is closing: nothing will show the weights
            return;
        } else {
            emit evaluatingTestSet(session->data().test.count);
            const bool completed = outcome.status == RunStatus::Completed;
            auto test = std::make_shared<const tb::EvalResult>(session->evaluateTest(completed));
            outcome.testLoss = test->loss;
            outcome.testAccuracy = test->accuracy;
            if (completed)
                outcome.test = test; // the results pages show the test set, not the held-out images
            else if (session->runFolder())
                session->recordStop(*test); // the Runs page shows the stopped weights' accuracy
        }
        outcome.weightsSha256 = qs(session->weightsSha256());
        if (outcome.status == RunStatus::Completed && session->runFolder()) {
            // As the CLI does: weights.tbw, evaluation.json and run.json's end (the evaluation with
            // predictions is the last validation's when that was the test set, else computed above).
            session->recordEnd(outcome.test ? *outcome.test : session->evaluateTest(true));
        }
        snapshot();
    } catch (const tb::DivergedError& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
        snapshot(); // the last good weights, so the run is not lost
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
    }
    emit finished(outcome);
}

} // namespace tbui
