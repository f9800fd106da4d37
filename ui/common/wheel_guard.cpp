#include "common/wheel_guard.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>

namespace tbui {

namespace {
bool isGuarded(QObject* o)
{
    return qobject_cast<QAbstractSpinBox*>(o) || qobject_cast<QComboBox*>(o);
}
} // namespace

void WheelGuard::install()
{
    if (qApp->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly))
        return;
    qApp->installEventFilter(new WheelGuard(qApp));
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Polish && isGuarded(watched)) {
        // Qt's default for spin boxes is WheelFocus: the wheel would focus the field, then change it.
        auto* w = static_cast<QWidget*>(watched);
        if (w->focusPolicy() == Qt::WheelFocus)
            w->setFocusPolicy(Qt::StrongFocus);
    } else if (event->type() == QEvent::Wheel && isGuarded(watched) && !static_cast<QWidget*>(watched)->hasFocus()) {
        event->ignore(); // goes on to the scroll area under the pointer
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace tbui
