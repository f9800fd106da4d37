// The runs folder as a history: every run folder in it read into a summary (configuration,
// hardware, per-epoch history, final metrics, weights hash, files), for the window's Runs page,
// `trainbench-cli runs` and the report. Reading never throws for a damaged run: a folder without
// run.json, an empty, truncated or invalid one, an unreadable file each become a summary marked
// damaged with the reason, and the other runs are still listed.
#pragma once

#include "config/records.hpp"
#include "train/test_record.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tb {

struct RunSummary {
    std::string path; // the run folder
    std::string id;   // its name in the runs folder ("20261123-110203-tpu-mnist-cnn-cpu:2")
    bool damaged = false;
    std::string damage; // why it cannot be read, when damaged

    // Interrupted for a run recorded as running by a process that is gone (train/run_lock.hpp);
    // Running also for an older record, without its process, that a crash ended.
    RunStatus status = RunStatus::Running;
    std::string started, ended; // UTC, ISO 8601; empty in version 1 records
    std::string model, dataset, device, kernels;
    int epochs = 0; // planned
    std::vector<EpochRecord> history;
    // A run that ended mid-epoch: the epoch under way (1-based), its steps done of stepsPerEpoch, and
    // their training seconds; partialStep 0 when the run ended at an epoch's end.
    int partialEpoch = 0, partialStep = 0, stepsPerEpoch = 0;
    double partialSeconds = 0.0;
    std::optional<TestResult> test; // the final test result (or a stopped run's, at the stop)
    std::string weightsSha256;      // of the parameters, as `train` prints it
    std::string weightsFileSha256;  // of weights.tbw when the run ended
    std::vector<std::string> files; // the run's files present now (checkpoint.tbw, weights.tbw, ...)
    nlohmann::ordered_json record;  // run.json as read
    // Version 3: the settings (TrainConfig) as run.json keeps them; earlier versions kept a flat
    // summary of some, which configurationRows reads.
    std::optional<TrainConfig> config;

    // The test accuracy, else the last epoch's validation accuracy, else a negative number.
    double finalAccuracy() const;
    // A text model's run: its samples are sequences, its throughput symbols per second.
    bool isText() const;
    // The run recorded its end: completed, and its weights saved. Nothing is left to resume. (A build
    // before 2026-12-06 recorded a run completed at its last checkpoint: one that died before its end
    // has no weights.tbw, and resumes to finish.)
    bool finished() const;
    // Why `train --resume` and the window's Resume cannot go on with the run (the one rule of both,
    // of `runs list`'s "resumable" and of the Runs page's Resume button); None when they can. A run
    // interrupted before its first checkpoint (killed while its first epoch trained, with no
    // --checkpoint-every) has to start anew. A diverged run is not resumed even from a checkpoint: the
    // resume keeps the run's settings and replays its steps bit for bit, into the same divergence.
    enum class ResumeBlock { None, Damaged, Finished, Diverged, NoCheckpoint };
    ResumeBlock resumeBlock() const;
    bool resumable() const { return resumeBlock() == ResumeBlock::None; }
    // resumeBlock's reason as a message a user can act on, naming the folder ("… diverged …: train it
    // again with a lower learning rate"); empty when the run can be resumed.
    std::string resumeRefusal() const;
    // The status as `runs list`, `runs show`, the report and the Runs page say it: the status's name,
    // and for an interrupted run with no checkpoint, "interrupted, no checkpoint (cannot resume)".
    std::string statusText() const;
    // Whether the run's folder holds `file` (one of `files`).
    bool holds(const std::string& file) const;
    double trainingSeconds() const; // the epochs' training time
    // "2026-11-23 11:02" (UTC) from `started`, else from the folder name's stamp.
    std::string date() const;
    // Label, value rows of the configuration (model, dataset, device, batch, optimizer, ...) and of
    // the hardware, in the record's words.
    std::vector<std::pair<std::string, std::string>> configurationRows() const;
    std::vector<std::pair<std::string, std::string>> hardwareRows() const;
};

struct RunList {
    std::string runsDir;
    std::string problem;          // the runs folder cannot be read (not a missing one: that is an empty list)
    std::vector<RunSummary> runs; // newest first
};

// Never throws.
RunList listRuns(const std::string& runsDir);
RunSummary readRun(const std::string& path);

// The run folder that `run` names: a path to one, else a folder name (or the unique start of one) in
// `runsDir`, or "latest". Throws IoError when there is none, ConfigError when `run` is the start of
// several folder names.
std::string findRun(const std::string& runsDir, const std::string& run);

// Removes a run folder and what it holds. Refuses (IoError), deleting nothing, what does not look like
// a run folder: a symbolic link, a folder with subfolders, one holding a file that is not a run's
// (run.json, checkpoint.tbw, best.tbw, weights.tbw, evaluation.json, run.lock, and their writes'
// temporaries), one without run.json outside `runsDir` (in it, `runs list` lists it as damaged), and a
// run that a process trains now (its lock is held).
void deleteRun(const std::string& path, const std::string& runsDir);

// The run's stored test evaluation (evaluation.json); nullopt with `why` set when it is missing or
// unreadable.
std::optional<TestRecord> readTestRecord(const RunSummary& run, std::string& why);

} // namespace tb
