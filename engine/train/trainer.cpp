#include "train/trainer.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"

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

// Parameters per task of the update pass.
constexpr int64_t kUpdateChunk = int64_t(1) << 14;
enum ChunkStatus : uint8_t { kChunkOk = 0, kGradientNotFinite = 1, kWeightsNotFinite = 2 };
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
    : m_net(net), m_data(data), m_config(config), m_kernels(&kernelsFor(config.isa.value_or(defaultIsa()))),
      m_optimizer(config.optimizer, net.paramCount(), *m_kernels), m_clock(steadySeconds)
{
    if (config.epochs < 1)
        throw ConfigError("epochs must be at least 1");
    if (config.batchSize < 1 || config.batchSize > 65536)
        throw ConfigError("the batch size must be between 1 and 65536 (got " + std::to_string(config.batchSize) + ")");
    if (config.threads < 1 || config.threads > 1024)
        throw ConfigError("threads must be between 1 and 1024");
    if (data.inputHeight() != net.inputShape().h || data.inputWidth() != net.inputShape().w)
        throw ConfigError("the network was built for " + net.inputShape().keras() + " inputs but the images are " +
                          std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth()));
    // A batch whose buffers could not fit is refused before anything is allocated.
    const uint64_t need = CpuExecutor::trainingBytes(net, config.batchSize, config.threads, config.shardSize);
    if (need > physicalMemoryBytes())
        throw ConfigError("a batch of " + std::to_string(config.batchSize) + " images of " +
                          std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth()) + " needs about " +
                          humanBytes(need) + " for training, more than this machine's " +
                          humanBytes(physicalMemoryBytes()) + " of memory; use a smaller batch or size multiplier");
    m_exec = std::make_unique<CpuExecutor>(net, config.threads, config.shardSize, *m_kernels);
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
            m_exec->evaluate(m_data.test, m_data.sizeMultiplier, m_config.validationLimit, observer != nullptr);
        rec.valLoss = val.loss;
        rec.valAccuracy = val.accuracy;
        m_history.push_back(rec);
        if (observer)
            observer->epochFinished(rec, val);
    }
    return TrainStatus::Completed;
}

Trainer::BatchResult Trainer::trainBatch(const int* indices, int count)
{
    BatchResult b;
    const uint64_t globalStep = uint64_t(m_optimizer.iterations());
    const uint64_t dropoutKey = hashKey(m_config.seed, uint64_t(RngPurpose::Dropout), globalStep);
    m_goodState = m_net.state(); // the forward pass moves BatchNorm's statistics
    b.step = m_exec->trainStep(m_data.train, m_data.sizeMultiplier, indices, count, dropoutKey);
    if (!std::isfinite(b.step.lossSum)) {
        m_net.state() = m_goodState;
        b.diverged = Divergence::Loss;
        return b;
    }
    // One parallel pass per chunk of parameters: check the chunk's gradient, write its new weights
    // and optimizer slots beside the old ones, check the new weights. Only a step that is good
    // everywhere is swapped in, so a bad one needs nothing restored. The update is elementwise, so
    // chunks and threads change nothing in the result.
    const int64_t P = m_net.paramCount();
    m_nextParams.resize(size_t(P));
    const int chunks = int((P + kUpdateChunk - 1) / kUpdateChunk);
    m_chunkStatus.assign(size_t(chunks), kChunkOk);
    const float* params = m_net.params().data();
    const float* grad = m_exec->gradient().data();
    float* next = m_nextParams.data();
    m_optimizer.beginStep();
    m_exec->pool().run(chunks, [&](int c, int) {
        const int64_t lo = c * kUpdateChunk, n = std::min(kUpdateChunk, P - lo);
        if (!m_kernels->allFinite(grad + lo, n)) {
            m_chunkStatus[size_t(c)] = kGradientNotFinite;
            return;
        }
        m_optimizer.update(params, grad, next, lo, lo + n);
        if (!m_kernels->allFinite(next + lo, n))
            m_chunkStatus[size_t(c)] = kWeightsNotFinite;
    });
    uint8_t status = kChunkOk;
    for (uint8_t s : m_chunkStatus)
        status |= s;
    if (status != kChunkOk) {
        m_net.state() = m_goodState;
        m_optimizer.abandonStep();
        b.diverged = status & kGradientNotFinite ? Divergence::Gradient : Divergence::Weights;
        return b;
    }
    m_net.swapParams(m_nextParams);
    m_optimizer.commitStep();
    return b;
}

} // namespace tb
