// Answers the window's next modal box (Stop's question, Delete's confirmation, a file dialog) as the
// user would, as soon as the box is shown.
#pragma once

#include <QApplication>
#include <QPushButton>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <functional>

namespace fixtures {

// Runs `act` on the next modal dialog once it shows (a QFileDialog or a QMessageBox).
inline void onNextModal(std::function<void(QWidget*)> act)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal || !modal->isVisible())
            return;
        timer->stop();
        timer->deleteLater();
        act(modal);
    });
    timer->start();
}

// Clicks the next modal box's button named `name`.
inline void answerNextBox(const QString& name)
{
    onNextModal([name](QWidget* modal) {
        if (auto* button = modal->findChild<QPushButton*>(name))
            button->click();
    });
}

} // namespace fixtures
