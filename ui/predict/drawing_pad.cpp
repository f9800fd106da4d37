// DrawingPad (drawing_pad.hpp).
#include "predict/drawing_pad.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace tbui {

DrawingPad::DrawingPad(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(200, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_AcceptTouchEvents, false); // touch arrives as synthesized mouse events
    setCursor(Qt::CrossCursor);
    m_picture = QImage(kSheetSide, kSheetSide, QImage::Format_ARGB32);
    m_picture.fill(Qt::white);
}

void DrawingPad::setPicture(const QImage& picture)
{
    pushUndo();
    m_picture = picture.convertToFormat(QImage::Format_ARGB32);
    update();
    emit changed();
}

void DrawingPad::clear()
{
    pushUndo();
    m_picture = QImage(kSheetSide, kSheetSide, QImage::Format_ARGB32);
    m_picture.fill(Qt::white);
    update();
    emit changed();
}

void DrawingPad::undo()
{
    if (m_undo.empty())
        return;
    m_picture = m_undo.back();
    m_undo.pop_back();
    update();
    emit changed();
}

void DrawingPad::setBrushSize(int pixels)
{
    m_brush = qBound(1, pixels, 100);
}

void DrawingPad::pushUndo()
{
    m_undo.push_back(m_picture);
    if (m_undo.size() > kUndoDepth)
        m_undo.erase(m_undo.begin());
}

QRectF DrawingPad::target() const
{
    const QSizeF avail = QSizeF(size()) - QSizeF(4, 4);
    QSizeF s = QSizeF(m_picture.size()).scaled(avail, Qt::KeepAspectRatio);
    return QRectF(QPointF((width() - s.width()) / 2, (height() - s.height()) / 2), s);
}

QPointF DrawingPad::toSheet(QPointF p) const
{
    const QRectF t = target();
    return {(p.x() - t.left()) * m_picture.width() / t.width(), (p.y() - t.top()) * m_picture.height() / t.height()};
}

void DrawingPad::segment(QPointF from, QPointF to)
{
    QPainter painter(&m_picture);
    painter.setRenderHint(QPainter::Antialiasing);
    // The brush is sized for the 280x280 sheet (MNIST's strokes are about 2 of 20 pixels): on a
    // larger picture it grows with it, so the stroke keeps its share of the digit.
    const qreal scale = qreal(std::max(m_picture.width(), m_picture.height())) / kSheetSide;
    painter.setPen(QPen(Qt::black, m_brush * scale, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    if (from == to)
        painter.drawPoint(from);
    else
        painter.drawLine(from, to);
    update();
    emit changed();
}

void DrawingPad::drawStroke(const std::vector<QPointF>& points)
{
    if (points.empty())
        return;
    pushUndo();
    segment(points.front(), points.front());
    for (size_t i = 1; i < points.size(); ++i)
        segment(points[i - 1], points[i]);
}

void DrawingPad::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    const QRectF t = target();
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(t, m_picture);
    painter.setPen(QPen(palette().mid().color(), 1));
    painter.drawRect(t.adjusted(-0.5, -0.5, 0.5, 0.5));
}

void DrawingPad::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    pushUndo();
    m_drawing = true;
    m_last = toSheet(event->position());
    segment(m_last, m_last);
}

void DrawingPad::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_drawing)
        return;
    const QPointF p = toSheet(event->position());
    segment(m_last, p);
    m_last = p;
}

void DrawingPad::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        m_drawing = false;
}

} // namespace tbui
