// Writing exports atomically, through the engine's writeFileAtomically: the bytes go to a temporary
// file that replaces the target only when complete, so a failure (no permission, disk full) leaves no
// half-written file, and its message names the system's reason ("No space left on device"). Images and
// SVG documents are encoded in memory first. A set of files (the charts' PNG and SVG) is written whole
// or not at all.
#pragma once

#include <QByteArray>
#include <QList>
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

// The encodings the savers write; an empty array when the image cannot be encoded.
QByteArray pngBytes(const QImage& image);
QByteArray svgBytes(QSize size, const QString& title, const std::function<void(QPainter&)>& paint);

struct FileToSave {
    QString path;
    QByteArray bytes;
};
// Writes every file of `files` or none: each is first written whole beside its target under a hidden
// name, and only when all are on disk are they renamed over their targets (a rename needs no space).
// A failure removes what it wrote and leaves the targets as they were; a target that cannot be
// replaced (a folder) stops the set before anything is written. A symbolic link's target is what gets
// replaced, and a device or FIFO is written through, last, as saveBytes does. Returns an empty string
// on success, else the failure, naming the file, and what became of the set.
QString saveFileSet(const QList<FileToSave>& files);

} // namespace tbui
