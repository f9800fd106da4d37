#include "report/svg_chart.hpp"

#include "core/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tb {

namespace {
// Round tick spacing (1, 2 or 5 times a power of ten) for about `count` ticks over [lo, hi].
double tickStep(double lo, double hi, int count)
{
    const double raw = (hi - lo) / count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * magnitude)
            return m * magnitude;
    return 10 * magnitude;
}

} // namespace

std::string htmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string shortNumber(double v)
{
    if (!std::isfinite(v))
        return "–";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string fillArgs(const std::string& text, const std::vector<std::string>& args)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const size_t k = i + 1 < text.size() ? size_t(text[i + 1] - '1') : args.size();
        if (text[i] == '%' && k < args.size() && k < 9) {
            out += args[k];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string svgLineChart(const std::string& title, const std::vector<ChartSeries>& series, int width, int height,
                         const ChartWords& words)
{
    const double left = 58, right = 12, top = 30, bottom = 44;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const ChartSeries& s : series)
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (std::isfinite(s.y[i]) && std::isfinite(s.x[i])) {
                x0 = std::min(x0, s.x[i]);
                x1 = std::max(x1, s.x[i]);
                y0 = std::min(y0, s.y[i]);
                y1 = std::max(y1, s.y[i]);
            }
    std::string svg = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                      "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
                      std::to_string(height) + "\" role=\"img\" aria-label=\"" + htmlEscape(title) + "\">\n";
    svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"18\" text-anchor=\"middle\" class=\"title\">" +
           htmlEscape(title) + "</text>\n";
    if (!std::isfinite(x0)) {
        svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"" + std::to_string(height / 2) +
               "\" text-anchor=\"middle\">" + htmlEscape(words.noData) + "</text>\n</svg>\n";
        return svg;
    }
    if (y1 - y0 < 1e-12 * std::max(1.0, std::fabs(y1))) { // a flat line: give it some room
        const double pad = std::max(std::fabs(y0) * 0.05, 1e-6);
        y0 -= pad;
        y1 += pad;
    }
    const double yStep = tickStep(y0, y1, 5);
    y0 = std::floor(y0 / yStep) * yStep;
    y1 = std::ceil(y1 / yStep) * yStep;
    if (x1 <= x0)
        x1 = x0 + 1;
    const double plotW = width - left - right, plotH = height - top - bottom;
    auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * plotW; };
    auto py = [&](double y) { return top + (y1 - y) / (y1 - y0) * plotH; };

    const auto spelt = [&words](double v) { return words.number ? words.number(shortNumber(v)) : shortNumber(v); };
    svg += "<g class=\"axes\">\n";
    // At most a dozen ticks, whatever the values (a step lost in a huge value's rounding).
    int ticks = 0;
    for (double y = y0; y <= y1 + yStep * 0.5 && ticks < 12; y += yStep, ++ticks) {
        svg += "<line x1=\"" + fixedText(left) + "\" x2=\"" + fixedText(left + plotW) + "\" y1=\"" + fixedText(py(y)) +
               "\" y2=\"" + fixedText(py(y)) + "\" class=\"grid\"/>";
        svg += "<text x=\"" + fixedText(left - 6) + "\" y=\"" + fixedText(py(y) + 4) + "\" text-anchor=\"end\">" +
               spelt(std::fabs(y) < yStep * 1e-9 ? 0.0 : y) + "</text>\n";
    }
    const double xStep = std::max(1.0, tickStep(x0, x1, 8));
    ticks = 0;
    for (double x = std::ceil(x0 / xStep) * xStep; x <= x1 + 1e-9 && ticks < 12; x += xStep, ++ticks)
        svg += "<text x=\"" + fixedText(px(x)) + "\" y=\"" + fixedText(top + plotH + 16) +
               "\" text-anchor=\"middle\">" + spelt(x) + "</text>\n";
    svg += "<line x1=\"" + fixedText(left) + "\" x2=\"" + fixedText(left) + "\" y1=\"" + fixedText(top) + "\" y2=\"" +
           fixedText(top + plotH) + "\" class=\"axis\"/>";
    svg += "<line x1=\"" + fixedText(left) + "\" x2=\"" + fixedText(left + plotW) + "\" y1=\"" +
           fixedText(top + plotH) + "\" y2=\"" + fixedText(top + plotH) + "\" class=\"axis\"/>\n";
    svg += "<text x=\"" + fixedText(left + plotW / 2) + "\" y=\"" + fixedText(height - 8.0) +
           "\" text-anchor=\"middle\">" + htmlEscape(words.xTitle) + "</text>\n</g>\n";

    double legendX = left + 8;
    for (const ChartSeries& s : series) {
        const std::string colour = htmlEscape(s.colour);
        std::string points, marks;
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.y[i]))
                continue;
            points += fixedText(px(s.x[i])) + "," + fixedText(py(s.y[i])) + " ";
            if (s.marked)
                marks += "<circle cx=\"" + fixedText(px(s.x[i])) + "\" cy=\"" + fixedText(py(s.y[i])) +
                         "\" r=\"3\" fill=\"" + colour + "\" data-value=\"" + shortNumber(s.y[i]) + "\"><title>" +
                         htmlEscape(fillArgs(words.point, {s.name, spelt(s.x[i]), spelt(s.y[i])})) +
                         "</title></circle>";
        }
        svg += "<g class=\"series\" data-name=\"" + htmlEscape(s.name) + "\">\n<polyline fill=\"none\" stroke=\"" +
               colour + "\" stroke-width=\"" + shortNumber(s.strokeWidth) + "\" points=\"" + points + "\"/>\n" + marks +
               "\n</g>\n";
        svg += "<rect x=\"" + fixedText(legendX) + "\" y=\"" + fixedText(top + 4) +
               "\" width=\"12\" height=\"4\" fill=\"" + colour + "\"/><text x=\"" + fixedText(legendX + 16) +
               "\" y=\"" + fixedText(top + 10) + "\">" + htmlEscape(s.name) + "</text>\n";
        legendX += 24 + 7.0 * double(s.name.size());
    }
    svg += "</svg>\n";
    return svg;
}

} // namespace tb
