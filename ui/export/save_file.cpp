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
    // Where each file's bytes go: a symbolic link's target (the link stays a link, as saveBytes keeps
    // it), and its hidden stage beside it (a rename does not cross file systems), this process's own,
    // its name cut to fit the folder's 255 bytes.
    const auto target = [](const QString& path) {
        const QFileInfo info(path);
        return info.isSymLink() ? info.symLinkTarget() : path;
    };
    const auto staged = [](const QString& path) {
        const QFileInfo info(path);
        const QByteArray suffix = QStringLiteral(".part-%1").arg(qint64(::getpid())).toUtf8();
        QByteArray name = info.fileName().toUtf8();
        if (1 + name.size() + suffix.size() > 255) { // cut at a character's start
            qsizetype end = 255 - 1 - suffix.size();
            while (end > 0 && (uchar(name[end]) & 0xc0) == 0x80)
                --end;
            name.truncate(end);
        }
        return QDir(info.path()).filePath(QString::fromUtf8("." + name + suffix));
    };
    const auto names = [](const QStringList& paths) {
        QStringList out;
        for (const QString& p : paths)
            out << QFileInfo(p).fileName();
        return out.join(QStringLiteral(", "));
    };
    const auto noneWritten = [&](const QString& error) {
        if (files.size() < 2)
            return error;
        return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "%1. None of the %2 files was written; the "
                                                              "folder is as it was."))
            .arg(error)
            .arg(files.size());
    };
    // A target that cannot be replaced (a folder, a link that cannot be followed, a folder that cannot
    // be written) stops the set before anything is staged; a device or FIFO is written through, last.
    QList<FileToSave> regular, streams;
    for (const FileToSave& f : files) {
        if (f.bytes.isEmpty())
            return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "Could not encode the image for %1")).arg(f.path);
        if (const std::string why = tb::unwritableReason(ss(f.path)); !why.empty())
            return noneWritten(EngineText::english(qs("cannot write " + ss(f.path) + ": " + why)));
        const QFileInfo info(target(f.path));
        (info.exists() && !info.isFile() ? streams : regular) << f;
    }
    QStringList written; // staged files on disk
    const auto removeStaged = [&] {
        for (const QString& s : written)
            ::unlink(ss(s).c_str());
    };
    for (const FileToSave& f : regular) {
        const QString stage = staged(target(f.path));
        try {
            tb::writeFileAtomically(ss(stage), f.bytes.toStdString());
        } catch (const std::exception& e) {
            removeStaged();
            // The message names the file the user asked for, not its hidden stage.
            QString why = qs(e.what());
            why.replace(stage, f.path);
            return noneWritten(EngineText::english(why));
        }
        written << stage;
    }
    QStringList done, left;
    QString firstError;
    for (const FileToSave& f : regular) {
        const QString stage = staged(target(f.path));
        if (std::rename(ss(stage).c_str(), ss(target(f.path)).c_str()) == 0) {
            done << f.path;
            continue;
        }
        const int err = errno;
        ::unlink(ss(stage).c_str());
        left << f.path;
        if (firstError.isEmpty())
            firstError = EngineText::english(qs("cannot write " + ss(f.path) + ": " + std::strerror(err)));
    }
    for (const FileToSave& f : streams) {
        if (const QString error = saveBytes(f.path, f.bytes); !error.isEmpty()) {
            left << f.path;
            if (firstError.isEmpty())
                firstError = error;
        } else {
            done << f.path;
        }
    }
    if (left.isEmpty())
        return {};
    // A rename failed after the others replaced their targets: say exactly which are new.
    return translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "%1. Written: %2. Not written: %3."))
        .arg(firstError, done.isEmpty() ? translated(QT_TRANSLATE_NOOP("tbui::SaveFile", "none")) : names(done),
             names(left));
}

} // namespace tbui
