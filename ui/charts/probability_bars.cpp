// ProbabilityBars (probability_bars.hpp).
#include "charts/probability_bars.hpp"

#include "charts/chart.hpp"
#include "common/text.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QVBoxLayout>
#include <QValueAxis>

namespace tbui {

struct ProbabilityBarsParts {
    QChart* chart = nullptr;
    QHorizontalBarSeries* series = nullptr;
    QBarSet* set = nullptr;
    QBarCategoryAxis* classes = nullptr;
    QValueAxis* percent = nullptr;
    QStringList topDown; // the class names
    QStringList labels;  // with their probabilities
};

namespace {
// A probability as a percentage in the window's locale, small ones with the digits that tell them
// apart from nothing: "97.3%", "0.42%", "< 0.01%" (Spanish "97,3 %").
QString percentText(double p)
{
    const double v = 100.0 * p;
    if (v >= 1.0)
        return formatPercent(p, 1);
    if (v >= 0.01)
        return formatPercent(p, 2);
    if (v > 0.0)
        return QStringLiteral("< ") + formatPercent(0.0001, 2);
    return formatPercent(0.0, 0);
}
} // namespace

ProbabilityBars::ProbabilityBars(QWidget* parent) : QWidget(parent), m_parts(new ProbabilityBarsParts)
{
    ProbabilityBarsParts& p = *m_parts;
    p.chart = new QChart;
    p.chart->setAnimationOptions(QChart::NoAnimation);
    p.chart->legend()->hide();
    p.chart->setMargins(QMargins(4, 4, 12, 4));
    p.series = new QHorizontalBarSeries;
    p.set = new QBarSet(QString());
    p.set->setColor(QColor(0x2a, 0x7a, 0xb9));
    p.series->append(p.set);
    // The values are in the class labels instead of on the bars: Qt Charts draws no label on a bar
    // too short to see (most classes of a confident prediction) and spells numbers in the C locale.
    p.series->setBarWidth(0.7);
    p.chart->addSeries(p.series);
    p.classes = new QBarCategoryAxis;
    p.percent = new QValueAxis;
    p.percent->setRange(0, 100);
    p.percent->setTickCount(2);
    p.percent->setLabelsVisible(false);
    p.percent->setGridLineVisible(false);
    p.percent->setLineVisible(false);
    p.chart->addAxis(p.classes, Qt::AlignLeft);
    p.chart->addAxis(p.percent, Qt::AlignBottom);
    p.series->attachAxis(p.classes);
    p.series->attachAxis(p.percent);
    auto* view = new QChartView(p.chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate); // as Chart's (chart.cpp)
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    setMinimumSize(260, 220);
}

ProbabilityBars::~ProbabilityBars()
{
    delete m_parts;
}

void ProbabilityBars::setTitle(const QString& title)
{
    m_parts->chart->setTitle(title);
}

void ProbabilityBars::setBars(const QStringList& names, const std::vector<double>& probabilities)
{
    ProbabilityBarsParts& p = *m_parts;
    // A horizontal bar axis runs bottom up: the most probable class goes last.
    QStringList bottomUp, labels;
    QList<qreal> values;
    for (qsizetype i = 0; i < names.size(); ++i)
        labels << names[i] + QStringLiteral(": ") + percentText(probabilities[size_t(i)]); // "7: 7.8%", not "7 7.8%"
    for (qsizetype i = names.size() - 1; i >= 0; --i) {
        bottomUp << labels[i].toHtmlEscaped(); // the axis reads rich text: "< 0.01 %" would be a tag
        values << 100.0 * probabilities[size_t(i)];
    }
    if (p.labels != labels) {
        p.classes->clear();
        p.classes->append(bottomUp);
        p.classes->setLabelsVisible(true);
        p.topDown = names;
        p.labels = labels;
    }
    if (p.set->count() != values.size()) {
        p.set->remove(0, p.set->count());
        p.set->append(values);
    } else {
        for (int i = 0; i < values.size(); ++i)
            p.set->replace(i, values[i]);
    }
}

void ProbabilityBars::clear()
{
    m_parts->set->remove(0, m_parts->set->count());
    m_parts->classes->clear();
    // Qt Charts keeps drawing an emptied category axis's last labels: they would read as the
    // prediction of whatever replaced it (a picture that cannot be read).
    m_parts->classes->setLabelsVisible(false);
    m_parts->topDown.clear();
    m_parts->labels.clear();
}

int ProbabilityBars::barCount() const
{
    return int(m_parts->set->count());
}

QStringList ProbabilityBars::categories() const
{
    return m_parts->topDown;
}

QStringList ProbabilityBars::labels() const
{
    return m_parts->labels;
}

QStringList ProbabilityBars::axisLabels() const
{
    return m_parts->classes->categories();
}

QStringList ProbabilityBars::drawnLabels() const
{
    return drawnTexts(m_parts->chart->scene(), {m_parts->chart->title()});
}

} // namespace tbui
