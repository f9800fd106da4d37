#include "results/confusion_matrix.hpp"

#include "common/text.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace tbui {

ConfusionMatrix::ConfusionMatrix(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(360, 300);
    setMouseTracking(false);
}

void ConfusionMatrix::setModel(const ResultsModel* model)
{
    m_model = model;
    update();
}

ConfusionMatrix::Geometry ConfusionMatrix::geometry(QSize size) const
{
    const int n = m_model ? std::max(1, m_model->classes()) : 10;
    // As wide as the longest row label, up to a third of the width (then the labels are cut).
    int labels = fontMetrics().horizontalAdvance(QStringLiteral("Ankle boot 0"));
    if (m_model && !m_model->isEmpty())
        for (int t = 0; t < n; ++t)
            labels = std::max(labels, fontMetrics().horizontalAdvance(rowLabel(t)));
    const int left = std::min(labels, size.width() / 3) + 14;
    const int top = fontMetrics().height() * 2 + 8;
    const int cell = std::max(
        12, std::min({56, (size.width() - left - 70) / n, (size.height() - top - fontMetrics().height() - 8) / n}));
    return {left, top, cell};
}

QString ConfusionMatrix::rowLabel(int cls) const
{
    // The column's number after the name ("Coat 4"), unless the name ends with it already: MNIST's
    // digits ("7", not "7 7") and numbered classes ("class 2", not "class 2 2").
    const QString name = className(m_model->data()->classNames, cls), number = QString::number(cls);
    if (name == number || name.endsWith(QLatin1Char(' ') + number))
        return name;
    return name + QLatin1Char(' ') + number;
}

void ConfusionMatrix::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, size(), false);
}

void ConfusionMatrix::paint(QPainter& p, QSize size, bool forExport) const
{
    const QRect area(QPoint(0, 0), size);
    p.fillRect(area, palette().color(QPalette::Base));
    if (!m_model || m_model->isEmpty()) {
        p.drawText(area, Qt::AlignCenter, tr("The confusion matrix appears after the first epoch."));
        return;
    }
    const ResultsModel& m = *m_model;
    const int n = m.classes();
    const Geometry g = geometry(size);
    int maxOff = 1, maxDiag = 1;
    for (int t = 0; t < n; ++t)
        for (int q = 0; q < n; ++q)
            (t == q ? maxDiag : maxOff) = std::max(t == q ? maxDiag : maxOff, m.confusion(t, q));
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * (g.cell < 34 ? 0.75 : 0.9));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(g.left, 0, g.cell * n, fontMetrics().height()), Qt::AlignCenter, tr("Predicted class"));
    p.drawText(QRect(g.left + g.cell * n, 0, 70, fontMetrics().height()), Qt::AlignCenter, tr("Accuracy"));
    for (int t = 0; t < n; ++t) {
        p.setFont(font());
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, g.top + t * g.cell, g.left - 6, g.cell), Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(rowLabel(t), Qt::ElideMiddle, g.left - 6));
        p.setFont(small);
        p.drawText(QRect(g.left + t * g.cell, fontMetrics().height() + 2, g.cell, fontMetrics().height() + 4),
                   Qt::AlignCenter, QString::number(t));
        for (int q = 0; q < n; ++q) {
            const int v = m.confusion(t, q);
            // Correct answers in blue, mistakes in red, each scaled to its own maximum.
            const double a = t == q ? double(v) / maxDiag : double(v) / maxOff;
            const QColor c = t == q ? QColor::fromRgbF(1 - 0.75 * a, 1 - 0.45 * a, 1 - 0.1 * a)
                                    : QColor::fromRgbF(1 - 0.1 * a, 1 - 0.7 * a, 1 - 0.7 * a);
            const QRect r(g.left + q * g.cell, g.top + t * g.cell, g.cell, g.cell);
            p.fillRect(r, v ? c : palette().color(QPalette::Base));
            p.setPen(QColor(220, 220, 220));
            p.drawRect(r);
            if (v) {
                p.setPen(a > 0.6 ? Qt::white : Qt::black);
                p.drawText(r, Qt::AlignCenter, QString::number(v));
            }
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(g.left + n * g.cell + 4, g.top + t * g.cell, 66, g.cell), Qt::AlignLeft | Qt::AlignVCenter,
                   formatPercent(m.classAccuracy(t), 1));
    }
    p.setFont(font());
    // Under the matrix, wrapped within the widget (centred on the matrix it overflowed both sides).
    p.drawText(QRect(4, g.top + n * g.cell + 4, size.width() - 8, size.height() - (g.top + n * g.cell + 4)),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               forExport ? tr("Rows: true class.") : tr("Rows: true class. Click a cell to see its images."));
}

void ConfusionMatrix::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_model || m_model->isEmpty())
        return;
    const Geometry g = geometry(size());
    const int q = (int(event->position().x()) - g.left) / g.cell;
    const int t = (int(event->position().y()) - g.top) / g.cell;
    if (event->position().x() >= g.left && event->position().y() >= g.top && q < m_model->classes() &&
        t < m_model->classes())
        emit cellClicked(t, q);
}

QImage ConfusionMatrix::renderImage() const
{
    const QSize out = size().expandedTo(sizeHint());
    QImage img(out, QImage::Format_RGB32);
    QPainter p(&img);
    p.setFont(font());
    paint(p, out, true);
    return img;
}

} // namespace tbui
