// Writing exports atomically: the bytes go to a temporary file that replaces the target only when
// complete (QSaveFile), so a failure (no permission, disk full) leaves no half-written file.
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>

class QImage;
class QPainter;

namespace tbui {

// Returns an empty string on success, else a message naming the file and the reason.
QString saveBytes(const QString& path, const QByteArray& bytes);
QString saveImage(const QString& path, const QImage& image); // PNG
// Renders `paint` into an SVG document of `size` and saves it.
QString saveSvgFile(const QString& path, QSize size, const QString& title, const std::function<void(QPainter&)>& paint);

} // namespace tbui
