#include "train/trainer.hpp"

#include "core/errors.hpp"
#include "train/run_limits.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

namespace tb {

namespace {
double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

std::vector<int> shuffledOrder(int count, uint64_t seed, int epoch)
{
    std::vector<int> order(static_cast<size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(hashKey(seed, uint64_t(RngPurpose::Shuffle), uint64_t(epoch)));
    for (int i = count - 1; i > 0; --i)
        std::swap(order[size_t(i)], order[size_t(rng.below(uint64_t(i) + 1))]);
    return order;
}

namespace {
template <typename T> void requireRange(const char* what, T value, T lo, T hi)
{
    if (!(value >= lo && value <= hi)) {
        std::ostringstream m;
        m << what << " must be between " << lo << " and " << hi << " (got " << value << ")";
        throw ConfigError(m.str());
    }
}
} // namespace

void validateTrainConfig(const TrainConfig& c)
{
    using namespace limits;
    requireRange("the number of epochs", c.epochs, 1, kMaxEpochs);
    requireRange("the batch size", c.batchSize, 1, kMaxBatch);
    if (c.device.kind == DeviceKind::Cpu)
        requireRange("the number of threads", c.device.threads, 1, kMaxThreads);
    if (!(c.optimizer.learningRate > 0) || !std::isfinite(c.optimizer.learningRate)) {
        std::ostringstream m;
        m << "the learning rate must be a positive, finite number (got " << c.optimizer.learningRate << ")";
        throw ConfigError(m.str());
    }
    requireRange("the momentum", double(c.optimizer.momentum), 0.0, kMaxMomentum);
    if ((c.optimizer.momentum != 0 || c.optimizer.nesterov) && c.optimizer.kind != OptimizerKind::SGD)
        throw ConfigError("momentum and Nesterov apply to the SGD optimizer only");
    requireRange("the batches per epoch", c.maxBatches, 0, kMaxBatchesPerEpoch);
    requireRange("the validation images", c.validationLimit, 0, std::numeric_limits<int>::max());
    requireRange("the size multiplier", c.sizeMultiplier, 1, kMaxSizeMultiplier);
    requireRange("the shard size", c.shardSize, 1, kMaxShard);
    if (c.validationSplit != 0)
        requireRange("the validation split", c.validationSplit, 0.001, 0.999);
    validateLrSchedule(c.schedule);
    if (c.earlyStopping.enabled) {
        requireRange("early stopping's patience", c.earlyStopping.patience, 0, kMaxEpochs);
        requireRange("early stopping's min_delta", c.earlyStopping.minDelta, 0.0, 1e9);
    }
}

Trainer::Trainer(Network& net, const Dataset& data, TrainConfig config)
    : m_net(net), m_data(data), m_config(config), m_clock(steadySeconds)
{
    if (config.epochs < 1 || config.batchSize < 1)
        throw ConfigError("a run needs at least one epoch and one image per batch");
    if (data.inputHeight() != net.inputShape().h || data.inputWidth() != net.inputShape().w)
        throw ConfigError("the network was built for " + net.inputShape().keras() + " inputs but the images are " +
                          std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth()));
    if (net.outputSteps() != data.train.steps)
        throw ConfigError(net.outputSteps() == 1
                              ? "the text gives a label at every step but the model predicts one per sequence: its "
                                "last LSTM needs \"return_sequences\": true"
                              : "the model predicts a label at every step but the dataset has one per sample");
    m_backend = makeBackend(net, data, m_config);
}

Trainer::~Trainer() = default;

void Trainer::setClock(std::function<double()> seconds)
{
    m_clock = seconds ? std::move(seconds) : steadySeconds;
}

int Trainer::stepsPerEpoch() const
{
    const int steps = (m_data.train.count + m_config.batchSize - 1) / m_config.batchSize;
    return m_config.maxBatches > 0 ? std::min(steps, m_config.maxBatches) : steps;
}

const ImageSplit& Trainer::validationSplit() const
{
    return m_data.validation.count > 0 ? m_data.validation : m_data.test;
}

void Trainer::restore(const RunPosition& position, std::vector<EpochRecord> history)
{
    if (position.epoch != int(history.size()) || position.step < 0 || position.step > stepsPerEpoch())
        throw ConfigError("the checkpoint's position (epoch " + std::to_string(position.epoch) + ", step " +
                          std::to_string(position.step) + ") does not fit its history of " +
                          std::to_string(history.size()) + " epochs and " + std::to_string(stepsPerEpoch()) +
                          " steps per epoch");
    m_position = position;
    m_history = std::move(history);
}

void Trainer::setBest(std::vector<float> params, std::vector<float> state)
{
    m_bestParams = std::move(params);
    m_bestState = std::move(state);
}

double Trainer::learningRate() const
{
    const int64_t total = int64_t(stepsPerEpoch()) * m_config.epochs;
    return scheduledRate(m_config.schedule, m_config.optimizer.learningRate, m_backend->iterations(), m_position.epoch,
                         total, m_position.plateau);
}

TrainStatus Trainer::run(TrainObserver* observer, const std::atomic<bool>* cancel)
{
    const int steps = stepsPerEpoch();
    const int B = m_config.batchSize;
    RunPosition& at = m_position;
    if (at.plateau.rate == 0)
        at.plateau.rate = m_config.optimizer.learningRate;
    while (at.epoch < m_config.epochs && at.early.stoppedEpoch == 0) {
        const int e = at.epoch;
        const std::vector<int> order = shuffledOrder(m_data.train.count, m_config.seed, e);
        // Epoch times leave out the observer's callbacks; a resumed epoch adds to its earlier part.
        double t0 = m_clock() - at.seconds;
        double lr = 0;
        while (at.step < steps) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return TrainStatus::Cancelled;
            const int s = at.step;
            const int first = s * B;
            const int count = std::min(B, m_data.train.count - first);
            lr = learningRate();
            m_backend->setLearningRate(float(lr));
            const BatchResult b = trainBatch(order.data() + first, count);
            if (b.diverged != Divergence::None) {
                const std::string what = b.diverged == Divergence::Loss       ? "loss"
                                         : b.diverged == Divergence::Gradient ? "gradient"
                                                                              : "updated weights";
                throw DivergedError(MessageId::TrainingDiverged, {std::to_string(e + 1), std::to_string(s + 1), what},
                                    "training diverged at epoch " + std::to_string(e + 1) + ", step " +
                                        std::to_string(s + 1) + ": the " + what +
                                        " became NaN or infinite. The weights of the last good step were kept; "
                                        "try a lower learning rate.");
            }
            const StepResult& r = b.step;
            at.lossSum += r.lossSum;
            at.correct += r.correct;
            at.seen += r.samples;
            at.step = s + 1;
            at.seconds = m_clock() - t0;
            if (observer) {
                BatchProgress p;
                p.epoch = e + 1;
                p.epochs = m_config.epochs;
                p.step = s + 1;
                p.steps = steps;
                p.loss = at.lossSum / double(at.seen);
                p.accuracy = double(at.correct) / double(at.seen);
                p.batchLoss = r.lossSum / r.samples;
                p.epochElapsed = at.seconds;
                p.samplesPerSec = double(at.seen) / std::max(p.epochElapsed, 1e-9);
                p.learningRate = lr;
                const double before = m_clock();
                observer->batchFinished(p);
                observer->positionAdvanced(false);
                t0 += m_clock() - before;
            }
        }
        EpochRecord rec;
        rec.epoch = e + 1;
        rec.seconds = at.seconds;
        rec.samples = at.seen;
        rec.loss = at.lossSum / double(std::max<int64_t>(at.seen, 1));
        rec.accuracy = double(at.correct) / double(std::max<int64_t>(at.seen, 1));
        rec.samplesPerSec = double(at.seen) / std::max(rec.seconds, 1e-9);
        rec.learningRate = lr > 0 ? lr : learningRate();
        const EvalResult val = m_backend->evaluate(validationSplit(), m_data.sizeMultiplier, m_config.validationLimit,
                                                   observer != nullptr);
        rec.valLoss = val.loss;
        rec.valAccuracy = val.accuracy;
        if (&validationSplit() == &m_data.test && m_config.validationLimit <= 0)
            m_testResult = val;
        // Keras' order: the epoch's callbacks see its metrics, then the next epoch starts.
        rec.rateLowered = updatePlateau(m_config.schedule, at.plateau,
                                        m_config.schedule.monitor == Monitor::ValLoss ? val.loss : val.accuracy);
        const EarlyStopping& es = m_config.earlyStopping;
        rec.best = updateEarlyStopping(es, at.early, e + 1, es.monitor == Monitor::ValLoss ? val.loss : val.accuracy);
        rec.stopped = at.early.stoppedEpoch == e + 1;
        if (rec.best && es.restoreBestWeights) {
            m_backend->syncToHost();
            setBest(m_net.params(), m_net.state());
        }
        m_history.push_back(rec);
        at.epoch = e + 1;
        at.step = 0;
        at.lossSum = 0;
        at.correct = at.seen = 0;
        at.seconds = 0;
        if (observer) {
            observer->epochFinished(rec, val);
            observer->positionAdvanced(true);
        }
    }
    if (m_config.earlyStopping.restoreBestWeights && !m_bestParams.empty()) {
        m_testResult.reset();
        m_net.params() = m_bestParams;
        m_net.state() = m_bestState;
        m_backend->syncFromHost();
    }
    return TrainStatus::Completed;
}

BatchResult Trainer::trainBatch(const int* indices, int count)
{
    m_testResult.reset(); // the weights move
    const uint64_t globalStep = uint64_t(m_backend->iterations());
    return m_backend->trainBatch(indices, count, hashKey(m_config.seed, uint64_t(RngPurpose::Dropout), globalStep));
}

EvalResult Trainer::evaluate(int limit, bool keepPredictions)
{
    if (limit <= 0 && testResultStands(keepPredictions))
        return *m_testResult;
    return m_backend->evaluate(m_data.test, m_data.sizeMultiplier, limit, keepPredictions);
}

WeightsFile trainedWeights(const Network& net, Trainer& trainer, const std::vector<std::string>& classNames,
                           const std::string& datasetDir)
{
    trainer.syncToHost(); // an accelerator's weights come down
    WeightsFile w;
    w.spec = net.spec();
    w.input = net.inputShape();
    w.classNames = classNames;
    w.params = net.params();
    w.state = net.state();
    OptimizerState optimizer = trainer.backend().optimizerState();
    w.optimizer = optimizer.config;
    w.optimizerIterations = optimizer.iterations;
    w.optimizerSlots = std::move(optimizer.slotBuffer);
    w.train = trainer.config();
    w.history = trainer.history();
    w.datasetDir = datasetDir;
    return w;
}

} // namespace tb
