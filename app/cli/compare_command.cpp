// `trainbench-cli compare`: the same model from the same initial weights on each device in turn,
// as a table (and CSV or JSON lines).
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/atomic_file.hpp"
#include "core/json_text.hpp"
#include "core/thread_pool.hpp"
#include "train/compare.hpp"
#include "train/progress_text.hpp"
#include "train/train_options.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace tbcli {

namespace {
class CompareProgress : public tb::CompareObserver {
public:
    explicit CompareProgress(bool json) : m_json(json), m_tty(isatty(fileno(stdout))) {}

    void deviceStarted(int row, int rows, const tb::CompareRow& r) override
    {
        if (m_json)
            return;
        std::printf("[%d/%d] %s%s: %s\n", row + 1, rows, r.device.id().c_str(),
                    r.sweepValue ? (" (batch " + std::to_string(r.globalBatch) + ", size x" +
                                    std::to_string(r.sizeMultiplier) + ")")
                                       .c_str()
                                 : "",
                    r.skipped.empty() ? r.description.c_str() : ("skipped: " + r.skipped).c_str());
        m_described = r.skipped.empty();
        std::fflush(stdout);
        stopIfOutputLost(); // the reader of the pipe ended: no device more
    }
    void batchFinished(int, const tb::BatchProgress& p) override
    {
        if (m_json || !m_tty)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (p.step < p.steps && now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        std::printf("\r  epoch %d/%d %s", p.epoch, p.epochs, tb::progressLine(p).c_str());
        std::fflush(stdout);
        stopIfOutputLost();
    }
    void deviceFinished(int, const tb::CompareRow& r) override
    {
        if (m_json) {
            nlohmann::ordered_json j;
            j["event"] = "device";
            j["device"] = r.device.id();
            j["precision"] = tb::precisionName(r.device.precision); // as train's and evaluate's --json say it
            j["description"] = r.description;
            j["replicas"] = r.replicas;
            j["global_batch"] = r.globalBatch;
            j["size_multiplier"] = r.sizeMultiplier;
            if (!r.skipped.empty()) {
                j["skipped"] = r.skipped; // nothing ran: no results (the CSV leaves them empty too)
            } else {
                j["epochs"] = r.epochs; // as the CSV's row: what this device trained
                j["samples"] = r.samples;
                j["seconds_per_epoch"] = r.secondsPerEpoch;
                j["samples_per_sec"] = r.samplesPerSec;
                j["speedup"] = r.speedup;
                j["test"] = r.test;
                j["weights_sha256"] = r.weightsSha256;
                if (!r.noDiffReference) // the first at its batch after others: nothing to differ from
                    j["max_abs_diff"] = r.maxAbsDiff;
                if (!r.note.empty())
                    j["note"] = r.note;
            }
            printJson(j);
            return;
        }
        if (m_tty)
            std::printf("\r\033[K");
        if (m_described && !r.skipped.empty()) { // announced with what it would run, then it could not set up
            std::printf("  skipped: %s\n", r.skipped.c_str());
            std::fflush(stdout);
            stopIfOutputLost();
        }
    }

private:
    bool m_json, m_tty;
    bool m_described = false; // the row under way was announced with its description, not as skipped
    std::chrono::steady_clock::time_point m_last{};
};

} // namespace

int compareCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("compare"), args);
    tb::CompareConfig cfg;
    cfg.train = trainSettingsFrom(o).config;
    // --precision: every device of the list that names no precision of its own ("cpu:2+fp32" keeps
    // its); one that cannot compute in it is a skipped row with the reason.
    cfg.devices = tb::parseDeviceList(o.text("devices", "cpu:1,cpu:" + std::to_string(tb::hardwareThreads())),
                                      cfg.train.device.precision);
    cfg.scaleBatchWithReplicas = o.has("scale-batch");
    cfg.sweep = tb::parseSweep(o.text("sweep", ""));
    // The swept setting takes the sweep's values: a fixed value beside them would be dropped.
    if (cfg.sweep.kind == tb::SweepKind::Size && o.has("size-multiplier"))
        throw UsageError("--sweep size=... sets the size multiplier; leave out --size-multiplier");
    if (cfg.sweep.kind == tb::SweepKind::Batch && o.has("batch"))
        throw UsageError("--sweep batch=... sets the batch; leave out --batch");
    const std::string csvPath = o.text("csv", "");
    requireWritable(o, "csv");
    const bool json = o.has("json");

    const tb::ModelSpec spec = modelOption(o);
    const std::string own = applyPresetTraining(cfg.train, spec, o, cfg.sweep.kind != tb::SweepKind::Batch);
    const StopOnSignals stopOn; // from the data's loading to the CSV's writing
    const tb::Dataset data = loadData(o, spec);
    // A signal while the data loaded (seconds for a large gzip file): said, where the process ended
    // without a word, as train says it.
    if (g_interrupted.load()) {
        if (json)
            printJson({{"event", "stopped"}, {"exit_code", int(Interrupted)}});
        std::fprintf(stderr, "Stopped by the user before the comparison started; nothing was written.\n");
        return Interrupted;
    }
    tb::requireComparable(data, cfg); // before anything is printed of a comparison that cannot run
    if (!own.empty() && !json)
        std::printf("%s\n", own.c_str());
    const tb::CompareSetup setup = tb::compareSetupOf(spec, data, cfg); // the start event's and the CSV's
    if (json) { // what the device events compare, as train's start event says its run
        nlohmann::ordered_json j;
        j["event"] = "start";
        j["model"] = setup.model;
        j["dataset"] = setup.dataset;
        j["train_images"] = data.train.count;
        j["test_images"] = data.test.count;
        j["epochs"] = cfg.train.epochs;
        j["max_batches"] = setup.maxBatches;
        if (setup.validationLimit > 0) // as train's start says it
            j["validation_limit"] = setup.validationLimit;
        if (cfg.sweep.kind != tb::SweepKind::Batch) // else the sweep's values are the batches
            j["batch"] = cfg.train.batchSize;
        j["scale_batch"] = cfg.scaleBatchWithReplicas;
        j["optimizer"] = setup.optimizer;
        j["learning_rate"] = tb::jsonFloat(setup.learningRate);
        j["seed"] = std::to_string(setup.seed);
        if (setup.sequenceLength) {
            j["sequence_length"] = setup.sequenceLength;
            j["vocabulary"] = setup.vocabulary;
        }
        nlohmann::ordered_json devices = nlohmann::ordered_json::array();
        for (const tb::DeviceSpec& d : cfg.devices)
            devices.push_back(d.id());
        j["devices"] = devices;
        if (cfg.sweep.kind != tb::SweepKind::None)
            j["sweep"] = o.text("sweep", "");
        printJson(j);
    } else {
        std::printf("Comparing %s on %s: %s, %d %s%s, seed %llu\n", spec.name.c_str(), data.directory.c_str(),
                    tb::describeDataset(data).c_str(), cfg.train.epochs, cfg.train.epochs == 1 ? "epoch" : "epochs",
                    cfg.train.maxBatches ? (" of at most " + std::to_string(cfg.train.maxBatches) + " batches").c_str()
                                         : "",
                    static_cast<unsigned long long>(cfg.train.seed));
        std::fflush(stdout);
    }
    CompareProgress progress(json);
    const std::vector<tb::CompareRow> rows = tb::runComparison(spec, data, cfg, &progress, &g_interrupted);
    if (rows.empty() && g_interrupted.load()) { // stopped in the first device: no table, and no CSV of a header alone
        if (json)
            printJson({{"event", "stopped"}, {"exit_code", stopCode()}});
        std::fflush(stdout);
        std::fprintf(stderr, "\n%s before any device finished; nothing to compare%s.\n", stopText().c_str(),
                     csvPath.empty() ? "" : (" (" + csvPath + " not written)").c_str());
        return stopCode();
    }
    if (!json)
        std::printf("\n%s", tb::compareTable(rows).c_str());
    if (!csvPath.empty()) {
        tb::writeFileAtomically(csvPath, tb::compareCsv(rows, setup));
        if (!json)
            std::printf("Saved %s\n", csvPath.c_str());
    }
    if (g_interrupted.load()) {
        if (json)
            printJson({{"event", "stopped"}, {"exit_code", stopCode()}});
        std::fflush(stdout);
        std::fprintf(stderr, "%s; the rows above are the devices that finished.\n", stopText().c_str());
        return stopCode();
    }
    if (std::all_of(rows.begin(), rows.end(), [](const tb::CompareRow& r) { return !r.skipped.empty(); })) {
        std::fflush(stdout); // the table first, also when stdout is a pipe
        // A device that could not set the model up (a text model on OpenCL) ends it as train would, with
        // its error and exit code (3); devices unavailable here are a usage error.
        const auto failed =
            std::find_if(rows.begin(), rows.end(), [](const tb::CompareRow& r) { return r.skippedError != nullptr; });
        if (failed != rows.end())
            std::rethrow_exception(failed->skippedError);
        std::fprintf(stderr, "trainbench-cli compare: no device could run it (the reasons are above)\n");
        return Usage;
    }
    return Ok;
}

} // namespace tbcli
