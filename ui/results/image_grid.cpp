#include "results/image_grid.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace tbui {

namespace {
constexpr int kGap = 6;
constexpr int kTextLines = 2;
} // namespace

ImageGrid::ImageGrid(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

QImage ImageGrid::grayImage(const uint8_t* pixels, int width, int height)
{
    return QImage(pixels, width, height, width, QImage::Format_Grayscale8).copy();
}

void ImageGrid::setTiles(int count, std::function<Tile(int)> provider)
{
    m_count = count;
    m_provider = std::move(provider);
    relayout();
    update();
}

void ImageGrid::setCaptionSamples(const QStringList& captions)
{
    m_captionSamples = captions;
    relayout();
    update();
}

void ImageGrid::setGroupSize(int tiles)
{
    m_group = std::max(0, tiles);
    relayout();
    update();
}

QSize ImageGrid::cell() const
{
    const int text = fontMetrics().height() * kTextLines;
    int captions = 0;
    for (const QString& c : m_captionSamples)
        captions = std::max(captions, fontMetrics().horizontalAdvance(c) + 2 * kGap);
    // Without captions to measure, room for a short one; with them, as wide as the widest.
    const int image = m_captionSamples.isEmpty() ? std::max(m_side, 90) : m_side + 2 * kGap;
    return QSize(std::clamp(captions, image, 3 * std::max(m_side, 90)) + kGap, m_side + text + 2 * kGap);
}

int ImageGrid::columns() const
{
    const int fit = std::max(1, width() / cell().width());
    if (m_group <= 0)
        return fit;
    // A group too wide for a row spreads evenly over the rows it needs: 2 + 2, not 3 + 1.
    const int rows = (m_group + fit - 1) / fit;
    return (m_group + rows - 1) / rows;
}

int ImageGrid::rowsPerGroup() const
{
    return m_group > 0 ? (m_group + columns() - 1) / columns() : 1;
}

QPoint ImageGrid::slotOf(int index) const
{
    const int cols = columns();
    if (m_group <= 0)
        return QPoint(index % cols, index / cols);
    const int inGroup = index % m_group;
    return QPoint(inGroup % cols, index / m_group * rowsPerGroup() + inGroup / cols);
}

int ImageGrid::indexAt(int row, int col) const
{
    const int cols = columns();
    if (col < 0 || col >= cols || row < 0)
        return -1;
    int index = row * cols + col;
    if (m_group > 0) {
        const int inGroup = row % rowsPerGroup() * cols + col;
        index = inGroup < m_group ? row / rowsPerGroup() * m_group + inGroup : -1;
    }
    return index >= 0 && index < m_count ? index : -1;
}

void ImageGrid::relayout()
{
    const int rows = m_count == 0 ? 0 : slotOf(m_count - 1).y() + 1;
    const int h = rows * cell().height() + kGap;
    if (minimumHeight() != h)
        setMinimumHeight(h);
}

void ImageGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void ImageGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        relayout();
    QWidget::changeEvent(event);
}

void ImageGrid::paintTile(QPainter& p, QRect r, const Tile& t) const
{
    const QRect img(r.left() + (r.width() - m_side) / 2, r.top() + kGap / 2, m_side, m_side);
    p.drawImage(img, t.image);
    if (t.frame.isValid()) {
        p.setPen(QPen(t.frame, 3));
        p.drawRect(img.adjusted(-2, -2, 1, 1));
    }
    const int lineH = fontMetrics().height();
    QRect text(r.left(), img.bottom() + 4, r.width(), lineH);
    p.setPen(t.frame.isValid() ? t.frame : palette().color(QPalette::WindowText));
    p.drawText(text, Qt::AlignHCenter | Qt::AlignVCenter,
               fontMetrics().elidedText(t.caption, Qt::ElideRight, r.width()));
    text.translate(0, lineH);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(text, Qt::AlignHCenter | Qt::AlignVCenter,
               fontMetrics().elidedText(t.detail, Qt::ElideRight, r.width()));
}

void ImageGrid::paintEvent(QPaintEvent* event)
{
    if (!m_provider)
        return;
    QPainter p(this);
    const QSize c = cell();
    const int cols = columns();
    const int firstRow = std::max(0, event->rect().top() / c.height());
    const int lastRow = event->rect().bottom() / c.height();
    for (int row = firstRow; row <= lastRow; ++row)
        for (int col = 0; col < cols; ++col)
            if (const int i = indexAt(row, col); i >= 0)
                paintTile(p, QRect(QPoint(col * c.width() + kGap / 2, row * c.height() + kGap / 2), c), m_provider(i));
}

void ImageGrid::mouseReleaseEvent(QMouseEvent* event)
{
    const QSize c = cell();
    const int i = indexAt(int(event->position().y()) / c.height(), int(event->position().x()) / c.width());
    if (i >= 0)
        emit tileClicked(i);
}

QImage ImageGrid::renderImage(int maxTiles, int cols) const
{
    const int n = std::min(maxTiles, m_count);
    const QSize c = cell();
    const int rows = std::max(1, (n + cols - 1) / cols);
    QImage out(cols * c.width() + kGap, rows * c.height() + kGap, QImage::Format_RGB32);
    out.fill(palette().color(QPalette::Window));
    QPainter p(&out);
    p.setFont(font());
    for (int i = 0; i < n; ++i)
        paintTile(p, QRect(QPoint((i % cols) * c.width() + kGap / 2, (i / cols) * c.height() + kGap / 2), c),
                  m_provider(i));
    return out;
}

} // namespace tbui
