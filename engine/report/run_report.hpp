// A run's report: one self-contained HTML file (inline SVG charts and CSS, misclassified test images
// as data: URIs, no script, nothing fetched) that opens offline in any browser: the summary, the
// curves, the per-epoch timings, the configuration and hardware, the weights' SHA-256, the confusion
// matrix and the misclassified images of the stored test evaluation.
#pragma once

#include "train/run_history.hpp"

#include <optional>
#include <string>

namespace tb {

struct ReportInput {
    RunSummary run;
    std::optional<TestRecord> test;
    std::string testMissing;        // why `test` is absent
    std::string weightsFileSha256;  // of weights.tbw now; empty when it is missing
    std::string weightsFileProblem; // why it could not be hashed
};

// Reads what the report shows from the run folder. Throws IoError for a damaged run (with the reason).
ReportInput readReportInput(const std::string& runPath);

std::string runReportHtml(const ReportInput& in);

// readReportInput, runReportHtml, written atomically to `outPath`. Throws IoError.
void writeRunReport(const std::string& runPath, const std::string& outPath);

} // namespace tb
