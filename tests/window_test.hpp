// What every test of the window does first and last.
#pragma once

#include "i18n/language.hpp"

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

namespace fixtures {

// A settings file of this process's own, cleared (two tests at once, or another worktree's, must not
// clear each other's remembered geometry or language); the window in English; and, when `dataHome`
// is given, run folders (defaultRunsDir) under it instead of the user's data directory.
inline void beginWindowTest(const char* name, const QString& dataHome = {})
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TrainbenchTest"));
    QCoreApplication::setApplicationName(
        QStringLiteral("%1-%2").arg(QLatin1String(name)).arg(QCoreApplication::applicationPid()));
    QSettings().clear();
    tbui::Language::apply(QStringLiteral("en"));
    if (!dataHome.isEmpty())
        qputenv("XDG_DATA_HOME", dataHome.toUtf8());
}

// Removes the settings file beginWindowTest made.
inline void endWindowTest()
{
    const QString file = QSettings().fileName();
    QSettings().clear();
    QFile::remove(file);
}

} // namespace fixtures
