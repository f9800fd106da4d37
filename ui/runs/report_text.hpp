// A run's HTML report in the window's language: the engine writes the report (tb::runReportHtml) and
// takes its words from here (tb::ReportLanguage), so that a Spanish window exports a Spanish report
// while the engine stays without Qt and the CLI's reports stay English.
#pragma once

#include "report/run_report.hpp"

#include <QString>

#include <string>

namespace tbui {

// Its words are in the context "RunReport", where the engine's report marks its own phrases.
class ReportText {
public:
    // The report's phrases (context "RunReport") and its rows' values, as the window words them.
    static tb::ReportLanguage language(const tb::RunSummary& run);
    // What the engine read in English and the window words otherwise: why the test evaluation or the
    // weights' hash is missing, a known dataset's class names.
    static void translate(tb::ReportInput& in);
    // The report of the run folder `runPath`, read, worded and written atomically to `outPath`. Throws as
    // tb::writeRunReport does.
    static void write(const std::string& runPath, const std::string& outPath);
    // A configuration or hardware row's value (tb::ReportLanguage::value), by its English label.
    static QString value(const tb::RunSummary& run, const QString& label, const QString& english);
};

} // namespace tbui
