// The training loop: seeded shuffles, batches, optimizer steps, validation on the test split after
// each epoch, observer callbacks, cancellation between batches, and divergence detection that
// keeps the last good weights.
#pragma once

#include "data/dataset.hpp"
#include "model/network.hpp"
#include "optim/optimizer.hpp"
#include "train/cpu_executor.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tb {

struct TrainConfig {
    int epochs = 1;
    int batchSize = 128;
    int threads = 1;
    std::optional<Isa> isa; // the kernels' instruction-set level; unset: defaultIsa()
    uint64_t seed = 0;
    OptimizerConfig optimizer;
    int maxBatches = 0;      // > 0: at most this many batches per epoch
    int validationLimit = 0; // > 0: validate on the first N test images only
    int shardSize = 16;
};

struct BatchProgress {
    int epoch = 0, epochs = 0; // 1-based epoch
    int step = 0, steps = 0;   // 1-based step within the epoch
    double loss = 0.0;         // running mean over the epoch so far
    double accuracy = 0.0;
    double batchLoss = 0.0;
    double samplesPerSec = 0.0;
    double epochElapsed = 0.0; // seconds of training in the epoch so far (time in the observer excluded)
};

struct EpochRecord {
    int epoch = 0;
    double loss = 0.0, accuracy = 0.0;
    double valLoss = 0.0, valAccuracy = 0.0;
    double seconds = 0.0;       // training time of the epoch (validation and time in the observer excluded)
    double samplesPerSec = 0.0; // training throughput
    int64_t samples = 0;
};

class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void batchFinished(const BatchProgress&) {}
    // validation holds per-image predictions and probabilities of the test split.
    virtual void epochFinished(const EpochRecord&, const EvalResult& /*validation*/) {}
};

enum class TrainStatus { Completed, Cancelled };

class Trainer {
public:
    // The network keeps its current weights; call net.initialize(seed) first for a fresh run.
    Trainer(Network& net, const Dataset& data, TrainConfig config);
    ~Trainer();

    // Epoch times are read from this clock (seconds, monotonic; steady_clock by default). Time spent in
    // the observer's callbacks (a paused window waiting, a terminal printing) is not training time and
    // is left out of epochElapsed, seconds and samples/s. Tests inject a clock they advance themselves.
    void setClock(std::function<double()> seconds);

    // Throws DivergedError (weights restored to the last good step), DataError, ConfigError.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);

    // What went non-finite in a step that was not applied.
    enum class Divergence { None, Loss, Gradient, Weights };
    struct BatchResult {
        StepResult step;
        Divergence diverged = Divergence::None;
    };
    // One optimizer step on the training samples indices[0..count): forward, backward and the update,
    // which stands only if the loss, the gradient and the updated weights are all finite; otherwise
    // the weights, the BatchNorm statistics and the optimizer's state are those from before the step.
    // run() calls it for every batch; the benchmark times it.
    BatchResult trainBatch(const int* indices, int count);

    const std::vector<EpochRecord>& history() const { return m_history; }
    Optimizer& optimizer() { return m_optimizer; }
    CpuExecutor& executor() { return *m_exec; }
    const TrainConfig& config() const { return m_config; }
    const Kernels& kernels() const { return *m_kernels; }
    int stepsPerEpoch() const;

private:
    Network& m_net;
    const Dataset& m_data;
    TrainConfig m_config;
    const Kernels* m_kernels;
    Optimizer m_optimizer;
    std::unique_ptr<CpuExecutor> m_exec;
    std::vector<EpochRecord> m_history;
    std::function<double()> m_clock;
    // trainBatch's buffers, allocated once: the step's new weights (swapped with the network's when
    // good) and BatchNorm's statistics before the step.
    std::vector<float> m_nextParams, m_goodState;
    std::vector<uint8_t> m_chunkStatus;
};

// The epoch's sample order: a Fisher-Yates shuffle keyed by (seed, epoch).
std::vector<int> shuffledOrder(int count, uint64_t seed, int epoch);

} // namespace tb
