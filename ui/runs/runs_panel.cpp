#include "runs/runs_panel.hpp"

#include "charts/chart.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/json_text.hpp"
#include "export/export_dialog.hpp"
#include "runs/report_text.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace tbui {

namespace {
enum Column { Overlay, Date, Model, Dataset, Device, Epochs, Accuracy, Time, Status, ColumnCount };
constexpr int kPathRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;

// Sorts by kSortRole (numbers as numbers) rather than by the text shown.
class SortItem : public QTableWidgetItem {
public:
    SortItem(const QString& text, const QVariant& key) : QTableWidgetItem(text) { setData(kSortRole, key); }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const QVariant a = data(kSortRole), b = other.data(kSortRole);
        if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double)
            return a.toDouble() < b.toDouble();
        return a.toString() < b.toString();
    }
};

const QColor kColours[] = {QColor(0x09, 0x69, 0xda), QColor(0xcf, 0x22, 0x2e), QColor(0x1a, 0x7f, 0x37),
                           QColor(0x82, 0x50, 0xdf), QColor(0xbf, 0x87, 0x00), QColor(0x1b, 0x7c, 0x83),
                           QColor(0xe1, 0x56, 0x99), QColor(0x57, 0x60, 0x6a)};

// A run's per-batch line: its colour, lighter, under its epochs' line (as the live charts draw it).
QColor lightOf(const QColor& c)
{
    const auto mix = [](int v) { return v + (255 - v) * 55 / 100; };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

// What a run's folder, its record unchanged, keeps for its per-batch line: a run trained on since
// (resumed, or ended) has another checkpoint.
QString runState(const tb::RunSummary& r)
{
    QString state = QStringLiteral("%1/%2/%3/%4/%5")
                        .arg(r.history.size())
                        .arg(r.partialEpoch)
                        .arg(r.partialStep)
                        .arg(int(r.status))
                        .arg(qs(r.ended));
    for (const std::string& f : r.files)
        state += QLatin1Char('/') + qs(f);
    return state;
}

double metricOf(const tb::EpochRecord& e, int metric)
{
    switch (metric) {
    case 1:
        return e.valLoss;
    case 2:
        return e.loss;
    case 3:
        return e.accuracy;
    case 4:
        return e.seconds;
    default:
        return e.valAccuracy;
    }
}
} // namespace

RunsPanel::RunsPanel(QString runsDir, QWidget* parent)
    : QWidget(parent), m_runsDir(std::move(runsDir)), m_status(new QLabel), m_table(new QTableWidget(0, ColumnCount)),
      m_metric(new QComboBox), m_chart(new Chart(Chart::Kind::Lines)), m_batchNote(new QLabel),
      m_refresh(new QPushButton), m_open(new QPushButton), m_resume(new QPushButton), m_delete(new QPushButton),
      m_report(new QPushButton)
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setObjectName(QStringLiteral("runsTable"));
    m_status->setObjectName(QStringLiteral("runsStatus"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    sizeColumns();
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Date, Qt::DescendingOrder);
    // At 1280x720 the chart gets most of the page (it was 70 px tall beside six rows of table).
    m_chart->setMinimumHeight(200);
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 3 +
                              m_table->horizontalHeader()->sizeHint().height() + 4); // three runs at least
    for (int i = 0; i < 5; ++i)
        m_metric->addItem(QString());

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {m_refresh, m_open, m_resume, m_delete, m_report})
        buttons->addWidget(b);
    buttons->addStretch();
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_status);
    topLayout->addWidget(m_table);
    topLayout->addLayout(buttons);
    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* metricRow = new QHBoxLayout;
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "Exactitud de validación" whole
    metricRow->addWidget(m_metric);
    metricRow->addStretch();
    bottomLayout->addLayout(metricRow);
    bottomLayout->addWidget(m_chart, 1);
    m_batchNote->setObjectName(QStringLiteral("runsBatchNote"));
    m_batchNote->setWordWrap(true);
    m_batchNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_batchNote->hide();
    bottomLayout->addWidget(m_batchNote);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setChildrenCollapsible(false);
    split->setObjectName(QStringLiteral("runsSplitter"));
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_refresh, &QPushButton::clicked, this, &RunsPanel::refresh);
    connect(m_open, &QPushButton::clicked, this, [this] { emit openResultsRequested(selectedRun()); });
    connect(m_resume, &QPushButton::clicked, this, [this] { emit resumeRequested(selectedRun()); });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteRun(selectedRun()); });
    connect(m_report, &QPushButton::clicked, this, [this] { askAndExportReport(selectedRun()); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &RunsPanel::updateButtons);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_filling || item->column() != Overlay)
            return;
        setOverlaid(item->data(kPathRole).toString(), item->checkState() == Qt::Checked);
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &RunsPanel::updateChart);
    retranslate();
    refresh();
}

void RunsPanel::retranslate()
{
    m_table->setHorizontalHeaderLabels({tr("Overlay"), tr("Date"), tr("Model"), tr("Dataset"), tr("Device"),
                                        tr("Epochs"), tr("Final accuracy"), tr("Training time"), tr("Status")});
    m_table->horizontalHeaderItem(Accuracy)->setToolTip(
        tr("The test accuracy of the final weights; a run without one shows its last validation accuracy"));
    m_refresh->setText(tr("Refresh"));
    m_open->setText(tr("Open results"));
    m_resume->setText(tr("Resume"));
    m_delete->setText(tr("Delete…"));
    m_report->setText(tr("Export report…"));
    m_report->setToolTip(tr("One HTML file with the run's charts, configuration, hardware, confusion matrix and "
                            "misclassified images, that opens in any browser"));
    const QStringList metrics = {tr("Validation accuracy"), tr("Validation loss"), tr("Training loss"),
                                 tr("Training accuracy"), tr("Epoch time (s)")};
    for (int i = 0; i < metrics.size(); ++i)
        m_metric->setItemText(i, metrics[i]);
    fill();
    updateButtons(); // their tooltips
}

void RunsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunsPanel::refresh()
{
    ++m_pending;
    auto* watcher = new QFutureWatcher<tb::RunList>(this);
    connect(watcher, &QFutureWatcher<tb::RunList>::finished, this, [this, watcher] {
        tb::RunList list = watcher->result();
        watcher->deleteLater();
        if (--m_pending > 0)
            return; // a newer read follows
        m_runs = std::move(list.runs);
        m_problem = qs(list.problem);
        // Ticks of runs that are gone go too.
        m_ticked.erase(std::remove_if(m_ticked.begin(), m_ticked.end(),
                                      [this](const QString& p) {
                                          return std::none_of(m_runs.begin(), m_runs.end(),
                                                              [&](const tb::RunSummary& r) { return qs(r.path) == p; });
                                      }),
                       m_ticked.end());
        fill();
        emit listed();
    });
    const std::string dir = ss(m_runsDir);
    watcher->setFuture(QtConcurrent::run([dir] { return tb::listRuns(dir); }));
}

QString RunsPanel::problem() const
{
    return m_problem;
}

void RunsPanel::sizeColumns()
{
    // Each column as wide as its contents but Status, which takes the rest: a damaged run's reason (in
    // its tooltip whole) is cut rather than pushing the column, in Spanish, behind a scroll bar.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Status, QHeaderView::Stretch);
}

void RunsPanel::fill()
{
    const QString selected = selectedRun();
    m_filling = true;
    m_table->setSortingEnabled(false);
    // The old rows go at once, not item by item as new ones replace them, and the column widths are
    // measured once at the end, not after every cell: with 490 runs a refill (at every run's start
    // and end) kept the GUI thread busy 34-60 ms, now 9-40 ms.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setRowCount(0);
    m_table->setRowCount(int(m_runs.size()));
    int damaged = 0;
    for (int row = 0; row < int(m_runs.size()); ++row) {
        const tb::RunSummary& r = m_runs[size_t(row)];
        const QString path = qs(r.path);
        auto* tick = new SortItem(QString(), m_ticked.contains(path) ? 1.0 : 0.0);
        tick->setData(kPathRole, path);
        tick->setToolTip(path);
        tick->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled |
                       (r.damaged ? Qt::NoItemFlags : Qt::ItemIsUserCheckable));
        if (!r.damaged)
            tick->setCheckState(m_ticked.contains(path) ? Qt::Checked : Qt::Unchecked);
        m_table->setItem(row, Overlay, tick);
        // The record's words in one line each (cellText): a newline in run.json's dataset broke the row.
        m_table->setItem(row, Date, new SortItem(cellText(qs(r.date())), qs(r.date() + r.id)));
        m_table->setItem(row, Model, new SortItem(cellText(r.damaged ? qs(r.id) : qs(r.model)), qs(r.model + r.id)));
        m_table->setItem(row, Dataset, new SortItem(cellText(QFileInfo(qs(r.dataset)).fileName()), qs(r.dataset)));
        m_table->item(row, Dataset)->setToolTip(cellText(qs(r.dataset)));
        m_table->setItem(row, Device, new SortItem(cellText(qs(r.device)), qs(r.device)));
        QString epochs, epochsTip;
        if (!r.damaged) {
            epochs = tr("%1 of %2").arg(r.history.size()).arg(r.epochs);
            // Short in the cell (the whole sentence pushed the Status column out of a 1280 px window in
            // Spanish); the tooltip says it whole.
            if (r.partialStep > 0) {
                epochs = tr("%1 of %2 + %3/%4 steps")
                             .arg(r.history.size())
                             .arg(r.epochs)
                             .arg(r.partialStep)
                             .arg(r.stepsPerEpoch);
                epochsTip = tr("%1 of %2, stopped at step %3/%4 of epoch %5")
                                .arg(r.history.size())
                                .arg(r.epochs)
                                .arg(r.partialStep)
                                .arg(r.stepsPerEpoch)
                                .arg(r.partialEpoch);
            }
        }
        const double stepsDone =
            double(r.history.size()) + (r.stepsPerEpoch > 0 ? double(r.partialStep) / r.stepsPerEpoch : 0.0);
        m_table->setItem(row, Epochs, new SortItem(epochs, stepsDone));
        m_table->item(row, Epochs)->setToolTip(epochsTip);
        const double acc = r.finalAccuracy();
        auto* accuracyItem = new SortItem(acc >= 0 ? formatPercent(acc, 2) : QString(), acc);
        // Precise BN changes the weights after the last validation: the chart's last point differs.
        if (r.config && r.config->preciseBnBatches > 0 && r.test && !r.history.empty())
            accuracyItem->setToolTip(
                tr("The final weights' test accuracy, after Precise BN recomputed BatchNorm's statistics over %1 "
                   "batches; the last validation point (%2) was measured before it.")
                    .arg(r.config->preciseBnBatches)
                    .arg(formatPercent(r.history.back().valAccuracy, 2)));
        m_table->setItem(row, Accuracy, accuracyItem);
        const double secs = r.trainingSeconds();
        m_table->setItem(row, Time,
                         new SortItem(r.damaged ? QString()
                                                : tr("%1 s").arg(formatNumber(secs, secs >= 100 ? 0
                                                                                    : secs >= 1 ? 1
                                                                                                : 2)),
                                      secs));
        QString status;
        if (r.damaged)
            status = tr("damaged: %1").arg(cellText(EngineText::english(qs(r.damage))));
        else if (r.status == tb::RunStatus::Running) // a record of another host, or of an older version,
            status = tr("running or interrupted");   // cannot tell a living run from a dead one
        else // as `runs list`, `runs show` and the report say it ("interrupted, no checkpoint (cannot resume)")
            status = ReportText::value(r, QStringLiteral("Status"), qs(r.statusText()));
        auto* statusItem = new SortItem(status, status);
        statusItem->setToolTip(status);
        if (r.damaged) {
            statusItem->setForeground(QColor(0xcf, 0x22, 0x2e));
            ++damaged;
        }
        m_table->setItem(row, Status, statusItem);
    }
    m_table->setSortingEnabled(true);
    sizeColumns();
    m_filling = false;
    selectRun(selected);

    QString text = m_runs.empty()
                       ? tr("No runs yet in %1. Every training run is recorded here.").arg(m_runsDir)
                       : tr("Runs in %1: %2. Tick runs to overlay their curves.").arg(m_runsDir).arg(m_runs.size());
    if (damaged)
        text += QLatin1Char(' ') + tr("Damaged runs that cannot be read: %1; the Status column says why.").arg(damaged);
    if (!m_problem.isEmpty()) { // the engine's message says it: "cannot read the runs folder …: why"
        const QString why = asSentence(EngineText::english(m_problem));
        text += QLatin1Char(' ') + why.left(1).toUpper() + why.mid(1);
    }
    m_status->setText(text);
    updateChart();
    updateButtons();
}

const tb::RunSummary* RunsPanel::runAt(int row) const
{
    const QTableWidgetItem* item = row >= 0 ? m_table->item(row, Overlay) : nullptr;
    if (!item)
        return nullptr;
    const QString path = item->data(kPathRole).toString();
    for (const tb::RunSummary& r : m_runs)
        if (qs(r.path) == path)
            return &r;
    return nullptr;
}

QString RunsPanel::selectedRun() const
{
    const tb::RunSummary* r = runAt(m_table->currentRow());
    return r && m_table->selectionModel()->hasSelection() ? qs(r->path) : QString();
}

void RunsPanel::selectRun(const QString& path)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, Overlay) && m_table->item(row, Overlay)->data(kPathRole).toString() == path) {
            m_table->selectRow(row);
            return;
        }
    m_table->clearSelection();
}

void RunsPanel::setOverlaid(const QString& path, bool on)
{
    if (on == m_ticked.contains(path))
        return;
    if (on)
        m_ticked << path;
    else
        m_ticked.removeAll(path);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem* item = m_table->item(row, Overlay);
        if (item && item->data(kPathRole).toString() == path && (item->flags() & Qt::ItemIsUserCheckable)) {
            m_filling = true;
            item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            item->setData(kSortRole, on ? 1.0 : 0.0);
            m_filling = false;
        }
    }
    updateChart();
}

QStringList RunsPanel::overlaid() const
{
    return m_ticked;
}

void RunsPanel::setMetric(int metric)
{
    m_metric->setCurrentIndex(metric);
}

void RunsPanel::updateChart()
{
    const int metric = std::max(0, m_metric->currentIndex());
    m_chart->setTitles(m_metric->itemText(metric), tr("Epoch"), QString()); // the title says what is plotted
    m_chart->setEmptyText(tr("Tick runs in the table to overlay their curves here."));
    if (metric == 0 || metric == 3) // accuracies: 0 to 1, whatever the runs reached
        m_chart->setFixedYRange(0, 1);
    else
        m_chart->setFollowingY();
    struct Line {
        const tb::RunSummary* run;
        QString name;
    };
    std::vector<Line> lines;
    for (const QString& path : m_ticked) {
        const auto it =
            std::find_if(m_runs.begin(), m_runs.end(), [&](const tb::RunSummary& r) { return qs(r.path) == path; });
        if (it == m_runs.end() || it->damaged)
            continue;
        // The optimizer from the settings (version 3 records); earlier ones kept it at the top.
        const nlohmann::ordered_json* optimizer = tb::jsonMember(it->record, "optimizer");
        const QString optimizerName = it->config ? qs(tb::optimizerName(it->config->optimizer.kind))
                                      : optimizer && optimizer->is_string() ? qs(optimizer->get<std::string>())
                                                                            : QString();
        lines.push_back({&*it, cellText(optimizerName.isEmpty()
                                            ? tr("%1 on %2, %3").arg(qs(it->model), qs(it->device), qs(it->date()))
                                            : tr("%1 (%2) on %3, %4")
                                                  .arg(qs(it->model), optimizerName, qs(it->device), qs(it->date())))});
    }
    // Two runs of the same model on the same device in the same minute would share a legend entry:
    // those say their seed, then (still alike) their folder's name.
    const auto disambiguate = [&lines](const std::function<QString(const tb::RunSummary&)>& more) {
        QMap<QString, int> uses;
        for (const Line& l : lines)
            ++uses[l.name];
        for (Line& l : lines)
            if (uses[l.name] > 1)
                l.name += more(*l.run);
    };
    disambiguate([](const tb::RunSummary& r) { return r.config ? tr(", seed %1").arg(r.config->seed) : QString(); });
    disambiguate([](const tb::RunSummary& r) { return QStringLiteral(" (%1)").arg(QFileInfo(qs(r.path)).fileName()); });
    // Training loss and accuracy: each run's batches too, from its checkpoint, smoothed as the live
    // charts draw them.
    const bool perBatch = metric == 2 || metric == 3;
    QStringList missing;
    int used = 0;
    bool anyBatches = false;
    for (const Line& line : lines) {
        const tb::RunSummary* it = line.run;
        const QString& name = line.name;
        if (used == m_chartSeries) { // the batches first: drawn under the epochs
            const QColor colour = kColours[used % std::size(kColours)];
            // The legend names each run once: its light line is the title's (below).
            m_chart->setInLegend(m_chart->addSeries(QString(), lightOf(colour), 1.2), false);
            m_chart->addSeries(name, colour);
            ++m_chartSeries;
        }
        QList<QPointF> points;
        for (const tb::EpochRecord& e : it->history)
            if (std::isfinite(metricOf(e, metric)))
                points << QPointF(e.epoch, metricOf(e, metric));
        const int epochs = epochSeries(used), batches = batchSeries(used);
        m_chart->setSeriesName(epochs, name);
        m_chart->setPoints(epochs, points);
        m_chart->setPointsVisible(epochs);
        m_chart->setSeriesVisible(epochs, true);
        QList<QPointF> batchPoints;
        if (const tb::RunBatchCurve* curve = perBatch ? batchCurve(*it) : nullptr) {
            const tb::BatchLine l = tb::smoothedBatchLine(curve->points);
            const std::vector<double>& y = metric == 2 ? l.loss : l.accuracy;
            batchPoints.reserve(qsizetype(y.size()));
            for (size_t i = 0; i < y.size(); ++i)
                batchPoints << QPointF(l.x[i], y[i]);
            switch (curve->missing) {
            case tb::RunBatchCurve::Missing::None:
                break;
            case tb::RunBatchCurve::Missing::NoCheckpoint:
                missing << tr("%1: its folder holds no checkpoint.tbw, which keeps the run's batches").arg(name);
                break;
            case tb::RunBatchCurve::Missing::OlderCheckpoint:
                missing << tr("%1: its checkpoint.tbw was written before checkpoints kept the run's batches").arg(name);
                break;
            case tb::RunBatchCurve::Missing::Unreadable:
                missing << tr("%1: %2").arg(name, EngineText::english(qs(curve->error)));
                break;
            }
        }
        m_chart->setSeriesName(batches, tr("%1, per batch (smoothed)").arg(name));
        m_chart->setPoints(batches, batchPoints);
        m_chart->setSeriesVisible(batches, !batchPoints.isEmpty());
        anyBatches = anyBatches || !batchPoints.isEmpty();
        ++used;
    }
    if (anyBatches)
        m_chart->setTitles(tr("%1: points per epoch, light lines per batch (smoothed)").arg(m_metric->itemText(metric)),
                           tr("Epoch"), QString());
    for (int i = 2 * used; i < 2 * m_chartSeries; ++i) {
        m_chart->setPoints(i, {});
        m_chart->setSeriesVisible(i, false);
    }
    m_chart->flush();
    m_batchNote->setText(missing.isEmpty() ? QString()
                                           : tr("No per-batch line for %1.").arg(missing.join(QStringLiteral("; "))));
    m_batchNote->setVisible(!missing.isEmpty());
    // Each ticked row shows its curve's colour by its tick box (a QColor decoration is drawn as a
    // swatch): which row is which curve.
    const bool filling = std::exchange(m_filling, true);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem* tick = m_table->item(row, Overlay);
        QVariant colour;
        for (size_t i = 0; i < lines.size(); ++i)
            if (qs(lines[i].run->path) == tick->data(kPathRole).toString())
                colour = kColours[i % std::size(kColours)];
        tick->setData(Qt::DecorationRole, colour);
    }
    m_filling = filling;
}

QString RunsPanel::batchNote() const
{
    return m_batchNote->text();
}

const tb::RunBatchCurve* RunsPanel::batchCurve(const tb::RunSummary& run)
{
    const QString path = qs(run.path), state = runState(run);
    const auto it = m_curves.constFind(path);
    if (it != m_curves.constEnd() && it->runState == state)
        return it->done ? &it->curve : nullptr;
    // Read once per state of the run, off the GUI thread: a checkpoint holds the weights too.
    m_curves[path] = CurveRead{state, false, {}};
    ++m_checkpointReads;
    auto* watcher = new QFutureWatcher<tb::RunBatchCurve>(this);
    connect(watcher, &QFutureWatcher<tb::RunBatchCurve>::finished, this, [this, watcher, path, state] {
        tb::RunBatchCurve curve = watcher->result();
        watcher->deleteLater();
        const auto read = m_curves.find(path);
        if (read == m_curves.end() || read->runState != state)
            return; // the run changed meanwhile: a newer read follows
        read->curve = std::move(curve);
        read->done = true;
        updateChart();
    });
    watcher->setFuture(QtConcurrent::run([run] { return tb::readRunBatchCurve(run); }));
    return nullptr;
}

void RunsPanel::updateButtons()
{
    const tb::RunSummary* r = m_table->selectionModel()->hasSelection() ? runAt(m_table->currentRow()) : nullptr;
    const bool usable = r && !r->damaged;
    auto has = [&](const char* file) { return usable && r->holds(file); };
    m_open->setEnabled(has("weights.tbw"));
    m_resume->setEnabled(r && r->resumable()); // the rule of `train --resume` and `runs list`
    m_delete->setEnabled(r != nullptr);
    m_report->setEnabled(usable);
    // A greyed button's tooltip says why it is greyed, after what it does.
    const QString damaged = tr("The run is damaged: its record cannot be read.");
    QString cannotOpen, cannotResume;
    if (r && r->damaged) {
        cannotOpen = damaged;
    } else if (r) {
        if (!r->holds("weights.tbw"))
            cannotOpen = r->status == tb::RunStatus::Running
                             ? tr("The run has not ended: its final weights are saved at its end.")
                         : r->resumable()
                             ? tr("The run was stopped or interrupted before its end: its folder keeps a checkpoint "
                                  "to resume from, not final weights (weights.tbw). Resume it to finish it.")
                         : r->status == tb::RunStatus::Diverged
                             ? tr("The run diverged before its end: it has no final weights (weights.tbw).")
                             : tr("The run's folder has no weights (weights.tbw).");
    }
    if (r) {
        switch (r->resumeBlock()) {
        case tb::RunSummary::ResumeBlock::None: // a damaged record too, beside its checkpoint
            break;
        case tb::RunSummary::ResumeBlock::Damaged:
            cannotResume = damaged;
            break;
        case tb::RunSummary::ResumeBlock::Finished:
            cannotResume = tr("The run is complete: nothing is left to resume.");
            break;
        case tb::RunSummary::ResumeBlock::Diverged: // its checkpoint replays the same steps, into the same NaN
            cannotResume = tr("The run diverged (its loss or weights became NaN or infinite): resumed, it would "
                              "repeat the same steps with the same settings and diverge again. Train it again "
                              "with a lower learning rate.");
            break;
        case tb::RunSummary::ResumeBlock::NoCheckpoint:
            cannotResume = tr("The run's folder has no checkpoint (checkpoint.tbw) to resume from.");
            break;
        }
    }
    auto tip = [](const QString& does, const QString& why) {
        return why.isEmpty() ? does : does + QLatin1Char('\n') + why;
    };
    m_open->setToolTip(tip(tr("Evaluate the run's final weights on its dataset and show them on the Results page"),
                           m_open->isEnabled() ? QString() : cannotOpen));
    m_resume->setToolTip(tip(tr("Continue the run from its checkpoint on the accelerator chosen in Setup"),
                             m_resume->isEnabled() ? QString() : cannotResume));
}

void RunsPanel::exportReport(const QString& run, const QString& path)
{
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        emit message(error.isEmpty() ? tr("Saved the report %1").arg(path)
                                     : tr("Could not write the report: %1").arg(error));
        emit reportExported(path, error);
    });
    const std::string runPath = ss(run), out = ss(path);
    watcher->setFuture(QtConcurrent::run([runPath, out] {
        try {
            ReportText::write(runPath, out); // in the window's language
            return QString();
        } catch (const std::exception& e) {
            return EngineText::of(e);
        }
    }));
}

void RunsPanel::askAndExportReport(const QString& run)
{
    if (run.isEmpty())
        return;
    const QString name = QFileInfo(run).fileName() + QStringLiteral(".html");
    const QString path = askSavePath(this, tr("Export the run's report"), name, tr("HTML files (*.html)"));
    if (!path.isEmpty())
        exportReport(run, path);
}

QString RunsPanel::deleteRun(const QString& run, bool ask)
{
    if (run.isEmpty())
        return {};
    if (ask && QMessageBox::question(this, tr("Delete the run"),
                                     tr("Delete the run folder %1 with its checkpoints and weights? This cannot be "
                                        "undone.")
                                         .arg(run)) != QMessageBox::Yes)
        return {};
    QString error;
    try {
        tb::deleteRun(ss(run), ss(m_runsDir));
    } catch (const std::exception& e) {
        error = EngineText::of(e);
    }
    emit message(error.isEmpty() ? tr("Deleted %1").arg(run) : tr("Could not delete the run: %1").arg(error));
    refresh();
    return error;
}

} // namespace tbui
