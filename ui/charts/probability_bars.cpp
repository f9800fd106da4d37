// ProbabilityBars (probability_bars.hpp).
#include "charts/probability_bars.hpp"

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
    QStringList topDown;
};

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
    p.set->setLabelColor(Qt::black);
    p.series->append(p.set);
    p.series->setLabelsVisible(true);
    p.series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    p.series->setLabelsFormat(QStringLiteral("@value %"));
    p.series->setLabelsPrecision(3);
    p.series->setBarWidth(0.7);
    p.chart->addSeries(p.series);
    p.classes = new QBarCategoryAxis;
    p.percent = new QValueAxis;
    p.percent->setRange(0, 115); // room for the label of a 100% bar
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
    QStringList bottomUp;
    QList<qreal> values;
    for (qsizetype i = names.size() - 1; i >= 0; --i) {
        bottomUp << names[i];
        values << qRound(1000.0 * probabilities[size_t(i)]) / 10.0;
    }
    if (p.topDown != names) {
        p.classes->clear();
        p.classes->append(bottomUp);
        p.topDown = names;
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
    m_parts->topDown.clear();
}

int ProbabilityBars::barCount() const
{
    return int(m_parts->set->count());
}

QStringList ProbabilityBars::categories() const
{
    return m_parts->topDown;
}

} // namespace tbui
