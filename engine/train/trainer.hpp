// The training loop: seeded shuffles, batches, optimizer steps, validation on the test split after
// each epoch, observer callbacks, cancellation between batches, and divergence detection that
// keeps the last good weights.
#pragma once

#include "data/dataset.hpp"
#include "device/device.hpp"
#include "model/network.hpp"
#include "optim/optimizer.hpp"
#include "train/backend.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tb {

struct TrainConfig {
    int epochs = 1;
    int batchSize = 128;
    DeviceSpec device; // where the arithmetic runs: CPU threads and kernel level, or an accelerator
    uint64_t seed = 0;
    OptimizerConfig optimizer;
    int maxBatches = 0;      // > 0: at most this many batches per epoch
    int validationLimit = 0; // > 0: validate on the first N test images only
    int shardSize = 16;      // CPU: samples per shard, part of the numerics
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
    // The network keeps its current weights; call net.initialize(seed) first for a fresh run. The
    // backend is made for config.device (makeBackend); its errors are thrown from here.
    Trainer(Network& net, const Dataset& data, TrainConfig config);
    ~Trainer();

    // Epoch times are read from this clock (seconds, monotonic; steady_clock by default). Time spent in
    // the observer's callbacks (a paused window waiting, a terminal printing) is not training time and
    // is left out of epochElapsed, seconds and samples/s. Tests inject a clock they advance themselves.
    void setClock(std::function<double()> seconds);

    // Throws DivergedError (weights restored to the last good step), DataError, ConfigError.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);

    using Divergence = tb::Divergence;
    // One optimizer step on the training samples indices[0..count) (Backend::trainBatch with this
    // step's dropout key). run() calls it for every batch; the benchmark times it.
    BatchResult trainBatch(const int* indices, int count);

    // The weights and BatchNorm statistics of the backend, in the Network (see Backend::syncToHost).
    void syncToHost() { m_backend->syncToHost(); }
    // The test split (or its first `limit` images), on the run's device.
    EvalResult evaluate(int limit = 0, bool keepPredictions = false);

    const std::vector<EpochRecord>& history() const { return m_history; }
    Backend& backend() { return *m_backend; }
    const Backend& backend() const { return *m_backend; }
    const TrainConfig& config() const { return m_config; }
    int stepsPerEpoch() const;

private:
    Network& m_net;
    const Dataset& m_data;
    TrainConfig m_config;
    std::unique_ptr<Backend> m_backend;
    std::vector<EpochRecord> m_history;
    std::function<double()> m_clock;
};

// The epoch's sample order: a Fisher-Yates shuffle keyed by (seed, epoch).
std::vector<int> shuffledOrder(int count, uint64_t seed, int epoch);

} // namespace tb
