// The window under QT_QPA_PLATFORM=offscreen: loading a dataset (and a broken one), training a
// tiny model on the worker thread with live charts and results, Stop and Pause, closing mid-run,
// the event loop's responsiveness, exports, evaluating a weights file, and Spanish.
#include "fixtures.hpp"

#include "charts/chart.hpp"
#include "compare/compare_panel.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/charts_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_panel.hpp"
#include "results/image_grid.hpp"
#include "results/results_panel.hpp"
#include "run/run_controller.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace tbui;

class TstUiWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_data, m_model;

    std::unique_ptr<MainWindow> makeWindow(int epochs = 2, int maxBatches = 0, int batch = 32)
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(m_data);
        if (!loaded.wait(10000))
            return nullptr;
        w->modelPanel()->openModelFile(m_model);
        w->hyperparametersPanel()->setEpochs(epochs);
        w->hyperparametersPanel()->setBatchSize(batch);
        w->hyperparametersPanel()->setSeed(7);
        w->hyperparametersPanel()->setMaxBatches(maxBatches);
        tb::DeviceSpec cpu2;
        cpu2.threads = 2;
        w->acceleratorPanel()->selectDevice(cpu2);
        return w;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TrainbenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_window"));
        QSettings().clear();
        Language::apply(QStringLiteral("en"));
        m_data = m_tmp.filePath(QStringLiteral("toy"));
        QDir().mkpath(m_data);
        fixtures::writeToyDataset(m_data.toStdString(), 1024, 200, 12, 3);
        m_model = m_tmp.filePath(QStringLiteral("toy.json"));
        QFile f(m_model);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(fixtures::toyModelJson()));
    }

    void datasetPanelShowsWhatWasFound()
    {
        auto w = makeWindow();
        QVERIFY(w);
        const tb::Dataset& d = *w->datasetPanel()->dataset();
        QCOMPARE(d.train.count, 1024);
        QCOMPARE(d.numClasses, 3);
        bool sawCounts = false;
        for (QLabel* l : w->datasetPanel()->findChildren<QLabel*>())
            sawCounts = sawCounts || (l->text().contains(QStringLiteral("1,024")) && l->text().contains(QStringLiteral("12×12")));
        QVERIFY(sawCounts);
        QCOMPARE(w->datasetPanel()->sampleGrid()->tileCount(), 3 * 4);  // four samples per class
        QVERIFY(w->startBlocker().isEmpty());
        QVERIFY(w->runPanel()->startButton()->isEnabled());
        QVERIFY(w->modelPanel()->totalsText().contains(QStringLiteral("Total params")));
    }

    void brokenDatasetShowsItsErrorInThePanel()
    {
        auto w = makeWindow();
        QVERIFY(w);
        const QString broken = m_tmp.filePath(QStringLiteral("broken"));
        QDir().mkpath(broken);
        for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                                 "t10k-labels-idx1-ubyte"})
            QFile::copy(QDir(m_data).filePath(QString::fromLatin1(name)), QDir(broken).filePath(QString::fromLatin1(name)));
        QFile labels(QDir(broken).filePath(QStringLiteral("train-labels-idx1-ubyte")));
        QVERIFY(labels.open(QIODevice::ReadWrite));
        QVERIFY(labels.resize(labels.size() - 10));  // truncated
        labels.close();
        QSignalSpy failed(w->datasetPanel(), &DatasetPanel::loadFailed);
        w->datasetPanel()->loadFolder(broken);
        QVERIFY(failed.wait(10000));
        const QString error = w->datasetPanel()->errorText();
        QVERIFY2(error.contains(QStringLiteral("train-labels-idx1-ubyte")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("truncated")), qPrintable(error));
        // The dataset that was loaded before stays usable.
        QVERIFY(w->datasetPanel()->dataset());
        QVERIFY(w->startBlocker().isEmpty());

        QSignalSpy failedAgain(w->datasetPanel(), &DatasetPanel::loadFailed);
        w->datasetPanel()->loadFolder(m_tmp.filePath(QStringLiteral("does-not-exist")));
        QVERIFY(failedAgain.wait(10000));
        QVERIFY(w->datasetPanel()->errorText().contains(QStringLiteral("does not exist")));
    }

    void trainsWithLiveChartsAndResults()
    {
        auto w = makeWindow(2);
        QVERIFY(w);
        QSignalSpy epochs(w->runController(), &RunController::epochFinished);
        QSignalSpy finished(w->runController(), &RunController::finished);
        // The event loop must stay responsive: a 5 ms timer measures the longest gap.
        QElapsedTimer clock;
        qint64 last = 0, worst = 0;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, [&] {
            const qint64 now = clock.elapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        // The results page repaints its grid and matrix after every epoch while training goes on.
        connect(w->runController(), &RunController::epochFinished, w.get(), [&] { w->showPage(MainWindow::ResultsPage); });
        w->startTraining();
        QVERIFY(w->runController()->isRunning());
        QVERIFY(!w->runPanel()->startButton()->isEnabled());
        QVERIFY(w->runPanel()->stopButton()->isEnabled());
        clock.start();
        probe.start();
        QVERIFY(epochs.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        probe.stop();
        qInfo("longest event-loop gap while training: %lld ms", worst);
        // Under a sanitizer (scripts/hardening.sh) everything is several times slower: reported only.
        if (!qEnvironmentVariableIsSet("TRAINBENCH_SANITIZED"))
            QVERIFY2(worst < 50, qPrintable(QStringLiteral("the event loop stalled for %1 ms").arg(worst)));

        QCOMPARE(epochs.count(), 2);
        const auto outcome = finished.first().first().value<RunOutcome>();
        QCOMPARE(int(outcome.status), int(RunStatus::Completed));
        QCOMPARE(outcome.weightsSha256.size(), 64);
        ChartsPanel* charts = w->chartsPanel();
        QVERIFY(charts->lossChart()->pointCount(0) >= 2);  // per-batch points
        QCOMPARE(charts->lossChart()->pointCount(1), 2);   // train per epoch
        QCOMPARE(charts->lossChart()->pointCount(2), 2);   // validation per epoch
        QCOMPARE(charts->accuracyChart()->pointCount(2), 2);
        QCOMPARE(charts->speedChart()->barCount(), 2);
        QVERIFY(charts->memoryChart()->pointCount(0) >= 1);
        QCOMPARE(int(w->history().size()), 2);
        QVERIFY(w->runPanel()->logText().contains(QStringLiteral("val_accuracy")));
        QVERIFY(w->runPanel()->logText().contains(outcome.weightsSha256));

        // Results: misclassified first, in red, most confident mistakes first.
        ResultsPanel* results = w->resultsPanel();
        const ResultsModel& m = results->model();
        QCOMPARE(m.samples(), 200);
        const std::vector<int>& order = results->displayOrder();
        QCOMPARE(int(order.size()), 200);
        const int wrong = m.wrongCount();
        QVERIFY(results->headerText().contains(QStringLiteral("%1 of 200 wrong").arg(wrong)));
        for (int k = 0; k < 200; ++k) {
            QCOMPARE(m.isWrong(order[size_t(k)]), k < wrong);
            const Tile t = results->grid()->tile(k);
            QCOMPARE(t.frame == ResultsPanel::kWrongColor, k < wrong);
        }
        for (int k = 1; k < wrong; ++k)
            QVERIFY(m.probability(order[size_t(k - 1)], m.predicted(order[size_t(k - 1)])) >=
                    m.probability(order[size_t(k)], m.predicted(order[size_t(k)])));
        int total = 0;
        for (int t = 0; t < 3; ++t)
            for (int p = 0; p < 3; ++p)
                total += m.confusion(t, p);
        QCOMPARE(total, 200);
        // A confusion cell filters the grid to its images.
        results->filter(0, 0);
        QCOMPARE(int(results->displayOrder().size()), m.confusion(0, 0));
        results->filter(-1, -1);
        QVERIFY(w->runPanel()->startButton()->isEnabled());
    }

    void stopEndsWithinOneBatch()
    {
        auto w = makeWindow(50, 0, 16);  // 64 batches per epoch, 50 epochs: long enough to stop
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        // The worker runs ahead of the queued progress signals, so count what it really did, right
        // after the click has set the stop flag (read before it, a preempted GUI thread would let
        // the worker finish more batches in between that were all started before Stop).
        int64_t doneAtStop = -1;
        connect(w->runController(), &RunController::batchFinished, this, [&](const tb::BatchProgress& p) {
            if (doneAtStop < 0 && p.step >= 3) {
                w->runPanel()->stopButton()->click();
                doneAtStop = w->runController()->batchesDone();
            }
        });
        w->startTraining();
        QVERIFY(finished.wait(30000));
        QVERIFY(doneAtStop >= 3);
        const auto outcome = finished.first().first().value<RunOutcome>();
        QCOMPARE(int(outcome.status), int(RunStatus::Stopped));
        QVERIFY(outcome.weights);  // the weights so far can be saved
        // At most the batch in flight when Stop was pressed finished after it.
        QVERIFY2(outcome.weights->optimizerIterations <= doneAtStop + 1,
                 qPrintable(QStringLiteral("%1 batches done at Stop, %2 at the end")
                                .arg(doneAtStop)
                                .arg(outcome.weights->optimizerIterations)));
        QVERIFY(w->runPanel()->startButton()->isEnabled());
    }

    void pauseHoldsTheRunUntilResumed()
    {
        // Enough epochs that the run cannot end before the click on Pause is handled.
        auto w = makeWindow(20, 0, 16);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        QSignalSpy batches(w->runController(), &RunController::batchFinished);
        w->startTraining();
        QVERIFY(batches.wait(10000));
        w->runPanel()->pauseButton()->click();
        QVERIFY(w->runController()->isPaused());
        QCOMPARE(w->runPanel()->pauseButton()->text(), QStringLiteral("Resume"));
        // A sanitizer build's batch takes ten times as long.
        const int slow = qEnvironmentVariableIsSet("TRAINBENCH_SANITIZED") ? 10 : 1;
        QTest::qWait(100 * slow);  // the batch in flight finishes
        const int64_t before = w->runController()->batchesDone();
        const int signalsBefore = batches.count();
        QTest::qWait(400 * slow);
        QCOMPARE(w->runController()->batchesDone(), before);
        QCOMPARE(batches.count(), signalsBefore);
        QVERIFY(finished.isEmpty());
        w->runPanel()->pauseButton()->click();
        QVERIFY(!w->runController()->isPaused());
        QVERIFY(finished.wait(30000));
        QCOMPARE(int(finished.first().first().value<RunOutcome>().status), int(RunStatus::Completed));
    }

    void closingMidRunStopsCleanly()
    {
        auto w = makeWindow(50, 0, 16);
        QVERIFY(w);
        QSignalSpy batches(w->runController(), &RunController::batchFinished);
        w->startTraining();
        QVERIFY(batches.wait(10000));
        QElapsedTimer t;
        t.start();
        QVERIFY(w->close());
        w.reset();
        QVERIFY(t.elapsed() < 2000);
    }

    void exportsWriteValidFilesAtomically()
    {
        auto w = makeWindow(2);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        QVERIFY(finished.wait(30000));
        QTemporaryDir out;
        QCOMPARE(w->exportCharts(out.path()), QString());
        for (const QString& name : w->chartsPanel()->chartFileNames()) {
            QImage png(out.filePath(name + QStringLiteral(".png")));
            QVERIFY2(!png.isNull() && png.width() > 100, qPrintable(name));
            QSvgRenderer svg(out.filePath(name + QStringLiteral(".svg")));
            QVERIFY2(svg.isValid(), qPrintable(name));
        }
        const QString csvPath = out.filePath(QStringLiteral("history.csv"));
        QCOMPARE(w->exportHistoryCsv(csvPath), QString());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("epoch,loss,accuracy,val_loss,val_accuracy,seconds")));
        QVERIFY(lines[1].startsWith(QStringLiteral("1,")));
        QVERIFY(lines[2].contains(QStringLiteral(",cpu:2,2,32,adam,")));
        QImage grid;
        QCOMPARE(w->exportGrid(out.filePath(QStringLiteral("grid.png"))), QString());
        QVERIFY(grid.load(out.filePath(QStringLiteral("grid.png"))));
        QCOMPARE(w->exportConfusion(out.filePath(QStringLiteral("confusion.png"))), QString());
        QVERIFY(QImage(out.filePath(QStringLiteral("confusion.png"))).width() > 100);

        // Weights: saved, then opened again to evaluate on the dataset; the results match.
        const QString weights = out.filePath(QStringLiteral("model.tbw"));
        QCOMPARE(w->saveWeights(weights), QString());
        const double accuracy = double(w->resultsPanel()->model().samples() - w->resultsPanel()->model().wrongCount());
        w->resultsPanel()->clear();
        QSignalSpy evaluated(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(weights);
        QVERIFY(evaluated.wait(10000));
        QCOMPARE(evaluated.first().first().toBool(), true);
        QCOMPARE(double(w->resultsPanel()->model().samples() - w->resultsPanel()->model().wrongCount()), accuracy);
        // Exported for other tools by extension; the safetensors file opens and evaluates the same.
        QCOMPARE(w->saveWeights(out.filePath(QStringLiteral("model.onnx"))), QString());
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("model.onnx"))).size() > 1000);
        const QString safetensors = out.filePath(QStringLiteral("model.safetensors"));
        QCOMPARE(w->saveWeights(safetensors), QString());
        w->resultsPanel()->clear();
        QSignalSpy evaluatedExport(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(safetensors);
        QVERIFY(evaluatedExport.wait(10000));
        QCOMPARE(evaluatedExport.first().first().toBool(), true);
        QCOMPARE(double(w->resultsPanel()->model().samples() - w->resultsPanel()->model().wrongCount()), accuracy);

        // A failed write says so and leaves nothing behind.
        const QString bad = out.filePath(QStringLiteral("missing-dir/history.csv"));
        const QString error = w->exportHistoryCsv(bad);
        QVERIFY(error.contains(QStringLiteral("missing-dir/history.csv")));
        QVERIFY(!QFile::exists(bad));
        QCOMPARE(QDir(out.path()).entryList(QDir::Files).filter(QStringLiteral("tmp")).size(), 0);
        QVERIFY(!w->saveWeights(out.filePath(QStringLiteral("missing-dir/model.tbw"))).isEmpty());
        // A corrupt weights file is refused with a message.
        QFile corrupt(out.filePath(QStringLiteral("corrupt.tbw")));
        QVERIFY(corrupt.open(QIODevice::WriteOnly));
        corrupt.write("TBWGHT01garbage");
        corrupt.close();
        QSignalSpy evaluatedAgain(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(corrupt.fileName());
        QVERIFY(evaluatedAgain.wait(10000));
        QCOMPARE(evaluatedAgain.first().first().toBool(), false);
        // So is a safetensors file whose header lies about its size.
        QFile lying(out.filePath(QStringLiteral("lying.safetensors")));
        QVERIFY(lying.open(QIODevice::WriteOnly));
        lying.write(QByteArray("\xff\xff\xff\xff\x00\x00\x00\x00{}", 10));
        lying.close();
        QSignalSpy evaluatedLying(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(lying.fileName());
        QVERIFY(evaluatedLying.wait(10000));
        QCOMPARE(evaluatedLying.first().first().toBool(), false);
    }

    void comparePageFillsItsTable()
    {
        auto w = makeWindow(1, 0, 32);
        QVERIFY(w);
        ComparePanel* compare = w->comparePanel();
        w->showPage(MainWindow::ComparePage);
        const std::vector<tb::DeviceSpec> devices = compare->selectedDevices();
        QVERIFY(!devices.empty());
        for (const tb::DeviceSpec& d : devices)
            QCOMPARE(int(d.kind), int(tb::DeviceKind::Cpu));  // this build has no GPU backend
        QSignalSpy done(compare, &ComparePanel::comparisonFinished);
        QCOMPARE(compare->start(), QString());
        QVERIFY(!w->startBlocker().isEmpty());  // no training while comparing
        QVERIFY(done.wait(30000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QCOMPARE(done.first().at(1).toString(), QString());
        QCOMPARE(int(compare->rows().size()), int(devices.size()));
        QCOMPARE(compare->table()->rowCount(), int(devices.size()));
        QCOMPARE(compare->chart()->barCount(), int(devices.size()));
        for (const tb::CompareRow& r : compare->rows()) {
            QCOMPARE(r.weightsSha256, compare->rows().front().weightsSha256);  // identical on every CPU device
            QCOMPARE(r.maxAbsDiff, 0.0);
            QCOMPARE(r.samples, int64_t(1024));
        }
        QCOMPARE(compare->table()->item(0, 10)->text().toStdString(), compare->rows().front().weightsSha256);
        QTemporaryDir out;
        QCOMPARE(compare->exportCsv(out.filePath(QStringLiteral("c.csv"))), QString());
        QFile csv(out.filePath(QStringLiteral("c.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()).trimmed().split(QLatin1Char('\n')).size(), 1 + int(devices.size()));
        QCOMPARE(compare->exportPng(out.filePath(QStringLiteral("c.png"))), QString());
        QVERIFY(!QImage(out.filePath(QStringLiteral("c.png"))).isNull());

        // A sweep that is stopped keeps the rows that finished.
        compare->setSweep(tb::SweepKind::Batch, QStringLiteral("8,16,32"));
        w->hyperparametersPanel()->setEpochs(20);
        QSignalSpy stopped(compare, &ComparePanel::comparisonFinished);
        int finishedRows = 0;
        connect(compare, &ComparePanel::comparisonFinished, this, [&] { finishedRows = int(compare->rows().size()); });
        QCOMPARE(compare->start(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(compare->rows().size() >= 1, 30000);
        compare->stop();
        QVERIFY(stopped.wait(30000));
        QCOMPARE(stopped.first().at(0).toBool(), true);
        QVERIFY(finishedRows >= 1);
        QCOMPARE(compare->table()->rowCount(), finishedRows);
        QVERIFY(w->startBlocker().isEmpty());
    }

    void clickingATileShowsTopClasses()
    {
        auto w = makeWindow(1);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        QVERIFY(finished.wait(30000));
        const int image = w->resultsPanel()->displayOrder().front();
        w->resultsPanel()->showImage(image);
        QLabel* top = nullptr;
        for (QWidget* tl : QApplication::topLevelWidgets())
            if (auto* l = tl->findChild<QLabel*>(QStringLiteral("topClasses")))
                top = l;
        QVERIFY(top);
        QCOMPARE(top->text().count(QStringLiteral("%<br>")), 3);
    }

    void spanishChangesVisibleTexts()
    {
        auto w = makeWindow();
        QVERIFY(w);
        QCOMPARE(w->tabs()->tabText(MainWindow::TrainingPage), QStringLiteral("Training"));
        QCOMPARE(w->runPanel()->startButton()->text(), QStringLiteral("Start"));
        Language::apply(QStringLiteral("es"));
        QCOMPARE(w->tabs()->tabText(MainWindow::TrainingPage), QStringLiteral("Entrenamiento"));
        QCOMPARE(w->runPanel()->startButton()->text(), QStringLiteral("Iniciar"));
        QCOMPARE(w->chartsPanel()->lossChart()->title(), QStringLiteral("Pérdida"));
        QVERIFY(w->modelPanel()->totalsText().contains(QStringLiteral("parámetros")));
        Language::apply(QStringLiteral("en"));
        QCOMPARE(w->runPanel()->startButton()->text(), QStringLiteral("Start"));
        QCOMPARE(w->chartsPanel()->lossChart()->title(), QStringLiteral("Loss"));
    }
};

QTEST_MAIN(TstUiWindow)
#include "tst_ui_window.moc"
