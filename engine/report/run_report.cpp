#include "report/run_report.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "data/text_dataset.hpp"
#include "io/png_writer.hpp"
#include "report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace tb {

namespace {
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

std::string charts(const RunSummary& run)
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
    return "<div class=\"charts\">\n" +
           svgLineChart("Loss", {{"train", train, epoch, loss}, {"validation", val, epoch, valLoss}}) +
           svgLineChart("Accuracy", {{"train", train, epoch, acc}, {"validation", val, epoch, valAcc}}) +
           svgLineChart("Learning rate", {{"learning rate", "#8250df", epoch, rate}}) +
           svgLineChart("Epoch time (s)", {{"seconds", "#1a7f37", epoch, time}}) + "</div>\n";
}

// `perSecond`: what the epochs' throughput counts ("Images/s", a text run's "Symbols/s").
std::string epochTable(const RunSummary& run, const std::string& perSecond)
{
    std::string out = "<table>\n<tr><th>Epoch</th><th>Loss</th><th>Accuracy</th><th>Val. loss</th><th>Val. "
                      "accuracy</th><th>Learning rate</th><th>Seconds</th><th>" +
                      perSecond + "</th></tr>\n";
    for (const EpochRecord& e : run.history) {
        out += "<tr><td class=\"n\">" + std::to_string(e.epoch) + "</td>";
        for (double v : {e.loss, e.accuracy, e.valLoss, e.valAccuracy, e.learningRate, e.seconds})
            out += "<td class=\"n\">" + shortNumber(v) + "</td>";
        out += "<td class=\"n\">" +
               (std::isfinite(e.samplesPerSec) ? std::to_string(std::lround(e.samplesPerSec)) : "–") + "</td></tr>\n";
    }
    return out + "</table>\n";
}

std::string confusionTable(const TestRecord& t)
{
    const int k = t.classes();
    std::string out = "<p>Rows: the true class; columns: the model's prediction. " + std::to_string(t.samples) +
                      " test images.</p>\n<table class=\"confusion\">\n<tr><th></th>";
    for (const std::string& name : t.classNames)
        out += "<th>" + htmlEscape(name) + "</th>";
    out += "<th>total</th></tr>\n";
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
std::string symbolMistakes(const TestRecord& t)
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
    std::string out = "<p>" + std::to_string(t.misclassifiedCount) + " of " + std::to_string(t.samples) +
                      " predicted symbols of the validation text are wrong. The most frequent mistakes (of " +
                      std::to_string(cells.size()) + " kinds):</p>\n";
    out += "<table class=\"mistakes\">\n<tr><th>True symbol</th><th>Predicted</th><th>Count</th><th>Share of the "
           "true symbol's predictions</th></tr>\n";
    for (size_t i = 0; i < cells.size() && i < size_t(kShown); ++i) {
        const auto [r, c] = cells[i];
        out += "<tr><td><code>" + htmlEscape(labels[size_t(r)]) + "</code></td><td><code>" +
               htmlEscape(labels[size_t(c)]) + "</code></td><td class=\"n\">" + std::to_string(count(cells[i])) +
               "</td><td class=\"n\">" + percent(double(count(cells[i])) / double(rowTotal[size_t(r)])) +
               "</td></tr>\n";
    }
    return out + "</table>\n";
}

std::string misclassifiedGrid(const TestRecord& t)
{
    std::string out = "<p>" + std::to_string(t.misclassifiedCount) + " of " + std::to_string(t.samples) +
                      " test images are misclassified";
    if (int(t.misclassified.size()) < t.misclassifiedCount)
        out += "; the " + std::to_string(t.misclassified.size()) + " the model was surest of are shown";
    out += ". Most confident mistakes first, as in the window. Each: test index, true class → predicted class (the "
           "model's confidence).</p>\n<div class=\"grid-images\">\n";
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

std::string runReportHtml(const ReportInput& in)
{
    const RunSummary& run = in.run;
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Trainbench run " +
                    htmlEscape(run.id) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    h += "<h1>Trainbench run " + htmlEscape(run.id) + "</h1>\n<p class=\"sub\">" + htmlEscape(run.model) + " on " +
         htmlEscape(run.dataset) + ", " + htmlEscape(run.device) + " — " + htmlEscape(runStatusName(run.status)) +
         (run.date().empty() ? "" : ", " + htmlEscape(run.date()) + " UTC") + "</p>\n";

    h += "<div class=\"cards\">\n";
    h += card("Test accuracy", run.test ? percent(run.test->accuracy) : "–");
    h += card("Test loss", run.test ? shortNumber(run.test->loss) : "–");
    h += card("Epochs", std::to_string(run.history.size()) + " of " + std::to_string(run.epochs));
    h += card("Training time", seconds(run.trainingSeconds()));
    h += "</div>\n";

    h += "<h2>Curves</h2>\n" + charts(run);
    // A text run's samples/s count symbols (each of a sequence's steps is a prediction).
    h += "<h2>Epochs</h2>\n" + epochTable(run, run.isText() ? "Symbols/s" : "Images/s");
    h += "<h2 id=\"configuration\">Configuration</h2>\n" + table(run.configurationRows());
    const auto hardware = run.hardwareRows();
    h += "<h2>Hardware</h2>\n" +
         (hardware.empty() ? std::string("<p>Not recorded (a run of an older Trainbench).</p>\n") : table(hardware));

    h += "<h2 id=\"weights\">Weights</h2>\n<table>\n";
    h += "<tr><th>SHA-256 of the parameters (as <code>trainbench-cli train</code> prints it)</th><td><code "
         "class=\"params-sha256\">" +
         htmlEscape(run.weightsSha256.empty() ? "not recorded" : run.weightsSha256) + "</code></td></tr>\n";
    h += "<tr><th>SHA-256 of weights.tbw</th><td><code class=\"file-sha256\">" +
         htmlEscape(in.weightsFileSha256.empty() ? in.weightsFileProblem : in.weightsFileSha256) + "</code>";
    if (!in.weightsFileSha256.empty() && !run.weightsFileSha256.empty() &&
        in.weightsFileSha256 != run.weightsFileSha256)
        h += " <span class=\"warn\">(weights.tbw changed since the run ended: its SHA-256 then was " +
             htmlEscape(run.weightsFileSha256) + ")</span>";
    h += "</td></tr>\n";
    std::string files;
    for (const std::string& f : run.files)
        files += (files.empty() ? "" : ", ") + f;
    h += row("Files in the run folder", files) + row("Run folder", run.path) + "</table>\n";

    if (in.test && in.test->symbols) {
        h += "<h2 id=\"mistakes\">Mistakes</h2>\n" + symbolMistakes(*in.test);
    } else if (in.test) {
        h += "<h2 id=\"confusion\">Confusion matrix</h2>\n";
        h += confusionTable(*in.test);
        h += "<h2 id=\"misclassified\">Misclassified test images</h2>\n" + misclassifiedGrid(*in.test);
    } else {
        h += "<h2 id=\"confusion\">Confusion matrix</h2>\n<p class=\"warn\">" + htmlEscape(in.testMissing) + ".</p>\n";
    }
    h += "<p class=\"sub\">Made by Trainbench from " + htmlEscape(run.path) + ".</p>\n</body>\n</html>\n";
    return h;
}

void writeRunReport(const std::string& runPath, const std::string& outPath)
{
    writeFileAtomically(outPath, runReportHtml(readReportInput(runPath)));
}

} // namespace tb
