// `trainbench-cli report`: one self-contained HTML file of a run.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/atomic_file.hpp"
#include "environment.hpp"
#include "report/run_report.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

namespace tbcli {

int reportCommand(const std::vector<std::string>& args)
{
    const Command& command = *findCommand("report");
    std::vector<std::string> rest = args;
    for (std::string& a : rest)
        if (a == "-o")
            a = "--out";
    const std::string run = takePositional(command, rest, "report needs the run: a folder name, a path or latest");
    const Options o = commandOptions(command, rest);
    const std::string path = tb::findRun(o.text("runs-dir", tb::env::runsDir()), run);
    const tb::ReportInput in = tb::readReportInput(path);
    const std::string out = o.text("out", in.run.id + ".html");
    if (out == "-") { // standard output, through the writer's own descriptor (its errors said)
        tb::writeFileAtomically("/dev/stdout", tb::runReportHtml(in));
        return Ok;
    }
    std::string ext = std::filesystem::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (!ext.empty() && ext != ".html" && ext != ".htm")
        throw UsageError("--out " + out + ": the report is an HTML file; name it .html (or - for standard output)");
    tb::writeFileAtomically(out, tb::runReportHtml(in));
    if (o.has("json"))
        printJson({{"event", "report"}, {"run", path}, {"out", out}, {"test_evaluation", bool(in.test)}});
    else {
        std::printf("Wrote %s\n", out.c_str());
        if (!in.test)
            std::printf("Note: %s; the report has no %s.\n", in.testMissing.c_str(),
                        in.run.isText() ? "test results" : "confusion matrix or misclassified images");
    }
    return Ok;
}

} // namespace tbcli
