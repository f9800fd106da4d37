// A run's report: one self-contained HTML file (inline SVG charts and CSS, misclassified test images
// as data: URIs, no script, nothing fetched) that opens offline in any browser: the summary, the
// curves (per epoch, and per batch where the run's checkpoint keeps them), the per-epoch timings, the configuration and
// hardware, the weights' SHA-256, the confusion matrix and the misclassified images of the stored test evaluation.
#pragma once

#include "train/run_curve.hpp"
#include "train/run_history.hpp"

#include <functional>
#include <optional>
#include <string>

namespace tb {

struct ReportInput {
    RunSummary run;
    std::optional<TestRecord> test;
    std::string testMissing;        // why `test` is absent
    std::string weightsFileSha256;  // of weights.tbw now; empty when it is missing
    std::string weightsFileProblem; // why it could not be hashed
    RunBatchCurve batches;          // from checkpoint.tbw: the loss and accuracy charts' per-batch line
};

// Reads what the report shows from the run folder. Throws IoError for a damaged run (with the reason).
ReportInput readReportInput(const std::string& runPath);

// The words of a report in its reader's language: the engine writes English (the CLI's reports); a front
// end in another language gives its translations here, so that the engine needs no translation library.
struct ReportLanguage {
    std::string lang = "en"; // the page's <html lang>
    // A phrase of the report, by its English (each marked QT_TRANSLATE_NOOP("RunReport", …) in
    // run_report.cpp, svg_chart.cpp and run_history.cpp's row labels), with its %1, %2 … kept.
    std::function<std::string(const char* english)> phrase;
    // A configuration or hardware row's value, by the row's English label ("Schedule") and the value's
    // English ("constant"); the run's status is the "Status" row's value.
    std::function<std::string(const std::string& label, const std::string& english)> value;
    // A number as the engine prints it ("0.3344", "86.77%", "12.5 s") in the reader's spelling (Spanish
    // "0,3344", "86,77 %", "12,5 s"): the figures, the tables, the charts' ticks and the configuration's
    // decimal values. Null: as printed. Machine-read attributes (data-value) keep the printed form.
    std::function<std::string(const std::string& number)> number;
};

std::string runReportHtml(const ReportInput& in, const ReportLanguage& language = {});

// readReportInput, runReportHtml, written atomically to `outPath`. Throws IoError.
void writeRunReport(const std::string& runPath, const std::string& outPath);

} // namespace tb
