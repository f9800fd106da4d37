// Small conversions between the engine's std::string world and Qt's, and display formatting.
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace tbui {

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
inline std::string ss(const QString& s)
{
    return s.toStdString();
}

QString formatBytes(int64_t bytes); // "1.4 GB", "512 MB"
QString formatCount(int64_t n);     // "60,000" in the current locale
// `v` with `decimals` decimals in the current locale ("46.9", Spanish "46,9"), the run log's
// Keras-style lines included.
QString formatNumber(double v, int decimals);
// A fraction as a percentage with `decimals` decimals in the current locale: 0.8677 → "86.77%",
// Spanish "86,77 %".
QString formatPercent(double fraction, int decimals);
QString percentOf(const QString& number); // "12" → "12%", Spanish "12 %"

// `text` as one line of a table's cell: each control character (a newline in a dataset's path written
// in run.json, an escape sequence in a damaged record) and line or paragraph separator is shown as '?',
// as the CLI's `runs list` shows them, so that it cannot break the row.
QString cellText(QString text);

// `text` ended as a sentence, for another to follow it: the engine's messages have no full stop
// ("… is empty" → "… is empty.").
QString asSentence(const QString& text);

// The name of class `c` as shown: a known dataset's class names (Fashion-MNIST's) and the engine's
// generic ones ("class 3") in the window's language, any other name as the dataset gives it, the number
// when there is none.
QString className(const std::vector<std::string>& names, int c);

} // namespace tbui
