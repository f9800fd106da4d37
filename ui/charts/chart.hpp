// The one place that talks to Qt Charts. Panels describe what to plot (series of points, bars per
// epoch); this layer batches the appends, redraws at most every 50 ms with animations off,
// rescales the axes, shows values on hover and exports to PNG/SVG. Moving to Qt Graphs later
// touches these two files only.
#pragma once

#include <QByteArray>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QGraphicsScene;
class QLabel;
class QTimer;
class QXYSeries;

namespace tbui {

struct ChartParts;

// The texts a chart's scene shows (Qt Charts draws every axis label and title as a text item of it),
// less `titles`: what a test reads as drawn, not as set.
QStringList drawnTexts(QGraphicsScene* scene, const QStringList& titles);

class Chart : public QWidget {
    Q_OBJECT
public:
    // BarsAndLine: bars per category + a line on a right axis. EpochBars: the same with a bar per
    // epoch, numbered along an axis that labels as many as fit (1, 2, 3; 5, 10, 15).
    enum class Kind { Lines, BarsAndLine, EpochBars };

    explicit Chart(Kind kind, QWidget* parent = nullptr);
    ~Chart() override;

    void setTitles(const QString& title, const QString& xTitle, const QString& yTitle, const QString& rightTitle = {});
    // Lines: a series on the left axis (or the right one). Returns its index.
    int addSeries(const QString& name, QColor color, qreal width = 2.0, bool dashed = false, bool rightAxis = false);
    // Markers only (no line): decisions such as the best epoch, drawn over the lines. Same index space.
    enum class Marker { Star, Triangle, Diamond };
    int addMarkers(const QString& name, QColor color, Marker shape, qreal size = 14.0, bool rightAxis = false);
    void setSeriesName(int series, const QString& name);
    QString seriesName(int series) const; // as the legend shows it
    // A hidden series leaves the legend; the right axis hides with its last visible series.
    void setSeriesVisible(int series, bool visible);
    bool seriesVisible(int series) const;
    // A series drawn but not listed in the legend (its name stays its tooltip's): a line that goes
    // with another series, which the legend already names.
    void setInLegend(int series, bool listed);
    bool inLegend(int series) const; // the legend shows its marker
    // Replaces a series' points at once (a marker that moves, such as the best epoch so far).
    void setPoints(int series, const QList<QPointF>& points);
    QList<QPointF> points(int series) const; // drawn and pending
    // Draws a marker at every point, so a series with one point (a one-epoch run) shows.
    void setPointsVisible(int series);
    bool pointsVisible(int series) const;
    int drawnPointCount(int series) const; // points in the Qt series (after flush)
    // Fixes the left axis range instead of following the data (e.g. accuracy 0..1).
    void setFixedYRange(double lo, double hi);
    void setFollowingY();                        // the left axis follows the data again
    void setYSuffix(const QString& labelFormat); // e.g. "%.0f MB"
    // BarsAndLine: each bar's value above it (the line's markers may cover them).
    void setBarValuesShown(bool shown);
    // What the chart will show, written across it while it has no data ("Appears when training starts").
    void setEmptyText(const QString& text);
    QString shownEmptyText() const; // the hint when it shows, else empty

    void append(int series, QPointF point); // buffered; drawn on the next redraw tick
    // BarsAndLine, EpochBars: one category per call, with its bar value and its line value.
    void appendBar(const QString& category, double barValue, double lineValue);
    void clear();

    int pointCount(int series) const; // points appended so far, drawn or pending
    // What the axes show, for the tests: the left axis' range, whether the titles are shown, the
    // titles that do not fit their axis' length, and the pixels between the rightmost point and the
    // plot area's right edge (a marker needs half its size).
    std::pair<double, double> yRange() const;
    std::pair<double, double> xRange() const;
    double xTickInterval() const;
    QStringList shownAxisTitles() const;
    QStringList cutAxisTitles() const;
    QStringList axisLabels() const; // the numbers and categories drawn along the axes, as drawn
    double pixelsRightOfLastPoint() const;
    double pixelsAboveHighestPoint() const; // between the highest point and the plot area's top
    int barCount() const;
    QString title() const;

    // Exports are drawn at the chart's size on screen, or at kExportSize where that is larger (a
    // chart on a page never shown, or squeezed on a small screen).
    static constexpr QSize kExportSize{800, 500};
    QImage toImage() const;
    QString savePng(const QString& path) const; // empty on success, else the error
    QString saveSvg(const QString& path) const;
    QByteArray svgDocument() const; // what saveSvg writes

    // Draws what is pending now (tests and exports call it; the timer does otherwise).
    void flush();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int attach(QXYSeries* series, bool rightAxis);
    void scheduleRedraw();
    QSize exportSize() const;
    void renderChart(QPainter& painter, QSize size) const; // lays the chart out at `size` and draws it
    void rescale();

    Kind m_kind;
    ChartParts* m_parts;
    std::vector<QList<QPointF>> m_pending;
    std::vector<int> m_counts;
    std::vector<bool> m_rightAxis;
    std::vector<bool> m_unlisted; // setInLegend(false)
    QStringList m_barNames;       // the bars' categories, in order
    QTimer* m_redraw;
    QLabel* m_empty;
    bool m_fixedY = false;
};

} // namespace tbui
