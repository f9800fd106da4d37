// What a training run is set up with (TrainConfig) and the records its files keep of it (EpochRecord,
// RunPosition): plain values below both the training loop (train/) and the files that store them
// (io/weights_file.hpp, checkpoints), so that neither folder includes the other's side.
#pragma once

#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "device/device.hpp"
#include "optim/optimizer.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace tb {

class Communicator;

// A training run's settings. The initializers are the defaults of the CLI and the window alike (the
// tutorials' 2 epochs and seed 200); run_limits.hpp holds the limits validateTrainConfig checks.
struct TrainConfig {
    int epochs = 2;
    int batchSize = 128;
    DeviceSpec device; // where the arithmetic runs: CPU threads and kernel level, or an accelerator
    uint64_t seed = 200;
    OptimizerConfig optimizer;
    int maxBatches = 0;      // > 0: at most this many batches per epoch
    int validationLimit = 0; // > 0: validate on the first N validation images only
    // In (0, 1): the last fraction of the training images is held out and validates each epoch
    // (Keras' validation_split), so the test set stays untouched until the end; 0: the test set
    // validates each epoch, as the tutorials do.
    double validationSplit = 0.0;
    LrSchedule schedule;
    EarlyStopping earlyStopping;
    int sizeMultiplier = 1;     // images scaled up by this integer factor (nearest neighbour)
    bool dropRemainder = false; // both splits cut to a multiple of the batch
    int shardSize = 16;         // CPU: samples per shard, part of the numerics
    // > 0: after the last epoch, BatchNorm's moving statistics recomputed over this many training batches
    // (train/precise_bn.hpp). A setting of the run: a resumed run ends as the uninterrupted one would.
    int preciseBnBatches = 0;
    // The ranks of a data-parallel run (mpi/communicator.hpp; null: one process). Not a setting of
    // the run: checkpoints do not keep it, and a run resumes on any number of ranks.
    std::shared_ptr<Communicator> communicator;
    // Where an accelerator keeps the kernels it compiled (device/kernel_cache.hpp; the front ends pass
    // kernelCacheDir() of the environment); empty: compile every run. Not a setting of the run either.
    std::string kernelCacheDir;
};

struct EpochRecord {
    int epoch = 0;
    double loss = 0.0, accuracy = 0.0;
    double valLoss = 0.0, valAccuracy = 0.0;
    double seconds = 0.0;       // training time of the epoch (validation and time in the observer excluded)
    double samplesPerSec = 0.0; // training throughput
    int64_t samples = 0;
    double learningRate = 0.0; // of the epoch's last step
    bool best = false;         // early stopping: the best epoch so far (its weights are kept)
    bool stopped = false;      // early stopping ended training after this epoch
    bool rateLowered = false;  // reduce-on-plateau lowered the rate after this epoch
};

// Where a run stands between two steps: with the weights, the BatchNorm statistics and the optimizer
// state, all a checkpoint needs to continue bit for bit (the shuffles and dropout masks are pure
// functions of the seed, the epoch and the step).
struct RunPosition {
    int epoch = 0;        // epochs finished
    int step = 0;         // batches finished in the epoch under way
    double lossSum = 0.0; // of the epoch under way so far
    int64_t correct = 0, seen = 0;
    double seconds = 0.0; // training time of the epoch under way so far
    int stoppedEpoch = 0; // 1-based epoch after which a callback (early stopping) ended the run; 0: none
    // Whether the run has no step left.
    bool finished(int epochs) const { return epoch >= epochs || stoppedEpoch > 0; }
    // Whether the epoch under way has taken all its steps and waits for its validation (a run stopped
    // in it, or a checkpoint written after the last step).
    bool inValidation(int stepsPerEpoch) const { return step > 0 && step >= stepsPerEpoch; }
};

} // namespace tb
