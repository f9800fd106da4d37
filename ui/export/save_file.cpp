#include "export/save_file.hpp"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace tbui {

namespace {
QString couldNotWrite(const QString& path, const QString& why)
{
    return QCoreApplication::translate("tbui::SaveFile", "Could not write %1: %2").arg(path, why);
}
} // namespace

QString saveBytes(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return couldNotWrite(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return couldNotWrite(path, why);
    }
    if (!file.commit())
        return couldNotWrite(path, file.errorString());
    return {};
}

QString saveImage(const QString& path, const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return QCoreApplication::translate("tbui::SaveFile", "Could not encode the image for %1").arg(path);
    return saveBytes(path, bytes);
}

QString saveSvgFile(const QString& path, QSize size, const QString& title, const std::function<void(QPainter&)>& paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Trainbench"));
    {
        QPainter painter(&svg);
        paint(painter);
    }
    return saveBytes(path, bytes);
}

} // namespace tbui
