#include "export/export_dialog.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace tbui {

namespace {
const char* kFolderKey = "export/folder";

void rememberFolder(const QString& folder)
{
    QSettings().setValue(kFolderKey, folder);
}
} // namespace

QString withSuffix(const QString& path, const QString& suffix)
{
    if (path.isEmpty() || QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) == 0)
        return path;
    return path + QLatin1Char('.') + suffix;
}

QString exportFolder()
{
    const QString saved = QSettings().value(kFolderKey).toString();
    if (!saved.isEmpty() && QFileInfo(saved).isDir())
        return saved;
    const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(docs).isDir() ? docs : QDir::homePath();
}

QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter,
                    const QString& suffix)
{
    QFileDialog dialog(parent, title, QDir(exportFolder()).filePath(fileName), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix); // the dialog adds it to a bare name, and asks before overwriting
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    const QString path = withSuffix(dialog.selectedFiles().first(), suffix);
    rememberFolder(QFileInfo(path).absolutePath());
    return path;
}

QString askExportFolder(QWidget* parent, const QString& title)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, title, exportFolder());
    if (!dir.isEmpty())
        rememberFolder(dir);
    return dir;
}

} // namespace tbui
