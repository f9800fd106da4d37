#include "panels/charts_panel.hpp"

#include "charts/chart.hpp"
#include "common/text.hpp"
#include "data/text_dataset.hpp"
#include "train/batch_curve.hpp"

#include <QEvent>
#include <QGridLayout>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <tuple>

namespace tbui {

namespace {
const QColor kTrain(0x1f, 0x77, 0xb4);
const QColor kTrainLight(0x9e, 0xc6, 0xe6);
const QColor kVal(0xe4, 0x57, 0x1a);
const QColor kRate(0x2c, 0xa0, 0x2c);
const QColor kBest(0xf2, 0xb7, 0x01);
const QColor kStop(0x40, 0x40, 0x40);
const QColor kPrecise(0x6a, 0x3d, 0x9a);
constexpr int kMemoryPoints = 7200;
} // namespace

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent), m_loss(new Chart(Chart::Kind::Lines, this)), m_accuracy(new Chart(Chart::Kind::Lines, this)),
      m_speed(new Chart(Chart::Kind::EpochBars, this)), m_memory(new Chart(Chart::Kind::Lines, this)),
      m_memoryTimer(new QTimer(this))
{
    m_lossBatch = m_loss->addSeries({}, kTrainLight, 1.2);
    m_lossTrain = m_loss->addSeries({}, kTrain, 2.5);
    m_lossVal = m_loss->addSeries({}, kVal, 2.5);
    m_accBatch = m_accuracy->addSeries({}, kTrainLight, 1.2);
    m_accTrain = m_accuracy->addSeries({}, kTrain, 2.5);
    m_accVal = m_accuracy->addSeries({}, kVal, 2.5);
    m_lossRate = m_loss->addSeries({}, kRate, 1.5, true, true);
    m_lossLowered = m_loss->addMarkers({}, kRate, Chart::Marker::Triangle, 11, true);
    m_lossBest = m_loss->addMarkers({}, kBest, Chart::Marker::Star, 18);
    m_lossStop = m_loss->addMarkers({}, kStop, Chart::Marker::Diamond, 13);
    m_accBest = m_accuracy->addMarkers({}, kBest, Chart::Marker::Star, 18);
    m_accStop = m_accuracy->addMarkers({}, kStop, Chart::Marker::Diamond, 13);
    m_lossPrecise = m_loss->addMarkers({}, kPrecise, Chart::Marker::Triangle, 13);
    m_accPrecise = m_accuracy->addMarkers({}, kPrecise, Chart::Marker::Triangle, 13);
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
    setRun(m_config); // no schedule, no early stopping until a run says otherwise
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
    if (m_textRun)
        m_loss->setTitles(tr("Loss per character (nats; bits per character = loss / ln 2)"), tr("Epoch"),
                          tr("Loss (nats)"), tr("Learning rate"));
    else
        m_loss->setTitles(tr("Loss"), tr("Epoch"), tr("Loss"), tr("Learning rate"));
    m_loss->setSeriesName(m_lossBatch, tr("Train (per batch, smoothed)"));
    m_loss->setSeriesName(m_lossTrain, tr("Train"));
    m_loss->setSeriesName(m_lossVal, validationName());
    m_loss->setSeriesName(m_lossRate, tr("Learning rate (right axis)"));
    m_loss->setSeriesName(m_lossLowered, tr("Rate lowered on plateau"));
    const QString monitor = qs(tb::monitorName(m_config.earlyStopping.monitor));
    for (auto [chart, best, stop] :
         {std::tuple{m_loss, m_lossBest, m_lossStop}, std::tuple{m_accuracy, m_accBest, m_accStop}}) {
        chart->setSeriesName(best, tr("Best epoch (%1)").arg(monitor));
        chart->setSeriesName(stop, tr("Early stopping"));
    }
    m_loss->setSeriesName(m_lossPrecise, tr("Test after Precise BN"));
    m_accuracy->setSeriesName(m_accPrecise, tr("Test after Precise BN"));
    if (m_textRun)
        m_accuracy->setTitles(tr("Next-character accuracy"), tr("Epoch"), tr("Accuracy"));
    else
        m_accuracy->setTitles(tr("Accuracy"), tr("Epoch"), tr("Accuracy"));
    m_accuracy->setSeriesName(m_accBatch, tr("Train (per batch, smoothed)"));
    m_accuracy->setSeriesName(m_accTrain, tr("Train"));
    m_accuracy->setSeriesName(m_accVal, validationName());
    m_loss->setEmptyText(tr("The loss appears here when training starts."));
    m_accuracy->setEmptyText(tr("The accuracy appears here when training starts."));
    m_speed->setEmptyText(tr("Each epoch's time and speed appear here when it ends."));
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
    m_smoother = {};
}

QString ChartsPanel::validationName() const
{
    // --validation-limit: of the first samples only.
    const QString first = formatCount(m_config.validationLimit);
    const bool limited = m_config.validationLimit > 0;
    if (m_config.validationSplit > 0) {
        const double percent = m_config.validationSplit * 100;
        return limited ? tr("Validation (first %1 of the last %2% of train)").arg(first).arg(percent, 0, 'g', 3)
                       : tr("Validation (last %1% of train)").arg(percent, 0, 'g', 3);
    }
    // A text has no test set: its held-out part is the end of the text (the window's default fraction).
    if (m_textRun) {
        const double percent = tb::TextOptions{}.validationFraction * 100;
        return limited ? tr("Validation (first %1 of the last %2% of the text)").arg(first).arg(percent, 0, 'g', 3)
                       : tr("Validation (last %1% of the text)").arg(percent, 0, 'g', 3);
    }
    return limited ? tr("Validation (first %1 of the test set)").arg(first) : tr("Validation (test set)");
}

void ChartsPanel::setTextRun(bool text)
{
    m_textRun = text;
    retranslate();
}

void ChartsPanel::setRun(const tb::TrainConfig& config, const std::vector<tb::EpochRecord>& history,
                         const std::vector<tb::BatchPoint>& batches)
{
    m_config = config;
    const bool scheduled = config.schedule.kind != tb::ScheduleKind::Constant;
    m_loss->setSeriesVisible(m_lossRate, scheduled);
    m_loss->setSeriesVisible(m_lossLowered, config.schedule.kind == tb::ScheduleKind::Plateau);
    for (auto [chart, best, stop] :
         {std::tuple{m_loss, m_lossBest, m_lossStop}, std::tuple{m_accuracy, m_accBest, m_accStop}}) {
        chart->setSeriesVisible(best, config.earlyStopping.enabled);
        chart->setSeriesVisible(stop, config.earlyStopping.enabled);
    }
    m_loss->setSeriesVisible(m_lossPrecise, false); // until the run's end says what precise BN gave
    m_accuracy->setSeriesVisible(m_accPrecise, false);
    retranslate();
    // The restored epochs' rate per batch where the checkpoint kept their batches, else per epoch (one
    // written before the per-batch curve was kept, whose curve starts at its resumed step).
    const int firstBatchEpoch = batches.empty() ? std::numeric_limits<int>::max() : batches.front().progress.epoch;
    for (const tb::EpochRecord& r : history) {
        if (r.epoch < firstBatchEpoch)
            m_loss->append(m_lossRate, QPointF(r.epoch, r.learningRate));
        addEpoch(r);
    }
    for (const tb::BatchPoint& b : batches)
        addBatch(b.progress);
}

void ChartsPanel::addBatch(const tb::BatchProgress& p)
{
    const tb::BatchSmoother::Point s = m_smoother.add(p); // the line the Runs page and the report draw
    m_loss->append(m_lossBatch, QPointF(s.x, s.loss));
    m_accuracy->append(m_accBatch, QPointF(s.x, s.accuracy));
    m_loss->append(m_lossRate, QPointF(s.x, p.learningRate));
}

void ChartsPanel::addEpoch(const tb::EpochRecord& r)
{
    m_loss->append(m_lossTrain, QPointF(r.epoch, r.loss));
    m_loss->append(m_lossVal, QPointF(r.epoch, r.valLoss));
    m_accuracy->append(m_accTrain, QPointF(r.epoch, r.accuracy));
    m_accuracy->append(m_accVal, QPointF(r.epoch, r.valAccuracy));
    m_speed->appendBar(QString::number(r.epoch), r.seconds, r.samplesPerSec);
    // Early stopping's decisions on both validation curves: the best epoch so far (one marker that
    // moves) and the epoch after which it stopped.
    if (r.best) {
        m_loss->setPoints(m_lossBest, {QPointF(r.epoch, r.valLoss)});
        m_accuracy->setPoints(m_accBest, {QPointF(r.epoch, r.valAccuracy)});
    }
    if (r.stopped) {
        m_loss->append(m_lossStop, QPointF(r.epoch, r.valLoss));
        m_accuracy->append(m_accStop, QPointF(r.epoch, r.valAccuracy));
    }
    // Reduce-on-plateau's new rate (Keras: max(rate x factor, min_lr)), from the next step on.
    if (r.rateLowered)
        m_loss->append(m_lossLowered,
                       QPointF(r.epoch, std::max(r.learningRate * m_config.schedule.factor, m_config.schedule.minLr)));
}

void ChartsPanel::setPreciseBnTest(int epoch, double loss, double accuracy)
{
    m_loss->setPoints(m_lossPrecise, {QPointF(epoch, loss)});
    m_accuracy->setPoints(m_accPrecise, {QPointF(epoch, accuracy)});
    m_loss->setSeriesVisible(m_lossPrecise, true);
    m_accuracy->setSeriesVisible(m_accPrecise, true);
}

void ChartsPanel::sampleMemory()
{
    if (m_memory->pointCount(m_memProcess) >= kMemoryPoints)
        return; // two hours at one sample per second
    const tb::MemoryUsage m = tb::readMemoryUsage();
    const double t = m_clock.elapsed() / 1000.0;
    constexpr double MB = 1024.0 * 1024.0;
    m_memory->append(m_memProcess, QPointF(t, m.processResident / MB));
    m_memory->append(m_memSystem, QPointF(t, m.systemUsed / MB));
}

} // namespace tbui
