// The save dialogs of every export: they open in the folder of the last export (else Documents),
// give the file the extension of the format the user chose (the filter, or the extension typed),
// and remember the folder for next time.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace tbui {

// `filter` is one or more "Description (*.ext)" entries joined by ";;"; `fileName` the proposed
// name. Returns the chosen path, ending in the extension of one of the filters, or an empty string:
// a typed name that ends in one of the filters' extensions keeps it, any other name gets the
// extension of the filter selected in the dialog.
QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter);
QString askExportFolder(QWidget* parent, const QString& title);

// Test seam: the widget-based dialog instead of the platform's, so that a test can pick a filter
// and type a name as a user does.
void setNativeFileDialogs(bool native);

// The extension ("csv", "safetensors") of each filter entry, in order; empty for "All files (*)".
QStringList filterSuffixes(const QString& filter);
// `path` given the extension its name or `selectedSuffix` calls for (see askSavePath).
QString pathForFilters(const QString& path, const QStringList& suffixes, const QString& selectedSuffix);
// `path` with ".suffix" appended unless it already ends so (case-insensitive).
QString withSuffix(const QString& path, const QString& suffix);
// Where the next export dialog opens.
QString exportFolder();

} // namespace tbui
