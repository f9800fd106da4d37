// Where a run's arithmetic happens. The Trainer (epochs, shuffles, observer, cancellation) and the
// training session above it drive a Backend and never see what is inside it: the CPU engine
// (train/cpu_backend.hpp) or an accelerator (OpenCL; a CUDA backend would be one more implementation
// of this interface and one more case in makeBackend (train/backend.hpp), with nothing to change
// above it).
//
// A backend owns the copy of the weights it trains, the optimizer's state and every buffer of a step.
// The Network passed to it holds the host copy: a backend starts from the Network's weights and writes
// its own back into it on syncToHost (the CPU backend trains the Network's buffers in place).
#pragma once

#include "data/dataset.hpp"
#include "device/device.hpp"
#include "optim/optimizer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tb {

class Network;

struct StepResult {
    double lossSum = 0.0; // over the batch's samples
    int correct = 0;
    int samples = 0;
};

// What an evaluation keeps of each sample beside the mean loss and accuracy.
enum class EvalKeeps {
    Metrics,       // nothing
    Predictions,   // the predicted class and its probability
    Probabilities, // also every class's probability: a text's whole vocabulary at each symbol, which
                   // for a large text is far more memory than the text
};

// What the Results pages show of each test sample: an image's every class (its three likeliest), a
// text's predicted symbol and its probability (the whole vocabulary at each symbol of a large text
// would take far more memory than the text).
inline EvalKeeps resultsKeeps(const Dataset& data)
{
    return data.isText() ? EvalKeeps::Predictions : EvalKeeps::Probabilities;
}

struct EvalResult {
    double loss = 0.0; // mean
    double accuracy = 0.0;
    int samples = 0;
    std::vector<uint8_t> predicted; // (samples) with EvalKeeps::Predictions or Probabilities
    std::vector<float> confidence;  // (samples) the predicted class's probability, likewise
    std::vector<float> probs;       // (samples, classes) with EvalKeeps::Probabilities
    bool cancelled = false;         // stopped part-way by the caller's flag: the numbers are not whole

    // Makes room for what `keeps` asks of `n` samples of `classes` classes.
    void prepare(EvalKeeps keeps, size_t n, int classes)
    {
        if (keeps != EvalKeeps::Metrics) {
            predicted.assign(n, 0);
            confidence.assign(n, 0.0f);
        }
        if (keeps == EvalKeeps::Probabilities)
            probs.assign(n * size_t(classes), 0.0f);
    }
    // Sample i's prediction and its probability, from its row `p` of the classes' probabilities.
    void keepPrediction(size_t i, const float* p, int classes)
    {
        const auto best = std::max_element(p, p + classes) - p;
        predicted[i] = uint8_t(best);
        confidence[i] = p[best];
    }
};

// What went non-finite in a step that was not applied.
enum class Divergence { None, Loss, Gradient, Weights };

struct BatchResult {
    StepResult step;
    Divergence diverged = Divergence::None;
};

// The optimizer's state as weights files and checkpoints keep it.
struct OptimizerState {
    OptimizerConfig config;
    int64_t iterations = 0;
    std::vector<float> slotBuffer; // Optimizer::slotBuffer()'s layout
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual const DeviceSpec& device() const = 0;
    // What runs the arithmetic, for run headers: "CPU kernels: AVX-512 (...)", "OpenCL: NVIDIA H100 (...)".
    virtual std::string describe() const = 0;

    // One optimizer step on the training samples indices[0..count) of the dataset the backend was
    // made for: forward, backward and the update, which stands only if the loss, the gradient and the
    // updated weights are all finite; otherwise the weights, the BatchNorm statistics and the
    // optimizer's state stay those from before the step. dropoutKey selects the step's dropout masks
    // (the same counter-based hash on every backend).
    virtual BatchResult trainBatch(const int* indices, int count, uint64_t dropoutKey) = 0;

    // Forward pass in inference mode over the first `limit` samples of `split` (all when limit <= 0).
    // With `cancel`, it stops between batches once the flag is set and says so (EvalResult::cancelled):
    // a run's validation, which the user may stop, takes seconds to minutes. The ranks of a
    // data-parallel run stop at the same batch when one's flag is set (each gives its own `cancel`).
    virtual EvalResult evaluate(const ImageSplit& split, int sizeMultiplier, int limit = 0,
                                EvalKeeps keeps = EvalKeeps::Metrics, const std::atomic<bool>* cancel = nullptr) = 0;

    // Writes the backend's weights and BatchNorm statistics into the Network it was made with
    // (nothing to do where they live there already).
    virtual void syncToHost() = 0;
    // The other way: the Network's weights and statistics become the backend's (restoring the best
    // weights of a run, or weights set by hand between steps).
    virtual void syncFromHost() = 0;

    // The learning rate of the next steps (schedules change it between steps; positive and finite).
    virtual void setLearningRate(float lr) = 0;
    // Optimizer steps taken so far (the dropout masks and Adam's bias correction count them).
    virtual int64_t iterations() const = 0;
    virtual OptimizerState optimizerState() const = 0;
    // Continues from a saved state (same configuration kind and parameter count; ConfigError if not).
    virtual void setOptimizerState(const OptimizerState& state) = 0;

    // Whether this process (`mine`) or any other of the run asked to stop. The ranks of a data-parallel
    // run each call it at the same points (before each step) and get the same answer, so that they all
    // stop after the same step whichever rank a signal reached; one process: `mine`.
    virtual bool anyStops(bool mine) { return mine; }

    // Per-layer time of the last training step, forward and backward (seconds); empty where the
    // backend does not measure it.
    virtual std::vector<double> forwardSeconds() const { return {}; }
    virtual std::vector<double> backwardSeconds() const { return {}; }

    // What setting the device up did, or what it does, that a person may want to know, one line (an
    // accelerator's compiled kernels loaded from the cache, or rebuilt and why; what bf16 does to
    // speed on an Intel CPU); empty when nothing.
    virtual std::string setupNote() const { return {}; }
};

} // namespace tb
