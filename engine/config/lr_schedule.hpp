// Learning-rate schedules with Keras' semantics: constant, step decay (per epoch), exponential decay
// (per step, ExponentialDecay), cosine decay with linear warm-up (per step, CosineDecay with
// warmup_steps) and reduce-on-plateau (per epoch, ReduceLROnPlateau). The rate of a step is a pure
// function of the step, the epoch and the plateau state, so a resumed run uses the same rates.
#pragma once

#include <cstdint>
#include <string>

namespace tb {

// What a per-epoch decision watches (early stopping, reduce-on-plateau).
enum class Monitor { ValLoss, ValAccuracy };
const char* monitorName(Monitor m);            // "val_loss", "val_accuracy"
Monitor parseMonitor(const std::string& text); // throws ConfigError

enum class ScheduleKind { Constant, StepDecay, Exponential, Cosine, Plateau };

struct LrSchedule {
    ScheduleKind kind = ScheduleKind::Constant;
    double factor = 0.5;     // StepDecay, Plateau: the rate is multiplied by it
    int everyEpochs = 10;    // StepDecay
    double decayRate = 0.96; // Exponential: lr0 * decayRate^(step / decaySteps)
    int decaySteps = 1000;   // Exponential
    int warmupSteps = 0;     // Cosine: 0 -> lr0 linearly, then cosine down to alpha*lr0 at the run's last step
    double alpha = 0.0;      // Cosine
    Monitor monitor = Monitor::ValLoss; // Plateau (Keras' defaults below)
    int patience = 10;
    double minDelta = 1e-4;
    int cooldown = 0;
    double minLr = 0.0;
};

// "constant", "step:EVERY:FACTOR", "exp:RATE:STEPS", "cosine[:WARMUP[:ALPHA]]",
// "plateau[:FACTOR[:PATIENCE[:MIN_LR]]]" (reduce-on-plateau watches val_loss). Throws ConfigError.
LrSchedule parseLrSchedule(const std::string& text);
std::string describeLrSchedule(const LrSchedule& s);
// Throws ConfigError for a parameter outside its range.
void validateLrSchedule(const LrSchedule& s);

// The plateau schedule's state, kept across epochs and in checkpoints.
struct PlateauState {
    double best = 0.0;
    bool hasBest = false;
    int wait = 0;
    int cooldown = 0;
    double rate = 0.0; // the current rate; 0 until the run starts
};

// The rate of global step `step` (0-based) in epoch `epoch` (0-based) of a run of `totalSteps` steps.
// Plateau schedules return plateau.rate.
double scheduledRate(const LrSchedule& s, double base, int64_t step, int epoch, int64_t totalSteps,
                     const PlateauState& plateau);
// Reduce-on-plateau's end-of-epoch update with the monitored value; true when it lowered the rate.
bool updatePlateau(const LrSchedule& s, PlateauState& plateau, double monitored);

} // namespace tb
