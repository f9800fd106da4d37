// libFuzzer target for a run folder's records (engine/train/run_history.cpp, test_record.cpp) and
// the report made from them (engine/report): an input is run.json, then after a line "---" (when it
// has one) evaluation.json, of a scratch run folder. Reading must never throw (a damaged run is a summary that says
// why); a run that reads must give a report or a tb::Error.
#include "core/errors.hpp"
#include "fuzz_scratch.hpp"
#include "report/run_report.hpp"
#include "train/run_history.hpp"

#include <cstdlib>
#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const size_t cut = input.find("\n---\n");
    const std::string record = input.substr(0, cut), evaluation = cut == std::string::npos ? "" : input.substr(cut + 5);
    fuzz::writeScratch("run.json", reinterpret_cast<const uint8_t*>(record.data()), record.size());
    fuzz::writeScratch("evaluation.json", reinterpret_cast<const uint8_t*>(evaluation.data()), evaluation.size());
    const tb::RunSummary run = tb::readRun(fuzz::scratchDir()); // never throws
    if (run.damaged != !run.damage.empty())
        std::abort();
    std::string why;
    const auto test = tb::readTestRecord(run, why); // never throws
    if (!test && why.empty())
        std::abort();
    if (run.damaged)
        return 0;
    try {
        const std::string html = tb::runReportHtml(tb::readReportInput(run.path));
        if (html.find("</html>") == std::string::npos)
            std::abort();
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
