// The mouse wheel scrolls the page, not the fields it passes over: spin boxes and combo boxes take
// the wheel only once they have the focus (a click or Tab), the usual Qt remedy. Installed on the
// application, it covers every page, dialog and field made later.
#pragma once

#include <QObject>

namespace tbui {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Installs the application's one guard (idempotent).
    static void install();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace tbui
