// The save dialogs of every export: they open in the folder of the last export (else Documents),
// add the format's extension when the name lacks it, and remember the folder for next time.
#pragma once

#include <QString>

class QWidget;

namespace tbui {

// Returns the chosen path with `suffix` ("csv", "png", "tbw") ensured, or an empty string.
QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter,
                    const QString& suffix);
QString askExportFolder(QWidget* parent, const QString& title);

// `path` with ".suffix" appended unless it already ends so (case-insensitive).
QString withSuffix(const QString& path, const QString& suffix);
// Where the next export dialog opens.
QString exportFolder();

} // namespace tbui
