// What every test of the window does first and last.
#pragma once

#include "i18n/language.hpp"

#include <QCoreApplication>
#include <QFile>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTest>

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

// A test in both of the window's languages: its _data function calls bothLanguages, the test
// `const auto back = inRowLanguage();` (the window in the row's language, English again after).
inline void bothLanguages()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QStringLiteral("en");
    QTest::newRow("Spanish") << QStringLiteral("es");
}
[[nodiscard]] inline auto inRowLanguage()
{
    QFETCH(QString, language);
    tbui::Language::apply(language);
    return qScopeGuard([] { tbui::Language::apply(QStringLiteral("en")); });
}

// Removes the settings file beginWindowTest made.
inline void endWindowTest()
{
    const QString file = QSettings().fileName();
    QSettings().clear();
    QFile::remove(file);
}

} // namespace fixtures
