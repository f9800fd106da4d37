// The Runs page, offscreen (issue 18): every run of the runs folder in the table, a damaged one with
// its reason beside the others; ticked runs overlay their curves; sorting; Open results, Export
// report and Delete on the selected run; a run made in the window shows up when it ends, with its
// stored test evaluation.
#include "fixtures.hpp"
#include "window_test.hpp"

#include "charts/chart.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "report/run_report.hpp"
#include "results/results_model.hpp"
#include "results/results_panel.hpp"
#include "run/run_controller.hpp"
#include "runs/runs_panel.hpp"
#include "train/checkpoint.hpp"
#include "train/run_history.hpp"
#include "train/session.hpp"

#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tbui;

class TstUiRuns : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_data, m_model, m_runsDir;
    std::vector<std::string> m_runs; // the two finished runs, oldest first

    std::string finishedRun(float learningRate, int preciseBnBatches = 0)
    {
        const tb::Dataset data = tb::loadDataset(m_data.toStdString());
        tb::TrainConfig c;
        c.epochs = 3;
        c.batchSize = 10;
        c.seed = 5;
        c.optimizer.learningRate = learningRate;
        c.preciseBnBatches = preciseBnBatches;
        tb::TrainingSession s(tb::parseModelSpec(fixtures::toyModelJson(), "toy"), data, c);
        s.enableCheckpoints(tb::RunFolder::create(m_runsDir.toStdString(), "toy-cpu:1"));
        s.run();
        s.recordEnd(s.evaluateTest(true));
        return s.runFolder()->path;
    }

    std::unique_ptr<MainWindow> window()
    {
        auto w = std::make_unique<MainWindow>();
        QSignalSpy listed(w->runsPanel(), &RunsPanel::listed);
        w->show();
        if (!listed.wait(fixtures::kHangGuardMs))
            return nullptr;
        return w;
    }

    static int rowOf(RunsPanel* p, const std::string& path)
    {
        for (int row = 0; row < p->table()->rowCount(); ++row)
            if (p->table()->item(row, 0)->data(Qt::UserRole).toString() == QString::fromStdString(path))
                return row;
        return -1;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TrainbenchTest"));
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
        // The window's runs folder is the XDG data directory's.
        qputenv("XDG_DATA_HOME", (m_tmp.path() + QStringLiteral("/data")).toUtf8());
        m_runsDir = m_tmp.path() + QStringLiteral("/data/trainbench/runs");
        m_data = m_tmp.path() + QStringLiteral("/toy");
        QDir().mkpath(m_data);
        fixtures::writeToyDataset(m_data.toStdString(), 60, 30, 12, 3);
        m_model = m_tmp.path() + QStringLiteral("/toy.json");
        fixtures::writeRaw(m_model.toStdString(), fixtures::toyModelJson());
        m_runs.push_back(finishedRun(1e-4f));
        m_runs.push_back(finishedRun(3e-3f, 4));
        QDir().mkpath(m_runsDir + QStringLiteral("/20200101-000000-crashed"));
        fixtures::writeRaw((m_runsDir + QStringLiteral("/20200101-000000-crashed/run.json")).toStdString(),
                           "{\"format\": \"trainbench-run\", \"vers");
    }

    void listsRunsAndTheDamagedOne()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        QCOMPARE(p->table()->rowCount(), 3);
        QVERIFY(p->problem().isEmpty());
        bool damagedShown = false;
        for (int row = 0; row < 3; ++row) {
            const QString status = p->table()->item(row, 8)->text();
            if (status.startsWith(QStringLiteral("damaged: run.json is damaged: JSON error")))
                damagedShown = true;
            else
                QCOMPARE(status, QStringLiteral("completed"));
        }
        QVERIFY(damagedShown);
        // Sorted by final accuracy, ascending: the damaged run (none) first.
        p->table()->sortByColumn(6, Qt::AscendingOrder);
        QVERIFY(p->table()->item(0, 8)->text().startsWith(QStringLiteral("damaged")));
        const double a = p->table()->item(1, 6)->data(Qt::UserRole + 1).toDouble();
        const double b = p->table()->item(2, 6)->data(Qt::UserRole + 1).toDouble();
        QVERIFY(a <= b);
    }

    // At the first-launch size on a 1280x720 screen (1152x648), in English and in Spanish, the table's
    // columns fit its width and the Status column shows its words: in Spanish it was pushed behind a
    // horizontal scroll bar ("co", "div") by the other columns and the damaged run's long reason.
    void tableFitsTheFirstLaunchSize_data() { fixtures::bothLanguages(); }
    void tableFitsTheFirstLaunchSize()
    {
        const auto back = fixtures::inRowLanguage();
        auto w = window();
        QVERIFY(w);
        w->resize(1152, 648);
        w->showPage(MainWindow::RunsPage);
        QTableWidget* t = w->runsPanel()->table();
        QTRY_VERIFY(t->isVisible() && t->viewport()->width() < 1140); // laid out at this size (1256 px at 1280)
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(); // the header's deferred resize of its sections
        QVERIFY2(!t->horizontalScrollBar()->isVisible(), qPrintable(QStringLiteral("%1 px of columns in %2")
                                                                        .arg(t->horizontalHeader()->length())
                                                                        .arg(t->viewport()->width())));
        const int status = 8;
        int widest = 0;
        for (int row = 0; row < t->rowCount(); ++row)
            if (!t->item(row, status)->text().contains(u':')) // the damaged run's reason may be cut (tooltip)
                widest = std::max(widest, t->fontMetrics().horizontalAdvance(t->item(row, status)->text()));
        QVERIFY2(t->columnWidth(status) >= widest + 8,
                 qPrintable(QStringLiteral("Status: %1 px for %2").arg(t->columnWidth(status)).arg(widest)));
    }

    // A greyed button says why in its tooltip: Resume for a complete run (it said only what Resume
    // does), both for a damaged one.
    void greyedButtonsSayWhy()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        p->selectRun(QString::fromStdString(m_runs[0]));
        QVERIFY(p->openButton()->isEnabled());
        QVERIFY(!p->resumeButton()->isEnabled());
        QVERIFY2(
            p->resumeButton()->toolTip().endsWith(QStringLiteral("\nThe run is complete: nothing is left to resume.")),
            qPrintable(p->resumeButton()->toolTip()));
        QVERIFY2(!p->openButton()->toolTip().contains(u'\n'), qPrintable(p->openButton()->toolTip()));
        p->selectRun(m_runsDir + QStringLiteral("/20200101-000000-crashed"));
        for (const QPushButton* b : {p->openButton(), p->resumeButton()}) {
            QVERIFY(!b->isEnabled());
            QVERIFY2(b->toolTip().endsWith(QStringLiteral("\nThe run is damaged: its record cannot be read.")),
                     qPrintable(b->toolTip()));
        }
    }

    // A diverged run with a checkpoint: Resume is greyed and says why, as `runs list` calls it not
    // resumable and `train --resume` refuses it; File > Resume run… refuses it with the engine's reason
    // (Resume was enabled, and the run diverged again).
    void aDivergedRunIsNotResumed()
    {
        std::string path;
        {
            tb::TrainConfig c;
            c.epochs = 1;
            c.batchSize = 10;
            c.optimizer.kind = tb::OptimizerKind::SGD;
            c.optimizer.learningRate = 1e30f; // the loss is NaN at step 2
            tb::TrainingSession s(tb::parseModelSpec(fixtures::toyModelJson(), "toy"),
                                  tb::loadDataset(m_data.toStdString()), c);
            s.enableCheckpoints(tb::RunFolder::create(m_runsDir.toStdString(), "toy-diverged"), 1);
            QVERIFY_THROWS_EXCEPTION(tb::DivergedError, s.run());
            path = s.runFolder()->path;
        }
        const auto removed = qScopeGuard([&] { std::filesystem::remove_all(path); });
        QVERIFY(std::filesystem::exists(path + "/checkpoint.tbw"));
        QCOMPARE(int(tb::readRun(path).status), int(tb::RunStatus::Diverged));
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        QVERIFY(rowOf(p, path) >= 0);
        QCOMPARE(p->table()->item(rowOf(p, path), 8)->text(), QStringLiteral("diverged"));
        p->selectRun(QString::fromStdString(path));
        QVERIFY(!p->resumeButton()->isEnabled());
        QVERIFY2(p->resumeButton()->toolTip().endsWith(
                     QStringLiteral("\nThe run diverged (its loss or weights became NaN or infinite): resumed, it "
                                    "would repeat the same steps with the same settings and diverge again. Train it "
                                    "again with a lower learning rate.")),
                 qPrintable(p->resumeButton()->toolTip()));
        QVERIFY2(p->openButton()->toolTip().endsWith(
                     QStringLiteral("\nThe run diverged before its end: it has no final weights (weights.tbw).")),
                 qPrintable(p->openButton()->toolTip()));
        w->resumeRun(QString::fromStdString(path));
        QVERIFY(!w->runController()->isRunning());
        QVERIFY2(w->statusBar()->currentMessage().contains(
                     QStringLiteral("diverged (its loss or weights became NaN or infinite): resumed, its checkpoint "
                                    "would repeat the same steps with the same settings and diverge again; train it "
                                    "again with a lower learning rate")),
                 qPrintable(w->statusBar()->currentMessage()));
        QCOMPARE(int(tb::readRun(path).status), int(tb::RunStatus::Diverged));
    }

    // A complete run whose checkpoint is gone is still complete, in the window's language: File > Resume
    // run… said "holds no checkpoint.tbw to resume from".
    void aCompleteRunWithoutItsCheckpointIsComplete()
    {
        const std::string path = m_runsDir.toStdString() + "/20200101-000009-toy-no-checkpoint";
        std::filesystem::copy(m_runs[0], path);
        const auto removed = qScopeGuard([&] { std::filesystem::remove_all(path); });
        std::filesystem::remove(path + "/checkpoint.tbw");
        QVERIFY(tb::readRun(path).finished());
        auto w = window();
        QVERIFY(w);
        const auto back = qScopeGuard([] { tbui::Language::apply(QStringLiteral("en")); });
        tbui::Language::apply(QStringLiteral("es"));
        w->resumeRun(QString::fromStdString(path));
        QVERIFY(!w->runController()->isRunning());
        QVERIFY2(w->statusBar()->currentMessage().contains(QString::fromStdString(path) +
                                                           QString::fromUtf8(" está completo (terminó el 20")) &&
                     w->statusBar()->currentMessage().contains(QStringLiteral("Sus pesos están en")),
                 qPrintable(w->statusBar()->currentMessage()));
    }

    void tickedRunsOverlay()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        // Nothing ticked: the chart says how to fill it.
        QVERIFY2(p->chart()->shownEmptyText().startsWith(QStringLiteral("Tick runs")),
                 qPrintable(p->chart()->shownEmptyText()));
        // Ticking through the table's check box, as a click does.
        p->table()->item(rowOf(p, m_runs[0]), 0)->setCheckState(Qt::Checked);
        p->setOverlaid(QString::fromStdString(m_runs[1]), true);
        QCOMPARE(p->overlaid().size(), 2);
        Chart* chart = p->chart();
        QVERIFY(chart->seriesVisible(RunsPanel::epochSeries(0)) && chart->seriesVisible(RunsPanel::epochSeries(1)));
        QCOMPARE(chart->shownEmptyText(), QString());
        // Each ticked row carries its curve's colour; the damaged row none.
        QSet<QRgb> colours;
        for (int row = 0; row < p->table()->rowCount(); ++row)
            if (const QVariant c = p->table()->item(row, 0)->data(Qt::DecorationRole); c.isValid())
                colours << c.value<QColor>().rgb();
        QCOMPARE(colours.size(), 2);
        const tb::RunSummary first = tb::readRun(m_runs[0]);
        // The legend names the model, its optimizer (from the run's settings) and the device.
        QVERIFY2(
            chart->seriesName(RunsPanel::epochSeries(0))
                .startsWith(QString::fromStdString(first.model) + " (adam) on " + QString::fromStdString(first.device)),
            qPrintable(chart->seriesName(RunsPanel::epochSeries(0))));
        QCOMPARE(chart->points(RunsPanel::epochSeries(0)).size(), 3);
        QCOMPARE(chart->points(RunsPanel::epochSeries(0)).last().y(), first.history.back().valAccuracy);
        // The two runs share model, device and (unless a minute turned between them) the minute: their
        // entries still differ (by folder, as they share the seed too), and the epoch axis counts
        // whole epochs.
        QVERIFY2(chart->seriesName(RunsPanel::epochSeries(0)) != chart->seriesName(RunsPanel::epochSeries(1)),
                 qPrintable(chart->seriesName(RunsPanel::epochSeries(0))));
        if (first.date() == tb::readRun(m_runs[1]).date())
            QVERIFY2(chart->seriesName(RunsPanel::epochSeries(0)).contains(QStringLiteral(", seed 5 (")),
                     qPrintable(chart->seriesName(RunsPanel::epochSeries(0))));
        QCOMPARE(chart->xTickInterval(), 1.0);
        // The Precise BN run says why its final accuracy is not its last validation point.
        QCOMPARE(p->table()->item(rowOf(p, m_runs[0]), 6)->toolTip(), QString());
        QVERIFY2(p->table()->item(rowOf(p, m_runs[1]), 6)->toolTip().contains(QStringLiteral("after Precise BN")),
                 qPrintable(p->table()->item(rowOf(p, m_runs[1]), 6)->toolTip()));
        p->setMetric(4); // epoch time
        QCOMPARE(chart->points(RunsPanel::epochSeries(1)).size(), 3);
        QCOMPARE(chart->points(RunsPanel::epochSeries(1)).first().y(), tb::readRun(m_runs[1]).history.front().seconds);
        p->setOverlaid(QString::fromStdString(m_runs[0]), false);
        QVERIFY(chart->seriesVisible(RunsPanel::epochSeries(0)));
        QVERIFY(!chart->seriesVisible(RunsPanel::epochSeries(1))); // one run left: the first series shows it
        QCOMPARE(p->overlaid(), QStringList{QString::fromStdString(m_runs[1])});
    }

    void exportsReportAndOpensResults()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        const QString out = m_tmp.path() + QStringLiteral("/report.html");
        QSignalSpy exported(p, &RunsPanel::reportExported);
        p->exportReport(QString::fromStdString(m_runs[1]), out);
        QVERIFY(exported.wait(fixtures::kHangGuardMs));
        QCOMPARE(exported.first().at(1).toString(), QString());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().count("<svg class=\"chart\"") == 4);

        // Open results: the run's weights on its own dataset (none loaded in the window).
        QSignalSpy evaluated(w.get(), &MainWindow::evaluationFinished);
        w->openRunResults(QString::fromStdString(m_runs[1]));
        QVERIFY(evaluated.wait(fixtures::kHangGuardMs));
        QCOMPARE(evaluated.first().first().toBool(), true);
        QVERIFY(!w->resultsPanel()->model().isEmpty());
        QCOMPARE(w->tabs()->currentIndex(), int(MainWindow::ResultsPage));
    }

    // A Spanish window exports a Spanish report: the engine's phrases, the configuration's labels and
    // values, the run's status; in English the window's report is the CLI's, byte for byte.
    void exportsReportInTheWindowsLanguage()
    {
        const QString out = m_tmp.path() + QStringLiteral("/report-es.html");
        // The run was resumed on other devices: its "Earlier devices" row is worded too (its English
        // replacement matched again, and the export never ended).
        const QString run = m_tmp.path() + QStringLiteral("/resumed-elsewhere");
        QVERIFY(QDir().mkpath(run));
        for (const QString& f : QDir(QString::fromStdString(m_runs[1])).entryList(QDir::Files))
            QVERIFY(QFile::copy(QString::fromStdString(m_runs[1]) + "/" + f, run + "/" + f));
        nlohmann::ordered_json record = tb::parseJson(tb::readWholeFile((run + "/run.json").toStdString()));
        record["earlier_devices"] = nlohmann::ordered_json::parse(
            R"([{"device": "cpu:1@avx512", "epochs": 0, "steps": 7}, {"device": "cpu:2@avx2", "epochs": 1, "steps": 0}])");
        tb::writeFileAtomically((run + "/run.json").toStdString(), tb::jsonText(record));
        const auto exportIn = [&](const QString& language) {
            tbui::Language::apply(language);
            auto w = window();
            QSignalSpy exported(w->runsPanel(), &RunsPanel::reportExported);
            w->runsPanel()->exportReport(run, out);
            QFile f(out);
            return exported.wait(fixtures::kHangGuardMs) && f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                                                                        : QString();
        };
        const auto back = qScopeGuard([] { tbui::Language::apply(QStringLiteral("en")); });
        const QString english = exportIn(QStringLiteral("en"));
        QCOMPARE(english, QString::fromStdString(tb::runReportHtml(tb::readReportInput(run.toStdString()))));
        QVERIFY(
            english.contains(QStringLiteral("cpu:1@avx512 (to epoch 1, step 7); cpu:2@avx2 (to the end of epoch 1)")));
        const QString spanish = exportIn(QStringLiteral("es"));
        QVERIFY(spanish.contains(QStringLiteral("<html lang=\"es\">")));
        QVERIFY(
            spanish.contains(QString::fromUtf8("cpu:1@avx512 (hasta la época 1, paso 7); cpu:2@avx2 (hasta el final de "
                                               "la época 1)")));
        for (const char* es :
             {"Exactitud de prueba", "Matriz de confusión", "Configuración", "Tamaño del lote", "completado",
              "el conjunto de prueba", "Curvas", "Pérdida", "productos de matrices", "<th>clase 0</th>"})
            QVERIFY2(spanish.contains(QString::fromUtf8(es)), es);
        for (const char* en :
             {"Test accuracy", "Confusion matrix", "Configuration", "Batch size", ">completed<", "test set", "Curves",
              "Made by Trainbench", "test images are misclassified", "epoch", "matrix products", "class 0"})
            QVERIFY2(!spanish.contains(QString::fromUtf8(en)), en);
        QCOMPARE(spanish.count(QStringLiteral("<svg class=\"chart\"")), 4);
        // Its numbers with the window's decimal comma (the figures, the epochs' table, the charts' ticks),
        // its percentages as the window writes them; the points' data-value keeps the point, for programs.
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("<td class=\"n\">\\d+,\\d+</td>"))));
        QVERIFY(!spanish.contains(QRegularExpression(QStringLiteral("<td class=\"n\">\\d+\\.\\d+</td>"))));
        QVERIFY(
            !spanish.contains(QRegularExpression(QStringLiteral("text-anchor=\"(end|middle)\">-?\\d+\\.\\d+</text>"))));
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("text-anchor=\"end\">\\d+,\\d+</text>"))));
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("<b>\\d+,\\d+\\x{00a0}%</b>"))));
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("<b>\\d+,\\d s</b>"))));
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("data-value=\"\\d+\\.\\d+\""))));
        // A number before its unit too: the hardware table's memory.
        QVERIFY(spanish.contains(QRegularExpression(QStringLiteral("<th>Memoria</th><td>\\d+,\\d GB</td>"))));
    }

    void aWindowRunIsRecorded()
    {
        auto w = window();
        QVERIFY(w);
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(m_data);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        w->modelPanel()->openModelFile(m_model);
        w->hyperparametersPanel()->setEpochs(1);
        w->hyperparametersPanel()->setBatchSize(10);
        QSignalSpy finished(w->runController(), &RunController::finished);
        QSignalSpy listed(w->runsPanel(), &RunsPanel::listed);
        w->startTraining();
        QVERIFY(finished.wait(fixtures::kHangGuardMs));
        // The listing that ends it: the page also relists when the run starts, and that listing runs on
        // the pool, so it can read run.json between the last epoch's checkpoint (status running) and
        // the end's record (completed, the test set's figures). The one after the run's end has both.
        const auto ended = [&] {
            const auto& runs = w->runsPanel()->runs();
            return runs.size() >= 4 && runs.front().status == tb::RunStatus::Completed && runs.front().test.has_value();
        };
        while (!ended())
            QVERIFY(listed.wait(fixtures::kHangGuardMs));
        const tb::RunSummary& r = w->runsPanel()->runs().front(); // newest first
        QCOMPARE(int(r.status), int(tb::RunStatus::Completed));
        QVERIFY(r.test);
        QVERIFY(r.holds("evaluation.json"));
        // File > Export report names that run.
        QCOMPARE(w->reportRun(), QString::fromStdString(r.path));
        // File > Resume run… refuses it, as the page greys its Resume: it would be evaluated and recorded
        // again.
        QVERIFY(r.finished());
        w->resumeRun(QString::fromStdString(r.path));
        QVERIFY(!w->runController()->isRunning());
        QVERIFY2(
            w->statusBar()->currentMessage().contains(QStringLiteral("It is complete: nothing is left to resume.")),
            qPrintable(w->statusBar()->currentMessage()));
    }

    // A runs folder that cannot be read (here a file where the folder should be): the page opens,
    // empty, and says why.
    void unreadableRunsFolder()
    {
        const QByteArray saved = qgetenv("XDG_DATA_HOME");
        const QString home = m_tmp.path() + QStringLiteral("/broken-home");
        QDir().mkpath(home + QStringLiteral("/trainbench"));
        fixtures::writeRaw((home + QStringLiteral("/trainbench/runs")).toStdString(), "not a folder");
        qputenv("XDG_DATA_HOME", home.toUtf8());
        const auto restore = qScopeGuard([&] { qputenv("XDG_DATA_HOME", saved); });
        auto w = window();
        QVERIFY(w);
        QCOMPARE(w->runsPanel()->table()->rowCount(), 0);
        QVERIFY(w->runsPanel()->problem().contains(QStringLiteral("cannot read the runs folder")));
        // Said once, as a sentence ("The runs folder cannot be read: cannot read the runs folder …" was twice).
        const QString status = w->runsPanel()->findChild<QLabel*>(QStringLiteral("runsStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral(" Cannot read the runs folder ")) &&
                     status.endsWith(QLatin1Char('.')) && status.count(QStringLiteral("runs folder")) == 1,
                 qPrintable(status));
    }

    void deleteRemovesTheRun()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        const int before = p->table()->rowCount();
        QSignalSpy listed(p, &RunsPanel::listed);
        QCOMPARE(p->deleteRun(QString::fromStdString(m_runs[0]), false), QString());
        QVERIFY(listed.wait(fixtures::kHangGuardMs));
        QCOMPARE(p->table()->rowCount(), before - 1);
        QCOMPARE(rowOf(p, m_runs[0]), -1);
        QVERIFY(!std::filesystem::exists(m_runs[0]));
    }

    // A run recorded as running by a process that is gone (here: on a boot of this host since ended)
    // reads "interrupted".
    void aRunWhoseProcessIsGoneReadsInterrupted()
    {
        std::string path;
        {
            tb::TrainConfig c;
            c.epochs = 3;
            c.batchSize = 10;
            tb::TrainingSession s(tb::parseModelSpec(fixtures::toyModelJson(), "toy"),
                                  tb::loadDataset(m_data.toStdString()), c);
            s.enableCheckpoints(tb::RunFolder::create(m_runsDir.toStdString(), "toy-killed"));
            path = s.runFolder()->path;
            s.checkpoint(); // mid-run: "running", with this process named
        }
        nlohmann::ordered_json record = tb::parseJson(tb::readWholeFile(path + "/run.json"));
        record["process"]["boot_id"] = "a-boot-that-ended";
        tb::writeFileAtomically(path + "/run.json", tb::jsonText(record) + "\n");
        {
            auto w = window();
            QVERIFY(w);
            RunsPanel* p = w->runsPanel();
            const int row = rowOf(p, path);
            QVERIFY(row >= 0);
            QCOMPARE(p->table()->item(row, 8)->text(), QStringLiteral("interrupted"));
        }
        // Killed before its first checkpoint: nothing to resume, and the status says so.
        QVERIFY(std::filesystem::remove(path + "/checkpoint.tbw"));
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        const int row = rowOf(p, path);
        QVERIFY(row >= 0);
        QCOMPARE(p->table()->item(row, 8)->text(), QStringLiteral("interrupted, no checkpoint (cannot resume)"));
    }

    // A record whose words hold control characters (a dataset's path with a newline, an escape sequence
    // in the model's name, a line separator in the device's): each cell shows them as '?', as `runs
    // list` does, rather than a row broken in two.
    void controlCharactersInARecordShowAsQuestionMarks()
    {
        const std::string path = finishedRun(1e-3f);
        nlohmann::ordered_json record = tb::parseJson(tb::readWholeFile(path + "/run.json"));
        record["dataset"] = "/data/fashion\nmnist";
        record["model"] = "toy\x1b[31m";
        record["device"] = "cpu:1\u2028x";
        tb::writeFileAtomically(path + "/run.json", tb::jsonText(record) + "\n");
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        const int row = rowOf(p, path);
        QVERIFY(row >= 0);
        QCOMPARE(p->table()->item(row, 2)->text(), QStringLiteral("toy?[31m"));
        QCOMPARE(p->table()->item(row, 3)->text(), QStringLiteral("fashion?mnist"));
        QCOMPARE(p->table()->item(row, 3)->toolTip(), QStringLiteral("/data/fashion?mnist"));
        QCOMPARE(p->table()->item(row, 4)->text(), QStringLiteral("cpu:1?x"));
        // The overlay's legend names it in one line too.
        for (const QString& ticked : p->overlaid())
            p->setOverlaid(ticked, false);
        p->setOverlaid(QString::fromStdString(path), true);
        const QString legend = p->chart()->seriesName(RunsPanel::epochSeries(0));
        QVERIFY2(!legend.contains(QLatin1Char('\n')) && !legend.contains(QChar(0x1b)) &&
                     !legend.contains(QChar(0x2028)),
                 qPrintable(legend));
        QVERIFY2(legend.startsWith(QStringLiteral("toy?[31m (adam) on cpu:1?x, ")), qPrintable(legend));
        QCOMPARE(p->deleteRun(QString::fromStdString(path), false), QString());
    }

    // Training loss and accuracy overlay each ticked run's batches from its checkpoint (read once, off
    // the GUI thread), smoothed as the live charts draw them, under its epochs; a run whose checkpoint
    // is gone or damaged shows its epochs, and the note under the chart says why it has no batches.
    void trainingCurvesShowTheBatches()
    {
        auto w = window();
        QVERIFY(w);
        RunsPanel* p = w->runsPanel();
        for (const QString& ticked : p->overlaid())
            p->setOverlaid(ticked, false);
        const tb::Checkpoint c = tb::readCheckpoint(m_runs[1] + "/checkpoint.tbw");
        const nlohmann::ordered_json& points = c.callbacks.at("batch_curve").at("points");
        QCOMPARE(int(points.size()), 18); // 3 epochs of 6 batches of 10
        p->setMetric(0);
        p->setOverlaid(QString::fromStdString(m_runs[1]), true);
        Chart* chart = p->chart();
        QCOMPARE(p->checkpointReads(), 0); // validation accuracy: no batches to draw
        QVERIFY(!chart->seriesVisible(RunsPanel::batchSeries(0)));
        const int steps = 6;
        const double keep = std::clamp(1.0 - 20.0 / steps, 0.0, 0.9);
        for (int metric : {2, 3}) { // training loss, training accuracy
            p->setMetric(metric);
            QTRY_COMPARE(chart->points(RunsPanel::batchSeries(0)).size(), 18);
            QVERIFY(chart->seriesVisible(RunsPanel::batchSeries(0)));
            // The legend names the run once; the title says what the light line is.
            QVERIFY(!chart->inLegend(RunsPanel::batchSeries(0)));
            QVERIFY(chart->inLegend(RunsPanel::epochSeries(0)));
            QVERIFY(chart->title().contains(QStringLiteral("light lines per batch (smoothed)")));
            const QList<QPointF> drawn = chart->points(RunsPanel::batchSeries(0));
            double smooth = 0;
            for (int i = 0; i < 18; ++i) {
                const auto& point = points[size_t(i)];
                const double value = point[metric == 2 ? 5 : 6].get<double>();
                smooth = keep * (i == 0 ? value : smooth) + (1 - keep) * value;
                QCOMPARE(drawn[i].x(), point[0].get<double>() - 1 + point[1].get<double>() / steps);
                QVERIFY2(qFuzzyCompare(drawn[i].y(), smooth), qPrintable(QString::number(i)));
            }
            QCOMPARE(chart->points(RunsPanel::epochSeries(0)).size(), 3);
            QCOMPARE(chart->seriesName(RunsPanel::batchSeries(0)),
                     chart->seriesName(RunsPanel::epochSeries(0)) + QStringLiteral(", per batch (smoothed)"));
            QCOMPARE(p->batchNote(), QString());
        }
        QCOMPARE(p->checkpointReads(), 1);
        p->setMetric(1); // validation loss: the epochs alone
        QVERIFY(!chart->seriesVisible(RunsPanel::batchSeries(0)));

        namespace fs = std::filesystem;
        const std::string none = m_runsDir.toStdString() + "/20200102-000000-no-checkpoint";
        const std::string damaged = m_runsDir.toStdString() + "/20200102-000001-damaged";
        fs::copy(m_runs[1], none, fs::copy_options::recursive);
        fs::copy(m_runs[1], damaged, fs::copy_options::recursive);
        fs::remove(none + "/checkpoint.tbw");
        std::string bytes = tb::readWholeFile(damaged + "/checkpoint.tbw");
        bytes[bytes.size() / 2] ^= 0x55;
        fixtures::writeRaw(damaged + "/checkpoint.tbw", bytes);
        QSignalSpy listed(p, &RunsPanel::listed);
        p->refresh();
        QVERIFY(listed.wait(fixtures::kHangGuardMs));
        p->setOverlaid(QString::fromStdString(none), true);
        p->setOverlaid(QString::fromStdString(damaged), true);
        p->setMetric(2);
        QTRY_VERIFY2(p->batchNote().contains(QStringLiteral("checksum mismatch")), qPrintable(p->batchNote()));
        QVERIFY2(p->batchNote().startsWith(QStringLiteral("No per-batch line for ")) &&
                     p->batchNote().contains(QStringLiteral(": its folder holds no checkpoint.tbw, which keeps the "
                                                            "run's batches; ")),
                 qPrintable(p->batchNote()));
        QVERIFY(p->findChild<QLabel*>(QStringLiteral("runsBatchNote"))->isVisibleTo(p));
        QCOMPARE(chart->points(RunsPanel::batchSeries(0)).size(), 18);
        for (int line : {1, 2}) {
            QVERIFY(!chart->seriesVisible(RunsPanel::batchSeries(line)));
            QVERIFY(chart->seriesVisible(RunsPanel::epochSeries(line)));
            QCOMPARE(chart->points(RunsPanel::epochSeries(line)).size(), 3);
        }
        w->showPage(MainWindow::RunsPage);
        w->resize(1280, 800);
        QTest::qWait(300);
        chart->flush();
        QCOMPARE(p->deleteRun(QString::fromStdString(none), false), QString());
        QCOMPARE(p->deleteRun(QString::fromStdString(damaged), false), QString());
        // Each deletion lists the folder again, off the GUI thread: the first listing may come before
        // the second deletion, so wait for the list without both.
        QTRY_COMPARE_WITH_TIMEOUT(p->overlaid(), QStringList{QString::fromStdString(m_runs[1])},
                                  fixtures::kHangGuardMs);
        QTRY_COMPARE_WITH_TIMEOUT(p->batchNote(), QString(), fixtures::kHangGuardMs);
    }
};

QTEST_MAIN(TstUiRuns)
#include "tst_ui_runs.moc"
