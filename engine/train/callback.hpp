// What attaches to a run (Keras' callbacks): the learning-rate schedule, early stopping, the best
// epoch's weights and the session's checkpoints are callbacks of the Trainer, each keeping its own
// state and saving it in the checkpoint under its name. A new callback is one class added with
// Trainer::addCallback; the loop does not change.
#pragma once

#include "config/train_config.hpp"
#include "device/backend.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace tb {

class Trainer;

struct BatchProgress {
    int epoch = 0, epochs = 0; // 1-based epoch
    int step = 0, steps = 0;   // 1-based step within the epoch
    double loss = 0.0;         // running mean over the epoch so far
    double accuracy = 0.0;
    double batchLoss = 0.0; // of this batch alone
    double batchAccuracy = 0.0;
    double samplesPerSec = 0.0;
    double epochElapsed = 0.0; // seconds of training in the epoch so far (time in the observer excluded)
    double learningRate = 0.0; // of this step
};

// What a front end hears of a run. Time spent here is left out of the epoch's training time.
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

// Where the next optimizer step stands, for a schedule.
struct StepPosition {
    int64_t step = 0;       // global optimizer steps so far (0-based index of the next one)
    int epoch = 0;          // 0-based epoch under way
    int64_t totalSteps = 0; // of the whole run
};

// An epoch's end, as the callbacks see it before the observers do: they mark its record (the rate
// lowered, the best epoch, the last one) and may end the run.
struct EpochEnd {
    Trainer& run;
    EpochRecord& record;
    const EvalResult& validation;
    bool stop = false; // set: no further epoch (early stopping)
};

class Callback : public TrainObserver {
public:
    // The key of its state in the checkpoint's "callbacks" object; callbacks with no state to keep
    // return an empty saveState().
    virtual std::string name() const = 0;
    // The rate of the step at `at`, given `rate`, what the callbacks before it made of the
    // optimizer's learning rate. A pure function of `at` and the callback's state (a resumed run
    // takes the same rates).
    virtual double stepRate(double rate, const StepPosition& /*at*/) const { return rate; }
    virtual void epochEnded(EpochEnd&) {}
    // The run completed (not on a stop or a divergence).
    virtual void runCompleted(Trainer&) {}
    // Its state, and the state read back from a checkpoint (throws IoError naming `path` for a
    // damaged one). A checkpoint without the callback's key restores nothing.
    virtual nlohmann::ordered_json saveState() const { return {}; }
    virtual void restoreState(Trainer&, const nlohmann::ordered_json& /*state*/, const std::string& /*path*/) {}
};

} // namespace tb
