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

void ImageGrid::setMaxColumns(int columns)
{
    m_maxColumns = columns;
    relayout();
    update();
}

QSize ImageGrid::cell() const
{
    const int text = fontMetrics().height() * kTextLines;
    int captions = 0;
    for (const QString& c : m_captionSamples)
        captions = std::max(captions, fontMetrics().horizontalAdvance(c) + 2 * kGap);
    const int image = std::max(m_side, 90);
    return QSize(std::clamp(captions, image, 3 * image) + kGap, m_side + text + 2 * kGap);
}

int ImageGrid::columns() const
{
    const int fit = std::max(1, width() / cell().width());
    return m_maxColumns > 0 ? std::min(fit, m_maxColumns) : fit;
}

void ImageGrid::relayout()
{
    const int rows = (m_count + columns() - 1) / columns();
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
        for (int col = 0; col < cols; ++col) {
            const int i = row * cols + col;
            if (i >= m_count)
                return;
            paintTile(p, QRect(QPoint(col * c.width() + kGap / 2, row * c.height() + kGap / 2), c), m_provider(i));
        }
}

void ImageGrid::mouseReleaseEvent(QMouseEvent* event)
{
    const QSize c = cell();
    const int col = int(event->position().x()) / c.width();
    const int row = int(event->position().y()) / c.height();
    const int i = row * columns() + col;
    if (col < columns() && i >= 0 && i < m_count)
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
