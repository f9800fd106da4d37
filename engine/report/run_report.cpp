#include "report/run_report.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "data/text_dataset.hpp"
#include "io/png_writer.hpp"
#include "report/svg_chart.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

// The report's phrases are marked for the window's translations (context "RunReport").
#include "core/translation_marker.hpp"

namespace tb {

namespace {
// The report's words in its language (ReportLanguage): English where the caller gives none.
class Words {
public:
    explicit Words(const ReportLanguage& language) : m_language(language) {}
    // `english` (a QT_TRANSLATE_NOOP("RunReport", …) phrase) in the report's language, its %1 … filled.
    std::string operator()(const char* english, const std::vector<std::string>& args = {}) const
    {
        return fillArgs(m_language.phrase ? m_language.phrase(english) : std::string(english), args);
    }
    std::string value(const std::string& label, const std::string& english) const
    {
        return m_language.value ? m_language.value(label, english) : english;
    }
    // A printed number ("0.3344", "86.77%") in the reader's spelling.
    std::string number(const std::string& printed) const
    {
        return m_language.number ? m_language.number(printed) : printed;
    }
    const std::function<std::string(const std::string&)>& numberFunction() const { return m_language.number; }
    // A configuration or hardware table's rows: each label by its phrase, each value by `value`, a value
    // that is a decimal number ("0.001") in the reader's spelling.
    std::vector<std::pair<std::string, std::string>> rows(std::vector<std::pair<std::string, std::string>> rows) const
    {
        for (auto& [label, v] : rows) {
            v = value(label, v);
            // A decimal number, alone or before its unit ("23.5 GB").
            const size_t space = v.find(' ');
            const std::string head = v.substr(0, space), unit = space == std::string::npos ? "" : v.substr(space);
            if (isDecimal(head) && std::all_of(unit.begin() + (unit.empty() ? 0 : 1), unit.end(),
                                               [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
                v = number(head) + unit;
            label = (*this)(label.c_str());
        }
        return rows;
    }

private:
    // "0.001", "-1.5e-05": digits with a decimal point, nothing else (a version, "1.2.3", is no number).
    static bool isDecimal(const std::string& v)
    {
        size_t digits = 0, points = 0;
        for (size_t i = 0; i < v.size(); ++i) {
            const char c = v[i];
            if (c >= '0' && c <= '9')
                ++digits;
            else if (c == '.')
                ++points;
            else if (!(c == '-' && i == 0) && c != 'e' && c != '+' && !(c == '-' && i > 0 && v[i - 1] == 'e'))
                return false;
        }
        return digits > 0 && points == 1;
    }

    const ReportLanguage& m_language;
};

const char* kStyle = R"(
body { font-family: system-ui, "DejaVu Sans", sans-serif; margin: 24px auto; max-width: 1180px; color: #1d232a; }
h1 { font-size: 22px; margin-bottom: 2px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #d0d7de; }
.sub { color: #57606a; margin-top: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.card b { display: block; font-size: 20px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 8px; }
svg.chart { font-size: 11px; fill: #1d232a; background: #fff; border: 1px solid #eaeef2; }
svg.chart .title { font-size: 13px; font-weight: bold; } svg.chart .grid { stroke: #eaeef2; } svg.chart .axis { stroke: #57606a; }
table { border-collapse: collapse; font-size: 13px; } td, th { border: 1px solid #d0d7de; padding: 3px 8px; }
th { background: #f6f8fa; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; word-break: break-all; }
table.confusion td { text-align: right; min-width: 34px; }
.grid-images { display: flex; flex-wrap: wrap; gap: 6px; }
figure { margin: 0; width: 92px; font-size: 11px; text-align: center; }
figure img { width: 84px; height: 84px; image-rendering: pixelated; border: 1px solid #d0d7de; }
figure img.misclassified { border: 3px solid #d62728; width: 80px; height: 80px; }
.warn { color: #9a6700; }
)";

// Text between tags: &, < and > escaped (a phrase's apostrophe stays as it is written).
std::string textEscape(const std::string& text)
{
    std::string out;
    for (char c : text)
        out += c == '&'   ? std::string("&amp;")
               : c == '<' ? std::string("&lt;")
               : c == '>' ? std::string("&gt;")
                          : std::string(1, c);
    return out;
}

std::string row(const std::string& label, const std::string& value)
{
    return "<tr><th>" + htmlEscape(label) + "</th><td>" + htmlEscape(value) + "</td></tr>\n";
}

std::string table(const std::vector<std::pair<std::string, std::string>>& rows)
{
    std::string out = "<table>\n";
    for (const auto& [label, value] : rows)
        out += row(label, value);
    return out + "</table>\n";
}

std::string card(const std::string& label, const std::string& value)
{
    return "<div class=\"card\">" + htmlEscape(label) + "<b>" + htmlEscape(value) + "</b></div>\n";
}

std::string percent(double v)
{
    if (!std::isfinite(v) || v < 0)
        return "–";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", v * 100);
    return buf;
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s >= 120 ? "%.0f s" : "%.1f s", s);
    return buf;
}

// The run's test figures, where precise BN recomputed BatchNorm's statistics after training (the run's
// setting): they are of the recomputed statistics, the curves of those before. Null otherwise: no
// BatchNorm layer to recompute, or a record that does not say (before 2026-12-07).
const TestResult* testAfterPreciseBn(const RunSummary& run)
{
    return run.config && run.config->preciseBnBatches > 0 && run.test && run.test->preciseBnLayers > 0 ? &*run.test
                                                                                                       : nullptr;
}

// Why the loss and accuracy charts have no per-batch line, as a sentence; empty when they have one.
std::string batchLineMissing(const RunBatchCurve& batches, const Words& say)
{
    switch (batches.missing) {
    case RunBatchCurve::Missing::None:
        return {};
    case RunBatchCurve::Missing::NoCheckpoint:
        return say(QT_TRANSLATE_NOOP("RunReport", "No per-batch line: the run folder holds no checkpoint.tbw, which "
                                                  "keeps the run's batches."));
    case RunBatchCurve::Missing::OlderCheckpoint:
        return say(QT_TRANSLATE_NOOP("RunReport", "No per-batch line: the run's checkpoint.tbw was written before "
                                                  "checkpoints kept the run's batches."));
    case RunBatchCurve::Missing::Unreadable:
        break;
    }
    return say(QT_TRANSLATE_NOOP("RunReport", "No per-batch line: %1."), {batches.error});
}

std::string charts(const RunSummary& run, const RunBatchCurve& batches, const Words& say)
{
    std::vector<double> epoch, loss, valLoss, acc, valAcc, rate, time;
    for (const EpochRecord& e : run.history) {
        epoch.push_back(e.epoch);
        loss.push_back(e.loss);
        valLoss.push_back(e.valLoss);
        acc.push_back(e.accuracy);
        valAcc.push_back(e.valAccuracy);
        rate.push_back(e.learningRate);
        time.push_back(e.seconds);
    }
    const char* train = "#0969da";
    const char* val = "#cf222e";
    ChartWords words;
    words.noData = say(QT_TRANSLATE_NOOP("RunReport", "no data"));
    words.xTitle = say(QT_TRANSLATE_NOOP("RunReport", "epoch"));
    words.point = say(QT_TRANSLATE_NOOP("RunReport", "%1, epoch %2: %3"));
    words.number = say.numberFunction();
    const std::string trainName = say(QT_TRANSLATE_NOOP("RunReport", "train"));
    const std::string valName = say(QT_TRANSLATE_NOOP("RunReport", "validation"));
    std::vector<ChartSeries> lossSeries{{trainName, train, epoch, loss}, {valName, val, epoch, valLoss}};
    std::vector<ChartSeries> accSeries{{trainName, train, epoch, acc}, {valName, val, epoch, valAcc}};
    // Each batch's own loss and accuracy, smoothed as the window's live charts draw them, under the
    // epochs' points (first: drawn first).
    if (!batches.points.empty()) {
        const BatchLine line = smoothedBatchLine(batches.points);
        const std::string name = say(QT_TRANSLATE_NOOP("RunReport", "train, per batch (smoothed)"));
        const char* light = "#9ec6e6";
        lossSeries.insert(lossSeries.begin(), {name, light, line.x, line.loss, false, 1.2});
        accSeries.insert(accSeries.begin(), {name, light, line.x, line.accuracy, false, 1.2});
    }
    // The test figures after precise BN beside the curves, at the last epoch and named as such: the
    // validation there is of the statistics before the recomputation.
    if (const TestResult* test = testAfterPreciseBn(run); test && !epoch.empty()) {
        const std::string testName = say(QT_TRANSLATE_NOOP("RunReport", "test, after precise BN"));
        const char* colour = "#9a6700";
        lossSeries.push_back({testName, colour, {epoch.back()}, {test->loss}});
        accSeries.push_back({testName, colour, {epoch.back()}, {test->accuracy}});
    }
    const std::string missing = batchLineMissing(batches, say);
    const std::string note =
        missing.empty() ? std::string() : "<p class=\"sub batch-note\">" + textEscape(missing) + "</p>\n";
    return "<div class=\"charts\">\n" +
           svgLineChart(say(QT_TRANSLATE_NOOP("RunReport", "Loss")), lossSeries, 560, 300, words) +
           svgLineChart(say(QT_TRANSLATE_NOOP("RunReport", "Accuracy")), accSeries, 560, 300, words) +
           svgLineChart(say(QT_TRANSLATE_NOOP("RunReport", "Learning rate")),
                        {{say(QT_TRANSLATE_NOOP("RunReport", "learning rate")), "#8250df", epoch, rate}}, 560, 300,
                        words) +
           svgLineChart(say(QT_TRANSLATE_NOOP("RunReport", "Epoch time (s)")),
                        {{say(QT_TRANSLATE_NOOP("RunReport", "seconds")), "#1a7f37", epoch, time}}, 560, 300, words) +
           "</div>\n" + note;
}

// `perSecond`: what the epochs' throughput counts ("Images/s", a text run's "Symbols/s").
std::string epochTable(const RunSummary& run, const std::string& perSecond, const Words& say)
{
    std::string out = "<table>\n<tr>";
    for (const char* head :
         {QT_TRANSLATE_NOOP("RunReport", "Epoch"), QT_TRANSLATE_NOOP("RunReport", "Loss"),
          QT_TRANSLATE_NOOP("RunReport", "Accuracy"), QT_TRANSLATE_NOOP("RunReport", "Val. loss"),
          QT_TRANSLATE_NOOP("RunReport", "Val. accuracy"), QT_TRANSLATE_NOOP("RunReport", "Learning rate"),
          QT_TRANSLATE_NOOP("RunReport", "Seconds")})
        out += "<th>" + textEscape(say(head)) + "</th>";
    out += "<th>" + htmlEscape(perSecond) + "</th></tr>\n";
    for (const EpochRecord& e : run.history) {
        out += "<tr><td class=\"n\">" + std::to_string(e.epoch) + "</td>";
        for (double v : {e.loss, e.accuracy, e.valLoss, e.valAccuracy, e.learningRate, e.seconds})
            out += "<td class=\"n\">" + say.number(shortNumber(v)) + "</td>";
        out += "<td class=\"n\">" +
               (std::isfinite(e.samplesPerSec) ? std::to_string(std::lround(e.samplesPerSec)) : "–") + "</td></tr>\n";
    }
    return out + "</table>\n";
}

std::string confusionTable(const TestRecord& t, const Words& say)
{
    const int k = t.classes();
    std::string out = "<p>" +
                      textEscape(say(QT_TRANSLATE_NOOP("RunReport", "Rows: the true class; columns: the model's "
                                                                    "prediction. %1 test images."),
                                     {std::to_string(t.samples)})) +
                      "</p>\n<table class=\"confusion\">\n<tr><th></th>";
    for (const std::string& name : t.classNames)
        out += "<th>" + htmlEscape(name) + "</th>";
    out += "<th>" + textEscape(say(QT_TRANSLATE_NOOP("RunReport", "total"))) + "</th></tr>\n";
    for (int r = 0; r < k; ++r) {
        int64_t total = 0;
        for (int c = 0; c < k; ++c)
            total += t.confusion[size_t(r * k + c)];
        out += "<tr><th>" + htmlEscape(t.classNames[size_t(r)]) + "</th>";
        for (int c = 0; c < k; ++c) {
            const int64_t n = t.confusion[size_t(r * k + c)];
            const double share = total > 0 ? double(n) / double(total) : 0.0;
            char colour[64];
            std::snprintf(colour, sizeof colour, r == c ? "rgba(9,105,218,%.2f)" : "rgba(207,34,46,%.2f)",
                          n ? 0.08 + 0.8 * share : 0.0);
            out += "<td style=\"background:" + std::string(colour) + (share > 0.5 ? ";color:#fff" : "") + "\">" +
                   std::to_string(n) + "</td>";
        }
        out += "<td>" + std::to_string(total) + "</td></tr>\n";
    }
    return out + "</table>\n";
}

// A text model's mistakes: the count, and the most frequent (true symbol, predicted symbol) pairs
// (a vocabulary of up to 256 symbols makes a matrix no one reads).
std::string symbolMistakes(const TestRecord& t, const Words& say)
{
    constexpr int kShown = 20;
    const int k = t.classes();
    std::vector<std::string> labels;
    try {
        for (const std::string& s : TextVocabulary::fromClassNames(t.classNames).symbols)
            labels.push_back(symbolLabel(s));
    } catch (const Error&) { // not a text vocabulary after all: its class names as they are
        labels = t.classNames;
    }
    std::vector<int64_t> rowTotal(size_t(k), 0);
    std::vector<std::pair<int, int>> cells; // (true, predicted), off the diagonal, non-zero
    for (int r = 0; r < k; ++r)
        for (int c = 0; c < k; ++c) {
            const int64_t n = t.confusion[size_t(r) * size_t(k) + size_t(c)];
            rowTotal[size_t(r)] += n;
            if (r != c && n > 0)
                cells.emplace_back(r, c);
        }
    const auto count = [&](const std::pair<int, int>& p) {
        return t.confusion[size_t(p.first) * size_t(k) + size_t(p.second)];
    };
    std::stable_sort(cells.begin(), cells.end(), [&](const auto& a, const auto& b) { return count(a) > count(b); });
    std::string out = "<p>" +
                      textEscape(say(QT_TRANSLATE_NOOP("RunReport", "%1 of %2 predicted symbols of the validation "
                                                                    "text are wrong. The most frequent mistakes (of "
                                                                    "%3 kinds):"),
                                     {std::to_string(t.misclassifiedCount), std::to_string(t.samples),
                                      std::to_string(cells.size())})) +
                      "</p>\n";
    out += "<table class=\"mistakes\">\n<tr>";
    for (const char* head : {QT_TRANSLATE_NOOP("RunReport", "True symbol"), QT_TRANSLATE_NOOP("RunReport", "Predicted"),
                             QT_TRANSLATE_NOOP("RunReport", "Count"),
                             QT_TRANSLATE_NOOP("RunReport", "Share of the true symbol's predictions")})
        out += "<th>" + textEscape(say(head)) + "</th>";
    out += "</tr>\n";
    for (size_t i = 0; i < cells.size() && i < size_t(kShown); ++i) {
        const auto [r, c] = cells[i];
        out += "<tr><td><code>" + htmlEscape(labels[size_t(r)]) + "</code></td><td><code>" +
               htmlEscape(labels[size_t(c)]) + "</code></td><td class=\"n\">" + std::to_string(count(cells[i])) +
               "</td><td class=\"n\">" + say.number(percent(double(count(cells[i])) / double(rowTotal[size_t(r)]))) +
               "</td></tr>\n";
    }
    return out + "</table>\n";
}

std::string misclassifiedGrid(const TestRecord& t, const Words& say)
{
    const std::string count = std::to_string(t.misclassifiedCount), samples = std::to_string(t.samples);
    const std::string said =
        int(t.misclassified.size()) < t.misclassifiedCount
            ? say(QT_TRANSLATE_NOOP("RunReport", "%1 of %2 test images are misclassified; the %3 the model was surest "
                                                 "of are shown."),
                  {count, samples, std::to_string(t.misclassified.size())})
            : say(QT_TRANSLATE_NOOP("RunReport", "%1 of %2 test images are misclassified."), {count, samples});
    std::string out =
        "<p>" + textEscape(said) + " " +
        textEscape(
            say(QT_TRANSLATE_NOOP("RunReport", "Most confident mistakes first, as in the window. Each: test "
                                               "index, true class → predicted class (the model's confidence)."))) +
        "</p>\n<div class=\"grid-images\">\n";
    auto name = [&](int c) { return c >= 0 && c < t.classes() ? t.classNames[size_t(c)] : std::to_string(c); };
    // Records written before the order was fixed kept test-index order: sort here too.
    std::vector<const MisclassifiedImage*> shown;
    for (const MisclassifiedImage& m : t.misclassified)
        shown.push_back(&m);
    std::stable_sort(shown.begin(), shown.end(), [](const MisclassifiedImage* a, const MisclassifiedImage* b) {
        return a->confidence > b->confidence;
    });
    for (const MisclassifiedImage* mp : shown) {
        const MisclassifiedImage& m = *mp;
        std::string caption = "#";
        caption += std::to_string(m.index) + " " + name(m.label) + " → " + name(m.predicted) + " (" +
                   std::to_string(int(std::lround(m.confidence * 100))) + "%)";
        out += "<figure><img class=\"misclassified\" alt=\"" + htmlEscape(caption) + "\" src=\"data:image/png;base64," +
               base64Encode(encodeGreyPng(m.pixels.data(), m.width, m.height)) + "\"><figcaption>" +
               htmlEscape(caption) + "</figcaption></figure>\n";
    }
    return out + "</div>\n";
}
} // namespace

ReportInput readReportInput(const std::string& runPath)
{
    ReportInput in;
    in.run = readRun(runPath);
    if (in.run.damaged)
        throw IoError("the run " + in.run.path + " is damaged (" + in.run.damage + "): no report can be made");
    in.test = readTestRecord(in.run, in.testMissing);
    in.batches = readRunBatchCurve(in.run);
    const std::string weights = in.run.path + "/weights.tbw";
    std::error_code ec;
    if (!std::filesystem::exists(weights, ec)) {
        in.weightsFileProblem = "the run folder holds no weights.tbw (the run did not complete)";
    } else {
        try {
            in.weightsFileSha256 = sha256Hex(readWholeFile(weights));
        } catch (const Error& e) {
            in.weightsFileProblem = e.what();
        }
    }
    return in;
}

std::string runReportHtml(const ReportInput& in, const ReportLanguage& language)
{
    const Words say(language);
    // A phrase as HTML text, its arguments escaped.
    const auto html = [&say](const char* english, std::vector<std::string> args = {}) {
        for (std::string& a : args)
            a = htmlEscape(a);
        return fillArgs(textEscape(say(english)), args);
    };
    const RunSummary& run = in.run;
    const std::string title = html(QT_TRANSLATE_NOOP("RunReport", "Trainbench run %1"), {run.id});
    std::string h = "<!DOCTYPE html>\n<html lang=\"" + htmlEscape(language.lang) +
                    "\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title + "</title>\n<style>" + kStyle +
                    "</style>\n</head>\n<body>\n";
    const std::string status = say.value("Status", run.statusText());
    h += "<h1>" + title + "</h1>\n<p class=\"sub\">" +
         (run.date().empty()
              ? html(QT_TRANSLATE_NOOP("RunReport", "%1 on %2, %3 — %4"), {run.model, run.dataset, run.device, status})
              : html(QT_TRANSLATE_NOOP("RunReport", "%1 on %2, %3 — %4, %5 UTC"),
                     {run.model, run.dataset, run.device, status, run.date()})) +
         "</p>\n";

    h += "<div class=\"cards\">\n";
    h += card(say(QT_TRANSLATE_NOOP("RunReport", "Test accuracy")),
              run.test ? say.number(percent(run.test->accuracy)) : "–");
    h += card(say(QT_TRANSLATE_NOOP("RunReport", "Test loss")),
              run.test ? say.number(shortNumber(run.test->loss)) : "–");
    h += card(say(QT_TRANSLATE_NOOP("RunReport", "Epochs")),
              say(QT_TRANSLATE_NOOP("RunReport", "%1 of %2"),
                  {std::to_string(run.history.size()), std::to_string(run.epochs)}));
    h += card(say(QT_TRANSLATE_NOOP("RunReport", "Training time")), say.number(seconds(run.trainingSeconds())));
    h += "</div>\n";
    // Precise BN: the test figures above and the curves below are of different BatchNorm statistics.
    const std::string preciseBnNote =
        testAfterPreciseBn(run)
            ? "<p class=\"warn precise-bn\">" +
                  html(QT_TRANSLATE_NOOP("RunReport",
                                         "Precise BN recomputed BatchNorm's statistics over %1 training batches after "
                                         "training: the test figures are of the recomputed statistics; the curves "
                                         "and the epochs' validation figures are of those training left, before it."),
                       {std::to_string(run.config->preciseBnBatches)}) +
                  "</p>\n"
            : std::string();
    h += preciseBnNote;

    h += "<h2>" + html(QT_TRANSLATE_NOOP("RunReport", "Curves")) + "</h2>\n" + charts(run, in.batches, say);
    if (testAfterPreciseBn(run)) // said again under the curves it is about
        h += preciseBnNote;
    // A text run's samples/s count symbols (each of a sequence's steps is a prediction).
    h += "<h2>" + html(QT_TRANSLATE_NOOP("RunReport", "Epochs")) + "</h2>\n" +
         epochTable(run,
                    run.isText() ? say(QT_TRANSLATE_NOOP("RunReport", "Symbols/s"))
                                 : say(QT_TRANSLATE_NOOP("RunReport", "Images/s")),
                    say);
    h += "<h2 id=\"configuration\">" + html(QT_TRANSLATE_NOOP("RunReport", "Configuration")) + "</h2>\n" +
         table(say.rows(run.configurationRows()));
    const auto hardware = run.hardwareRows();
    h += "<h2>" + html(QT_TRANSLATE_NOOP("RunReport", "Hardware")) + "</h2>\n" +
         (hardware.empty()
              ? "<p>" + html(QT_TRANSLATE_NOOP("RunReport", "Not recorded (a run of an older Trainbench).")) + "</p>\n"
              : table(say.rows(hardware)));

    h += "<h2 id=\"weights\">" + html(QT_TRANSLATE_NOOP("RunReport", "Weights")) + "</h2>\n<table>\n";
    h += "<tr><th>" +
         fillArgs(textEscape(say(QT_TRANSLATE_NOOP("RunReport", "SHA-256 of the parameters (as %1 prints it)"))),
                  {"<code>trainbench-cli train</code>"}) +
         "</th><td><code class=\"params-sha256\">" +
         htmlEscape(run.weightsSha256.empty() ? say(QT_TRANSLATE_NOOP("RunReport", "not recorded"))
                                              : run.weightsSha256) +
         "</code></td></tr>\n";
    h += "<tr><th>" + html(QT_TRANSLATE_NOOP("RunReport", "SHA-256 of weights.tbw")) +
         "</th><td><code class=\"file-sha256\">" +
         htmlEscape(in.weightsFileSha256.empty() ? in.weightsFileProblem : in.weightsFileSha256) + "</code>";
    if (!in.weightsFileSha256.empty() && !run.weightsFileSha256.empty() &&
        in.weightsFileSha256 != run.weightsFileSha256)
        h += " <span class=\"warn\">" +
             html(QT_TRANSLATE_NOOP("RunReport", "(weights.tbw changed since the run ended: its SHA-256 then was %1)"),
                  {run.weightsFileSha256}) +
             "</span>";
    h += "</td></tr>\n";
    std::string files;
    for (const std::string& f : run.files)
        files += (files.empty() ? "" : ", ") + f;
    h += row(say(QT_TRANSLATE_NOOP("RunReport", "Files in the run folder")), files) +
         row(say(QT_TRANSLATE_NOOP("RunReport", "Run folder")), run.path) + "</table>\n";

    const std::string confusionHeading =
        "<h2 id=\"confusion\">" + html(QT_TRANSLATE_NOOP("RunReport", "Confusion matrix")) + "</h2>\n";
    if (in.test && in.test->symbols) {
        h += "<h2 id=\"mistakes\">" + html(QT_TRANSLATE_NOOP("RunReport", "Mistakes")) + "</h2>\n" +
             symbolMistakes(*in.test, say);
    } else if (in.test) {
        h += confusionHeading;
        h += confusionTable(*in.test, say);
        h += "<h2 id=\"misclassified\">" + html(QT_TRANSLATE_NOOP("RunReport", "Misclassified test images")) +
             "</h2>\n" + misclassifiedGrid(*in.test, say);
    } else {
        h += confusionHeading + "<p class=\"warn\">" + htmlEscape(in.testMissing) + ".</p>\n";
    }
    h += "<p class=\"sub\">" + html(QT_TRANSLATE_NOOP("RunReport", "Made by Trainbench from %1."), {run.path}) +
         "</p>\n</body>\n</html>\n";
    return h;
}

void writeRunReport(const std::string& runPath, const std::string& outPath)
{
    writeFileAtomically(outPath, runReportHtml(readReportInput(runPath)));
}

} // namespace tb
