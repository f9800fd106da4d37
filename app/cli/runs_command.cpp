// `trainbench-cli runs list|show|delete`: the runs folder as a history. A damaged run is listed as
// such with the reason; it never hides the others.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"

#include "options.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "data/text_dataset.hpp"
#include "environment.hpp"
#include "report/run_report.hpp"
#include "report/svg_chart.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace tbcli {

namespace {
std::string percentText(double v)
{
    if (v < 0)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", v * 100);
    return buf;
}

nlohmann::ordered_json summaryJson(const tb::RunSummary& r)
{
    nlohmann::ordered_json j;
    j["id"] = r.id;
    j["path"] = r.path;
    if (r.damaged) {
        j["damaged"] = true;
        j["reason"] = r.damage;
        j["resumable"] = r.resumable(); // from its checkpoint, which holds the run's settings
        return j;
    }
    j["status"] = tb::runStatusName(r.status);
    j["resumable"] = r.resumable(); // an interrupted run without a checkpoint is not, nor a diverged one
    j["date"] = r.date();
    j["model"] = r.model;
    j["dataset"] = r.dataset;
    j["device"] = r.device;
    j["epochs_done"] = r.history.size();
    j["epochs"] = r.epochs;
    if (r.partialStep > 0) { // ended mid-epoch
        j["partial_epoch"] = r.partialEpoch;
        j["partial_step"] = r.partialStep;
        j["steps_per_epoch"] = r.stepsPerEpoch;
    }
    if (r.finalAccuracy() >= 0)
        j["final_accuracy"] = r.finalAccuracy();
    if (r.test)
        j["test"] = *r.test;
    j["training_seconds"] = r.trainingSeconds();
    if (!r.weightsSha256.empty())
        j["weights_sha256"] = r.weightsSha256;
    j["files"] = r.files;
    return j;
}

// A cell of `runs list`'s table as one line: a control character (a newline in a dataset's path, an
// escape sequence in a damaged record; C0, DEL and C1, U+0080 to U+009F) and a line or paragraph
// separator (U+2028, U+2029) are shown as '?', as the window's Runs page shows them, so that they cannot
// break the table's rows or drive the terminal.
std::string cellText(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        const auto next = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
        if (b == 0xc2 && next(1) >= 0x80 && next(1) < 0xa0) {
            ++i;
            out += '?';
        } else if (b == 0xe2 && next(1) == 0x80 && (next(2) == 0xa8 || next(2) == 0xa9)) {
            i += 2;
            out += '?';
        } else {
            out += b < 0x20 || b == 0x7f ? '?' : s[i];
        }
    }
    return out;
}

// "%7.1f s", or in an exponent's form past 10^9 (31 years): the readers keep each epoch's time within
// a year (run_history.cpp), but a history of 100,000 epochs adds up to more.
std::string secondsText(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, seconds < 1e9 ? "%7.1f s" : "%7.1e s", seconds);
    return buf;
}

// "2/5 epochs", and the steps of the epoch a run ended in: "2/5 epochs + 96/150 steps".
std::string epochsText(const tb::RunSummary& r)
{
    std::string text = std::to_string(r.history.size()) + "/" + std::to_string(r.epochs) + " epochs";
    if (r.partialStep > 0)
        text += " + " + std::to_string(r.partialStep) + "/" + std::to_string(r.stepsPerEpoch) + " steps";
    return text;
}

int listRuns(const Options& o)
{
    const tb::RunList list = tb::listRuns(o.text("runs-dir", tb::env::runsDir()));
    if (o.has("json")) {
        nlohmann::ordered_json j;
        j["runs_dir"] = list.runsDir;
        if (!list.problem.empty())
            j["problem"] = list.problem;
        j["runs"] = nlohmann::ordered_json::array();
        for (const tb::RunSummary& r : list.runs)
            j["runs"].push_back(summaryJson(r));
        printJson(j);
    } else {
        if (!list.problem.empty())
            std::fprintf(stderr, "trainbench-cli runs: %s\n", list.problem.c_str());
        if (list.runs.empty() && list.problem.empty()) { // an unreadable folder is not an empty one
            std::error_code ec;                          // a mistyped --runs-dir is not a folder without runs
            std::printf("No runs in %s%s\n", list.runsDir.c_str(),
                        std::filesystem::exists(list.runsDir, ec) ? "" : " (the folder does not exist yet)");
        }
        // Columns as wide as their longest entry (a bf16 run's name is longer than the others).
        int idWidth = 48, epochsWidth = 12, statusWidth = 11;
        for (const tb::RunSummary& r : list.runs) {
            idWidth = std::max(idWidth, int(r.id.size()));
            epochsWidth = std::max(epochsWidth, int(epochsText(r).size()));
            if (!r.damaged)
                statusWidth = std::max(statusWidth, int(r.statusText().size()));
        }
        if (!list.runs.empty()) // what each column is, aligned as the rows are
            std::printf("%-*s %-16s %-*s %-*s %8s  %9s  %s\n", idWidth, "RUN", "STARTED", statusWidth, "STATUS",
                        epochsWidth, "PROGRESS", "ACCURACY", "TRAINING", "DATASET");
        for (const tb::RunSummary& r : list.runs) {
            const std::string id = cellText(r.id);
            if (r.damaged) {
                std::printf("%-*s DAMAGED: %s\n", idWidth, id.c_str(), cellText(r.damage).c_str());
                continue;
            }
            const std::string epochs = epochsText(r);
            std::printf("%-*s %-16s %-*s %-*s %8s  %s  %s\n", idWidth, id.c_str(), cellText(r.date()).c_str(),
                        statusWidth, r.statusText().c_str(), epochsWidth, epochs.c_str(),
                        percentText(r.finalAccuracy()).c_str(), secondsText(r.trainingSeconds()).c_str(),
                        cellText(r.dataset).c_str());
        }
    }
    return list.problem.empty() ? Ok : FileError;
}

int showRun(const tb::RunSummary& r, bool json)
{
    if (json) {
        nlohmann::ordered_json j = summaryJson(r);
        if (!r.damaged)
            j["record"] = r.record;
        printJson(j);
        return r.damaged ? FileError : Ok;
    }
    std::printf("Run %s\nFolder %s\n", r.id.c_str(), r.path.c_str());
    if (r.damaged) {
        std::printf("DAMAGED: %s\n", r.damage.c_str());
        return FileError;
    }
    for (const auto& [label, value] : r.configurationRows())
        std::printf("%-17s %s\n", label.c_str(), value.c_str());
    for (const auto& [label, value] : r.hardwareRows())
        std::printf("%-17s %s\n", label.c_str(), value.c_str());
    // A text run's losses in bits per symbol too, as its training printed them.
    const bool text = r.isText();
    std::printf("\n%5s %9s %9s %9s %9s%s %10s %8s\n", "epoch", "loss", "accuracy", "val_loss", "val_acc",
                text ? "   val_bpc" : "", "lr", "seconds");
    for (const tb::EpochRecord& e : r.history) {
        char bpc[32] = "";
        if (text)
            std::snprintf(bpc, sizeof bpc, " %9s", tb::shortNumber(tb::bitsPerSymbol(e.valLoss)).c_str());
        std::printf("%5d %9s %9s %9s %9s%s %10s %8s\n", e.epoch, tb::shortNumber(e.loss).c_str(),
                    tb::shortNumber(e.accuracy).c_str(), tb::shortNumber(e.valLoss).c_str(),
                    tb::shortNumber(e.valAccuracy).c_str(), bpc, tb::shortNumber(e.learningRate).c_str(),
                    tb::shortNumber(e.seconds).c_str());
    }
    if (r.partialStep > 0) // a run still training has its last checkpoint's position (--checkpoint-every)
        std::printf("%5d (%d/%d steps, %s s: %s)\n", r.partialEpoch, r.partialStep, r.stepsPerEpoch,
                    tb::shortNumber(r.partialSeconds).c_str(),
                    r.status == tb::RunStatus::Running ? "its last checkpoint" : "the run ended there");
    if (r.test)
        std::printf("\nTest loss: %.4f - test accuracy: %.4f%s\n", r.test->loss, r.test->accuracy,
                    text ? testBpcText(r.test->loss).c_str() : "");
    if (!r.weightsSha256.empty())
        std::printf("Weights sha256: %s\n", r.weightsSha256.c_str());
    std::string files;
    for (const std::string& f : r.files)
        files += (files.empty() ? "" : ", ") + f;
    std::printf("Files: %s\n", files.empty() ? "none" : files.c_str());
    return Ok;
}
} // namespace

int runsCommand(const std::vector<std::string>& args)
{
    const Command& command = *findCommand("runs");
    std::vector<std::string> rest = args;
    const std::string action = takePositional(command, rest, "give list, show RUN or delete RUN");
    if (action == "list")
        return listRuns(commandOptions(command, rest));
    if (action == "show" || action == "delete") {
        const std::string run =
            takePositional(command, rest, "runs " + action + " needs the run: a folder name, a path or latest");
        const Options o = commandOptions(command, rest);
        const std::string runsDir = o.text("runs-dir", tb::env::runsDir());
        const std::string path = tb::findRun(runsDir, run);
        if (action == "show")
            return showRun(tb::readRun(path), o.has("json"));
        tb::deleteRun(path, runsDir);
        if (o.has("json"))
            printJson({{"event", "deleted"}, {"path", path}});
        else
            std::printf("Deleted %s\n", path.c_str());
        return Ok;
    }
    throw UsageError("unknown action \"" + action + "\": give list, show RUN or delete RUN");
}

} // namespace tbcli
