// The limits of a training run's settings, in one place. The CLI's options, the window's fields and
// validateTrainConfig all read them, so the two front ends accept and refuse the same runs, and the
// refusal is validateTrainConfig's message in both. The defaults are TrainConfig's initializers.
#pragma once

#include <cstdint>

namespace tb::limits {

inline constexpr int kMaxEpochs = 100000;
inline constexpr int kMaxBatch = 65536;
inline constexpr int kMaxThreads = 1024;
inline constexpr int kMaxSizeMultiplier = 16;
inline constexpr int kMaxShard = 65536;
inline constexpr int kMaxBatchesPerEpoch = 1 << 30;
inline constexpr int kMaxValidationLimit = 2147483647; // validation samples per epoch
// The learning rate only has to be positive and finite: a rate that diverges is the trainer's to report
// (and a lesson some users want to see). These bound the window's field, which shows 6 decimals.
inline constexpr double kMinLearningRate = 1e-6;
inline constexpr double kMaxLearningRate = 100.0;
inline constexpr double kMaxMomentum = 0.999; // momentum is in [0, kMaxMomentum]

} // namespace tb::limits
