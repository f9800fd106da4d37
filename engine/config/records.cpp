#include "config/records.hpp"

#include "core/json_text.hpp"

#include <cmath>
#include <limits>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;
using Problem = RecordError::Problem;

const Json& need(const Json& o, const char* key)
{
    const Json* v = jsonMember(o, key);
    if (!v)
        throw RecordError(key, Problem::Missing, std::string("lacks \"") + key + "\"");
    return *v;
}

[[noreturn]] void wrongType(const char* key, const Json& v, const char* wanted)
{
    throw RecordError(key, Problem::WrongType,
                      std::string("\"") + key + "\" is " + jsonTypeName(v) + ", not " + wanted);
}

double number(const Json& v, const char* key)
{
    if (!v.is_number())
        wrongType(key, v, "a number");
    return v.get<double>();
}

// A whole number that fits T: a fraction or a number beyond T's range must not reach a cast.
template <typename T> T whole(const Json& v, const char* key)
{
    static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
    constexpr double lo = double(std::numeric_limits<T>::min()), hi = -lo; // both exact as doubles
    if (v.is_number_integer() && !v.is_number_unsigned()) {
        const int64_t s = v.get<int64_t>();
        if (double(s) >= lo && double(s) < hi)
            return T(s);
    } else if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        if (u <= uint64_t(std::numeric_limits<T>::max()))
            return T(u);
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && d >= lo && d < hi)
            return T(d);
    } else {
        wrongType(key, v, "a whole number");
    }
    throw RecordError(key, Problem::OutOfRange, std::string("\"") + key + "\" is not a whole number in range");
}

bool boolean(const Json& v, const char* key)
{
    if (!v.is_boolean())
        wrongType(key, v, "true or false");
    return v.get<bool>();
}

std::string text(const Json& v, const char* key)
{
    if (!v.is_string())
        wrongType(key, v, "a string");
    return v.get<std::string>();
}

double getNumber(const Json& o, const char* key)
{
    return number(need(o, key), key);
}
template <typename T> T getWhole(const Json& o, const char* key)
{
    return whole<T>(need(o, key), key);
}
bool getBool(const Json& o, const char* key)
{
    return boolean(need(o, key), key);
}
std::string getText(const Json& o, const char* key)
{
    return text(need(o, key), key);
}

void requireObject(const Json& j, const char* what)
{
    if (!j.is_object())
        throw RecordError(what, Problem::WrongType, std::string(what) + " is " + jsonTypeName(j) + ", not an object");
}

// A metric of an epoch: NaN when absent or null (JSON has no NaN; jsonText writes it as null).
double metric(const Json& o, const char* key)
{
    const Json* v = jsonMember(o, key);
    return !v || v->is_null() ? std::numeric_limits<double>::quiet_NaN() : number(*v, key);
}

// The first of `keys` present (a member's current spelling, then its old ones), or null.
const Json* firstOf(const Json& o, std::initializer_list<const char*> keys, const char** found)
{
    for (const char* k : keys)
        if (const Json* v = jsonMember(o, k)) {
            *found = k;
            return v;
        }
    return nullptr;
}

const char* const kScheduleNames[] = {"constant", "step", "exp", "cosine", "plateau"};
} // namespace

const char* runStatusName(RunStatus s)
{
    switch (s) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Completed:
        return "completed";
    case RunStatus::Stopped:
        return "stopped";
    case RunStatus::Diverged:
        return "diverged";
    case RunStatus::Failed:
        return "failed";
    case RunStatus::Interrupted:
        return "interrupted";
    }
    return "running";
}

RunStatus parseRunStatus(const std::string& text)
{
    for (RunStatus s : {RunStatus::Running, RunStatus::Completed, RunStatus::Stopped, RunStatus::Diverged,
                        RunStatus::Failed, RunStatus::Interrupted})
        if (text == runStatusName(s))
            return s;
    throw RecordError("status", Problem::OutOfRange,
                      "the status \"" + text +
                          "\" is none of running, completed, stopped, diverged, failed, interrupted");
}

void to_json(Json& j, const OptimizerConfig& o)
{
    j = Json::object();
    j["name"] = optimizerName(o.kind);
    j["learning_rate"] = jsonFloat(o.learningRate);
    j["beta_1"] = jsonFloat(o.beta1);
    j["beta_2"] = jsonFloat(o.beta2);
    j["epsilon"] = jsonFloat(o.epsilon);
    j["momentum"] = jsonFloat(o.momentum);
    j["nesterov"] = o.nesterov;
    j["rho"] = jsonFloat(o.rho);
}

void from_json(const Json& j, OptimizerConfig& o)
{
    requireObject(j, "optimizer");
    o.kind = jsonMember(j, "name") ? parseOptimizer(getText(j, "name")) : OptimizerKind::Adam;
    o.learningRate = float(getNumber(j, "learning_rate"));
    o.beta1 = float(getNumber(j, "beta_1"));
    o.beta2 = float(getNumber(j, "beta_2"));
    o.epsilon = float(getNumber(j, "epsilon"));
    o.momentum = float(getNumber(j, "momentum"));
    o.nesterov = jsonMember(j, "nesterov") && getBool(j, "nesterov");
    o.rho = float(getNumber(j, "rho"));
}

void to_json(Json& j, const LrSchedule& s)
{
    j = Json::object();
    j["kind"] = kScheduleNames[int(s.kind)];
    j["factor"] = s.factor;
    j["every_epochs"] = s.everyEpochs;
    j["decay_rate"] = s.decayRate;
    j["decay_steps"] = s.decaySteps;
    j["warmup_steps"] = s.warmupSteps;
    j["alpha"] = s.alpha;
    j["monitor"] = monitorName(s.monitor);
    j["patience"] = s.patience;
    j["min_delta"] = s.minDelta;
    j["cooldown"] = s.cooldown;
    j["min_lr"] = s.minLr;
}

void from_json(const Json& j, LrSchedule& s)
{
    requireObject(j, "schedule");
    const Json& kind = need(j, "kind");
    int k = -1;
    if (kind.is_string()) {
        for (int i = 0; i <= int(ScheduleKind::Plateau); ++i)
            if (kind.get<std::string>() == kScheduleNames[i])
                k = i;
    } else {
        k = whole<int>(kind, "kind"); // version 1 checkpoints: the enum's number
    }
    if (k < 0 || k > int(ScheduleKind::Plateau))
        throw ConfigError("unknown learning-rate schedule " + jsonText(kind) +
                          " (constant, step, exp, cosine or plateau)");
    s.kind = ScheduleKind(k);
    s.factor = getNumber(j, "factor");
    s.everyEpochs = getWhole<int>(j, "every_epochs");
    s.decayRate = getNumber(j, "decay_rate");
    s.decaySteps = getWhole<int>(j, "decay_steps");
    s.warmupSteps = getWhole<int>(j, "warmup_steps");
    s.alpha = getNumber(j, "alpha");
    s.monitor = parseMonitor(getText(j, "monitor"));
    s.patience = getWhole<int>(j, "patience");
    s.minDelta = getNumber(j, "min_delta");
    s.cooldown = getWhole<int>(j, "cooldown");
    s.minLr = getNumber(j, "min_lr");
}

void to_json(Json& j, const EarlyStopping& e)
{
    j = Json::object();
    j["enabled"] = e.enabled;
    j["monitor"] = monitorName(e.monitor);
    j["patience"] = e.patience;
    j["min_delta"] = e.minDelta;
    j["restore_best_weights"] = e.restoreBestWeights;
}

void from_json(const Json& j, EarlyStopping& e)
{
    requireObject(j, "early_stopping");
    e.enabled = getBool(j, "enabled");
    e.monitor = parseMonitor(getText(j, "monitor"));
    e.patience = getWhole<int>(j, "patience");
    e.minDelta = getNumber(j, "min_delta");
    e.restoreBestWeights = getBool(j, "restore_best_weights");
}

void to_json(Json& j, const TrainConfig& c)
{
    j = Json::object();
    j["epochs"] = c.epochs;
    j["batch_size"] = c.batchSize;
    j["device"] = c.device.id();
    j["precision"] = precisionName(c.device.precision); // also in the device's id; read from there
    j["seed"] = std::to_string(c.seed);
    j["optimizer"] = c.optimizer;
    j["max_batches"] = c.maxBatches;
    j["validation_limit"] = c.validationLimit;
    j["validation_split"] = c.validationSplit;
    j["size_multiplier"] = c.sizeMultiplier;
    j["drop_remainder"] = c.dropRemainder;
    j["shard_size"] = c.shardSize;
    j["precise_bn_batches"] = c.preciseBnBatches;
    j["schedule"] = c.schedule;
    j["early_stopping"] = c.earlyStopping;
}

void from_json(const Json& j, TrainConfig& c)
{
    requireObject(j, "config");
    c.epochs = getWhole<int>(j, "epochs");
    c.batchSize = getWhole<int>(j, "batch_size");
    c.device = parseDeviceSpec(getText(j, "device"));
    const std::string seed = getText(j, "seed");
    if (seed.empty() || seed.size() > 20 || seed.find_first_not_of("0123456789") != std::string::npos ||
        (seed.size() == 20 && seed > "18446744073709551615"))
        throw RecordError("seed", Problem::OutOfRange, "the seed \"" + seed + "\" is not a number from 0 to 2^64-1");
    c.seed = std::stoull(seed);
    from_json(need(j, "optimizer"), c.optimizer);
    c.maxBatches = getWhole<int>(j, "max_batches");
    c.validationLimit = getWhole<int>(j, "validation_limit");
    c.validationSplit = getNumber(j, "validation_split");
    c.sizeMultiplier = getWhole<int>(j, "size_multiplier");
    c.dropRemainder = getBool(j, "drop_remainder");
    c.shardSize = getWhole<int>(j, "shard_size");
    if (j.contains("precise_bn_batches")) // written after 0.2.0 (0.3.0 on); 0.2.0's have none
        c.preciseBnBatches = getWhole<int>(j, "precise_bn_batches");
    from_json(need(j, "schedule"), c.schedule);
    from_json(need(j, "early_stopping"), c.earlyStopping);
}

void to_json(Json& j, const EpochRecord& r)
{
    j = Json::object();
    j["epoch"] = r.epoch;
    j["loss"] = r.loss;
    j["accuracy"] = r.accuracy;
    j["val_loss"] = r.valLoss;
    j["val_accuracy"] = r.valAccuracy;
    j["seconds"] = r.seconds;
    j["samples_per_sec"] = r.samplesPerSec;
    j["samples"] = r.samples;
    // To a float's digits, as the optimizer takes it: 0.001, not 0.0010000000474974513.
    j["learning_rate"] = jsonFloat(float(r.learningRate));
    j["best"] = r.best;
    j["stopped"] = r.stopped;
    j["rate_lowered"] = r.rateLowered;
}

void from_json(const Json& j, EpochRecord& r)
{
    requireObject(j, "epoch");
    r.epoch = getWhole<int>(j, "epoch");
    if (r.epoch < 0)
        throw RecordError("epoch", Problem::OutOfRange, "\"epoch\" is negative");
    r.loss = metric(j, "loss");
    r.accuracy = metric(j, "accuracy");
    r.valLoss = metric(j, "val_loss");
    r.valAccuracy = metric(j, "val_accuracy");
    r.seconds = metric(j, "seconds");
    r.samplesPerSec = metric(j, "samples_per_sec");
    r.learningRate = metric(j, "learning_rate");
    r.samples = jsonMember(j, "samples") ? getWhole<int64_t>(j, "samples") : 0;
    if (r.samples < 0)
        throw RecordError("samples", Problem::OutOfRange, "\"samples\" is negative");
    const char* key = nullptr;
    const Json* v = nullptr;
    r.best = (v = firstOf(j, {"best"}, &key)) && boolean(*v, key);
    r.stopped = (v = firstOf(j, {"stopped", "early_stopping"}, &key)) && boolean(*v, key);
    r.rateLowered = (v = firstOf(j, {"rate_lowered", "learning_rate_lowered"}, &key)) && boolean(*v, key);
}

void to_json(Json& j, const TestResult& t)
{
    j = Json::object();
    j["loss"] = t.loss;
    j["accuracy"] = t.accuracy;
    j["samples"] = t.samples;
    if (t.misclassified >= 0)
        j["misclassified"] = t.misclassified;
    if (t.atStop)
        j["at_stop"] = true;
    if (t.preciseBnLayers >= 0)
        j["precise_bn_layers"] = t.preciseBnLayers;
}

void from_json(const Json& j, TestResult& t)
{
    requireObject(j, "test");
    const char* key = nullptr;
    const Json* v = firstOf(j, {"loss", "test_loss"}, &key);
    t.loss = v && !v->is_null() ? number(*v, key) : std::numeric_limits<double>::quiet_NaN();
    v = firstOf(j, {"accuracy", "test_accuracy"}, &key);
    t.accuracy = v && !v->is_null() ? number(*v, key) : std::numeric_limits<double>::quiet_NaN();
    v = firstOf(j, {"samples", "images"}, &key);
    t.samples = v ? whole<int>(*v, key) : 0;
    t.misclassified = jsonMember(j, "misclassified") ? getWhole<int>(j, "misclassified") : -1;
    t.atStop = jsonMember(j, "at_stop") && getBool(j, "at_stop");
    t.preciseBnLayers = jsonMember(j, "precise_bn_layers") ? getWhole<int>(j, "precise_bn_layers") : -1;
}

} // namespace tb
