// Checkpoints: a weights file (weights, BatchNorm statistics, optimizer state, history) whose header
// also holds where the run stands (RunPosition), every setting needed to continue it (TrainConfig)
// and a fingerprint of the dataset, so that a run continues bit for bit and never on other data.
// Written atomically (core/atomic_file.hpp): a checkpoint is the old one or the new one, never half.
#pragma once

#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "io/json_number.hpp"
#include "io/weights_file.hpp"
#include "train/trainer.hpp"

#include <string>
#include <type_traits>

namespace tb {

struct DatasetFingerprint {
    std::string directory;
    int trainCount = 0, testCount = 0, height = 0, width = 0, classes = 0;
    std::string labelsSha256; // of the train then the test labels
    std::string pixelsHash;   // pixelsHashOf; empty in checkpoints and records written before 2026-12-07
};

// Of the dataset as loaded (before a run's options cut or split it).
DatasetFingerprint fingerprintOf(const Dataset& loaded);

struct Checkpoint {
    WeightsFile weights; // weights.resume holds the JSON text of the rest
    TrainConfig config;
    RunPosition position;
    DatasetFingerprint data;
    nlohmann::ordered_json callbacks; // each callback's state by its name (Trainer::restoreCallbacks)
};

// The JSON text that goes into WeightsFile::resume.
std::string resumeJson(const TrainConfig& config, const RunPosition& position, const DatasetFingerprint& data,
                       const nlohmann::ordered_json& callbacks);

// Throws IoError for a file that is not a complete checkpoint (truncated, corrupt, a plain weights
// file) and ModelError for parts that disagree.
Checkpoint readCheckpoint(const std::string& path);

// A member of a checkpoint's resume JSON, which a checkpoint of this version always has (a callback's
// state too): IoError naming `path` when it is missing ("...lacks "key"; it is damaged or not a
// checkpoint"), not a T ("...holds a string of the wrong kind") or a whole number out of range.
const nlohmann::ordered_json& checkpointMember(const nlohmann::ordered_json& o, const char* key,
                                               const std::string& path);
template <typename T> T checkpointField(const nlohmann::ordered_json& o, const char* key, const std::string& path)
{
    const nlohmann::ordered_json& v = checkpointMember(o, key, path);
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

// Throws DataError naming the difference when `loaded` is not the dataset the checkpoint was made on.
// Returns what could not be checked (a note for the user; empty when everything was): an older
// checkpoint has no hash of its pixels, so only its counts, sizes and labels are compared.
std::string requireSameDataset(const DatasetFingerprint& saved, const Dataset& loaded, const std::string& path);

} // namespace tb
