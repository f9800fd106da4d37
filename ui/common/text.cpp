#include "common/text.hpp"

#include <QLocale>

namespace tbui {

QString formatBytes(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

QString formatCount(int64_t n)
{
    return QLocale().toString(qlonglong(n));
}

} // namespace tbui
