#include "panels/charts_panel.hpp"

#include "charts/chart.hpp"
#include "common/text.hpp"

#include <QEvent>
#include <QGridLayout>
#include <QTimer>

namespace tbui {

namespace {
const QColor kTrain(0x1f, 0x77, 0xb4);
const QColor kTrainLight(0x9e, 0xc6, 0xe6);
const QColor kVal(0xe4, 0x57, 0x1a);
constexpr double kSmoothing = 0.9;  // exponential moving average of per-batch values
constexpr int kMemoryPoints = 7200;
}  // namespace

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent),
      m_loss(new Chart(Chart::Kind::Lines, this)),
      m_accuracy(new Chart(Chart::Kind::Lines, this)),
      m_speed(new Chart(Chart::Kind::BarsAndLine, this)),
      m_memory(new Chart(Chart::Kind::Lines, this)),
      m_memoryTimer(new QTimer(this))
{
    m_lossBatch = m_loss->addSeries({}, kTrainLight, 1.2);
    m_lossTrain = m_loss->addSeries({}, kTrain, 2.5);
    m_lossVal = m_loss->addSeries({}, kVal, 2.5);
    m_accBatch = m_accuracy->addSeries({}, kTrainLight, 1.2);
    m_accTrain = m_accuracy->addSeries({}, kTrain, 2.5);
    m_accVal = m_accuracy->addSeries({}, kVal, 2.5);
    m_accuracy->setFixedYRange(0, 1);
    m_speed->addSeries({}, kVal, 2.5, false, true);
    for (int s : {m_lossTrain, m_lossVal})
        m_loss->setPointsVisible(s);
    for (int s : {m_accTrain, m_accVal})
        m_accuracy->setPointsVisible(s);
    m_speed->setPointsVisible(0);
    m_memProcess = m_memory->addSeries({}, kTrain, 2.0);
    m_memSystem = m_memory->addSeries({}, QColor(0x54, 0xa2, 0x4b), 2.0);
    m_memory->setYSuffix(QStringLiteral("%.0f"));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_loss, 0, 0);
    grid->addWidget(m_accuracy, 0, 1);
    grid->addWidget(m_speed, 1, 0);
    grid->addWidget(m_memory, 1, 1);
    retranslate();

    m_clock.start();
    m_memoryTimer->setInterval(1000);
    connect(m_memoryTimer, &QTimer::timeout, this, &ChartsPanel::sampleMemory);
    m_memoryTimer->start();
    sampleMemory();
}

QStringList ChartsPanel::chartFileNames() const
{
    return {QStringLiteral("loss"), QStringLiteral("accuracy"), QStringLiteral("time-per-epoch"),
            QStringLiteral("ram")};
}

void ChartsPanel::retranslate()
{
    m_loss->setTitles(tr("Loss"), tr("Epoch"), tr("Loss"));
    m_loss->setSeriesName(m_lossBatch, tr("Train (per batch, smoothed)"));
    m_loss->setSeriesName(m_lossTrain, tr("Train"));
    m_loss->setSeriesName(m_lossVal, tr("Validation"));
    m_accuracy->setTitles(tr("Accuracy"), tr("Epoch"), tr("Accuracy"));
    m_accuracy->setSeriesName(m_accBatch, tr("Train (per batch, smoothed)"));
    m_accuracy->setSeriesName(m_accTrain, tr("Train"));
    m_accuracy->setSeriesName(m_accVal, tr("Validation"));
    m_speed->setTitles(tr("Time per epoch"), tr("Epoch"), tr("Seconds"), tr("Samples/s"));
    m_speed->setSeriesName(0, tr("Samples/s"));
    m_memory->setTitles(tr("RAM (system total %1)").arg(formatBytes(tb::readMemoryUsage().systemTotal)), tr("Seconds"),
                        tr("MB"));
    m_memory->setSeriesName(m_memProcess, tr("Trainbench"));
    m_memory->setSeriesName(m_memSystem, tr("System used"));
}

void ChartsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ChartsPanel::resetForRun()
{
    m_loss->clear();
    m_accuracy->clear();
    m_speed->clear();
    m_haveSmooth = false;
}

void ChartsPanel::addBatch(const tb::BatchProgress& p)
{
    if (!m_haveSmooth) {
        m_smoothLoss = p.batchLoss;
        m_smoothAcc = p.accuracy;
        m_haveSmooth = true;
    }
    m_smoothLoss = kSmoothing * m_smoothLoss + (1 - kSmoothing) * p.batchLoss;
    m_smoothAcc = kSmoothing * m_smoothAcc + (1 - kSmoothing) * p.accuracy;
    const double x = (p.epoch - 1) + double(p.step) / std::max(1, p.steps);
    m_loss->append(m_lossBatch, QPointF(x, m_smoothLoss));
    m_accuracy->append(m_accBatch, QPointF(x, m_smoothAcc));
}

void ChartsPanel::addEpoch(const tb::EpochRecord& r)
{
    m_loss->append(m_lossTrain, QPointF(r.epoch, r.loss));
    m_loss->append(m_lossVal, QPointF(r.epoch, r.valLoss));
    m_accuracy->append(m_accTrain, QPointF(r.epoch, r.accuracy));
    m_accuracy->append(m_accVal, QPointF(r.epoch, r.valAccuracy));
    m_speed->appendBar(QString::number(r.epoch), r.seconds, r.samplesPerSec);
}

void ChartsPanel::sampleMemory()
{
    if (m_memory->pointCount(m_memProcess) >= kMemoryPoints)
        return;  // two hours at one sample per second
    const tb::MemoryUsage m = tb::readMemoryUsage();
    const double t = m_clock.elapsed() / 1000.0;
    constexpr double MB = 1024.0 * 1024.0;
    m_memory->append(m_memProcess, QPointF(t, m.processResident / MB));
    m_memory->append(m_memSystem, QPointF(t, m.systemUsed / MB));
}

}  // namespace tbui
