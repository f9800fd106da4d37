#include "export/export_dialog.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace tbui {

namespace {
const char* kFolderKey = "export/folder";
bool g_native = true;

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

void setNativeFileDialogs(bool native)
{
    g_native = native;
}

QStringList filterSuffixes(const QString& filter)
{
    static const QRegularExpression ext(QStringLiteral("\\(\\*\\.([A-Za-z0-9]+)"));
    QStringList out;
    for (const QString& entry : filter.split(QStringLiteral(";;"))) {
        const QRegularExpressionMatch m = ext.match(entry);
        out << (m.hasMatch() ? m.captured(1) : QString());
    }
    return out;
}

QString pathForFilters(const QString& path, const QStringList& suffixes, const QString& selectedSuffix)
{
    if (path.isEmpty())
        return path;
    const QString typed = QFileInfo(path).suffix();
    for (const QString& s : suffixes)
        if (!s.isEmpty() && typed.compare(s, Qt::CaseInsensitive) == 0)
            return path; // the name says which format: it wins over the filter left selected
    return selectedSuffix.isEmpty() ? path : withSuffix(path, selectedSuffix);
}

QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter)
{
    QFileDialog dialog(parent, title, QDir(exportFolder()).filePath(fileName), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    if (!g_native)
        dialog.setOption(QFileDialog::DontUseNativeDialog);
    const QStringList filters = filter.split(QStringLiteral(";;"));
    const QStringList suffixes = filterSuffixes(filter);
    // The proposed name's format is the filter shown first.
    const int proposed = std::max<qsizetype>(0, suffixes.indexOf(QFileInfo(fileName).suffix()));
    dialog.selectNameFilter(filters.value(proposed));
    // The dialog adds the selected filter's extension to a bare name, and asks before overwriting
    // the file that will really be written.
    auto suffixOf = [&](const QString& nameFilter) {
        return suffixes.value(std::max<qsizetype>(0, filters.indexOf(nameFilter)));
    };
    dialog.setDefaultSuffix(suffixOf(dialog.selectedNameFilter()));
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog,
                     [&](const QString& f) { dialog.setDefaultSuffix(suffixOf(f)); });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    const QString path =
        pathForFilters(dialog.selectedFiles().first(), suffixes, suffixOf(dialog.selectedNameFilter()));
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
