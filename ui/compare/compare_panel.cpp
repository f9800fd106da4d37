#include "compare/compare_panel.hpp"

#include "charts/chart.hpp"
#include "common/device_text.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "export/export_dialog.hpp"
#include "export/save_file.hpp"
#include "train/progress_text.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tbui {

namespace {
enum Column {
    Device,
    Replicas,
    Batch,
    Size,
    SecondsPerEpoch,
    SamplesPerSec,
    Speedup,
    TestLoss,
    TestAccuracy,
    MaxDiff,
    Sha,
    Columns
};
}

ComparePanel::ComparePanel(const tb::SystemInfo& system, RequestSource source, QWidget* parent)
    : QWidget(parent), m_system(system), m_source(std::move(source)), m_title(new QLabel(this)),
      m_help(new QLabel(this)), m_sweepLabel(new QLabel(this)), m_sweepKind(new QComboBox(this)),
      m_sweepValues(new QLineEdit(this)), m_run(new QPushButton(this)), m_stop(new QPushButton(this)),
      m_exportCsv(new QPushButton(this)), m_exportPng(new QPushButton(this)), m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)), m_table(new QTableWidget(0, Columns, this)),
      m_chart(new Chart(Chart::Kind::BarsAndLine, this)), m_bf16Note(new QLabel(this))
{
    qRegisterMetaType<tb::CompareRow>();
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_help->setWordWrap(true);
    m_bf16Note->setWordWrap(true);
    auto* devices = new QHBoxLayout;
    std::vector<tb::DeviceSpec> specs;
    tb::DeviceSpec one;
    one.threads = 1;
    specs.push_back(one);
    if (system.cpu.logicalCores > 1) {
        tb::DeviceSpec all;
        all.threads = system.cpu.logicalCores;
        specs.push_back(all);
    }
    const tb::DeviceSpec allCores = specs.back();
    // The CUDA GPU when there is one, then every OpenCL device; with neither, the CUDA row shown
    // unavailable with the reason.
    if (!system.gpus.empty() || system.openclDevices.empty()) {
        tb::DeviceSpec gpu;
        gpu.kind = tb::DeviceKind::Cuda;
        gpu.index = system.gpus.empty() ? 0 : system.gpus.front().index;
        specs.push_back(gpu);
    }
    for (const tb::OpenClDeviceInfo& o : system.openclDevices) {
        tb::DeviceSpec cl;
        cl.kind = tb::DeviceKind::OpenCl;
        cl.index = o.index;
        specs.push_back(cl);
    }
    // All cores again with each lower instruction set the CPU runs ("cpu:2@avx2"), on a row of
    // their own and unticked: what the vector width buys, on the same seed.
    auto* levels = new QHBoxLayout;
    for (tb::Isa isa : system.cpu.isas)
        if (isa != system.cpu.isa) {
            tb::DeviceSpec lower = allCores;
            lower.isa = isa;
            specs.push_back(lower);
        }
    // One CPU core and all cores again in bf16 ("cpu:2+bf16"), on a row of their own and unticked:
    // beside the FP32 rows on the same seed, what bfloat16 products buy and how far the weights move.
    // Shown unavailable with the reason on a CPU without AVX512_BF16.
    auto* precisions = new QHBoxLayout;
    for (size_t i = 0, cpus = specs.size() > 1 && specs[1].kind == tb::DeviceKind::Cpu ? 2 : 1; i < cpus; ++i) {
        tb::DeviceSpec bf16 = specs[i];
        bf16.precision = tb::Precision::Bf16;
        specs.push_back(bf16);
    }
    // One accelerator beside the CPU rows; more (several OpenCL platforms) on a row of their own, so
    // long device names do not widen the window.
    auto* more = new QHBoxLayout;
    int accelerators = 0;
    for (const tb::DeviceSpec& d : specs) {
        auto* box = new QCheckBox(this);
        const std::string why = tb::deviceUnavailableReason(d, system);
        box->setEnabled(why.empty());
        // An OpenCL device that is not a GPU (PoCL on this CPU) is offered unticked: it runs the GPU's
        // code tens of times slower than the CPU engine.
        box->setChecked(why.empty() && !d.isa && d.precision == tb::Precision::Fp32 &&
                        !DeviceText::isOpenClNotGpu(d, system));
        const bool accelerator = d.kind != tb::DeviceKind::Cpu;
        (d.precision != tb::Precision::Fp32  ? precisions
         : d.isa                             ? levels
         : accelerator && accelerators++ > 0 ? more
                                             : devices)
            ->addWidget(box);
        m_devices.emplace_back(box, d);
    }
    devices->addStretch();
    more->addStretch();
    levels->addStretch();
    // On a CPU that cannot run bf16, the reason once, wrapped, beside the unavailable boxes (a check
    // box does not wrap).
    const std::string bf16Why = tb::deviceUnavailableReason(specs.back(), system);
    if (specs.back().precision != tb::Precision::Fp32 && !bf16Why.empty())
        precisions->addWidget(m_bf16Note, 1);
    else
        precisions->addStretch();
    m_sweepKind->setObjectName(QStringLiteral("sweepKind"));
    m_sweepKind->addItem(QString(), int(tb::SweepKind::None));
    m_sweepKind->addItem(QString(), int(tb::SweepKind::Batch));
    m_sweepKind->addItem(QString(), int(tb::SweepKind::Size));
    m_sweepValues->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_stop->setEnabled(false);
    m_exportCsv->setEnabled(false);
    m_exportPng->setEnabled(false);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_chart->addSeries(QString(), QColor(0xe4, 0x57, 0x1a), 2.5, false, true);

    auto* sweep = new QHBoxLayout;
    sweep->addWidget(m_sweepLabel);
    sweep->addWidget(m_sweepKind);
    sweep->addWidget(m_sweepValues, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_exportCsv);
    buttons->addWidget(m_exportPng);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setSizes({260, 340});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_help);
    layout->addLayout(devices);
    if (accelerators > 1)
        layout->addLayout(more);
    else
        delete more;
    layout->addLayout(levels);
    layout->addLayout(precisions);
    layout->addLayout(sweep);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_sweepKind, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind = tb::SweepKind(m_sweepKind->currentData().toInt());
        m_sweepValues->setEnabled(kind != tb::SweepKind::None);
        if (kind == tb::SweepKind::Batch)
            m_sweepValues->setText(QStringLiteral("32,64,128,256"));
        else if (kind == tb::SweepKind::Size)
            m_sweepValues->setText(QStringLiteral("1,2,3"));
        else
            m_sweepValues->clear();
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        const QString why = start();
        if (!why.isEmpty())
            m_status->setText(why);
    });
    connect(m_stop, &QPushButton::clicked, this, &ComparePanel::stop);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] {
        exportWithDialog(tr("Export the comparison"), QStringLiteral("comparison.csv"), tr("CSV files (*.csv)"),
                         &ComparePanel::exportCsv);
    });
    connect(m_exportPng, &QPushButton::clicked, this, [this] {
        exportWithDialog(tr("Export the comparison chart"), QStringLiteral("comparison.png"), tr("PNG images (*.png)"),
                         &ComparePanel::exportPng);
    });
    retranslate();
}

ComparePanel::~ComparePanel()
{
    m_thread.stopAndWait();
}

void ComparePanel::retranslate()
{
    m_title->setText(tr("Compare accelerators"));
    m_help->setText(tr("Trains the model chosen on the Setup page from the same initial weights on each ticked "
                       "device in turn, with the same seed, epochs, batch and batches per epoch. CPU devices give "
                       "identical weights (same SHA-256) on any number of cores, and AVX2 and AVX-512 kernels agree; "
                       "the SSE4.2 baseline rounds differently, and the table shows its largest weight difference, "
                       "as for a GPU.") +
                    QLatin1Char(' ') +
                    tr("The bf16 devices round the products' inputs to bfloat16 (CPUs with AVX512_BF16 only): their "
                       "weights differ from FP32's, by the largest difference the table shows."));
    for (auto& [box, spec] : m_devices) {
        const QString why = EngineText::deviceUnavailable(spec, m_system);
        box->setToolTip(QString());
        if (spec.kind == tb::DeviceKind::Cpu && spec.precision != tb::Precision::Fp32) {
            box->setText(why.isEmpty() ? tr("%1 — bfloat16 products, FP32 sums").arg(qs(spec.id()))
                                       : tr("%1 — unavailable").arg(qs(spec.id())));
            box->setToolTip(why.isEmpty() ? tr("The same cores with the matrix products' inputs rounded to bfloat16 "
                                               "and summed in FP32 (AVX512_BF16)")
                                          : tr("bf16 unavailable: %1").arg(why));
            m_bf16Note->setText(why.isEmpty() ? QString() : tr("bf16 unavailable: %1").arg(why));
        } else if (spec.kind == tb::DeviceKind::Cpu && spec.isa)
            box->setText(tr("%1 — the same cores with %2 kernels")
                             .arg(qs(spec.id()), QString::fromLatin1(tb::isaDescription(*spec.isa))));
        else if (spec.kind == tb::DeviceKind::Cpu)
            box->setText(spec.threads == 1 ? tr("%1 — one CPU core").arg(qs(spec.id()))
                                           : tr("%1 — all %2 CPU cores").arg(qs(spec.id())).arg(spec.threads));
        else if (const tb::OpenClDeviceInfo* o = DeviceText::openCl(spec, m_system))
            box->setText(why.isEmpty() ? tr("%1 — %2").arg(qs(spec.id()), DeviceText::openClShortName(*o, m_system))
                                       : tr("%1 — unavailable: %2").arg(qs(spec.id()), why));
        else
            box->setText(why.isEmpty() ? qs(spec.id()) : tr("%1 — unavailable: %2").arg(qs(spec.id()), why));
        if (const tb::OpenClDeviceInfo* o = DeviceText::openCl(spec, m_system))
            box->setToolTip(DeviceText::openClName(*o) + QLatin1Char('\n') + DeviceText::openClDetails(*o) +
                            (DeviceText::isOpenClNotGpu(spec, m_system)
                                 ? QLatin1Char('\n') + tr("Not a GPU: it runs the GPU's OpenCL code on this CPU, many "
                                                          "times slower than the CPU devices, so it starts unticked.")
                                 : QString()));
    }
    m_sweepLabel->setText(tr("Sweep:"));
    m_sweepKind->setItemText(0, tr("none"));
    m_sweepKind->setItemText(1, tr("batch size"));
    m_sweepKind->setItemText(2, tr("image size multiplier"));
    showSizeSweepTip();
    m_sweepValues->setPlaceholderText(tr("values, e.g. 32,64,128,256"));
    m_run->setText(tr("Run comparison"));
    m_stop->setText(tr("Stop"));
    m_exportCsv->setText(tr("Export CSV…"));
    m_exportPng->setText(tr("Export chart PNG…"));
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Replicas"), tr("Batch"), tr("Size ×"), tr("s/epoch"),
                                        tr("Samples/s"), tr("Speed-up"), tr("Test loss"), tr("Test accuracy"),
                                        tr("Max |Δw|"), tr("Weights SHA-256")});
    m_table->horizontalHeaderItem(MaxDiff)->setToolTip(
        tr("The largest difference of a weight from the first device's that ran at the same batch: 0 "
           "where the weights are identical. Where the batch scales with the replicas, each batch has "
           "its own first device: another batch trains another run."));
    m_chart->setTitles(tr("Time per epoch and speed-up"), tr("Device"), tr("Seconds"), tr("Speed-up"));
    // A fast device's bar beside a slow one's (PoCL's) is a sliver: its value says it.
    m_chart->setBarValuesShown(true);
    m_chart->setEmptyText(tr("Tick devices above and press Run comparison: each one's time per epoch and speed-up "
                             "appear here."));
    m_chart->setSeriesName(0, tr("Speed-up vs the first device"));
    // The status and the table's numbers in the new language and its number format ("3,707" is 3.7 to a
    // Spanish reader).
    if (m_statusText)
        m_status->setText(m_statusText());
    for (size_t row = 0; row < m_rows.size(); ++row)
        fillRow(int(row), m_rows[row]);
    if (m_pending && int(m_rows.size()) < m_table->rowCount())
        fillRow(int(m_rows.size()), *m_pending);
}

void ComparePanel::setStatus(std::function<QString()> text)
{
    m_statusText = std::move(text);
    m_status->setText(m_statusText());
}

void ComparePanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

std::vector<tb::DeviceSpec> ComparePanel::selectedDevices() const
{
    std::vector<tb::DeviceSpec> out;
    for (const auto& [box, spec] : m_devices)
        if (box->isChecked() && box->isEnabled())
            out.push_back(spec);
    return out;
}

void ComparePanel::setDeviceChecked(const QString& id, bool checked)
{
    for (auto& [box, spec] : m_devices)
        if (qs(spec.id()) == id)
            box->setChecked(checked);
}

void ComparePanel::setTextModel(bool text)
{
    m_textModel = text;
    if (auto* items = qobject_cast<QStandardItemModel*>(m_sweepKind->model()))
        items->item(2)->setEnabled(!text);
    if (text && tb::SweepKind(m_sweepKind->currentData().toInt()) == tb::SweepKind::Size)
        m_sweepKind->setCurrentIndex(0);
    showSizeSweepTip();
}

void ComparePanel::showSizeSweepTip()
{
    m_sweepKind->setItemData(
        2, m_textModel ? tr("A text model reads sequences of symbols: it has no image size") : QVariant(),
        Qt::ToolTipRole);
}

void ComparePanel::setSweep(tb::SweepKind kind, const QString& values)
{
    m_sweepKind->setCurrentIndex(m_sweepKind->findData(int(kind)));
    m_sweepValues->setText(values);
}

QString ComparePanel::statusText() const
{
    return m_status->text();
}

QString ComparePanel::start()
{
    if (isRunning())
        return tr("A comparison is in progress.");
    CompareRequest req;
    const QString why = m_source(req);
    if (!why.isEmpty())
        return why;
    req.config.devices = selectedDevices();
    if (req.config.devices.empty())
        return tr("Tick at least one device.");
    const auto kind = tb::SweepKind(m_sweepKind->currentData().toInt());
    if (kind != tb::SweepKind::None) {
        try {
            req.config.sweep =
                tb::parseSweep(ss((kind == tb::SweepKind::Batch ? QStringLiteral("batch=") : QStringLiteral("size=")) +
                                  m_sweepValues->text().remove(QLatin1Char(' '))));
        } catch (const std::exception& e) {
            return EngineText::of(e);
        }
    }
    m_rows.clear();
    m_setup = tb::compareSetupOf(req.spec, *req.data, req.config);
    m_table->setRowCount(0);
    m_chart->clear();
    m_progress->setValue(0);
    auto* worker = new CompareWorker(req);
    connect(worker, &CompareWorker::deviceStarted, this, &ComparePanel::onDeviceStarted);
    connect(worker, &CompareWorker::batchFinished, this, &ComparePanel::onBatch);
    connect(worker, &CompareWorker::deviceFinished, this, &ComparePanel::onDeviceFinished);
    connect(worker, &CompareWorker::finished, this, &ComparePanel::onFinished);
    m_thread.start(worker, QStringLiteral("trainbench-compare"));
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_exportCsv->setEnabled(false);
    m_exportPng->setEnabled(false);
    setStatus([] { return tr("Starting…"); });
    emit comparisonStarted();
    return {};
}

void ComparePanel::stop()
{
    m_thread.stop();
}

void ComparePanel::onDeviceStarted(int row, int rows, const tb::CompareRow& pending)
{
    m_totalRows = rows;
    m_pending = pending;
    m_table->setRowCount(row + 1);
    fillRow(row, pending);
    setStatus([row, rows, device = qs(pending.description)] {
        return tr("Device %1 of %2: %3").arg(row + 1).arg(rows).arg(device);
    });
}

void ComparePanel::onBatch(int row, const tb::BatchProgress& p)
{
    const int total = p.steps * p.epochs;
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue((p.epoch - 1) * p.steps + p.step);
    if (p.step == p.steps) { // the evaluation that follows takes minutes on a slow device (PoCL): say so
        setStatus([row, rows = m_totalRows, p] {
            return tr("Device %1 of %2 — epoch %3/%4 trained, evaluating…")
                .arg(row + 1)
                .arg(rows)
                .arg(p.epoch)
                .arg(p.epochs);
        });
        return;
    }
    setStatus([row, rows = m_totalRows, p] {
        return tr("Device %1 of %2 — epoch %3/%4, step %5/%6 — %7 samples/s")
            .arg(row + 1)
            .arg(rows)
            .arg(p.epoch)
            .arg(p.epochs)
            .arg(p.step)
            .arg(p.steps)
            .arg(formatCount(std::llround(p.samplesPerSec)));
    });
}

void ComparePanel::onDeviceFinished(int row, const tb::CompareRow& r)
{
    m_rows.push_back(r);
    m_pending.reset();
    fillRow(row, r);
    if (r.skipped.empty()) {
        QString label = qs(r.device.id());
        if (r.sweepValue)
            label += QStringLiteral(" (%1)").arg(r.sweepValue);
        m_chart->appendBar(label, r.secondsPerEpoch, r.speedup);
    }
}

void ComparePanel::onFinished(bool stopped, const QString& error)
{
    m_thread.finish();
    m_run->setEnabled(true);
    m_stop->setEnabled(false);
    m_exportCsv->setEnabled(!m_rows.empty());
    m_exportPng->setEnabled(!m_rows.empty());
    m_table->setRowCount(int(m_rows.size())); // a stopped device's half row goes
    m_pending.reset();
    const int done = int(m_rows.size());
    if (!error.isEmpty())
        setStatus([error] { return tr("Comparison failed: %1").arg(error); });
    else if (stopped)
        setStatus([done, rows = m_totalRows] { return tr("Stopped; runs finished: %1 of %2.").arg(done).arg(rows); });
    else
        setStatus([done] { return tr("Done; runs compared: %1.").arg(done); });
    emit comparisonFinished(stopped, error);
}

void ComparePanel::fillRow(int row, const tb::CompareRow& r)
{
    const bool done = r.epochs > 0;
    auto cell = [&](int col, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (col != Device && col != Sha)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, col, item);
    };
    cell(Device, qs(r.device.id()));
    cell(Replicas, QString::number(r.replicas));
    cell(Batch, QString::number(r.globalBatch));
    cell(Size, QString::number(r.sizeMultiplier));
    // In the window's locale, the accuracy as a percentage as on the Runs page (the CSV export keeps
    // the engine's plain numbers).
    cell(SecondsPerEpoch, done ? formatNumber(r.secondsPerEpoch, 2) : QString());
    cell(SamplesPerSec, done ? formatCount(std::llround(r.samplesPerSec)) : QString());
    cell(Speedup, done ? formatNumber(r.speedup, 2) + QStringLiteral("×") : QString());
    cell(TestLoss, done ? formatNumber(r.test.loss, 4) : QString());
    cell(TestAccuracy, done ? formatPercent(r.test.accuracy, 2) : QString());
    cell(MaxDiff, !done               ? QString()
                  : r.noDiffReference ? QStringLiteral("–")
                                      : QLocale().toString(r.maxAbsDiff, 'g', 3));
    cell(Sha, !r.skipped.empty() ? tr("skipped: %1").arg(EngineText::english(qs(r.skipped)))
              : done             ? qs(r.weightsSha256)
                                 : tr("running…"));
    if (row < m_table->rowCount())
        m_table->item(row, Device)->setToolTip(qs(r.description));
}

void ComparePanel::exportWithDialog(const QString& title, const QString& name, const QString& filter,
                                    QString (ComparePanel::*save)(const QString&))
{
    const QString path = askSavePath(this, title, name, filter);
    if (path.isEmpty())
        return;
    const QString error = (this->*save)(path);
    setStatus([error, path] { return error.isEmpty() ? tr("Saved %1").arg(path) : error; });
}

QString ComparePanel::exportCsv(const QString& path)
{
    if (m_rows.empty())
        return tr("There is nothing to export yet.");
    return saveBytes(path, QByteArray::fromStdString(tb::compareCsv(m_rows, m_setup)));
}

QString ComparePanel::exportPng(const QString& path)
{
    if (m_rows.empty())
        return tr("There is nothing to export yet.");
    return m_chart->savePng(path);
}

} // namespace tbui
