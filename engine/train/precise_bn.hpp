// "Precise BN": after training, BatchNorm's moving mean and variance recomputed as the plain average
// of the batch statistics over N training batches, with the final weights (forward passes in training
// mode, nothing else changes). Keras' moving averages (momentum 0.99) need several hundred steps to
// forget their initial values (mean 0, variance 1) and the statistics of the early, very different
// weights: a short run's test accuracy can then fall far below its training accuracy. Runs on the CPU
// engine over the Network's host copy, whatever device trained it (the caller syncs the device), with
// fixed-size shards: bit-identical on 1 or N threads.
#pragma once

#include "data/dataset.hpp"
#include "kernels/kernels.hpp"
#include "model/network.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tb {

struct PreciseBnResult {
    int batches = 0; // batches averaged (fewer than asked when the split is smaller)
    int64_t samples = 0;
    int layers = 0; // BatchNorm layers updated
};

// Replaces every BatchNorm layer's moving statistics in `net` by their average over `batches` batches
// of `batchSize` samples of `split`, drawn without replacement in a shuffle keyed by `seed`.
// `batches` < 1 or `batchSize` < 1: ConfigError. A network without BatchNorm is left as it is.
PreciseBnResult recomputeBatchNormStatistics(Network& net, const ImageSplit& split, int sizeMultiplier, int batches,
                                             int batchSize, uint64_t seed, int threads,
                                             const Kernels& kernels = defaultKernels(), int shardSize = 16);

// "BatchNorm statistics recomputed over 100 training batches (12,800 images) in 3 layers (precise BN)."
std::string preciseBnText(const PreciseBnResult& r);

// How much of BatchNorm's initial moving statistics a run's `steps` optimizer steps leave: momentum
// to the power of the steps, for the network's BatchNorm layer with the highest momentum. Empty when
// the network has no BatchNorm.
struct BatchNormWarmth {
    double initialShare = 0.0; // 0.99^150 = 0.22
    float momentum = 0.0f;
    int64_t steps = 0;
    // Above this share the statistics are "still near their initial values" and a run says so.
    static constexpr double kWarnAbove = 0.02;
    bool stillInitial() const { return initialShare > kWarnAbove; }
};
std::optional<BatchNormWarmth> batchNormWarmth(const Network& net, int64_t steps);
// The run log's line when stillInitial(): what it means and the remedy (English; the window has its own).
std::string batchNormWarmthText(const BatchNormWarmth& w);

} // namespace tb
