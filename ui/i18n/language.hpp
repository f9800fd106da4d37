// The window's language: English (the source) or Spanish, picked from the system locale unless
// the Language menu overrode it (remembered in QSettings).
#pragma once

#include <QString>
#include <QStringList>

namespace tbui {

class Language {
public:
    static QStringList available();                 // "en", "es"
    static QString nativeName(const QString& code); // "English", "Español"
    static QString saved();                         // "" when following the system
    static QString effective();                     // the saved choice, else the system's if available, else "en"
    // Installs the translators for `code` ("" = system) and remembers the choice; widgets receive
    // QEvent::LanguageChange and retranslate themselves.
    static void apply(const QString& code);
};

} // namespace tbui
