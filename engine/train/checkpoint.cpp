#include "train/checkpoint.hpp"

#include "config/records.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "io/json_number.hpp"

namespace tb {

const nlohmann::ordered_json& checkpointMember(const nlohmann::ordered_json& o, const char* key,
                                               const std::string& path)
{
    const nlohmann::ordered_json* v = jsonMember(o, key);
    if (!v)
        throw IoError(path + ": the checkpoint lacks \"" + std::string(key) + "\"; it is damaged or not a checkpoint");
    return *v;
}

namespace {
using Json = nlohmann::ordered_json;

// Version 2 keeps each callback's state under "callbacks" and writes the schedule's kind as a name
// ("plateau"); version 1 (0.2.0) wrote it as a number, which config/records.hpp still reads (so do
// the version 2 checkpoints written before the name).
constexpr int kVersion = 2;

TrainConfig configFrom(const Json& cfg, const std::string& path)
{
    TrainConfig t;
    try {
        t = cfg.get<TrainConfig>();
        validateTrainConfig(t);
    } catch (const RecordError& e) {
        if (e.problem() == RecordError::Problem::Missing)
            throw IoError(path + ": the checkpoint lacks \"" + e.member() + "\"; it is damaged or not a checkpoint");
        throw IoError(path + ": the checkpoint's settings are damaged (" + e.what() + ")");
    } catch (const ConfigError& e) {
        throw IoError(path + ": the checkpoint's settings are damaged (" + e.what() + ")");
    }
    return t;
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
    f.pixelsHash = d.pixelsHash.empty() ? pixelsHashOf(d) : d.pixelsHash; // the loaders computed it once
    return f;
}

std::string resumeJson(const TrainConfig& c, const RunPosition& p, const DatasetFingerprint& d, const Json& callbacks)
{
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
    data["pixels_hash"] = d.pixelsHash;
    Json r;
    r["format"] = "trainbench-checkpoint";
    r["version"] = kVersion;
    r["config"] = c; // config/records.hpp
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
    const int version = checkpointField<int>(r, "version", path);
    if (checkpointField<std::string>(r, "format", path) != "trainbench-checkpoint" || version < 1 || version > kVersion)
        throw IoError(path + ": a checkpoint of another format or version");
    c.config = configFrom(checkpointMember(r, "config", path), path);

    const Json& p = checkpointMember(r, "position", path);
    RunPosition& at = c.position;
    at.epoch = checkpointField<int>(p, "epoch", path);
    at.step = checkpointField<int>(p, "step", path);
    at.lossSum = checkpointField<double>(p, "loss_sum", path);
    at.correct = checkpointField<int64_t>(p, "correct", path);
    at.seen = checkpointField<int64_t>(p, "seen", path);
    at.seconds = checkpointField<double>(p, "seconds", path);
    if (version >= 2) {
        at.stoppedEpoch = checkpointField<int>(p, "stopped_epoch", path);
        c.callbacks = checkpointMember(r, "callbacks", path);
        if (!c.callbacks.is_object())
            throw IoError(path + ": the checkpoint's \"callbacks\" is not an object; it is damaged");
    } else {
        const Json& early = checkpointMember(p, "early", path);
        at.stoppedEpoch = checkpointField<int>(early, "stopped_epoch", path);
        const int bestEpoch =
            c.config.earlyStopping.restoreBestWeights ? checkpointField<int>(early, "best_epoch", path) : 0;
        c.callbacks = {{"lr_schedule", checkpointMember(p, "plateau", path)},
                       {"early_stopping", early},
                       {"best_weights", {{"epoch", bestEpoch}, {"file", "best.tbw"}}}};
    }
    if (at.epoch < 0 || at.epoch > c.config.epochs || at.step < 0 || at.seen < 0 || at.correct < 0 ||
        at.correct > at.seen || at.epoch != int(c.weights.history.size()) || at.stoppedEpoch < 0 ||
        at.stoppedEpoch > at.epoch)
        throw IoError(path + ": the checkpoint's position (epoch " + std::to_string(at.epoch) + ", step " +
                      std::to_string(at.step) + ") does not fit its history; it is damaged");

    const Json& d = checkpointMember(r, "dataset", path);
    c.data.directory = checkpointField<std::string>(d, "directory", path);
    c.data.trainCount = checkpointField<int>(d, "train_images", path);
    c.data.testCount = checkpointField<int>(d, "test_images", path);
    c.data.height = checkpointField<int>(d, "height", path);
    c.data.width = checkpointField<int>(d, "width", path);
    c.data.classes = checkpointField<int>(d, "classes", path);
    c.data.labelsSha256 = checkpointField<std::string>(d, "labels_sha256", path);
    if (jsonMember(d, "pixels_hash")) // not in a checkpoint written before 2026-12-07
        c.data.pixelsHash = checkpointField<std::string>(d, "pixels_hash", path);
    return c;
}

std::string requireSameDataset(const DatasetFingerprint& saved, const Dataset& loaded, const std::string& path)
{
    const DatasetFingerprint now = fingerprintOf(loaded);
    // A text's samples are sequences of T symbols (T x 1 "images"), its classes a vocabulary.
    auto images = [text = loaded.isText()](const DatasetFingerprint& f) {
        if (text)
            return std::to_string(f.trainCount) + " train and " + std::to_string(f.testCount) +
                   " validation sequences of " + std::to_string(f.height) + " symbols, a vocabulary of " +
                   std::to_string(f.classes);
        return std::to_string(f.trainCount) + " train and " + std::to_string(f.testCount) + " test images of " +
               std::to_string(f.height) + "x" + std::to_string(f.width) + " in " + std::to_string(f.classes) +
               " classes";
    };
    if (saved.trainCount != now.trainCount || saved.testCount != now.testCount || saved.height != now.height ||
        saved.width != now.width || saved.classes != now.classes)
        throw DataError(path + " was made on " + saved.directory + " (" + images(saved) + "), not on " + now.directory +
                        " (" + images(now) + ")");
    const bool text = loaded.isText();
    if (saved.labelsSha256 != now.labelsSha256) // a text's labels are its symbols, one step on
        throw DataError(path + " was made on another dataset than " + now.directory +
                        (text ? ": the text differs, although its sequence counts and vocabulary size are the same"
                              : ": the labels differ, although the counts and sizes are the same"));
    if (saved.pixelsHash.empty())
        return path + " was written before checkpoints kept a hash of their dataset's " + (text ? "text" : "images") +
               ": only the counts, sizes and labels of " + now.directory + " were checked, not the " +
               (text ? "text itself" : "images themselves");
    if (saved.pixelsHash != now.pixelsHash)
        throw DataError(path + " was made on another dataset than " + now.directory + ": the " +
                        (text ? "text differs" : "images differ") +
                        ", although the counts, sizes and labels are the same");
    return {};
}

} // namespace tb
