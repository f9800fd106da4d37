// The values a run writes into its files and its JSON lines, each with one to_json/from_json pair
// (nlohmann's convention, so `Json j = config;` and `j.get<EpochRecord>()` work): the training
// configuration, an epoch's record, a test result and the run's status. Checkpoints, run.json, the
// weights file's header and the CLI's --json lines all write them through these, so that a field has
// one spelling everywhere (docs/formats.md lists them).
//
// from_json reads what every version since 0.2.0 wrote (the old spellings noted below) and throws
// RecordError naming the member at fault, which each file's reader words with its own path.
#pragma once

#include "config/train_config.hpp"
#include "core/errors.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tb {

// Where a run stands or how it ended: run.json's "status", the Runs page, the window's outcome.
enum class RunStatus {
    Running,     // under way (or, in a record without its process, ended by a crash: nothing recorded its end)
    Completed,   // every epoch, or early stopping ended it
    Stopped,     // by the user (Stop, Ctrl-C); it can be resumed
    Diverged,    // the loss or the gradients became NaN or infinite
    Failed,      // another error ended it (the window's outcome; never written to run.json)
    Interrupted, // recorded as running by a process that is gone (killed, crashed, a write failed); it can be
                 // resumed from its last checkpoint (what readers of run.json conclude; never written to it)
};
// "running", "completed", "stopped", "diverged", "failed", "interrupted"
const char* runStatusName(RunStatus s);
RunStatus parseRunStatus(const std::string& text); // throws RecordError for another word

// A member of a record that is missing, of the wrong kind, or a number out of range. member() is
// its name ("epochs", "kind"), so that each file's reader words the message its own way.
class RecordError : public DataError {
public:
    enum class Problem { Missing, WrongType, OutOfRange };
    RecordError(std::string member, Problem problem, const std::string& what)
        : DataError(what), m_member(std::move(member)), m_problem(problem)
    {
    }
    const std::string& member() const { return m_member; }
    Problem problem() const { return m_problem; }

private:
    std::string m_member;
    Problem m_problem;
};

// The final test evaluation as the records keep it (evaluation.json keeps the full one).
struct TestResult {
    double loss = 0.0, accuracy = 0.0;
    int samples = 0;        // test images evaluated
    int misclassified = -1; // -1: not counted
    bool atStop = false;    // of a run stopped by the user, at the stop
    // The BatchNorm layers precise BN recomputed before this test (0: the model has none); -1: it did
    // not run, or a record written before 2026-12-07 does not say.
    int preciseBnLayers = -1;
};

// The optimizer's settings: {"name", "learning_rate", "beta_1", "beta_2", "epsilon", "momentum",
// "nesterov", "rho"}. Files before 0.2.0 may lack "name" (Adam) and "nesterov" (false).
void to_json(nlohmann::ordered_json& j, const OptimizerConfig& o);
void from_json(const nlohmann::ordered_json& j, OptimizerConfig& o);

// {"kind": "constant"|"step"|"exp"|"cosine"|"plateau", "factor", "every_epochs", "decay_rate",
// "decay_steps", "warmup_steps", "alpha", "monitor", "patience", "min_delta", "cooldown", "min_lr"};
// checkpoints of version 1 (0.2.0) wrote "kind" as a number (0 to 4).
void to_json(nlohmann::ordered_json& j, const LrSchedule& s);
void from_json(const nlohmann::ordered_json& j, LrSchedule& s);

// {"enabled", "monitor", "patience", "min_delta", "restore_best_weights"}.
void to_json(nlohmann::ordered_json& j, const EarlyStopping& e);
void from_json(const nlohmann::ordered_json& j, EarlyStopping& e);

// Every setting of a run: {"epochs", "batch_size", "device" (its id, "cpu:2@avx2"), "seed" (a string:
// 64 bits do not fit JSON's doubles), "optimizer", "max_batches", "validation_limit",
// "validation_split", "size_multiplier", "drop_remainder", "shard_size", "schedule",
// "early_stopping"}. All are required (weights files of version 1 kept a subset: io/weights_file.cpp
// reads it). The communicator and the kernel cache folder are not settings of the run.
void to_json(nlohmann::ordered_json& j, const TrainConfig& c);
void from_json(const nlohmann::ordered_json& j, TrainConfig& c);

// {"epoch", "loss", "accuracy", "val_loss", "val_accuracy", "seconds", "samples_per_sec", "samples",
// "learning_rate", "best", "stopped", "rate_lowered"}. Only "epoch" is required: run.json of version 1
// kept fewer members; an absent or null metric (NaN is written as null) reads as NaN, absent marks
// as false. The CLI's --json lines of 0.2.0 said "early_stopping" and "learning_rate_lowered" for
// "stopped" and "rate_lowered"; both are still read.
void to_json(nlohmann::ordered_json& j, const EpochRecord& r);
void from_json(const nlohmann::ordered_json& j, EpochRecord& r);

// {"loss", "accuracy", "samples", "misclassified" (when counted), "at_stop" (when true)}. The CLI's
// --json lines of 0.2.0 said "test_loss", "test_accuracy" and "images" (evaluate); still read.
void to_json(nlohmann::ordered_json& j, const TestResult& t);
void from_json(const nlohmann::ordered_json& j, TestResult& t);

} // namespace tb
