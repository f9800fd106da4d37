#include "train/checkpoint.hpp"

#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "io/json_number.hpp"

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

// A member of the resume object, which must be there with the right type; a checkpoint that lacks
// one was not written by this version or was damaged.
const Json& need(const Json& o, const char* key, const std::string& path)
{
    const Json* v = jsonMember(o, key);
    if (!v)
        throw IoError(path + ": the checkpoint lacks \"" + std::string(key) + "\"; it is damaged or not a checkpoint");
    return *v;
}

template <typename T> T get(const Json& o, const char* key, const std::string& path)
{
    const Json& v = need(o, key, path);
    try {
        if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
            return jsonWhole<T>(v, key);
        else
            return v.get<T>();
    } catch (const DataError&) {
        throw IoError(path + ": the checkpoint's \"" + std::string(key) +
                      "\" is not a whole number in range; it is damaged");
    } catch (const nlohmann::json::exception&) {
        throw IoError(path + ": the checkpoint's \"" + std::string(key) + "\" holds " + jsonTypeName(v) +
                      " of the wrong kind; it is damaged");
    }
}

Json optimizerJson(const OptimizerConfig& o)
{
    Json j;
    j["name"] = optimizerName(o.kind);
    j["learning_rate"] = o.learningRate;
    j["beta_1"] = o.beta1;
    j["beta_2"] = o.beta2;
    j["epsilon"] = o.epsilon;
    j["momentum"] = o.momentum;
    j["nesterov"] = o.nesterov;
    j["rho"] = o.rho;
    return j;
}

OptimizerConfig optimizerFrom(const Json& j, const std::string& path)
{
    OptimizerConfig o;
    o.kind = parseOptimizer(get<std::string>(j, "name", path));
    o.learningRate = get<float>(j, "learning_rate", path);
    o.beta1 = get<float>(j, "beta_1", path);
    o.beta2 = get<float>(j, "beta_2", path);
    o.epsilon = get<float>(j, "epsilon", path);
    o.momentum = get<float>(j, "momentum", path);
    o.nesterov = get<bool>(j, "nesterov", path);
    o.rho = get<float>(j, "rho", path);
    return o;
}
} // namespace

DatasetFingerprint fingerprintOf(const Dataset& d)
{
    DatasetFingerprint f;
    f.directory = d.directory;
    f.trainCount = d.train.count;
    f.testCount = d.test.count;
    f.height = d.train.height;
    f.width = d.train.width;
    f.classes = d.numClasses;
    Sha256 sha;
    sha.update(d.train.labels.data(), d.train.labels.size());
    sha.update(d.test.labels.data(), d.test.labels.size());
    f.labelsSha256 = sha.hexDigest();
    return f;
}

std::string resumeJson(const TrainConfig& c, const RunPosition& p, const DatasetFingerprint& d, const Json& callbacks)
{
    Json cfg;
    cfg["epochs"] = c.epochs;
    cfg["batch_size"] = c.batchSize;
    cfg["device"] = c.device.id();
    cfg["seed"] = std::to_string(c.seed);
    cfg["optimizer"] = optimizerJson(c.optimizer);
    cfg["max_batches"] = c.maxBatches;
    cfg["validation_limit"] = c.validationLimit;
    cfg["validation_split"] = c.validationSplit;
    cfg["size_multiplier"] = c.sizeMultiplier;
    cfg["drop_remainder"] = c.dropRemainder;
    cfg["shard_size"] = c.shardSize;
    const LrSchedule& s = c.schedule;
    cfg["schedule"] = {{"kind", int(s.kind)},
                       {"factor", s.factor},
                       {"every_epochs", s.everyEpochs},
                       {"decay_rate", s.decayRate},
                       {"decay_steps", s.decaySteps},
                       {"warmup_steps", s.warmupSteps},
                       {"alpha", s.alpha},
                       {"monitor", monitorName(s.monitor)},
                       {"patience", s.patience},
                       {"min_delta", s.minDelta},
                       {"cooldown", s.cooldown},
                       {"min_lr", s.minLr}};
    const EarlyStopping& e = c.earlyStopping;
    cfg["early_stopping"] = {{"enabled", e.enabled},
                             {"monitor", monitorName(e.monitor)},
                             {"patience", e.patience},
                             {"min_delta", e.minDelta},
                             {"restore_best_weights", e.restoreBestWeights}};
    Json pos;
    pos["epoch"] = p.epoch;
    pos["step"] = p.step;
    pos["loss_sum"] = p.lossSum; // written and read back exactly (shortest round-trip form)
    pos["correct"] = p.correct;
    pos["seen"] = p.seen;
    pos["seconds"] = p.seconds;
    pos["stopped_epoch"] = p.stoppedEpoch;
    Json data;
    data["directory"] = d.directory;
    data["train_images"] = d.trainCount;
    data["test_images"] = d.testCount;
    data["height"] = d.height;
    data["width"] = d.width;
    data["classes"] = d.classes;
    data["labels_sha256"] = d.labelsSha256;
    Json r;
    r["format"] = "trainbench-checkpoint";
    r["version"] = 2;
    r["config"] = cfg;
    r["position"] = pos;
    r["callbacks"] = callbacks.is_null() ? Json::object() : callbacks;
    r["dataset"] = data;
    return jsonText(r);
}

Checkpoint readCheckpoint(const std::string& path)
{
    Checkpoint c;
    c.weights = loadWeights(path);
    if (c.weights.resume.empty())
        throw IoError(path + " is a weights file, not a checkpoint: it does not say where its run stands");
    const Json r = parseJson(c.weights.resume);
    // Version 1 (0.2.0) kept the plateau's and early stopping's state in "position"; version 2 keeps
    // each callback's state under its name in "callbacks".
    const int version = get<int>(r, "version", path);
    if (get<std::string>(r, "format", path) != "trainbench-checkpoint" || version < 1 || version > 2)
        throw IoError(path + ": a checkpoint of another format or version");
    const Json& cfg = need(r, "config", path);
    TrainConfig& t = c.config;
    t.epochs = get<int>(cfg, "epochs", path);
    t.batchSize = get<int>(cfg, "batch_size", path);
    try {
        t.device = parseDeviceSpec(get<std::string>(cfg, "device", path));
        t.seed = std::stoull(get<std::string>(cfg, "seed", path));
        t.optimizer = optimizerFrom(need(cfg, "optimizer", path), path);
        const Json& s = need(cfg, "schedule", path);
        LrSchedule& l = t.schedule;
        const int kind = get<int>(s, "kind", path);
        if (kind < 0 || kind > int(ScheduleKind::Plateau))
            throw IoError(path + ": the checkpoint names an unknown learning-rate schedule");
        l.kind = ScheduleKind(kind);
        l.factor = get<double>(s, "factor", path);
        l.everyEpochs = get<int>(s, "every_epochs", path);
        l.decayRate = get<double>(s, "decay_rate", path);
        l.decaySteps = get<int>(s, "decay_steps", path);
        l.warmupSteps = get<int>(s, "warmup_steps", path);
        l.alpha = get<double>(s, "alpha", path);
        l.monitor = parseMonitor(get<std::string>(s, "monitor", path));
        l.patience = get<int>(s, "patience", path);
        l.minDelta = get<double>(s, "min_delta", path);
        l.cooldown = get<int>(s, "cooldown", path);
        l.minLr = get<double>(s, "min_lr", path);
        const Json& e = need(cfg, "early_stopping", path);
        t.earlyStopping.enabled = get<bool>(e, "enabled", path);
        t.earlyStopping.monitor = parseMonitor(get<std::string>(e, "monitor", path));
        t.earlyStopping.patience = get<int>(e, "patience", path);
        t.earlyStopping.minDelta = get<double>(e, "min_delta", path);
        t.earlyStopping.restoreBestWeights = get<bool>(e, "restore_best_weights", path);
    } catch (const ConfigError& e) {
        throw IoError(path + ": the checkpoint's settings are damaged (" + e.what() + ")");
    } catch (const std::logic_error&) {
        throw IoError(path + ": the checkpoint's seed is not a number; it is damaged");
    }
    t.maxBatches = get<int>(cfg, "max_batches", path);
    t.validationLimit = get<int>(cfg, "validation_limit", path);
    t.validationSplit = get<double>(cfg, "validation_split", path);
    t.sizeMultiplier = get<int>(cfg, "size_multiplier", path);
    t.dropRemainder = get<bool>(cfg, "drop_remainder", path);
    t.shardSize = get<int>(cfg, "shard_size", path);
    try {
        validateTrainConfig(t);
    } catch (const ConfigError& e) {
        throw IoError(path + ": the checkpoint's settings are damaged (" + e.what() + ")");
    }

    const Json& p = need(r, "position", path);
    RunPosition& at = c.position;
    at.epoch = get<int>(p, "epoch", path);
    at.step = get<int>(p, "step", path);
    at.lossSum = get<double>(p, "loss_sum", path);
    at.correct = get<int64_t>(p, "correct", path);
    at.seen = get<int64_t>(p, "seen", path);
    at.seconds = get<double>(p, "seconds", path);
    if (version >= 2) {
        at.stoppedEpoch = get<int>(p, "stopped_epoch", path);
        c.callbacks = need(r, "callbacks", path);
        if (!c.callbacks.is_object())
            throw IoError(path + ": the checkpoint's \"callbacks\" is not an object; it is damaged");
    } else {
        const Json& early = need(p, "early", path);
        at.stoppedEpoch = get<int>(early, "stopped_epoch", path);
        const int bestEpoch = t.earlyStopping.restoreBestWeights ? get<int>(early, "best_epoch", path) : 0;
        c.callbacks = {{"lr_schedule", need(p, "plateau", path)},
                       {"early_stopping", early},
                       {"best_weights", {{"epoch", bestEpoch}, {"file", "best.tbw"}}}};
    }
    if (at.epoch < 0 || at.epoch > t.epochs || at.step < 0 || at.seen < 0 || at.correct < 0 || at.correct > at.seen ||
        at.epoch != int(c.weights.history.size()) || at.stoppedEpoch < 0 || at.stoppedEpoch > at.epoch)
        throw IoError(path + ": the checkpoint's position (epoch " + std::to_string(at.epoch) + ", step " +
                      std::to_string(at.step) + ") does not fit its history; it is damaged");

    const Json& d = need(r, "dataset", path);
    c.data.directory = get<std::string>(d, "directory", path);
    c.data.trainCount = get<int>(d, "train_images", path);
    c.data.testCount = get<int>(d, "test_images", path);
    c.data.height = get<int>(d, "height", path);
    c.data.width = get<int>(d, "width", path);
    c.data.classes = get<int>(d, "classes", path);
    c.data.labelsSha256 = get<std::string>(d, "labels_sha256", path);
    return c;
}

void requireSameDataset(const DatasetFingerprint& saved, const Dataset& loaded, const std::string& path)
{
    const DatasetFingerprint now = fingerprintOf(loaded);
    auto images = [](const DatasetFingerprint& f) {
        return std::to_string(f.trainCount) + " train and " + std::to_string(f.testCount) + " test images of " +
               std::to_string(f.height) + "x" + std::to_string(f.width) + " in " + std::to_string(f.classes) +
               " classes";
    };
    if (saved.trainCount != now.trainCount || saved.testCount != now.testCount || saved.height != now.height ||
        saved.width != now.width || saved.classes != now.classes)
        throw DataError(path + " was made on " + saved.directory + " (" + images(saved) + "), not on " + now.directory +
                        " (" + images(now) + ")");
    if (saved.labelsSha256 != now.labelsSha256)
        throw DataError(path + " was made on another dataset than " + now.directory +
                        ": the labels differ, although the counts and sizes are the same");
}

} // namespace tb
