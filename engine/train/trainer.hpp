// The training loop: seeded shuffles, batches, optimizer steps, validation on the test split after
// each epoch, observer callbacks, cancellation between batches, and divergence detection that
// keeps the last good weights.
#pragma once

#include "config/train_config.hpp"
#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "train/backend.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tb {

// Throws ConfigError naming the first setting outside run_limits.hpp's limits.
void validateTrainConfig(const TrainConfig& config);

struct BatchProgress {
    int epoch = 0, epochs = 0; // 1-based epoch
    int step = 0, steps = 0;   // 1-based step within the epoch
    double loss = 0.0;         // running mean over the epoch so far
    double accuracy = 0.0;
    double batchLoss = 0.0;
    double samplesPerSec = 0.0;
    double epochElapsed = 0.0; // seconds of training in the epoch so far (time in the observer excluded)
    double learningRate = 0.0; // of this step
};

class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void batchFinished(const BatchProgress&) {}
    // validation holds per-image predictions and probabilities of the test split.
    virtual void epochFinished(const EpochRecord&, const EvalResult& /*validation*/) {}
    // After batchFinished and after epochFinished, with the trainer's position up to date: where a
    // checkpoint can be written.
    virtual void positionAdvanced(bool /*epochEnd*/) {}
    // TrainingSession::finish: the test set (`images` of it) is being evaluated, a pass that takes a
    // while on a slow device (not called when the last validation already was that pass).
    virtual void testStarted(int /*images*/) {}
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

    // Trains from position() until config.epochs epochs are done or early stopping ends the run, then
    // puts the best epoch's weights back if early stopping restores them. Cancelled leaves position()
    // at the next step. Throws DivergedError (weights restored to the last good step), DataError,
    // ConfigError.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);

    // Continuing a run: its position and history, and the best epoch's weights when early stopping
    // keeps them. The network and the backend's optimizer state are set by the caller.
    const RunPosition& position() const { return m_position; }
    void restore(const RunPosition& position, std::vector<EpochRecord> history);
    // The best epoch's weights (params then state), empty unless early stopping restores them.
    const std::vector<float>& bestParams() const { return m_bestParams; }
    const std::vector<float>& bestState() const { return m_bestState; }
    void setBest(std::vector<float> params, std::vector<float> state);
    // The rate of the next step.
    double learningRate() const;
    // The split each epoch validates on: the held-out part of the training images or the test set.
    const ImageSplit& validationSplit() const;

    using Divergence = tb::Divergence;
    // One optimizer step on the training samples indices[0..count) (Backend::trainBatch with this
    // step's dropout key). run() calls it for every batch; the benchmark times it.
    BatchResult trainBatch(const int* indices, int count);

    // The weights and BatchNorm statistics of the backend, in the Network (see Backend::syncToHost).
    void syncToHost() { m_backend->syncToHost(); }
    // The test split (or its first `limit` images), on the run's device.
    EvalResult evaluate(int limit = 0, bool keepPredictions = false);
    // Whether evaluate(0, keepPredictions) returns the last validation without another pass.
    bool testResultStands(bool keepPredictions) const
    {
        return m_testResult && (!keepPredictions || !m_testResult->predicted.empty());
    }
    // The weights or statistics changed outside training (precise BN): the last validation no longer
    // stands for the test set.
    void forgetTestResult() { m_testResult.reset(); }

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
    RunPosition m_position;
    // The last validation, when it ran over the whole test set with the current weights: the final
    // test evaluation is then the same pass and is not run twice (it is long on a slow device).
    std::optional<EvalResult> m_testResult;
    std::vector<float> m_bestParams, m_bestState; // (params), (state): early stopping's best epoch
};

// Everything a training run has produced so far, as a weights file (the backend's weights come to
// the host first).
WeightsFile trainedWeights(const Network& net, Trainer& trainer, const std::vector<std::string>& classNames,
                           const std::string& datasetDir);

// The epoch's sample order: a Fisher-Yates shuffle keyed by (seed, epoch).
std::vector<int> shuffledOrder(int count, uint64_t seed, int epoch);

} // namespace tb
