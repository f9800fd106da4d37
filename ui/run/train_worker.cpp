#include "run/train_worker.hpp"

#include "common/text.hpp"
#include "core/errors.hpp"
#include "core/gemm.hpp"
#include "model/network.hpp"

#include <chrono>

namespace tbui {

class WorkerObserver : public tb::TrainObserver {
public:
    explicit WorkerObserver(TrainWorker& w) : m_worker(w) {}

    void batchFinished(const tb::BatchProgress& p) override
    {
        m_worker.countBatch();
        const auto now = std::chrono::steady_clock::now();
        // The last step, a pause and every 50 ms are shown; a paused run shows where it stands.
        const bool show = p.step == p.steps || p.step == 1 || m_worker.pauseRequested() ||
                          now - m_lastSignal >= std::chrono::milliseconds(TrainWorker::kBatchSignalIntervalMs);
        if (show) {
            m_lastSignal = now;
            emit m_worker.batchFinished(p);
        }
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
    std::chrono::steady_clock::time_point m_lastSignal{};
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
            throw tb::ConfigError("no dataset is loaded");
        data = tb::withOptions(*m_request.data, m_request.options);
        tb::TrainConfig cfg = m_request.config;
        cfg.threads = m_request.device.threads;
        if (m_request.device.kind != tb::DeviceKind::Cpu)
            throw tb::ConfigError("this build trains on the CPU only (built without CUDA)");
        net = std::make_unique<tb::Network>(m_request.spec, tb::Shape::image(data.inputHeight(), data.inputWidth(), 1),
                                            data.numClasses);
        net->initialize(cfg.seed);
        trainer = std::make_unique<tb::Trainer>(*net, data, cfg);

        RunStarted info;
        info.stepsPerEpoch = trainer->stepsPerEpoch();
        info.epochs = cfg.epochs;
        info.trainImages = data.train.count;
        info.replicas = m_request.device.replicas();
        info.globalBatch = cfg.batchSize;
        info.header = tr("Model %1 (%2 params) on %3: %4 train / %5 test images, %6x%7\n"
                         "CPU, %8 thread(s), batch %9, %10 lr %11, seed %12, %13")
                          .arg(qs(m_request.spec.name), qs(tb::withThousands(net->paramCount() + net->stateCount())),
                               qs(data.directory))
                          .arg(data.train.count)
                          .arg(data.test.count)
                          .arg(data.inputHeight())
                          .arg(data.inputWidth())
                          .arg(cfg.threads)
                          .arg(cfg.batchSize)
                          .arg(qs(tb::optimizerName(cfg.optimizer.kind)))
                          .arg(double(cfg.optimizer.learningRate))
                          .arg(QString::number(cfg.seed), qs(tb::gemmBackendName()));
        emit started(info);

        const tb::TrainStatus status = trainer->run(&observer, stopFlag());
        outcome.status = status == tb::TrainStatus::Completed ? RunStatus::Completed : RunStatus::Stopped;
        if (outcome.status == RunStatus::Completed && observer.m_lastValidation) {
            outcome.testLoss = observer.m_lastValidation->loss;
            outcome.testAccuracy = observer.m_lastValidation->accuracy;
        } else {
            const tb::EvalResult test = trainer->executor().evaluate(data.test, data.sizeMultiplier);
            outcome.testLoss = test.loss;
            outcome.testAccuracy = test.accuracy;
        }
        outcome.weightsSha256 = qs(net->weightsSha256());
        snapshot();
    } catch (const tb::DivergedError& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = qs(e.what());
        snapshot();  // the last good weights, so the run is not lost
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.message = qs(e.what());
    }
    emit finished(outcome);
}

}  // namespace tbui
