// Answers the window's next modal box (Stop's question, Delete's confirmation) as the user would, by
// clicking its button named `name` as soon as the box is shown.
#pragma once

#include <QApplication>
#include <QPushButton>
#include <QString>
#include <QTimer>
#include <QWidget>

namespace fixtures {

inline void answerNextBox(const QString& name)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, name] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        if (auto* button = modal->findChild<QPushButton*>(name))
            button->click();
        timer->stop();
        timer->deleteLater();
    });
    timer->start();
}

} // namespace fixtures
