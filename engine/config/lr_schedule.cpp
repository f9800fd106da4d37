#include "config/lr_schedule.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <sstream>
#include <vector>

namespace tb {

namespace {
std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string cur;
    for (char c : text) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

double number(const std::string& text, const std::string& what)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw ConfigError("the learning-rate schedule's " + what + " must be a number, not \"" + text + "\"");
    return v;
}

int whole(const std::string& text, const std::string& what)
{
    const double v = number(text, what);
    if (v != std::floor(v) || v < 0 || v > 1e9)
        throw ConfigError("the learning-rate schedule's " + what + " must be a whole number from 0 to 1e9, not \"" +
                          text + "\"");
    return int(v);
}

// Keras' monitor_op with min_delta: lower is better for a loss, higher for an accuracy.
bool improves(Monitor m, double value, double best, double minDelta)
{
    return m == Monitor::ValLoss ? value + minDelta < best : value - minDelta > best;
}
} // namespace

const char* monitorName(Monitor m)
{
    return m == Monitor::ValLoss ? "val_loss" : "val_accuracy";
}

Monitor parseMonitor(const std::string& text)
{
    if (text == "val_loss")
        return Monitor::ValLoss;
    if (text == "val_accuracy")
        return Monitor::ValAccuracy;
    throw ConfigError("unknown monitor \"" + text + "\": use val_loss or val_accuracy");
}

LrSchedule parseLrSchedule(const std::string& text)
{
    const std::vector<std::string> p = split(text, ':');
    const std::string& name = p[0];
    LrSchedule s;
    const char* forms = "use constant, step:EVERY:FACTOR, exp:RATE:STEPS, cosine[:WARMUP[:ALPHA]] or "
                        "plateau[:FACTOR[:PATIENCE[:MIN_LR]]]";
    auto arity = [&](size_t lo, size_t hi) {
        if (p.size() - 1 < lo || p.size() - 1 > hi)
            throw ConfigError("the learning-rate schedule \"" + text + "\" has the wrong number of parameters; " +
                              forms);
    };
    if (name == "constant") {
        arity(0, 0);
    } else if (name == "step") {
        arity(2, 2);
        s.kind = ScheduleKind::StepDecay;
        s.everyEpochs = whole(p[1], "epochs between drops");
        s.factor = number(p[2], "factor");
    } else if (name == "exp") {
        arity(2, 2);
        s.kind = ScheduleKind::Exponential;
        s.decayRate = number(p[1], "decay rate");
        s.decaySteps = whole(p[2], "decay steps");
    } else if (name == "cosine") {
        arity(0, 2);
        s.kind = ScheduleKind::Cosine;
        if (p.size() > 1)
            s.warmupSteps = whole(p[1], "warm-up steps");
        if (p.size() > 2)
            s.alpha = number(p[2], "alpha");
    } else if (name == "plateau") {
        arity(0, 3);
        s.kind = ScheduleKind::Plateau;
        s.factor = 0.1; // ReduceLROnPlateau's defaults
        if (p.size() > 1)
            s.factor = number(p[1], "factor");
        if (p.size() > 2)
            s.patience = whole(p[2], "patience");
        if (p.size() > 3)
            s.minLr = number(p[3], "minimum rate");
    } else {
        throw ConfigError("the learning-rate schedule \"" + name + "\" is not one Trainbench knows; " + forms);
    }
    validateLrSchedule(s);
    return s;
}

void validateLrSchedule(const LrSchedule& s)
{
    switch (s.kind) {
    case ScheduleKind::Constant:
        break;
    case ScheduleKind::StepDecay:
        if (s.everyEpochs < 1)
            throw ConfigError("step decay needs at least 1 epoch between drops");
        [[fallthrough]];
    case ScheduleKind::Plateau:
        if (!(s.factor > 0 && s.factor < 1))
            throw ConfigError("the learning-rate schedule's factor must be between 0 and 1 (exclusive)");
        if (s.patience < 0 || s.cooldown < 0 || s.minDelta < 0 || s.minLr < 0)
            throw ConfigError("reduce-on-plateau's patience, cooldown, min_delta and minimum rate cannot be negative");
        break;
    case ScheduleKind::Exponential:
        if (!(s.decayRate > 0 && s.decayRate <= 1) || s.decaySteps < 1)
            throw ConfigError("exponential decay needs a rate in (0, 1] and at least 1 decay step");
        break;
    case ScheduleKind::Cosine:
        if (s.warmupSteps < 0 || !(s.alpha >= 0 && s.alpha <= 1))
            throw ConfigError("cosine decay needs warm-up steps >= 0 and alpha in [0, 1]");
        break;
    }
}

std::string describeLrSchedule(const LrSchedule& s)
{
    std::ostringstream o;
    switch (s.kind) {
    case ScheduleKind::Constant:
        o << "constant";
        break;
    case ScheduleKind::StepDecay:
        o << "step decay x" << s.factor << " every " << s.everyEpochs << " epochs";
        break;
    case ScheduleKind::Exponential:
        o << "exponential decay " << s.decayRate << " per " << s.decaySteps << " steps";
        break;
    case ScheduleKind::Cosine:
        o << "cosine decay to " << s.alpha << "x after " << s.warmupSteps << " warm-up steps";
        break;
    case ScheduleKind::Plateau:
        o << "reduce on plateau of " << monitorName(s.monitor) << ": x" << s.factor << " after " << s.patience
          << " epochs, minimum " << s.minLr;
        break;
    }
    return o.str();
}

double scheduledRate(const LrSchedule& s, double base, int64_t step, int epoch, int64_t totalSteps,
                     const PlateauState& plateau)
{
    switch (s.kind) {
    case ScheduleKind::Constant:
        return base;
    case ScheduleKind::StepDecay:
        return base * std::pow(s.factor, double(epoch / s.everyEpochs));
    case ScheduleKind::Exponential:
        return base * std::pow(s.decayRate, double(step) / double(s.decaySteps));
    case ScheduleKind::Cosine: {
        // Keras' CosineDecay with warmup_target = base: linear warm-up from 0, then
        // decayed = (1 - alpha) * 0.5 * (1 + cos(pi * t)) + alpha over the remaining steps.
        if (step < s.warmupSteps)
            return base * double(step + 1) / double(s.warmupSteps);
        const double span = double(std::max<int64_t>(1, totalSteps - s.warmupSteps));
        const double t = std::min(1.0, double(step - s.warmupSteps) / span);
        return base * ((1.0 - s.alpha) * 0.5 * (1.0 + std::cos(M_PI * t)) + s.alpha);
    }
    case ScheduleKind::Plateau:
        return plateau.rate > 0 ? plateau.rate : base;
    }
    return base;
}

bool updatePlateau(const LrSchedule& s, PlateauState& p, double monitored)
{
    if (s.kind != ScheduleKind::Plateau)
        return false;
    // Keras' ReduceLROnPlateau.on_epoch_end.
    if (p.cooldown > 0) {
        --p.cooldown;
        p.wait = 0;
    }
    if (!p.hasBest || improves(s.monitor, monitored, p.best, s.minDelta)) {
        p.best = monitored;
        p.hasBest = true;
        p.wait = 0;
        return false;
    }
    if (p.cooldown > 0)
        return false;
    if (++p.wait < s.patience || !(p.rate > s.minLr))
        return false;
    p.rate = std::max(p.rate * s.factor, s.minLr);
    p.cooldown = s.cooldown;
    p.wait = 0;
    return true;
}

} // namespace tb
