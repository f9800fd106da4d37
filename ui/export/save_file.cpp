#include "export/save_file.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/atomic_file.hpp"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QStringList>
#include <QSvgGenerator>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <unistd.h>

namespace tbui {

namespace {
QString translated(const char* english)
{
    return QCoreApplication::translate("tbui::SaveFile", english);
}
} // namespace

QString saveBytes(const QString& path, const QByteArray& bytes)
{
    // QSaveFile said "Unknown error" on a full disk: a write that stores part of its bytes sets no
    // error, and the next one's errno was not kept. The engine's writer names the reason.
    try {
        tb::writeFileAtomically(ss(path), bytes.toStdString());
    } catch (const std::exception& e) {
        return EngineText::of(e);
    }
    return {};
}

QByteArray pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return {};
    return bytes;
}

QString saveImage(const QString& path, const QImage& image)
{
    const QByteArray bytes = pngBytes(image);
    if (bytes.isEmpty())
        return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "Could not encode the image for %1")).arg(path);
    return saveBytes(path, bytes);
}

QByteArray svgBytes(QSize size, const QString& title, const std::function<void(QPainter&)>& paint)
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
    return bytes;
}

QString saveSvgFile(const QString& path, QSize size, const QString& title, const std::function<void(QPainter&)>& paint)
{
    return saveBytes(path, svgBytes(size, title, paint));
}

QString saveFileSet(const QList<FileToSave>& files)
{
    // Hidden, beside its target (a rename does not cross file systems), and this process's own.
    const auto staged = [](const QString& path) {
        const QFileInfo info(path);
        return QDir(info.path()).filePath(QStringLiteral(".%1.part-%2").arg(info.fileName()).arg(qint64(::getpid())));
    };
    const auto names = [](const QStringList& paths) {
        QStringList out;
        for (const QString& p : paths)
            out << QFileInfo(p).fileName();
        return out.join(QStringLiteral(", "));
    };
    QStringList written; // staged files on disk
    const auto removeStaged = [&] {
        for (const QString& s : written)
            ::unlink(ss(s).c_str());
    };
    for (const FileToSave& f : files) {
        const QString stage = staged(f.path);
        if (f.bytes.isEmpty()) {
            removeStaged();
            return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "Could not encode the image for %1")).arg(f.path);
        }
        try {
            tb::writeFileAtomically(ss(stage), f.bytes.toStdString());
        } catch (const std::exception& e) {
            removeStaged();
            // The message names the file the user asked for, not its hidden stage.
            QString why = qs(e.what());
            why.replace(stage, f.path);
            const QString error = EngineText::english(why);
            if (files.size() < 2)
                return error;
            return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "%1. None of the %2 files was written; the "
                                                                  "folder is as it was."))
                .arg(error)
                .arg(files.size());
        }
        written << stage;
    }
    QStringList done, left;
    QString firstError;
    for (const FileToSave& f : files) {
        const QString stage = staged(f.path);
        if (std::rename(ss(stage).c_str(), ss(f.path).c_str()) == 0) {
            done << f.path;
            continue;
        }
        const int err = errno;
        ::unlink(ss(stage).c_str());
        left << f.path;
        if (firstError.isEmpty())
            firstError = EngineText::english(
                qs("cannot write " + ss(f.path) + ": " + std::strerror(err) + "; nothing was written"));
    }
    if (left.isEmpty())
        return {};
    // A rename failed after the others replaced their targets: say exactly which are new.
    return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "%1. Written: %2. Not written: %3."))
        .arg(firstError, done.isEmpty() ? translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "none")) : names(done),
             names(left));
}

} // namespace tbui
