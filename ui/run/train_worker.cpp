#include "run/train_worker.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/errors.hpp"
#include "train/progress_text.hpp"
#include "model/network.hpp"


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
    }

    EvalPtr m_lastValidation;

private:
    TrainWorker& m_worker;
};

TrainWorker::TrainWorker(TrainRequest request, QObject* parent)
    : StoppableWorker(parent), m_request(std::move(request))
{
}

void TrainWorker::run()
{
    RunOutcome outcome;
    std::unique_ptr<tb::Network> net;
    std::unique_ptr<tb::Trainer> trainer;
    tb::Dataset data;
    WorkerObserver observer(*this);
    auto snapshot = [&] {
        if (net && trainer)
            outcome.weights = std::make_shared<const tb::WeightsFile>(
                tb::WeightsFile::fromTraining(*net, *trainer, data.classNames, data.directory));
    };
    try {
        if (!m_request.data)
            throw tb::ConfigError(ss(tr("No dataset is loaded.")));
        data = tb::withOptions(*m_request.data, m_request.options);
        tb::TrainConfig cfg = m_request.config;
        cfg.device = m_request.device;
        net = std::make_unique<tb::Network>(m_request.spec, tb::Shape::image(data.inputHeight(), data.inputWidth(), 1),
                                            data.numClasses);
        net->initialize(cfg.seed);
        trainer = std::make_unique<tb::Trainer>(*net, data, cfg);
        trainer->setClock(m_request.clock);  // a pause waits inside the observer: not training time

        RunStarted info;
        info.stepsPerEpoch = trainer->stepsPerEpoch();
        info.epochs = cfg.epochs;
        info.trainImages = data.train.count;
        info.replicas = m_request.device.replicas();
        info.globalBatch = cfg.batchSize;
        info.header = qs(tb::runHeader(*net, data, cfg, trainer->backend()));  // the CLI's first lines
        emit started(info);

        const tb::TrainStatus status = trainer->run(&observer, stopFlag());
        outcome.status = status == tb::TrainStatus::Completed ? RunStatus::Completed : RunStatus::Stopped;
        if (outcome.status == RunStatus::Completed && observer.m_lastValidation) {
            outcome.testLoss = observer.m_lastValidation->loss;
            outcome.testAccuracy = observer.m_lastValidation->accuracy;
        } else if (abandonRequested()) {
            emit finished(outcome);  // the window is closing: nothing will show the weights
            return;
        } else {
            emit evaluatingTestSet(data.test.count);
            const tb::EvalResult test = trainer->evaluate();
            outcome.testLoss = test.loss;
            outcome.testAccuracy = test.accuracy;
        }
        trainer->syncToHost();
        outcome.weightsSha256 = qs(net->weightsSha256());
        snapshot();
    } catch (const tb::DivergedError& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
        snapshot();  // the last good weights, so the run is not lost
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = EngineText::of(e);
    }
    emit finished(outcome);
}

}  // namespace tbui
