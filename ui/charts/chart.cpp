#include "charts/chart.hpp"

#include "common/text.hpp"
#include "export/save_file.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
#include <QScatterSeries>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tbui {

struct ChartParts {
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QValueAxis* x = nullptr;          // Lines
    QBarCategoryAxis* cats = nullptr; // BarsAndLine
    QCategoryAxis* numbers = nullptr; // EpochBars
    QAbstractAxis* bottom = nullptr;  // whichever of the three
    QValueAxis* y = nullptr;
    QValueAxis* right = nullptr;
    QBarSeries* bars = nullptr;
    QBarSet* barSet = nullptr;
    std::vector<QXYSeries*> series; // lines and markers
};

namespace {
const QString kAxisFormat = QStringLiteral("%.6g");

// A "nice" upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten.
double niceCeil(double v)
{
    if (!(v > 0))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (v <= m * p)
            return m * p;
    return 10 * p;
}
// A whole tick step of at least `v`: 1, 2 or 5 times a power of ten, at least 1.
double niceStep(double v)
{
    if (!(v > 1))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0})
        if (v <= m * p)
            return m * p;
    return 10 * p;
}
} // namespace

Chart::Chart(Kind kind, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_parts(new ChartParts), m_empty(new QLabel(this))
{
    auto& p = *m_parts;
    p.chart = new QChart;
    p.chart->setAnimationOptions(QChart::NoAnimation);
    p.chart->legend()->setAlignment(Qt::AlignBottom);
    p.chart->setMargins(QMargins(4, 4, 4, 4));
    // The axes' numbers in the window's locale ("0,5" in Spanish). Localized formats need a
    // precision ("%.6g"): Qt Charts leaves a label blank for a bare "%g".
    p.chart->setLocalizeNumbers(true);
    p.chart->setLocale(QLocale());
    p.view = new QChartView(p.chart, this);
    p.view->setRenderHint(QPainter::Antialiasing);
    // Qt Charts moves its axis labels and grid lines (a new range, wider labels) without telling the
    // view which parts to repaint: the old ones stayed on screen beside the new ("0", "C" left of the
    // Time per epoch chart's axis after its first epoch). A chart is small; it repaints whole.
    p.view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    p.view->setMinimumSize(260, 200);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(p.view);

    p.y = new QValueAxis;
    p.y->setRange(0, 1);
    p.y->setLabelFormat(kAxisFormat);
    p.chart->addAxis(p.y, Qt::AlignLeft);
    if (kind == Kind::Lines) {
        p.x = new QValueAxis;
        p.x->setRange(0, 1);
        p.x->setLabelFormat(QStringLiteral("%.0f")); // whole ticks (rescale)
        p.bottom = p.x;
    } else if (kind == Kind::BarsAndLine) {
        p.bottom = p.cats = new QBarCategoryAxis;
    } else {
        // A value axis with a bar centred on each whole number from 0, labelled at some of them
        // (rescale): a category axis labels every bar, and past a dozen epochs cut them to "...".
        p.bottom = p.numbers = new QCategoryAxis;
        p.numbers->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        p.numbers->setStartValue(-0.5);
        p.numbers->setRange(-0.5, 0.5);
        p.numbers->setGridLineVisible(false); // its lines would run through the bars' middles
    }
    p.chart->addAxis(p.bottom, Qt::AlignBottom);
    if (kind != Kind::Lines) {
        p.bars = new QBarSeries;
        p.barSet = new QBarSet(QString());
        p.barSet->setColor(QColor(0x4c, 0x78, 0xa8));
        p.bars->append(p.barSet);
        p.bars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
        p.bars->setLabelsPrecision(3);
        p.barSet->setLabelColor(QColor(0x33, 0x33, 0x33));
        p.chart->addSeries(p.bars);
        p.bars->attachAxis(p.bottom);
        p.bars->attachAxis(p.y);
        connect(p.barSet, &QBarSet::hovered, this, [this](bool on, int index) {
            if (on)
                QToolTip::showText(QCursor::pos(), QStringLiteral("%1: %2")
                                                       .arg(m_barNames.value(index))
                                                       .arg(formatNumber(m_parts->barSet->at(index), 2)));
        });
    }
    // Over the view, in its middle (resizeEvent).
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setStyleSheet(QStringLiteral("color: #7a7a7a; background: transparent;"));
    m_empty->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_empty->hide();
    m_empty->raise(); // above the view, made after it
    m_redraw = new QTimer(this);
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(50);
    connect(m_redraw, &QTimer::timeout, this, &Chart::flush);
}

Chart::~Chart()
{
    delete m_parts;
}

void Chart::setTitles(const QString& title, const QString& xTitle, const QString& yTitle, const QString& rightTitle)
{
    auto& p = *m_parts;
    p.chart->setTitle(title);
    p.bottom->setTitleText(xTitle);
    p.y->setTitleText(yTitle);
    if (p.right)
        p.right->setTitleText(rightTitle);
    if (p.barSet)
        p.barSet->setLabel(yTitle);
    // A title longer than its axis is cut ("Seconds p…"): a size smaller than the labels' keeps
    // the usual ones whole on the smallest charts.
    for (QAbstractAxis* axis : p.chart->axes()) {
        QFont f = axis->titleFont();
        f.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
        axis->setTitleFont(f);
    }
    rescale();
}

int Chart::addSeries(const QString& name, QColor color, qreal width, bool dashed, bool rightAxis)
{
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(color, width);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    s->setPen(pen);
    return attach(s, rightAxis);
}

int Chart::addMarkers(const QString& name, QColor color, Marker shape, qreal size, bool rightAxis)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    switch (shape) {
    case Marker::Star:
        s->setMarkerShape(QScatterSeries::MarkerShapeStar);
        break;
    case Marker::Triangle:
        s->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        break;
    case Marker::Diamond:
        s->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        break;
    }
    s->setMarkerSize(size);
    s->setColor(color);
    s->setBorderColor(color.darker(140));
    return attach(s, rightAxis);
}

int Chart::attach(QXYSeries* s, bool rightAxis)
{
    auto& p = *m_parts;
    p.chart->addSeries(s);
    s->attachAxis(p.bottom);
    if (rightAxis) {
        if (!p.right) {
            p.right = new QValueAxis;
            p.right->setRange(0, 1);
            p.right->setLabelFormat(kAxisFormat);
            p.right->setGridLineVisible(false); // its ticks need not fall on the left axis' lines
            p.chart->addAxis(p.right, Qt::AlignRight);
        }
        s->attachAxis(p.right);
    } else {
        s->attachAxis(p.y);
    }
    const int index = int(p.series.size());
    connect(s, &QXYSeries::hovered, this, [s](const QPointF& pt, bool on) {
        if (on)
            QToolTip::showText(
                QCursor::pos(),
                QStringLiteral("%1\n%2, %3").arg(s->name()).arg(pt.x(), 0, 'g', 4).arg(pt.y(), 0, 'g', 5));
    });
    p.series.push_back(s);
    m_pending.emplace_back();
    m_counts.push_back(0);
    m_rightAxis.push_back(rightAxis);
    m_unlisted.push_back(false);
    return index;
}

void Chart::setSeriesVisible(int series, bool visible)
{
    auto& p = *m_parts;
    p.series[size_t(series)]->setVisible(visible);
    if (m_unlisted[size_t(series)]) // the legend shows a series' marker again as the series shows
        setInLegend(series, false);
    if (p.right) {
        bool anyRight = false;
        for (size_t i = 0; i < p.series.size(); ++i)
            anyRight = anyRight || (m_rightAxis[i] && p.series[i]->isVisible());
        p.right->setVisible(anyRight);
    }
}

bool Chart::seriesVisible(int series) const
{
    return m_parts->series[size_t(series)]->isVisible();
}

void Chart::setInLegend(int series, bool listed)
{
    auto& p = *m_parts;
    m_unlisted[size_t(series)] = !listed;
    QXYSeries* s = p.series[size_t(series)];
    for (QLegendMarker* marker : p.chart->legend()->markers(s))
        marker->setVisible(listed && s->isVisible());
}

bool Chart::inLegend(int series) const
{
    const auto& p = *m_parts;
    const QList<QLegendMarker*> markers = p.chart->legend()->markers(p.series[size_t(series)]);
    return std::any_of(markers.begin(), markers.end(), [](const QLegendMarker* m) { return m->isVisible(); });
}

void Chart::setPoints(int series, const QList<QPointF>& points)
{
    m_pending[size_t(series)].clear();
    m_parts->series[size_t(series)]->replace(points);
    m_counts[size_t(series)] = int(points.size());
    scheduleRedraw();
}

QList<QPointF> Chart::points(int series) const
{
    return m_parts->series[size_t(series)]->points() + m_pending[size_t(series)];
}

void Chart::setSeriesName(int series, const QString& name)
{
    m_parts->series[size_t(series)]->setName(name);
}

QString Chart::seriesName(int series) const
{
    return m_parts->series[size_t(series)]->name();
}

void Chart::setPointsVisible(int series)
{
    QXYSeries* s = m_parts->series[size_t(series)];
    s->setPointsVisible(true);
    s->setMarkerSize(std::max<qreal>(6.0, s->pen().widthF() * 2.4));
}

bool Chart::pointsVisible(int series) const
{
    return m_parts->series[size_t(series)]->pointsVisible();
}

int Chart::drawnPointCount(int series) const
{
    return int(m_parts->series[size_t(series)]->count());
}

void Chart::setFixedYRange(double lo, double hi)
{
    m_fixedY = true;
    // Room above `hi` for a whole marker on a point there (MNIST's 99% accuracy; the best epoch's
    // 18 px star: 9 px, about 8% of a 115 px plot at 1280x720), the ticks still quarters of lo..hi.
    m_parts->y->setRange(lo, hi + (hi - lo) * 0.08);
    m_parts->y->setTickType(QValueAxis::TicksDynamic);
    m_parts->y->setTickAnchor(lo);
    m_parts->y->setTickInterval((hi - lo) / 4);
}

void Chart::setFollowingY()
{
    m_fixedY = false;
    m_parts->y->setTickType(QValueAxis::TicksFixed);
    rescale();
}

void Chart::setBarValuesShown(bool shown)
{
    if (m_parts->bars)
        m_parts->bars->setLabelsVisible(shown);
}

void Chart::setEmptyText(const QString& text)
{
    m_empty->setText(text);
    rescale();
}

QString Chart::shownEmptyText() const
{
    // Shown, and drawn over the view (a widget raised later is later among its parent's children).
    const bool onTop = children().indexOf(m_empty) > children().indexOf(m_parts->view);
    return m_empty->isVisibleTo(this) && onTop ? m_empty->text() : QString();
}

void Chart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_empty->setGeometry(rect().adjusted(24, 24, -24, -24));
}

void Chart::setYSuffix(const QString& labelFormat)
{
    m_parts->y->setLabelFormat(labelFormat);
}

void Chart::append(int series, QPointF point)
{
    if (!std::isfinite(point.x()) || !std::isfinite(point.y()))
        return;
    m_pending[size_t(series)].append(point);
    ++m_counts[size_t(series)];
    scheduleRedraw();
}

void Chart::appendBar(const QString& category, double barValue, double lineValue)
{
    auto& p = *m_parts;
    Q_ASSERT(m_kind != Kind::Lines);
    m_barNames.append(category);
    if (p.cats)
        p.cats->append(category);
    p.barSet->append(barValue);
    if (!p.series.empty())
        append(0, QPointF(p.barSet->count() - 1, lineValue));
    scheduleRedraw();
}

void Chart::clear()
{
    auto& p = *m_parts;
    for (size_t i = 0; i < p.series.size(); ++i) {
        p.series[i]->clear();
        m_pending[i].clear();
        m_counts[i] = 0;
    }
    m_barNames.clear();
    if (p.barSet)
        p.barSet->remove(0, p.barSet->count());
    if (p.cats) {
        // A cleared category axis keeps drawing the last run's labels: replace it.
        auto* cats = new QBarCategoryAxis;
        cats->setTitleText(p.cats->titleText());
        cats->setTitleFont(p.cats->titleFont());
        p.chart->removeAxis(p.cats);
        delete p.cats;
        p.bottom = p.cats = cats;
        p.chart->addAxis(cats, Qt::AlignBottom);
        p.bars->attachAxis(cats);
        for (QXYSeries* s : p.series)
            s->attachAxis(cats);
    }
    rescale();
}

int Chart::pointCount(int series) const
{
    return m_counts[size_t(series)];
}
int Chart::barCount() const
{
    return m_parts->barSet ? m_parts->barSet->count() : 0;
}
QString Chart::title() const
{
    return m_parts->chart->title();
}

void Chart::scheduleRedraw()
{
    if (!m_redraw->isActive())
        m_redraw->start();
}

void Chart::flush()
{
    m_redraw->stop();
    auto& p = *m_parts;
    for (size_t i = 0; i < p.series.size(); ++i) {
        if (m_pending[i].isEmpty())
            continue;
        p.series[i]->append(m_pending[i]); // one bulk append, one repaint
        m_pending[i].clear();
    }
    rescale();
}

void Chart::rescale()
{
    auto& p = *m_parts;
    double xMax = 0, yMax = 0, rMax = 0;
    double yMin = std::numeric_limits<double>::max();
    for (size_t i = 0; i < p.series.size(); ++i) {
        for (const QPointF& pt : p.series[i]->points()) {
            xMax = std::max(xMax, pt.x());
            if (m_rightAxis[i]) {
                rMax = std::max(rMax, pt.y());
            } else {
                yMax = std::max(yMax, pt.y());
                yMin = std::min(yMin, pt.y());
            }
        }
    }
    if (p.barSet)
        for (int i = 0; i < p.barSet->count(); ++i)
            yMax = std::max(yMax, p.barSet->at(i));
    // An empty chart has no plot area to hang its axis titles on (Qt Charts draws them at the top
    // left, outside the frame): they show with the first data.
    // Likewise an axis whose series are hidden or empty (the learning rate without a schedule).
    const bool bars = p.barSet && p.barSet->count() > 0;
    bool anyData = bars;
    for (QXYSeries* s : p.series)
        anyData = anyData || (s->isVisible() && s->count() > 0);
    m_empty->setVisible(!anyData && !m_empty->text().isEmpty());
    for (QAbstractAxis* axis : p.chart->axes()) {
        bool hasData = bars && (axis == p.bottom || axis == p.y);
        for (QXYSeries* s : p.series)
            hasData = hasData || (s->isVisible() && s->count() > 0 && s->attachedAxes().contains(axis));
        if (axis == p.bottom) // it serves every series
            for (QXYSeries* s : p.series)
                hasData = hasData || (s->isVisible() && s->count() > 0);
        axis->setTitleVisible(hasData);
    }
    if (p.x) {
        const double hi = std::max(1.0, std::ceil(xMax));
        // Room for a whole marker on the last epoch (a one-epoch run's only one): markers are 14 px.
        p.x->setRange(0, hi + std::max(0.15, hi * 0.04));
        p.x->setTickType(QValueAxis::TicksDynamic);
        p.x->setTickAnchor(0);
        p.x->setTickInterval(niceStep(hi / 8)); // whole epochs (seconds): 1, 2, 3, not 0.5; 5, 10, not 2.5
    }
    if (p.numbers) {
        // As the Lines' epoch axis: every 1, 2, 5, 10... bars, and the first where that leaves room.
        const int bars = int(m_barNames.size());
        const int every = int(niceStep(bars / 8.0));
        QStringList shown;
        QList<int> at;
        for (int i = 0; i < bars; ++i)
            if ((i + 1) % every == 0 || (i == 0 && every > 2)) {
                shown << m_barNames[i];
                at << i;
            }
        if (p.numbers->categoriesLabels() != shown) {
            for (const QString& label : p.numbers->categoriesLabels())
                p.numbers->remove(label);
            for (int i = 0; i < shown.size(); ++i)
                p.numbers->append(shown[i], at[i]);
        }
        p.numbers->setRange(-0.5, std::max(bars, 1) - 0.5);
        // Without labels Qt Charts stops laying the axis out, and its line stayed where the last run's
        // plot area ended: a stray line across the cleared chart.
        p.numbers->setLineVisible(bars > 0);
    }
    // applyNiceNumbers starts from the axis' tick count, which its last call set: from Qt's 5 each
    // time, the ticks follow the range alone, not the runs before (an empty chart had 0, 0.5, 1 on its
    // right axis after some runs, 0, 0.2, ... 1 after others).
    if (!m_fixedY) {
        p.y->setRange(0, niceCeil(yMax * 1.05));
        p.y->setTickCount(5);
        p.y->applyNiceNumbers();
    }
    if (p.right) {
        p.right->setRange(0, niceCeil(rMax * 1.05));
        p.right->setTickCount(5);
        p.right->applyNiceNumbers();
    }
    // Qt Charts draws a new range's labels at once but lays out a new tick count, axis title or label
    // width only when the event loop comes round: until then the labels were the old count's ticks of
    // the new range, cut to the old labels' width ("266..."), and so in a chart exported right away.
    p.chart->layout()->activate();
}

double Chart::xTickInterval() const
{
    return m_parts->x ? m_parts->x->tickInterval() : 0.0;
}

std::pair<double, double> Chart::yRange() const
{
    return {m_parts->y->min(), m_parts->y->max()};
}

std::pair<double, double> Chart::xRange() const
{
    return m_parts->x ? std::pair<double, double>{m_parts->x->min(), m_parts->x->max()} : std::pair<double, double>{};
}

QStringList Chart::shownAxisTitles() const
{
    QStringList shown;
    for (QAbstractAxis* axis : m_parts->chart->axes())
        if (!axis->titleText().isEmpty() && axis->isTitleVisible())
            shown << axis->titleText();
    return shown;
}

QStringList Chart::cutAxisTitles() const
{
    QStringList cut;
    const QRectF plot = m_parts->chart->plotArea();
    for (QAbstractAxis* axis : m_parts->chart->axes()) {
        if (axis->titleText().isEmpty() || !axis->isTitleVisible())
            continue;
        const double room = axis->orientation() == Qt::Vertical ? plot.height() : plot.width();
        if (QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()) > room)
            cut << axis->titleText();
    }
    return cut;
}

QStringList drawnTexts(QGraphicsScene* scene, const QStringList& titles)
{
    QStringList drawn;
    for (QGraphicsItem* item : scene->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            if (const QString t = text->toPlainText(); !t.isEmpty() && !titles.contains(t))
                drawn << t;
    return drawn;
}

QStringList Chart::axisLabels() const
{
    QStringList titles;
    for (QAbstractAxis* axis : m_parts->chart->axes())
        titles << axis->titleText();
    titles << m_parts->chart->title();
    return drawnTexts(m_parts->view->scene(), titles);
}

void Chart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LocaleChange)
        m_parts->chart->setLocale(locale());
    QWidget::changeEvent(event);
}

double Chart::pixelsAboveHighestPoint() const
{
    const auto& p = *m_parts;
    double above = std::numeric_limits<double>::max();
    for (QXYSeries* s : p.series)
        for (const QPointF& pt : s->points())
            above = std::min(above, p.chart->mapToPosition(pt, s).y() - p.chart->plotArea().top());
    return above;
}

double Chart::pixelsRightOfLastPoint() const
{
    const auto& p = *m_parts;
    double right = std::numeric_limits<double>::max();
    for (QXYSeries* s : p.series)
        for (const QPointF& pt : s->points())
            right = std::min(right, p.chart->plotArea().right() - p.chart->mapToPosition(pt, s).x());
    return right;
}

QSize Chart::exportSize() const
{
    return m_parts->view->size().expandedTo(kExportSize);
}

void Chart::renderChart(QPainter& painter, QSize size) const
{
    QChart* chart = m_parts->chart;
    const QSizeF old = chart->size();
    chart->resize(size);
    painter.setRenderHint(QPainter::Antialiasing);
    chart->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRectF(chart->pos(), QSizeF(size)));
    chart->resize(old);
}

QImage Chart::toImage() const
{
    const_cast<Chart*>(this)->flush();
    const QSize size = exportSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderChart(painter, size);
    return image;
}

QString Chart::savePng(const QString& path) const
{
    return saveImage(path, toImage());
}

QString Chart::saveSvg(const QString& path) const
{
    return saveBytes(path, svgDocument());
}

QByteArray Chart::svgDocument() const
{
    const_cast<Chart*>(this)->flush();
    const QSize size = exportSize();
    return svgBytes(size, title(), [this, size](QPainter& painter) { renderChart(painter, size); });
}

} // namespace tbui
