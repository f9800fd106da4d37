#include "train/trainer.hpp"

#include "core/errors.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

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

Trainer::Trainer(Network& net, const Dataset& data, TrainConfig config)
    : m_net(net), m_data(data), m_config(config), m_clock(steadySeconds)
{
    if (config.epochs < 1)
        throw ConfigError("epochs must be at least 1");
    if (config.batchSize < 1 || config.batchSize > 65536)
        throw ConfigError("the batch size must be between 1 and 65536 (got " + std::to_string(config.batchSize) + ")");
    if (config.device.threads < 1 || config.device.threads > 1024)
        throw ConfigError("threads must be between 1 and 1024");
    if (data.inputHeight() != net.inputShape().h || data.inputWidth() != net.inputShape().w)
        throw ConfigError("the network was built for " + net.inputShape().keras() + " inputs but the images are " +
                          std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth()));
    m_backend = makeBackend(net, data, m_config);
}

Trainer::~Trainer() = default;

void Trainer::setClock(std::function<double()> seconds) { m_clock = seconds ? std::move(seconds) : steadySeconds; }

int Trainer::stepsPerEpoch() const
{
    const int steps = (m_data.train.count + m_config.batchSize - 1) / m_config.batchSize;
    return m_config.maxBatches > 0 ? std::min(steps, m_config.maxBatches) : steps;
}

TrainStatus Trainer::run(TrainObserver* observer, const std::atomic<bool>* cancel)
{
    const int steps = stepsPerEpoch();
    const int B = m_config.batchSize;
    const int firstEpoch = int(m_history.size());
    for (int e = firstEpoch; e < firstEpoch + m_config.epochs; ++e) {
        const std::vector<int> order = shuffledOrder(m_data.train.count, m_config.seed, e);
        const double t0 = m_clock();
        double outside = 0.0; // seconds spent in the observer's callbacks this epoch
        double lossSum = 0.0;
        int64_t correct = 0, seen = 0;
        for (int s = 0; s < steps; ++s) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return TrainStatus::Cancelled;
            const int first = s * B;
            const int count = std::min(B, m_data.train.count - first);
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
            lossSum += r.lossSum;
            correct += r.correct;
            seen += r.samples;
            if (observer) {
                BatchProgress p;
                p.epoch = e + 1;
                p.epochs = firstEpoch + m_config.epochs;
                p.step = s + 1;
                p.steps = steps;
                p.loss = lossSum / double(seen);
                p.accuracy = double(correct) / double(seen);
                p.batchLoss = r.lossSum / r.samples;
                p.epochElapsed = m_clock() - t0 - outside;
                p.samplesPerSec = double(seen) / std::max(p.epochElapsed, 1e-9);
                const double before = m_clock();
                observer->batchFinished(p);
                outside += m_clock() - before;
            }
        }
        EpochRecord rec;
        rec.epoch = e + 1;
        rec.seconds = m_clock() - t0 - outside;
        rec.samples = seen;
        rec.loss = lossSum / double(std::max<int64_t>(seen, 1));
        rec.accuracy = double(correct) / double(std::max<int64_t>(seen, 1));
        rec.samplesPerSec = double(seen) / std::max(rec.seconds, 1e-9);
        const EvalResult val =
            m_backend->evaluate(m_data.test, m_data.sizeMultiplier, m_config.validationLimit, observer != nullptr);
        rec.valLoss = val.loss;
        rec.valAccuracy = val.accuracy;
        m_history.push_back(rec);
        if (observer)
            observer->epochFinished(rec, val);
    }
    return TrainStatus::Completed;
}

BatchResult Trainer::trainBatch(const int* indices, int count)
{
    const uint64_t globalStep = uint64_t(m_backend->iterations());
    return m_backend->trainBatch(indices, count, hashKey(m_config.seed, uint64_t(RngPurpose::Dropout), globalStep));
}

EvalResult Trainer::evaluate(int limit, bool keepPredictions)
{
    return m_backend->evaluate(m_data.test, m_data.sizeMultiplier, limit, keepPredictions);
}

} // namespace tb
