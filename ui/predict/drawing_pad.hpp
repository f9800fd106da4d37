// The Predict page's drawing pad: black ink on a white sheet, drawn with the mouse, a pen or a
// finger (Qt turns unhandled tablet and touch input into mouse events), with a brush size, undo
// and clear. An opened picture becomes the sheet, at its own resolution, and can be drawn on too.
#pragma once

#include <QImage>
#include <QWidget>

#include <vector>

namespace tbui {

class DrawingPad : public QWidget {
    Q_OBJECT
public:
    explicit DrawingPad(QWidget* parent = nullptr);

    const QImage& picture() const { return m_picture; }
    void setPicture(const QImage& picture); // undoable
    void clear();                           // a blank sheet; undoable
    void undo();
    bool canUndo() const { return !m_undo.empty(); }
    int brushSize() const { return m_brush; }
    void setBrushSize(int pixels); // on the 280x280 sheet (scaled with a larger picture)
    // A stroke through `points` in the sheet's coordinates (tests and the screenshot tour draw with it).
    void drawStroke(const std::vector<QPointF>& points);

    QSize sizeHint() const override { return {320, 320}; }
    static constexpr int kSheetSide = 280;

signals:
    void changed(); // the picture changed (while drawing: every stroke segment)

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRectF target() const; // where the picture is shown, its aspect kept
    QPointF toSheet(QPointF widgetPoint) const;
    void pushUndo();
    void segment(QPointF from, QPointF to);

    QImage m_picture;
    std::vector<QImage> m_undo; // at most kUndoDepth
    static constexpr size_t kUndoDepth = 30;
    int m_brush = 24;
    bool m_drawing = false;
    QPointF m_last; // sheet coordinates
};

} // namespace tbui
