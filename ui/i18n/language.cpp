#include "i18n/language.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>
#include <QWidget>

// The .qm files are compiled into the static trainbench_ui library; a static library's resources
// must be registered explicitly (outside any namespace).
static void initTranslationResources()
{
    Q_INIT_RESOURCE(trainbench_ui_translations);
    Q_INIT_RESOURCE(trainbench_ui_plurals);
}

namespace tbui {

namespace {
const char* kLanguageKey = "ui/language";

QTranslator& appTranslator()
{
    static QTranslator t;
    return t;
}
QTranslator& qtTranslator()
{
    static QTranslator t;
    return t;
}
} // namespace

QStringList Language::available()
{
    return {QStringLiteral("en"), QStringLiteral("es")};
}

QString Language::nativeName(const QString& code)
{
    return code == QLatin1String("es") ? QStringLiteral("Español") : QStringLiteral("English");
}

QString Language::saved()
{
    return QSettings().value(kLanguageKey).toString();
}

QString Language::effective()
{
    const QString s = saved();
    if (available().contains(s))
        return s;
    const QString system = QLocale::system().name().left(2);
    return available().contains(system) ? system : QStringLiteral("en");
}

void Language::apply(const QString& code)
{
    static const bool registered = (initTranslationResources(), true);
    Q_UNUSED(registered);
    if (saved() != code) // the start-up's apply(saved()) writes nothing (nor does a screenshot tour's)
        QSettings().setValue(kLanguageKey, code);
    QCoreApplication::removeTranslator(&appTranslator());
    QCoreApplication::removeTranslator(&qtTranslator());
    const QString lang = effective();
    QLocale::setDefault(QLocale(lang == QLatin1String("es") ? QLocale::Spanish : QLocale::English));
    // English is the source language: its translation holds only the plural forms ("1 epoch", "2 epochs").
    if (appTranslator().load(QStringLiteral(":/i18n/trainbench_%1.qm").arg(lang)))
        QCoreApplication::installTranslator(&appTranslator());
    if (lang != QLatin1String("en") &&
        qtTranslator().load(QStringLiteral("qtbase_%1").arg(lang), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator());
    // Widgets keep the locale they were made with, and number fields (spin boxes) write by it: "0,80"
    // in Spanish. Children without a locale of their own take their window's.
    for (QWidget* w : QApplication::topLevelWidgets())
        w->setLocale(QLocale());
    // Windows receive LanguageChange as posted events; deliver them now so the switch is immediate.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
}

} // namespace tbui
