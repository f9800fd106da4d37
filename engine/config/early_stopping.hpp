// Early stopping with Keras 3's semantics (keras.callbacks.EarlyStopping): after each epoch the
// monitored value either improves on the best by more than min_delta (the best and its epoch are
// kept, the wait starts again) or the wait grows; training stops once the wait reaches patience
// (never after the first epoch). With restore_best_weights the weights of the best epoch are put
// back when training ends.
#pragma once

#include "config/lr_schedule.hpp"

#include <string>

namespace tb {

struct EarlyStopping {
    bool enabled = false;
    Monitor monitor = Monitor::ValLoss;
    int patience = 0;
    double minDelta = 0.0;
    bool restoreBestWeights = false;
};

// Kept across epochs and in checkpoints.
struct EarlyStoppingState {
    double best = 0.0;
    bool hasBest = false;
    int bestEpoch = 0; // 1-based; 0: none yet
    int wait = 0;
    int stoppedEpoch = 0; // 1-based epoch after which training stopped; 0: it did not
};

// The end-of-epoch decision for `epoch` (1-based) with the monitored value. Returns true when this
// epoch is the new best (the caller keeps its weights when restoring); sets state.stoppedEpoch when
// training must stop.
bool updateEarlyStopping(const EarlyStopping& es, EarlyStoppingState& state, int epoch, double monitored);

std::string describeEarlyStopping(const EarlyStopping& es);

} // namespace tb
