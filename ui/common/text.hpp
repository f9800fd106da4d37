// Small conversions between the engine's std::string world and Qt's, and display formatting.
#pragma once

#include <QString>

#include <cstdint>
#include <string>

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

} // namespace tbui
