// The training loop: seeded shuffles, batches, optimizer steps, validation on the test split after
// each epoch, observer callbacks, cancellation between batches and inside validation, and divergence
// detection that keeps the last good weights.
#pragma once

#include "config/train_config.hpp"
#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "train/backend.hpp"
#include "train/callback.hpp"
#include "train/run_callbacks.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tb {

// Throws ConfigError naming the first setting outside run_limits.hpp's limits.
void validateTrainConfig(const TrainConfig& config);

enum class TrainStatus { Completed, Cancelled };

class Trainer {
public:
    // The network keeps its current weights; call net.initialize(seed) first for a fresh run. The
    // backend is made for config.device (makeBackend); its errors are thrown from here. The config's
    // callbacks are attached: the learning-rate schedule, early stopping when enabled, and the best
    // weights when early stopping restores them (kept in bestWeightsFile() too when it gives a path).
    Trainer(Network& net, const Dataset& data, TrainConfig config, BestWeightsCallback::FilePath bestWeightsFile = {});
    ~Trainer();

    // Epoch times are read from this clock (seconds, monotonic; steady_clock by default). Time spent in
    // the observer's callbacks (a paused window waiting, a terminal printing) is not training time and
    // is left out of epochElapsed, seconds and samples/s. Tests inject a clock they advance themselves.
    void setClock(std::function<double()> seconds);

    // Attaches a callback after the others: it sees each hook after them (a schedule's rate from
    // theirs, an epoch's record as they marked it), and before the run's observer. After
    // restoreCallbacks it starts from its state in the checkpoint, if that has one.
    void addCallback(std::unique_ptr<Callback> callback);

    // Trains from position() until config.epochs epochs are done or a callback (early stopping) ends
    // the run, then tells the callbacks it completed (the best weights are put back). `cancel` stops
    // it between batches (position() at the next step) and, unless `cancelValidation` is given, inside
    // an epoch's validation too (position() at the epoch's last step, inValidation). A front end that
    // evaluates a stopped run's weights on the test set anyway gives, as `cancelValidation`, a flag
    // that stops only when nothing will be evaluated: the test set's validation then ends and is that
    // evaluation. Throws DivergedError (weights restored to the last good step), DataError, ConfigError.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);
    TrainStatus run(TrainObserver* observer, const std::atomic<bool>* cancel,
                    const std::atomic<bool>* cancelValidation);

    // Continuing a run: its position and history. The network and the backend's optimizer state are
    // set by the caller, the callbacks' state by restoreCallbacks.
    const RunPosition& position() const { return m_position; }
    void restore(const RunPosition& position, std::vector<EpochRecord> history);
    // The callbacks' states by name (a checkpoint's "callbacks"), and back: a callback whose name is
    // missing keeps its fresh state; one added later takes its state then. Throws IoError naming
    // `path` for a damaged state.
    nlohmann::ordered_json callbackStates() const;
    void restoreCallbacks(const nlohmann::ordered_json& states, const std::string& path);
    // The rate of the next step, or of step `step` (0-based, counted from the run's start).
    double learningRate() const;
    double learningRate(int64_t step) const;
    // The split each epoch validates on: the held-out part of the training images or the test set.
    const ImageSplit& validationSplit() const;

    using Divergence = tb::Divergence;
    // One optimizer step on the training samples indices[0..count) (Backend::trainBatch with this
    // step's dropout key). run() calls it for every batch; the benchmark times it.
    BatchResult trainBatch(const int* indices, int count);

    // The weights and BatchNorm statistics of the backend, in the Network (see Backend::syncToHost).
    void syncToHost() { m_backend->syncToHost(); }
    Network& network() { return m_net; }
    // Puts these weights and statistics into the network and the backend (the best epoch's).
    void putWeights(const std::vector<float>& params, const std::vector<float>& state);
    // Everything the run has produced so far, as a weights file (the backend's weights come to the
    // host first).
    WeightsFile weightsFile();
    // The test split (or its first `limit` images), on the run's device.
    EvalResult evaluate(int limit = 0, bool keepPredictions = false);
    // Whether evaluate(0, keepPredictions) returns the last validation without another pass.
    bool testResultStands(bool keepPredictions) const;
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
    std::vector<std::unique_ptr<Callback>> m_callbacks;
    nlohmann::ordered_json m_restoredStates; // restoreCallbacks's, for callbacks added after it
    std::string m_restoredFrom;
};

// The epoch's sample order: a Fisher-Yates shuffle keyed by (seed, epoch).
std::vector<int> shuffledOrder(int count, uint64_t seed, int epoch);

} // namespace tb
