#include "train/run_history.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "kernels/isa.hpp"
#include "train/run_lock.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

namespace fs = std::filesystem;

// The rows' labels are marked for the window's translation of a run's report (context "RunReport").
#include "core/translation_marker.hpp"

namespace tb {

namespace {
const char* const kRunFiles[] = {"run.json", "checkpoint.tbw", "best.tbw", "weights.tbw", "evaluation.json"};

// A member as text: strings as they are, numbers as a message shows them, anything else empty.
std::string text(const nlohmann::ordered_json& j, const std::string& key)
{
    const nlohmann::ordered_json* v = jsonMember(j, key);
    if (!v)
        return {};
    if (v->is_string())
        return v->get<std::string>();
    if (v->is_boolean())
        return v->get<bool>() ? "yes" : "no";
    if (v->is_number()) { // a float setting written as a double (0.05000000074505806) reads as 0.05
        const double d = v->get<double>();
        if (d == std::floor(d))
            return jsonNumberText(d);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", d);
        return buf;
    }
    return {};
}

// A number member; NaN when absent or null (NaN was written as null).
double number(const nlohmann::ordered_json& j, const std::string& key)
{
    const nlohmann::ordered_json* v = jsonMember(j, key);
    return v && v->is_number() ? v->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

// A count member (epochs), 0 when absent and held to what an int holds.
int count(const nlohmann::ordered_json& j, const std::string& key)
{
    const double v = number(j, key);
    return std::isfinite(v) ? int(std::clamp(v, 0.0, 1e9)) : 0;
}

std::vector<EpochRecord> parseHistory(const nlohmann::ordered_json& h)
{
    if (!h.is_array())
        throw DataError("its history is " + std::string(jsonTypeName(h)) + ", not a list of epochs");
    std::vector<EpochRecord> out;
    for (const auto& e : h) {
        if (!e.is_object())
            throw DataError("an epoch of its history is " + std::string(jsonTypeName(e)) + ", not an object");
        if (!jsonMember(e, "epoch"))
            throw DataError("an epoch of its history has no epoch number");
        try {
            out.push_back(e.get<EpochRecord>());
        } catch (const RecordError& x) {
            throw DataError(std::string("an epoch of its history is damaged: ") + x.what());
        }
    }
    return out;
}

// The flat summary of the settings that run.json of versions 1 and 2 kept, in their words, from the
// settings a version 3 record keeps: what configurationRows shows for every version.
nlohmann::ordered_json settingsRows(const TrainConfig& c)
{
    nlohmann::ordered_json r;
    r["seed"] = std::to_string(c.seed);
    r["epochs"] = c.epochs;
    r["batch_size"] = c.batchSize;
    r["precision"] = describePrecision(c.device.precision);
    r["optimizer"] = optimizerName(c.optimizer.kind);
    r["learning_rate"] = jsonFloat(c.optimizer.learningRate);
    if (c.optimizer.kind == OptimizerKind::SGD) {
        r["momentum"] = jsonFloat(c.optimizer.momentum);
        r["nesterov"] = c.optimizer.nesterov;
    }
    if (c.maxBatches > 0)
        r["max_batches"] = c.maxBatches;
    if (c.sizeMultiplier != 1)
        r["size_multiplier"] = c.sizeMultiplier;
    if (c.dropRemainder)
        r["drop_remainder"] = true;
    r["schedule"] = describeLrSchedule(c.schedule);
    r["early_stopping"] = describeEarlyStopping(c.earlyStopping);
    r["validation"] = c.validationSplit > 0
                          ? "last " + jsonNumberText(std::round(c.validationSplit * 1000) / 10) + "% of train"
                          : std::string("test set");
    if (c.validationLimit > 0)
        r["validation_limit"] = "the first " + std::to_string(c.validationLimit) + " samples each epoch";
    if (c.preciseBnBatches > 0) // the test accuracy is of these statistics, not the last validation's
        r["precise_bn"] = "BatchNorm statistics recomputed over " + std::to_string(c.preciseBnBatches) +
                          " training batches after training";
    return r;
}

// The process that wrote a running run's record ("process", since it was recorded); an empty identity,
// which is never known to be gone, when the record has none or an unreadable one.
ProcessIdentity recordedProcess(const nlohmann::ordered_json& r)
{
    ProcessIdentity p;
    const nlohmann::ordered_json* process = jsonMember(r, "process");
    if (!process || !process->is_object())
        return p;
    const nlohmann::ordered_json* pid = jsonMember(*process, "pid");
    const nlohmann::ordered_json* host = jsonMember(*process, "host");
    if (!pid || !pid->is_number_integer() || !host || !host->is_string())
        return p;
    p.pid = pid->get<int64_t>();
    p.host = host->get<std::string>();
    if (const nlohmann::ordered_json* boot = jsonMember(*process, "boot_id"); boot && boot->is_string())
        p.bootId = boot->get<std::string>();
    return p;
}

// "2026-11-23 11:02" (UTC) from a record's `started`, else from the folder name's stamp
// (YYYYmmdd-HHMMSS, local time); empty when neither says.
std::string runDate(const std::string& started, const std::string& id)
{
    if (started.size() >= 16)
        return started.substr(0, 10) + " " + started.substr(11, 5);
    if (id.size() >= 15 && id[8] == '-' && std::all_of(id.begin(), id.begin() + 8, ::isdigit))
        return id.substr(0, 4) + "-" + id.substr(4, 2) + "-" + id.substr(6, 2) + " " + id.substr(9, 2) + ":" +
               id.substr(11, 2);
    return {};
}

// Reads a JSON text's top-level "started" string and stops there (nlohmann's SAX interface: a
// handler that returns false ends the parse).
struct StartedReader : nlohmann::json_sax<nlohmann::json> {
    std::string started;
    int depth = 0;
    bool next = false; // the value that comes is the top level's "started"
    bool value()
    {
        next = false;
        return true;
    }
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool string(string_t& s) override
    {
        if (next)
            started = s;
        return value() && started.empty();
    }
    bool start_object(std::size_t) override
    {
        next = false;
        return ++depth > 0;
    }
    bool end_object() override { return --depth >= 0; }
    bool start_array(std::size_t) override
    {
        next = false;
        return ++depth > 0;
    }
    bool end_array() override { return --depth >= 0; }
    bool key(string_t& k) override
    {
        next = depth == 1 && k == "started";
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

// A run.json's "started", from its first 64 KiB: the record writes it before its history, which may
// run to tens of MB. Empty when the file is not a readable record that says it there.
std::string recordStarted(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) // not a FIFO, which may never end
        return {};
    std::ifstream in(path, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    StartedReader reader;
    nlohmann::json::sax_parse(head, &reader);
    return reader.started;
}

// The run folders' names in `runsDir`: its folders, not its files, links out of it or hidden folders
// (a tool's). `problem` says why the folder, or all of it, cannot be read.
std::vector<std::string> runFolderNames(const std::string& runsDir, std::string& problem)
{
    std::vector<std::string> names;
    std::error_code ec;
    if (!fs::exists(runsDir, ec))
        return names; // no run yet
    fs::directory_iterator it(runsDir, ec);
    if (ec) {
        problem = "cannot read the runs folder " + runsDir + ": " + ec.message();
        return names;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            problem = "cannot read all of the runs folder " + runsDir + ": " + ec.message();
            break;
        }
        std::error_code st;
        const std::string name = it->path().filename().string();
        if (name.front() != '.' && fs::is_directory(it->symlink_status(st)))
            names.push_back(name);
    }
    return names;
}

// The first 40 characters of a value a message quotes.
std::string cut(const std::string& s)
{
    return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

// An epoch's training time as a record may hold it: unknown (NaN, written as null), or from 0 to a
// year. A damaged record's 1e308 filled `runs list`'s TRAINING column with 309 digits.
void requireSeconds(double seconds, const std::string& what)
{
    constexpr double kYear = 366.0 * 24 * 3600;
    if (!std::isnan(seconds) && !(seconds >= 0 && seconds <= kYear)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", seconds);
        throw DataError(what + " took " + buf + " seconds, which no epoch takes");
    }
}

// Fills `s` from its run.json; what cannot be read marks it damaged with the reason.
void readRecord(RunSummary& s)
{
    auto damaged = [&s](const std::string& reason) {
        s.damaged = true;
        s.damage = reason;
    };
    const std::string path = s.path + "/run.json";
    std::error_code ec;
    if (!fs::exists(path, ec))
        return damaged("the folder holds no run.json (removed, or the run never started)");
    std::string bytes;
    try {
        bytes = readWholeFile(path);
    } catch (const Error& e) {
        return damaged(std::string("run.json cannot be read: ") + e.what());
    }
    if (bytes.find_first_not_of(" \t\r\n") == std::string::npos)
        return damaged("run.json is empty");
    try {
        s.record = parseJson(bytes);
        const nlohmann::ordered_json& r = s.record;
        if (!r.is_object() || text(r, "format") != "trainbench-run")
            throw DataError("it is not a Trainbench run record");
        const double version = number(r, "version");
        if (!(version >= 1 && version <= 3))
            throw DataError("its version (" + text(r, "version") + ") is not one this Trainbench reads");
        const nlohmann::ordered_json* status = jsonMember(r, "status");
        if (status && !status->is_string())
            throw DataError("its status is " + std::string(jsonTypeName(*status)) + ", not a word");
        s.status = status ? parseRunStatus(status->get<std::string>()) : RunStatus::Running;
        if (s.status == RunStatus::Running && processGone(recordedProcess(r), s.path))
            s.status = RunStatus::Interrupted; // nothing trains it any more; its checkpoint resumes it
        s.started = text(r, "started");
        s.ended = text(r, "ended");
        s.model = text(r, "model");
        s.dataset = text(r, "dataset");
        s.device = text(r, "device");
        s.kernels = text(r, "kernels");
        if (version >= 3) {
            const nlohmann::ordered_json* config = jsonMember(r, "config");
            if (!config)
                throw DataError("it lacks its settings (\"config\")");
            try {
                s.config = config->get<TrainConfig>();
            } catch (const ConfigError& e) {
                throw DataError(std::string("its settings are damaged: ") + e.what());
            } catch (const RecordError& e) {
                throw DataError(std::string("its settings are damaged: ") + e.what());
            }
            s.epochs = s.config->epochs;
        } else {
            s.epochs = count(r, "epochs");
        }
        if (const auto* h = jsonMember(r, "history"))
            s.history = parseHistory(*h);
        for (const EpochRecord& e : s.history)
            requireSeconds(e.seconds, "epoch " + std::to_string(e.epoch) + " of its history");
        if (const auto* p = jsonMember(r, "position"); p && p->is_object()) {
            s.partialEpoch = count(*p, "epoch");
            s.partialStep = count(*p, "step");
            s.stepsPerEpoch = count(*p, "steps");
            s.partialSeconds = number(*p, "seconds");
            requireSeconds(s.partialSeconds, "the epoch it ended in");
        }
        // Shown as it is in `runs show` and the Runs page (configurationRows).
        if (const auto* p = jsonMember(r, "parameters"); p && !p->is_number_unsigned())
            throw DataError("its parameter count (" + cut(p->dump()) + ") is not a count");
        if (const auto* t = jsonMember(r, "test"); t && t->is_object()) {
            try {
                s.test = t->get<TestResult>();
            } catch (const RecordError& e) {
                throw DataError(std::string("its test result is damaged: ") + e.what());
            }
        }
        s.weightsSha256 = text(r, "weights_sha256");
        s.weightsFileSha256 = text(r, "weights_file_sha256");
    } catch (const Error& e) {
        damaged(std::string("run.json is damaged: ") + e.what());
    }
}
} // namespace

double RunSummary::finalAccuracy() const
{
    if (test && std::isfinite(test->accuracy))
        return test->accuracy;
    if (!history.empty() && std::isfinite(history.back().valAccuracy))
        return history.back().valAccuracy;
    return -1.0;
}

double RunSummary::trainingSeconds() const
{
    double total = 0;
    for (const EpochRecord& e : history)
        if (std::isfinite(e.seconds))
            total += e.seconds;
    if (partialStep > 0 && std::isfinite(partialSeconds))
        total += partialSeconds;
    return total;
}

std::string RunSummary::date() const
{
    return runDate(started, id);
}

bool RunSummary::finished() const
{
    return !damaged && status == RunStatus::Completed && holds("weights.tbw");
}

RunSummary::ResumeBlock RunSummary::resumeBlock() const
{
    if (damaged) // the checkpoint holds the run's settings, and the resume writes the record anew
        return holds("checkpoint.tbw") ? ResumeBlock::None : ResumeBlock::Damaged;
    if (finished())
        return ResumeBlock::Finished;
    if (status == RunStatus::Diverged)
        return ResumeBlock::Diverged;
    if (!holds("checkpoint.tbw"))
        return ResumeBlock::NoCheckpoint;
    return ResumeBlock::None;
}

std::string RunSummary::resumeRefusal() const
{
    switch (resumeBlock()) {
    case ResumeBlock::None:
        break;
    case ResumeBlock::Damaged:
        return path + " cannot be resumed: its record cannot be read (" + damage + ")";
    case ResumeBlock::Finished:
        return path + " is complete" + (ended.empty() ? "" : " (it ended " + ended + ")") +
               ": nothing to resume. Its weights are " + path + "/weights.tbw (evaluate, predict and export take them)";
    case ResumeBlock::Diverged:
        if (!holds("checkpoint.tbw")) // nothing to resume, and its settings are why
            return path + " diverged before its first checkpoint (its loss or weights became NaN or infinite): "
                          "nothing to resume; train it again with a lower learning rate";
        return path + " diverged (its loss or weights became NaN or infinite): resumed, its checkpoint would "
                      "repeat the same steps with the same settings and diverge again; train it again with a "
                      "lower learning rate";
    case ResumeBlock::NoCheckpoint:
        return path + " holds no checkpoint.tbw to resume from";
    }
    return {};
}

std::string RunSummary::statusText() const
{
    if (status == RunStatus::Interrupted && !holds("checkpoint.tbw"))
        return "interrupted, no checkpoint (cannot resume)";
    return runStatusName(status);
}

bool RunSummary::holds(const std::string& file) const
{
    return std::find(files.begin(), files.end(), file) != files.end();
}

bool RunSummary::isText() const
{
    const nlohmann::ordered_json* f = jsonMember(record, "dataset_fingerprint");
    if (!f || !f->is_object())
        return false;
    // Runs before the "kind" was recorded: a sequence is a height x 1 "image", which no image dataset is.
    return text(*f, "kind") == "text" || (number(*f, "width") == 1 && number(*f, "height") > 1);
}

std::vector<std::pair<std::string, std::string>> RunSummary::configurationRows() const
{
    static const std::pair<const char*, const char*> kRows[] = {
        {"model", QT_TRANSLATE_NOOP("RunReport", "Model")},
        {"parameters", QT_TRANSLATE_NOOP("RunReport", "Parameters")},
        {"dataset", QT_TRANSLATE_NOOP("RunReport", "Dataset")},
        {"device", QT_TRANSLATE_NOOP("RunReport", "Device")},
        {"earlier_devices", QT_TRANSLATE_NOOP("RunReport", "Earlier devices")},
        {"kernels", QT_TRANSLATE_NOOP("RunReport", "Kernels")},
        {"precision", QT_TRANSLATE_NOOP("RunReport", "Precision")},
        {"epochs", QT_TRANSLATE_NOOP("RunReport", "Epochs")},
        {"batch_size", QT_TRANSLATE_NOOP("RunReport", "Batch size")},
        {"optimizer", QT_TRANSLATE_NOOP("RunReport", "Optimizer")},
        {"learning_rate", QT_TRANSLATE_NOOP("RunReport", "Learning rate")},
        {"momentum", QT_TRANSLATE_NOOP("RunReport", "Momentum")},
        {"nesterov", QT_TRANSLATE_NOOP("RunReport", "Nesterov")},
        {"max_batches", QT_TRANSLATE_NOOP("RunReport", "Max batches")},
        {"size_multiplier", QT_TRANSLATE_NOOP("RunReport", "Image size multiplier")},
        {"drop_remainder", QT_TRANSLATE_NOOP("RunReport", "Drop remainder batch")},
        {"schedule", QT_TRANSLATE_NOOP("RunReport", "Schedule")},
        {"early_stopping", QT_TRANSLATE_NOOP("RunReport", "Early stopping")},
        {"validation", QT_TRANSLATE_NOOP("RunReport", "Validation")},
        {"validation_limit", QT_TRANSLATE_NOOP("RunReport", "Validation limit")},
        {"precise_bn", QT_TRANSLATE_NOOP("RunReport", "Precise BN")},
        {"seed", QT_TRANSLATE_NOOP("RunReport", "Seed")},
        {"started", QT_TRANSLATE_NOOP("RunReport", "Started")},
        {"ended", QT_TRANSLATE_NOOP("RunReport", "Ended")},
        {"status", QT_TRANSLATE_NOOP("RunReport", "Status")},
    };
    // Version 3 keeps the settings typed; they are shown in the words of the flat summary before it.
    nlohmann::ordered_json flat = record;
    if (config)
        flat.update(settingsRows(*config));
    if (isText() && text(flat, "validation") == "test set") // a text has no test set: its end is held out
        flat["validation"] = "the text's last part, held out";
    // A resumed run that went on elsewhere: "cpu:1@avx512+bf16 (to epoch 2, step 12); ...".
    flat.erase("earlier_devices");
    if (const auto* earlier = jsonMember(record, "earlier_devices"); earlier && earlier->is_array()) {
        std::string list;
        for (const auto& d : *earlier) {
            const auto count = [&d](const char* key) {
                const nlohmann::ordered_json* v = d.is_object() ? jsonMember(d, key) : nullptr;
                return v && v->is_number_unsigned() ? v->get<uint64_t>() : uint64_t(0);
            };
            const uint64_t epochs = count("epochs"), steps = count("steps");
            const std::string until =
                steps == 0 ? "to the end of epoch " + std::to_string(epochs)
                           : "to epoch " + std::to_string(epochs + 1) + ", step " + std::to_string(steps);
            if (d.is_object())
                list += (list.empty() ? "" : "; ") + text(d, "device") + " (" + until + ")";
        }
        if (!list.empty())
            flat["earlier_devices"] = list;
    }
    if (status == RunStatus::Interrupted) // recorded as running, by a process that is gone
        flat["status"] = statusText();
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& [key, label] : kRows)
        if (std::string v = text(flat, key); !v.empty())
            rows.emplace_back(label, v);
    if (const auto* f = jsonMember(record, "dataset_fingerprint"); f && f->is_object()) {
        if (isText())
            rows.emplace_back(QT_TRANSLATE_NOOP("RunReport", "Dataset sequences"),
                              text(*f, "train_images") + " train, " + text(*f, "test_images") +
                                  " held out (the text's last part), of " + text(*f, "height") +
                                  " symbols, a vocabulary of " + text(*f, "classes"));
        else
            rows.emplace_back(QT_TRANSLATE_NOOP("RunReport", "Dataset images"),
                              text(*f, "train_images") + " train, " + text(*f, "test_images") + " test, " +
                                  text(*f, "height") + "x" + text(*f, "width") + ", " + text(*f, "classes") +
                                  " classes");
    }
    return rows;
}

std::vector<std::pair<std::string, std::string>> RunSummary::hardwareRows() const
{
    std::vector<std::pair<std::string, std::string>> rows;
    const nlohmann::ordered_json* h = jsonMember(record, "hardware");
    if (!h || !h->is_object())
        return rows;
    static const std::pair<const char*, const char*> kRows[] = {
        {"cpu", QT_TRANSLATE_NOOP("RunReport", "CPU")},
        {"logical_cores", QT_TRANSLATE_NOOP("RunReport", "Logical cores")},
        {"simd", QT_TRANSLATE_NOOP("RunReport", "SIMD")},
        {"isa", QT_TRANSLATE_NOOP("RunReport", "Kernel ISA")}};
    for (const auto& [key, label] : kRows)
        if (std::string v = text(*h, key); !v.empty())
            rows.emplace_back(label, v);
    if (const double ram = number(*h, "ram_bytes"); ram > 0)
        rows.emplace_back(QT_TRANSLATE_NOOP("RunReport", "Memory"),
                          jsonNumberText(std::round(ram / 1e8) / 10) + " GB"); // as `devices` says
    return rows;
}

RunSummary readRun(const std::string& path)
{
    RunSummary s;
    s.path = withoutTrailingSlashes(path);
    s.id = fs::path(s.path).filename().string();
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(s.path, ec))) {
        s.damaged = true;
        s.damage = ec ? "it cannot be read: " + ec.message() : "it is not a folder";
        return s;
    }
    for (const char* f : kRunFiles)
        if (fs::exists(s.path + "/" + f, ec))
            s.files.emplace_back(f);
    readRecord(s);
    return s;
}

RunList listRuns(const std::string& runsDir)
{
    RunList list;
    list.runsDir = runsDir;
    for (const std::string& name : runFolderNames(runsDir, list.problem))
        list.runs.push_back(readRun((fs::path(runsDir) / name).string()));
    std::sort(list.runs.begin(), list.runs.end(), [](const RunSummary& a, const RunSummary& b) {
        return a.date() != b.date() ? a.date() > b.date() : a.id > b.id;
    });
    return list;
}

std::string findRun(const std::string& runsDir, const std::string& run)
{
    std::error_code ec;
    if (run.find('/') != std::string::npos) {
        if (!fs::is_directory(run, ec))
            throw IoError("no run folder " + run);
        return run;
    }
    // From the folders' names: a run.json may hold tens of MB of history, and only the run named is
    // read (by its command). "latest" reads each record's start, for its "started", as `runs list`
    // orders them.
    std::string problem;
    std::vector<std::string> names = runFolderNames(runsDir, problem);
    if (run == "latest") {
        if (names.empty())
            throw IoError("no run in " + runsDir + (problem.empty() ? "" : ": " + problem));
        std::string newest, newestDate;
        for (const std::string& name : names) {
            const std::string date = runDate(recordStarted((fs::path(runsDir) / name / "run.json").string()), name);
            if (newest.empty() || date > newestDate || (date == newestDate && name > newest)) {
                newest = name;
                newestDate = date;
            }
        }
        return (fs::path(runsDir) / newest).string();
    }
    std::sort(names.begin(), names.end(), std::greater<>()); // newest first, as the folders' stamps say
    std::vector<std::string> matches;
    for (const std::string& name : names) {
        if (name == run)
            return (fs::path(runsDir) / name).string();
        if (name.compare(0, run.size(), run) == 0)
            matches.push_back(name);
    }
    if (matches.size() == 1)
        return runsDir + "/" + matches.front();
    if (matches.empty())
        throw IoError("no run " + run + " in " + runsDir + " (`trainbench-cli runs list` lists them)");
    // Not a file error: the runs are there, the name given is what is wrong (a usage error, exit code 2).
    throw ConfigError(run + " names " + std::to_string(matches.size()) + " runs in " + runsDir + " (" + matches[0] +
                      ", " + matches[1] + (matches.size() > 2 ? ", ..." : "") + "): give more of the name");
}

void deleteRun(const std::string& path, const std::string& runsDir)
{
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (fs::is_symlink(st))
        throw IoError(path + " is a symbolic link, not a run folder: it was not deleted");
    if (!fs::is_directory(st))
        throw IoError(path + " is not a run folder");
    // A folder without run.json is a run's only where `runs list` shows it (damaged): in the runs
    // folder. Elsewhere, a folder holding a weights.tbw alone is somebody's weights.
    if (!fs::exists(path + "/run.json", ec) &&
        fs::canonical(path, ec).parent_path() != fs::weakly_canonical(fs::absolute(runsDir), ec))
        throw IoError(path + " holds no run.json and is not in the runs folder " + runsDir +
                      ": it is not a run folder, and was not deleted");
    // Only what a run writes goes: its files, and the temporaries of a write that was cut short
    // ("weights.tbw.tmp-Ab12Cd"). Anything else (a folder, a file put there by hand) keeps the folder
    // whole, and the message names it. An empty folder (a run that never wrote) goes.
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
        const std::string name = e.path().filename().string();
        if (fs::is_directory(e.symlink_status(ec)))
            throw IoError(path + " holds the folder " + name +
                          ": it does not look like a run folder and was not deleted");
        const bool ours =
            name == RunLock::fileName() || std::any_of(std::begin(kRunFiles), std::end(kRunFiles), [&](const char* f) {
                return name == f || name.rfind(std::string(f) + ".tmp-", 0) == 0;
            });
        if (!ours)
            throw IoError(path + " holds " + name + ", which is not a run's file: nothing was deleted (move it out " +
                          "of the folder first)");
    }
    if (ec)
        throw IoError("cannot read " + path + ": " + ec.message());
    // Not a run that a process trains now (it would write into the folder as it goes): held while the
    // folder goes, so that no process starts training it meanwhile.
    std::optional<RunLock> lock;
    if (fs::exists(path + "/" + RunLock::fileName(), ec))
        lock.emplace(path);
    fs::remove_all(path, ec); // removes links inside, never what they point to
    if (ec)
        throw IoError("cannot delete " + path + ": " + ec.message());
}

std::optional<TestRecord> readTestRecord(const RunSummary& run, std::string& why)
{
    const std::string path = run.path + "/evaluation.json";
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        why = "the run has no stored test evaluation (evaluation.json): it did not complete, or was made by an "
              "older Trainbench";
        return std::nullopt;
    }
    try {
        return parseTestRecord(parseJson(readWholeFile(path)));
    } catch (const Error& e) {
        why = std::string("evaluation.json is damaged: ") + e.what();
        return std::nullopt;
    }
}

} // namespace tb
