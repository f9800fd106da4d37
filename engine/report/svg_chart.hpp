// Line charts as inline SVG text, for reports that open offline in any browser: axes with round
// ticks, one polyline per series and one marked point per value (its <title> gives the value on
// hover), or the polyline alone for a series of many points.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tb {

struct ChartSeries {
    std::string name;
    std::string colour;    // CSS colour
    std::vector<double> x; // epochs
    std::vector<double> y; // NaN: no point
    // A marked point per value (with its hover text), else the line alone: a per-batch line of
    // thousands of points, drawn thin under the epochs' marked ones.
    bool marked = true;
    double strokeWidth = 2;
};

// The words a chart writes besides its title and series names, in the report's language.
struct ChartWords {
    std::string noData = "no data";
    std::string xTitle = "epoch";
    std::string point = "%1, epoch %2: %3"; // a point's hover text: series, x, y
    // A number as the reader spells it ("0,25" for "0.25", ReportLanguage::number); null: as printed.
    // The points' data-value attributes keep the printed form.
    std::function<std::string(const std::string&)> number;
};

// Text is escaped; an empty or all-NaN chart says "no data".
std::string svgLineChart(const std::string& title, const std::vector<ChartSeries>& series, int width = 560,
                         int height = 300, const ChartWords& words = {});

// `text` with its %1 … %9 replaced by `args` in one pass (an argument's own "%2" stays as it is).
std::string fillArgs(const std::string& text, const std::vector<std::string>& args);

// Escapes &, <, >, " and ' for HTML and SVG text and attributes.
std::string htmlEscape(const std::string& text);

// A value as the report prints it: up to 4 significant digits.
std::string shortNumber(double v);

} // namespace tb
