#include "screenshot_tour.hpp"

#include "compare/compare_panel.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_panel.hpp"
#include "predict/drawing_pad.hpp"
#include "predict/predict_panel.hpp"
#include "run/run_controller.hpp"
#include "runs/runs_panel.hpp"
#include "write/write_panel.hpp"

#include <QApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>

namespace {
void waitFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool shoot(tbui::MainWindow& w, const QString& dir, const QString& name, int settleMs = 300)
{
    waitFor(settleMs); // let the charts' batched redraws land
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = w.grab().save(path);
    std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(path));
    return ok;
}
// The window in English, shown at `size`, and outDir made.
void prepare(tbui::MainWindow& w, const QString& outDir, QSize size)
{
    QDir().mkpath(outDir);
    tbui::Language::apply(QStringLiteral("en"));
    w.show(); // placed inside the (offscreen) screen first; the README's pictures are larger
    w.resize(size);
}

// The window in English at the README's size, on one page, for a screenshot of that page alone.
void showOnePage(tbui::MainWindow& w, const QString& outDir, tbui::MainWindow::Page page)
{
    prepare(w, outDir, QSize(1360, 900));
    w.showPage(page);
}

// Loads `path` and waits for it; false, with the panel's error printed, when it did not load.
bool loadAndWait(tbui::MainWindow& w, const QString& path, tbui::DatasetPanel::Kind kind)
{
    using tbui::DatasetPanel;
    QEventLoop loaded;
    QObject::connect(w.datasetPanel(), &DatasetPanel::datasetLoaded, &loaded, &QEventLoop::quit);
    QObject::connect(w.datasetPanel(), &DatasetPanel::loadFailed, &loaded, &QEventLoop::quit);
    w.datasetPanel()->load(path, kind);
    loaded.exec();
    if (w.datasetPanel()->dataset())
        return true;
    std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(w.datasetPanel()->errorText()));
    return false;
}

// The notebooks' tpu-mnist-cnn with Adam, batches of 128 and seed 200: `epochs` epochs of at most
// `maxBatches` batches.
void setTpuMnistRun(tbui::MainWindow& w, int epochs, int maxBatches)
{
    w.modelPanel()->selectPreset(QStringLiteral("tpu-mnist-cnn"));
    w.hyperparametersPanel()->setOptimizer(tb::OptimizerKind::Adam);
    w.hyperparametersPanel()->setEpochs(epochs);
    w.hyperparametersPanel()->setBatchSize(128);
    w.hyperparametersPanel()->setSeed(200);
    w.hyperparametersPanel()->setMaxBatches(maxBatches);
}

// The Write page's prompt: "This License " where the text has it (GPL-3, the docs' pictures), else its
// first two words and the space after them, whose symbols a character-level model of the text has
// (empty for a folder of texts, or a text that does not start with words).
QString promptFrom(const QString& textPath)
{
    QFile f(textPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.read(1 << 20));
    if (text.contains(QStringLiteral("This License ")))
        return QStringLiteral("This License ");
    const QStringList words = text.section(QLatin1Char('\n'), 0, 0).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return words.size() >= 2 ? words[0] + QLatin1Char(' ') + words[1] + QLatin1Char(' ') : QString();
}
} // namespace

int runScreenshotTour(tbui::MainWindow& w, const QString& outDir, const QString& dataDir)
{
    using namespace tbui;
    prepare(w, outDir, QSize(1360, 900));
    bool ok = shoot(w, outDir, QStringLiteral("empty"));
    if (!loadAndWait(w, dataDir, DatasetPanel::Kind::ByModel))
        return 1;
    setTpuMnistRun(w, 3, 120);
    tb::DeviceSpec all;
    all.threads = 2;
    w.acceleratorPanel()->selectDevice(all);
    ok = shoot(w, outDir, QStringLiteral("setup")) && ok;
    // The precision row with bf16 chosen, or where this CPU cannot run it, the reason under it.
    tb::DeviceSpec bf16 = all;
    bf16.precision = tb::Precision::Bf16;
    w.acceleratorPanel()->selectDevice(bf16);
    ok = shoot(w, outDir, QStringLiteral("setup-bf16")) && ok;
    w.acceleratorPanel()->selectDevice(all);

    QEventLoop secondEpoch;
    int epochs = 0;
    QObject::connect(w.runController(), &RunController::epochFinished, &secondEpoch, [&] {
        if (++epochs == 2)
            QTimer::singleShot(1500, &secondEpoch, &QEventLoop::quit);
    });
    QEventLoop finished;
    QObject::connect(w.runController(), &RunController::finished, &finished, &QEventLoop::quit);
    w.startTraining();
    secondEpoch.exec();
    ok = shoot(w, outDir, QStringLiteral("training")) && ok;
    if (w.runController()->isRunning())
        finished.exec();
    w.showPage(MainWindow::ResultsPage);
    ok = shoot(w, outDir, QStringLiteral("results")) && ok;

    // The comparison: one epoch of 100 batches on each CPU device.
    w.hyperparametersPanel()->setEpochs(1);
    w.hyperparametersPanel()->setMaxBatches(100);
    w.showPage(MainWindow::ComparePage);
    QEventLoop compared;
    QObject::connect(w.comparePanel(), &ComparePanel::comparisonFinished, &compared, &QEventLoop::quit);
    const QString why = w.comparePanel()->start();
    if (!why.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(why));
        return 1;
    }
    compared.exec();
    ok = shoot(w, outDir, QStringLiteral("compare")) && ok;

    Language::apply(QStringLiteral("es"));
    w.showPage(MainWindow::TrainingPage);
    ok = shoot(w, outDir, QStringLiteral("spanish")) && ok;

    // A laptop screen: 1280x720 less a title bar, in both languages.
    w.resize(1280, 690);
    w.showPage(MainWindow::SetupPage);
    ok = shoot(w, outDir, QStringLiteral("laptop-1280x720-es")) && ok;
    Language::apply(QStringLiteral("en"));
    ok = shoot(w, outDir, QStringLiteral("laptop-1280x720-en")) && ok;
    // The Training page's charts on laptop screens (1280x720 and 1280x800 less a title bar), both
    // languages: their axes' numbers whole.
    w.showPage(MainWindow::TrainingPage);
    for (const int height : {800, 720}) {
        w.resize(1280, height - 30);
        for (const char* language : {"es", "en"}) {
            Language::apply(QString::fromLatin1(language));
            ok = shoot(w, outDir,
                       QStringLiteral("laptop-1280x%1-training-%2").arg(height).arg(QLatin1String(language))) &&
                 ok;
        }
    }

    // A one-epoch run, paused on the way, then a longer one stopped.
    w.hyperparametersPanel()->setEpochs(1);
    w.hyperparametersPanel()->setMaxBatches(150);
    // The worker pauses itself after batch 60, however busy the machine; the window then gets 800 ms
    // to draw the paused state.
    QEventLoop paused;
    auto pauseShown = QObject::connect(w.runController(), &RunController::pausedChanged, &paused, [&](bool isPaused) {
        if (isPaused)
            QTimer::singleShot(800, &paused, &QEventLoop::quit);
    });
    w.runController()->pauseAfterBatches(60);
    w.startTraining();
    paused.exec();
    QObject::disconnect(pauseShown);
    ok = shoot(w, outDir, QStringLiteral("paused")) && ok;
    w.runController()->setPaused(false);
    if (w.runController()->isRunning())
        finished.exec();
    ok = shoot(w, outDir, QStringLiteral("one-epoch")) && ok;
    w.showPage(MainWindow::ResultsPage);
    ok = shoot(w, outDir, QStringLiteral("one-epoch-results")) && ok;

    w.hyperparametersPanel()->setEpochs(3);
    w.hyperparametersPanel()->setMaxBatches(0);
    QEventLoop running;
    auto stopAt =
        QObject::connect(w.runController(), &RunController::batchFinished, &running, [&](const tb::BatchProgress& p) {
            if (p.step >= 40)
                running.quit();
        });
    w.startTraining();
    running.exec();
    QObject::disconnect(stopAt);
    w.runController()->stop();
    ok = shoot(w, outDir, QStringLiteral("stopping"), 30) && ok;
    if (w.runController()->isRunning())
        finished.exec();
    ok = shoot(w, outDir, QStringLiteral("stopped")) && ok;

    w.resize(1920, 1050);
    w.showPage(MainWindow::TrainingPage);
    ok = shoot(w, outDir, QStringLiteral("desktop-1920x1080")) && ok;
    Language::apply(QString());
    return ok ? 0 : 1;
}

int runPredictScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& weightsPath, const QString& dataDir)
{
    using namespace tbui;
    showOnePage(w, outDir, MainWindow::PredictPage);
    // The page needs no dataset, but without one the status line asks for it.
    if (!dataDir.isEmpty() && !loadAndWait(w, dataDir, DatasetPanel::Kind::ByModel))
        return 1;
    PredictPanel* page = w.predictPanel();
    QEventLoop opened;
    QObject::connect(page, &PredictPanel::weightsOpened, &opened, &QEventLoop::quit);
    page->openWeightsFile(weightsPath);
    opened.exec();
    if (!page->hasModel()) {
        std::fprintf(stderr, "%s\n", qPrintable(page->statusText()));
        return 1;
    }
    // A hand-drawn "4", stroke by stroke as the mouse would, waiting for each prediction.
    const std::vector<std::vector<QPointF>> strokes = {
        {{95, 50}, {88, 90}, {80, 130}, {76, 160}, {120, 158}, {170, 152}, {205, 150}},
        {{175, 45}, {172, 100}, {170, 150}, {168, 200}, {166, 240}}};
    for (const auto& stroke : strokes) {
        page->pad()->drawStroke(stroke);
        while (!page->idle())
            waitFor(20);
    }
    // Weights that open but cannot predict (outputs that are not numbers) give no screenshot of their
    // error, and fail as weights that do not open do.
    if (page->statusIsError()) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(QDir::toNativeSeparators(weightsPath)),
                     qPrintable(page->statusText()));
        Language::apply(QString());
        return 1;
    }
    const bool ok = shoot(w, outDir, QStringLiteral("predict-page"), 500);
    Language::apply(QString());
    return ok ? 0 : 1;
}

int runWriteScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& textPath, const QString& weights)
{
    using namespace tbui;
    prepare(w, outDir, QSize(1280, 720));
    w.showPage(MainWindow::SetupPage);
    w.modelPanel()->selectPreset(QStringLiteral("small-text-lstm"));
    w.datasetPanel()->setTextSequenceLength(64); // the preset's, so the text loads once
    if (!loadAndWait(w, textPath, DatasetPanel::Kind::Text))
        return 1;
    w.modelPanel()->selectPreset(QStringLiteral("small-text-lstm"));
    bool ok = shoot(w, outDir, QStringLiteral("text-setup"));

    QEventLoop evaluated;
    bool evaluatedOk = false;
    QObject::connect(&w, &MainWindow::evaluationFinished, &evaluated, [&](bool good) {
        evaluatedOk = good;
        evaluated.quit();
    });
    w.openWeights(weights);
    evaluated.exec();
    if (!evaluatedOk) {
        std::fprintf(stderr, "%s\n", qPrintable(w.statusBar()->currentMessage())); // "Could not evaluate W: why"
        return 1;
    }
    ok = shoot(w, outDir, QStringLiteral("text-results")) && ok;

    WritePanel* page = w.writePanel();
    w.showPage(MainWindow::WritePage);
    page->promptEdit()->setText(promptFrom(textPath));
    page->lengthBox()->setValue(700);
    page->temperatureBox()->setValue(0.6);
    page->seedBox()->setValue(7);
    QEventLoop written;
    QObject::connect(page, &WritePanel::writingFinished, &written, &QEventLoop::quit);
    page->write();
    written.exec();
    if (!page->errorText().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(page->errorText()));
        return 1;
    }
    ok = shoot(w, outDir, QStringLiteral("writing-page-en")) && ok;
    Language::apply(QStringLiteral("es"));
    w.statusBar()->clearMessage(); // the English "Evaluated …" of before the switch, still on its timer
    ok = shoot(w, outDir, QStringLiteral("writing-page-es")) && ok;
    w.showPage(MainWindow::ResultsPage);
    ok = shoot(w, outDir, QStringLiteral("text-results-es")) && ok;
    w.showPage(MainWindow::SetupPage);
    ok = shoot(w, outDir, QStringLiteral("text-setup-es")) && ok;
    Language::apply(QString());
    return ok ? 0 : 1;
}

int runCompareScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& dataDir, const QString& devices)
{
    using namespace tbui;
    prepare(w, outDir, QSize(1280, 720));
    if (!loadAndWait(w, dataDir, DatasetPanel::Kind::ByModel))
        return 1;
    // Few batches: PoCL runs the OpenCL code on the CPU tens of times slower than the CPU engine.
    setTpuMnistRun(w, 1, 20);
    w.showPage(MainWindow::ComparePage);
    ComparePanel* compare = w.comparePanel();
    for (const tb::DeviceSpec& d : compare->selectedDevices())
        compare->setDeviceChecked(QString::fromStdString(d.id()), false);
    const QStringList wanted = devices.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& id : wanted)
        compare->setDeviceChecked(id.trimmed(), true);
    QStringList ticked;
    for (const tb::DeviceSpec& d : compare->selectedDevices())
        ticked << QString::fromStdString(d.id());
    if (ticked.size() != wanted.size()) {
        std::fprintf(stderr, "asked for %s; of these the Compare page offers and can run %s\n", qPrintable(devices),
                     ticked.isEmpty() ? "none" : qPrintable("only " + ticked.join(QLatin1Char(','))));
        return 1;
    }
    QEventLoop compared;
    QObject::connect(compare, &ComparePanel::comparisonFinished, &compared, &QEventLoop::quit);
    const QString why = compare->start();
    if (!why.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(why));
        return 1;
    }
    compared.exec();
    std::printf("%s\n", qPrintable(compare->statusText()));
    const bool openCl = devices.contains(QStringLiteral("opencl"));
    const bool ok = shoot(w, outDir, openCl ? QStringLiteral("compare-opencl") : QStringLiteral("compare-devices"));
    Language::apply(QString());
    return ok && compare->rows().size() == size_t(wanted.size()) ? 0 : 1;
}

int runRunsScreenshot(tbui::MainWindow& w, const QString& outDir)
{
    using namespace tbui;
    showOnePage(w, outDir, MainWindow::RunsPage);
    RunsPanel* page = w.runsPanel();
    QEventLoop listed;
    QObject::connect(page, &RunsPanel::listed, &listed, &QEventLoop::quit);
    page->refresh();
    listed.exec();
    int ticked = 0;
    for (const tb::RunSummary& r : page->runs())
        if (!r.damaged && r.status == tb::RunStatus::Completed && ticked < 2) {
            page->setOverlaid(QString::fromStdString(r.path), true);
            if (++ticked == 1)
                page->selectRun(QString::fromStdString(r.path));
        }
    if (ticked < 2) {
        std::fprintf(stderr, "the runs folder %s holds fewer than two completed runs\n", qPrintable(page->runsDir()));
        return 1;
    }
    const bool ok = shoot(w, outDir, QStringLiteral("runs-page"), 500);
    Language::apply(QString());
    return ok ? 0 : 1;
}
