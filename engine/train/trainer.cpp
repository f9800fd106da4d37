#include "train/trainer.hpp"

#include "core/errors.hpp"
#include "core/json_text.hpp"
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
    requireRange("the validation samples", c.validationLimit, 0, kMaxValidationLimit);
    requireRange("the size multiplier", c.sizeMultiplier, 1, kMaxSizeMultiplier);
    requireRange("the shard size", c.shardSize, 1, kMaxShard);
    requireRange("precise BN's batches", c.preciseBnBatches, 0, kMaxBatchesPerEpoch);
    if (c.validationSplit != 0)
        requireRange("the validation split", c.validationSplit, 0.001, 0.999);
    validateLrSchedule(c.schedule);
    if (c.earlyStopping.enabled) {
        requireRange("early stopping's patience", c.earlyStopping.patience, 0, kMaxEpochs);
        requireRange("early stopping's min_delta", c.earlyStopping.minDelta, 0.0, 1e9);
    }
}

Trainer::Trainer(Network& net, const Dataset& data, TrainConfig config, BestWeightsCallback::FilePath bestWeightsFile)
    : m_net(net), m_data(data), m_config(config), m_clock(steadySeconds)
{
    if (config.epochs < 1 || config.batchSize < 1)
        throw ConfigError("a run needs at least one epoch and one image per batch");
    if (data.inputHeight() != net.inputShape().h || data.inputWidth() != net.inputShape().w)
        throw ConfigError("the network was built for " + net.inputShape().keras() + " inputs but the images are " +
                          std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth()));
    if (net.outputSteps() != data.train.steps) // a model that does not fit the data, as a Dense of other units
        throw ModelError(net.outputSteps() == 1
                             ? "the text gives a label at every step but the model predicts one per sequence: its "
                               "last LSTM needs \"return_sequences\": true"
                             : "the model predicts a label at every step but the dataset has one per sample");
    m_backend = makeBackend(net, data, m_config);
    addCallback(std::make_unique<LrScheduleCallback>(m_config.schedule, m_config.optimizer.learningRate));
    if (m_config.earlyStopping.enabled) {
        addCallback(std::make_unique<EarlyStoppingCallback>(m_config.earlyStopping));
        if (m_config.earlyStopping.restoreBestWeights)
            addCallback(std::make_unique<BestWeightsCallback>(*this, std::move(bestWeightsFile)));
    }
}

void Trainer::addCallback(std::unique_ptr<Callback> callback)
{
    if (const nlohmann::ordered_json* state = jsonMember(m_restoredStates, callback->name()))
        callback->restoreState(*this, *state, m_restoredFrom);
    m_callbacks.push_back(std::move(callback));
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

nlohmann::ordered_json Trainer::callbackStates() const
{
    nlohmann::ordered_json states = nlohmann::ordered_json::object();
    for (const auto& c : m_callbacks)
        if (nlohmann::ordered_json state = c->saveState(); !state.is_null())
            states[c->name()] = std::move(state);
    return states;
}

void Trainer::restoreCallbacks(const nlohmann::ordered_json& states, const std::string& path)
{
    m_restoredStates = states;
    m_restoredFrom = path;
    for (const auto& c : m_callbacks)
        if (const nlohmann::ordered_json* state = jsonMember(states, c->name()))
            c->restoreState(*this, *state, path);
}

double Trainer::learningRate() const
{
    return learningRate(m_backend->iterations());
}

double Trainer::learningRate(int64_t step) const
{
    StepPosition at;
    at.step = step;
    at.epoch = m_position.epoch;
    at.totalSteps = int64_t(stepsPerEpoch()) * m_config.epochs;
    double rate = m_config.optimizer.learningRate;
    for (const auto& c : m_callbacks)
        rate = c->stepRate(rate, at);
    return rate;
}

void Trainer::putWeights(const std::vector<float>& params, const std::vector<float>& state)
{
    m_testResult.reset();
    m_net.params() = params;
    m_net.state() = state;
    m_backend->syncFromHost();
}

WeightsFile Trainer::weightsFile()
{
    syncToHost(); // an accelerator's weights come down
    WeightsFile w;
    w.spec = m_net.spec();
    w.input = m_net.inputShape();
    w.classNames = m_data.classNames;
    w.params = m_net.params();
    w.state = m_net.state();
    OptimizerState optimizer = m_backend->optimizerState();
    w.optimizer = optimizer.config;
    w.optimizerIterations = optimizer.iterations;
    w.optimizerSlots = std::move(optimizer.slotBuffer);
    w.train = m_config;
    w.history = m_history;
    w.datasetDir = m_data.directory;
    return w;
}

TrainStatus Trainer::run(TrainObserver* observer, const std::atomic<bool>* cancel)
{
    return run(observer, cancel, cancel);
}

TrainStatus Trainer::run(TrainObserver* observer, const std::atomic<bool>* cancel,
                         const std::atomic<bool>* cancelValidation)
{
    const int steps = stepsPerEpoch();
    const int B = m_config.batchSize;
    RunPosition& at = m_position;
    // The run's callbacks hear each hook before the front end's observer.
    auto notify = [&](auto hook) {
        for (const auto& c : m_callbacks)
            hook(*c);
        if (observer)
            hook(*observer);
    };
    while (!at.finished(m_config.epochs)) {
        const int e = at.epoch;
        const std::vector<int> order = shuffledOrder(m_data.train.count, m_config.seed, e);
        // Epoch times leave out the observer's callbacks; a resumed epoch adds to its earlier part.
        double t0 = m_clock() - at.seconds;
        // The rate of the epoch's last step so far (one resumed in its validation takes no step).
        double lr = at.step > 0 ? learningRate(m_backend->iterations() - 1) : 0;
        while (at.step < steps) {
            if (m_backend->anyStops(cancel && cancel->load(std::memory_order_relaxed)))
                return TrainStatus::Cancelled;
            const int s = at.step;
            const int first = s * B;
            const int count = std::min(B, m_data.train.count - first);
            lr = learningRate();
            m_backend->setLearningRate(float(lr));
            const BatchResult b = trainBatch(order.data() + first, count);
            if (b.diverged != Divergence::None) {
                const std::string where = "training diverged at epoch " + std::to_string(e + 1) + ", step " +
                                          std::to_string(s + 1) + ": the ";
                // A loss that is not a number came from the weights the step before left: none to keep.
                if (b.diverged == Divergence::Loss)
                    throw DivergedError(MessageId::TrainingDivergedNoWeights,
                                        {std::to_string(e + 1), std::to_string(s + 1)},
                                        where + "loss became NaN or infinite with the weights the step before left, "
                                                "so no weights were kept; try a lower learning rate.",
                                        false);
                const std::string what = b.diverged == Divergence::Gradient ? "gradient" : "updated weights";
                throw DivergedError(MessageId::TrainingDiverged, {std::to_string(e + 1), std::to_string(s + 1), what},
                                    where + what +
                                        " became NaN or infinite. The weights of the last good step were kept; "
                                        "try a lower learning rate.",
                                    true);
            }
            const StepResult& r = b.step;
            at.lossSum += r.lossSum;
            at.correct += r.correct;
            at.seen += r.samples;
            at.step = s + 1;
            at.seconds = m_clock() - t0;
            {
                BatchProgress p;
                p.epoch = e + 1;
                p.epochs = m_config.epochs;
                p.step = s + 1;
                p.steps = steps;
                p.loss = at.lossSum / double(at.seen);
                p.accuracy = double(at.correct) / double(at.seen);
                p.batchLoss = r.lossSum / r.samples;
                p.batchAccuracy = double(r.correct) / double(r.samples);
                p.epochElapsed = at.seconds;
                p.samplesPerSec = double(at.seen) / std::max(p.epochElapsed, 1e-9);
                p.learningRate = lr;
                const double before = m_clock();
                notify([&](TrainObserver& o) { o.batchFinished(p); });
                notify([&](TrainObserver& o) { o.positionAdvanced(false); });
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
        // The ranks of a data-parallel run stop a validation together (Backend::evaluate agrees).
        const EvalResult val =
            m_backend->evaluate(validationSplit(), m_data.sizeMultiplier, m_config.validationLimit,
                                observer ? resultsKeeps(m_data) : EvalKeeps::Metrics, cancelValidation);
        // Stopped in the validation (seconds to minutes of a large test set or text): the position
        // stays at the epoch's last step, and a resumed run validates the epoch first.
        if (val.cancelled)
            return TrainStatus::Cancelled;
        rec.valLoss = val.loss;
        rec.valAccuracy = val.accuracy;
        if (&validationSplit() == &m_data.test && m_config.validationLimit <= 0)
            m_testResult = val;
        // Keras' order: the epoch's callbacks see its metrics, then the next epoch starts.
        EpochEnd end{*this, rec, val};
        for (const auto& c : m_callbacks)
            c->epochEnded(end);
        m_history.push_back(rec);
        at.epoch = e + 1;
        at.step = 0;
        at.lossSum = 0;
        at.correct = at.seen = 0;
        at.seconds = 0;
        if (end.stop)
            at.stoppedEpoch = e + 1;
        notify([&](TrainObserver& o) { o.epochFinished(rec, val); });
        notify([&](TrainObserver& o) { o.positionAdvanced(true); });
    }
    for (const auto& c : m_callbacks)
        c->runCompleted(*this);
    return TrainStatus::Completed;
}

BatchResult Trainer::trainBatch(const int* indices, int count)
{
    m_testResult.reset(); // the weights move
    const uint64_t globalStep = uint64_t(m_backend->iterations());
    return m_backend->trainBatch(indices, count, hashKey(m_config.seed, uint64_t(RngPurpose::Dropout), globalStep));
}

bool Trainer::testResultStands(bool keepPredictions) const
{
    if (!m_testResult)
        return false;
    if (!keepPredictions)
        return true;
    // What evaluate(0, true) keeps (resultsKeeps): the last validation must have kept as much.
    const bool probabilities = resultsKeeps(m_data) == EvalKeeps::Probabilities;
    return !m_testResult->predicted.empty() && (!probabilities || !m_testResult->probs.empty());
}

EvalResult Trainer::evaluate(int limit, bool keepPredictions)
{
    if (limit <= 0 && testResultStands(keepPredictions))
        return *m_testResult;
    return m_backend->evaluate(m_data.test, m_data.sizeMultiplier, limit,
                               keepPredictions ? resultsKeeps(m_data) : EvalKeeps::Metrics);
}

} // namespace tb
