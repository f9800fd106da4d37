// The window's half of runs that survive, offscreen: the hyperparameters panel's validation split,
// schedule, early stopping and checkpoint options reach TrainConfig as the CLI's do; a run shows its
// learning rate and early stopping's decisions on the charts and in the log; every run has a run folder;
// Stop then File > Resume run… ends on the same weights as an uninterrupted run; a damaged checkpoint
// or another dataset is a message in the window; a full disk fails the run and keeps its weights; a
// resumed run's charts show its per-batch curve from the first batch.
#include "cli_process.hpp"
#include "fixtures.hpp"
#include "modal_answer.hpp"
#include "train_config_compare.hpp"
#include "window_test.hpp"

#include "charts/chart.hpp"
#include "config/lr_schedule.hpp"
#include "core/json_text.hpp"
#include "environment.hpp"
#include "i18n/language.hpp"
#include "io/weights_file.hpp"
#include "main_window.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/charts_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_options_fields.hpp"
#include "panels/run_panel.hpp"
#include "predict/predict_panel.hpp"
#include "results/results_model.hpp"
#include "results/results_panel.hpp"
#include "run/run_controller.hpp"
#include "runs/runs_panel.hpp"
#include "train/checkpoint.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"
#include "train/run_lock.hpp"
#include "train/train_options.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace tbui;

namespace {
tb::TrainSettings parseBack(const QStringList& args)
{
    std::vector<std::string> a;
    for (const QString& arg : args)
        a.push_back(arg.toStdString());
    return fixtures::parseTrainArguments(a);
}
} // namespace

class TstUiResume : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_data, m_otherData, m_model;

    std::unique_ptr<MainWindow> makeWindow(const QString& data, int epochs, int maxBatches = 0)
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(data);
        if (!loaded.wait(fixtures::kHangGuardMs))
            return nullptr;
        w->modelPanel()->openModelFile(m_model);
        HyperparametersPanel* h = w->hyperparametersPanel();
        h->setEpochs(epochs);
        h->setBatchSize(32);
        h->setSeed(7);
        h->setMaxBatches(maxBatches);
        h->runOptions()->setValidationSplit(0.25);
        h->runOptions()->setSchedule(tb::parseLrSchedule("step:1:0.5"));
        h->runOptions()->setEarlyStopping({});
        h->runOptions()->setCheckpointEvery(0);
        tb::DeviceSpec cpu2;
        cpu2.threads = 2;
        w->acceleratorPanel()->selectDevice(cpu2);
        return w;
    }

    // The worker holds at a batch: its count of batches is the step the window last heard.
    static bool held(MainWindow& w)
    {
        const QProgressBar* bar = w.runPanel()->progressBar();
        const int64_t heard = int64_t(w.history().size()) * bar->maximum() + bar->value();
        return w.runController()->batchesDone() == heard;
    }

    // The weights of a run of `epochs` epochs on the toy data, never stopped.
    QString uninterruptedHash(int epochs)
    {
        auto w = makeWindow(m_data, epochs);
        if (!w)
            return {};
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        const RunOutcome o = waitForRun(finished);
        return o.status == RunStatus::Completed ? o.weightsSha256 : QString();
    }

    static RunOutcome waitForRun(QSignalSpy& finished)
    {
        if (!finished.wait(fixtures::kHangGuardMs)) {
            RunOutcome none;
            none.status = RunStatus::Failed;
            none.message = QStringLiteral("no finished() within 60 s");
            return none;
        }
        return finished.first().first().value<RunOutcome>();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        fixtures::beginWindowTest("tst_ui_resume", m_tmp.filePath(QStringLiteral("data-home")));
        m_data = m_tmp.filePath(QStringLiteral("toy"));
        m_otherData = m_tmp.filePath(QStringLiteral("toy-other"));
        QDir().mkpath(m_data);
        QDir().mkpath(m_otherData);
        fixtures::writeToyDataset(m_data.toStdString(), 512, 120, 12, 3);
        fixtures::writeToyDataset(m_otherData.toStdString(), 512, 120, 12, 3, false, 2);
        m_model = m_tmp.filePath(QStringLiteral("toy.json"));
        fixtures::writeRaw(m_model.toStdString(), fixtures::toyModelJson());
    }

    void cleanupTestCase() { fixtures::endWindowTest(); }

    // Every field reaches TrainConfig with the CLI's meaning: the panel's CLI line parses back to the
    // same settings, and a new panel (the next session) remembers them.
    void panelOptionsReachTrainConfig()
    {
        for (const char* schedule : {"step:3:0.25", "exp:0.9:50", "cosine:20:0.1", "plateau:0.2:4:1e-05", "constant"}) {
            HyperparametersPanel panel;
            RunOptionsFields* o = panel.runOptions();
            o->setValidationSplit(0.2);
            o->setValidationLimit(40);
            o->setSchedule(tb::parseLrSchedule(schedule));
            tb::EarlyStopping es;
            es.enabled = true;
            es.monitor = tb::Monitor::ValAccuracy;
            es.patience = 3;
            es.minDelta = 0.01;
            es.restoreBestWeights = true;
            o->setEarlyStopping(es);
            o->setCheckpointEvery(25);
            const tb::TrainConfig c = panel.config();
            QCOMPARE(c.validationSplit, 0.2);
            QCOMPARE(c.validationLimit, 40);
            const tb::LrSchedule want = tb::parseLrSchedule(schedule);
            QCOMPARE(tb::describeLrSchedule(c.schedule), tb::describeLrSchedule(want));
            QCOMPARE(int(c.schedule.kind), int(want.kind));
            QVERIFY(c.earlyStopping.enabled);
            QCOMPARE(int(c.earlyStopping.monitor), int(tb::Monitor::ValAccuracy));
            QCOMPARE(c.earlyStopping.patience, 3);
            QCOMPARE(c.earlyStopping.minDelta, 0.01);
            QVERIFY(c.earlyStopping.restoreBestWeights);
            QCOMPARE(panel.checkpointEvery(), 25);
            tb::validateTrainConfig(c);

            const QStringList args = o->cliArguments();
            const int at = int(args.indexOf(QStringLiteral("--lr-schedule")));
            if (want.kind == tb::ScheduleKind::Constant) {
                QCOMPARE(at, -1);
            } else {
                QVERIFY(at >= 0);
                QCOMPARE(tb::describeLrSchedule(tb::parseLrSchedule(args[at + 1].toStdString())),
                         tb::describeLrSchedule(want));
            }
            for (const char* arg : {"--validation-split", "--validation-limit", "--early-stopping", "--patience",
                                    "--min-delta", "--restore-best-weights", "--checkpoint-every"})
                QVERIFY2(args.contains(QString::fromLatin1(arg)), arg);
            // The line parsed back by the CLI's table gives the same settings.
            const tb::TrainSettings back = parseBack(args);
            fixtures::compareTrainConfigs(back.config, c);
            QCOMPARE(back.checkpointEvery, 25);

            HyperparametersPanel again; // remembered (QSettings)
            const tb::TrainConfig r = again.config();
            QCOMPARE(r.validationSplit, 0.2);
            QCOMPARE(r.validationLimit, 40);
            QCOMPARE(tb::describeLrSchedule(r.schedule), tb::describeLrSchedule(want));
            QCOMPARE(tb::describeEarlyStopping(r.earlyStopping), tb::describeEarlyStopping(c.earlyStopping));
            QCOMPARE(again.checkpointEvery(), 25);
        }
        HyperparametersPanel panel;
        panel.runOptions()->setValidationSplit(0);
        panel.runOptions()->setValidationLimit(0);
        panel.runOptions()->setEarlyStopping({});
        panel.runOptions()->setCheckpointEvery(0);
        const tb::TrainConfig c = panel.config();
        QCOMPARE(c.validationSplit, 0.0);
        QCOMPARE(c.validationLimit, 0);
        QVERIFY(!c.earlyStopping.enabled);
        QVERIFY(!panel.runOptions()->cliArguments().contains(QStringLiteral("--early-stopping")));
    }

    // The window's settings written by the options' table (as its "As the CLI" line is) and given to
    // trainbench-cli: the run it starts records the TrainConfig the window would have run.
    void windowLineRoundTripsThroughTheCli()
    {
        HyperparametersPanel panel;
        panel.setOptimizer(tb::OptimizerKind::SGD);
        const auto adamAgain = qScopeGuard([&] { panel.setOptimizer(tb::OptimizerKind::Adam); }); // remembered
        panel.setEpochs(1);
        panel.setBatchSize(16);
        panel.setSeed(77);
        panel.setMaxBatches(3);
        RunOptionsFields* o = panel.runOptions();
        o->setValidationSplit(0.25);
        o->setValidationLimit(7);
        const auto allValidated = qScopeGuard([&] { o->setValidationLimit(0); }); // remembered
        o->setSchedule(tb::parseLrSchedule("plateau:0.3:2:1e-05"));
        tb::EarlyStopping es;
        es.enabled = true;
        es.monitor = tb::Monitor::ValLoss;
        es.patience = 2;
        es.minDelta = 0.002;
        es.restoreBestWeights = true;
        o->setEarlyStopping(es);
        o->setCheckpointEvery(2);
        o->setPreciseBnBatches(0);
        tb::TrainSettings window;
        window.config = panel.config();
        window.config.device = tb::TrainSettings().config.device; // the accelerator panel's
        window.checkpointEvery = panel.checkpointEvery();
        QStringList args;
        for (const std::string& a : tb::formatTrainOptions(window))
            args << QString::fromStdString(a);
        // The advanced part is the line the window shows.
        QStringList shown = o->cliArguments();
        for (const QString& a : shown)
            QVERIFY2(args.contains(a), qPrintable(a));
        fixtures::compareTrainConfigs(parseBack(args).config, window.config);

        const QString runs = m_tmp.filePath(QStringLiteral("roundtrip-runs"));
        const fixtures::CliResult r = fixtures::runCli(
            QStringLiteral(TRAINBENCH_CLI),
            QStringList{"train", "--data", m_data, "--model", m_model, "--runs-dir", runs, "--json"} + args);
        QVERIFY2(r.code == 0, qPrintable(r.err + "\n" + args.join(' ')));
        const QJsonObject start = QJsonDocument::fromJson(r.out.section('\n', 0, 0).toUtf8()).object();
        QCOMPARE(start["event"].toString(), QString("start"));
        const tb::RunFolder folder = tb::RunFolder::open(start["run_folder"].toString().toStdString());
        fixtures::compareTrainConfigs(tb::readCheckpoint(folder.checkpoint()).config, window.config);
    }

    // A step schedule and early stopping that must stop after epoch 2 (nothing improves by 100): the
    // learning-rate series, the best and stop markers, the log's decisions, the validation curves'
    // name and the final test-set results.
    void scheduleAndEarlyStoppingShowInTheWindow()
    {
        auto w = makeWindow(m_data, 5, 4);
        QVERIFY(w);
        tb::EarlyStopping es;
        es.enabled = true;
        es.patience = 1;
        es.minDelta = 100;
        es.restoreBestWeights = true;
        w->hyperparametersPanel()->runOptions()->setEarlyStopping(es);
        w->hyperparametersPanel()->runOptions()->setValidationLimit(10); // of the held-out images
        const auto allValidated = qScopeGuard([&] { w->hyperparametersPanel()->runOptions()->setValidationLimit(0); });
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        const RunOutcome outcome = waitForRun(finished);
        QCOMPARE(int(outcome.status), int(RunStatus::Completed));

        QCOMPARE(int(w->history().size()), 2); // stopped after epoch 2 of 5
        QVERIFY(w->history()[0].best);
        QVERIFY(w->history()[1].stopped);
        QCOMPARE(outcome.bestEpoch, 1);
        QVERIFY(outcome.restoredBest);

        ChartsPanel* charts = w->chartsPanel();
        Chart* loss = charts->lossChart();
        loss->flush();
        QVERIFY(loss->seriesVisible(charts->rateSeries()));
        const QList<QPointF> rate = loss->points(charts->rateSeries());
        QVERIFY(rate.size() >= 2);
        const double lr0 = double(w->hyperparametersPanel()->config().optimizer.learningRate);
        for (const QPointF& p : rate) // step:1:0.5: the first epoch at lr0, the second at lr0 / 2
            QCOMPARE(p.y(), p.x() <= 1.0 ? lr0 : lr0 / 2);
        QCOMPARE(loss->points(charts->bestSeries()), (QList<QPointF>{{1.0, w->history()[0].valLoss}}));
        QCOMPARE(loss->points(charts->stopSeries()), (QList<QPointF>{{2.0, w->history()[1].valLoss}}));
        QCOMPARE(charts->accuracyChart()->points(charts->accuracyBestSeries()).size(), 1);
        QCOMPARE(charts->accuracyChart()->points(charts->accuracyStopSeries()).size(), 1);
        QVERIFY(!loss->seriesVisible(charts->loweredSeries())); // no reduce-on-plateau in this run
        QCOMPARE(charts->validationName(), QStringLiteral("Validation (first 10 of the last 25% of train)"));

        const QString log = w->runPanel()->logText();
        for (const char* line :
             {"Run folder ", "Validation: the last 25% of the training images",
              "held out; the test set is used at the end only\nEach epoch validates on the first 10 of them only\n",
              "Learning-rate schedule: step decay", "Early stopping: val_loss",
              "learning_rate: ", "Epoch 1: val_loss improved to", "Epoch 2: early stopping",
              "Restoring model weights from the end of the best epoch: 1."})
            QVERIFY2(log.contains(QString::fromLatin1(line)), line);
        // The run header counts the held-out images, as the CLI's does.
        const QRegularExpressionMatch counts =
            QRegularExpression(QStringLiteral("([\\d,]+) training / ([\\d,]+) validation \\(held out of training\\) / "
                                              "120 test images"))
                .match(log);
        QVERIFY2(counts.hasMatch(), qPrintable(log));
        const int train = counts.captured(1).remove(',').toInt(), held = counts.captured(2).remove(',').toInt();
        QCOMPARE(held, (train + held) / 4);
        // The results pages show the test set with the final (restored) weights, not the held-out images.
        QVERIFY2(w->resultsPanel()->sourceText().contains(QStringLiteral("final weights on 120 test images")),
                 qPrintable(w->resultsPanel()->sourceText()));
        // Its run folder, in the runs folder, with the final weights, as the CLI leaves it.
        QVERIFY(outcome.runFolder.startsWith(QString::fromStdString(tb::env::runsDir())));
        QVERIFY(QFile::exists(outcome.runFolder + QStringLiteral("/weights.tbw")));
        QVERIFY(QFile::exists(outcome.runFolder + QStringLiteral("/best.tbw")));
    }

    // Reduce-on-plateau's lowering is marked on the rate at Keras' new rate.
    void plateauLoweringIsMarked()
    {
        ChartsPanel charts;
        tb::TrainConfig c;
        c.schedule = tb::parseLrSchedule("plateau:0.5:0:0.0001");
        charts.setRun(c);
        QVERIFY(charts.lossChart()->seriesVisible(charts.loweredSeries()));
        QVERIFY(!charts.lossChart()->seriesVisible(charts.bestSeries()));
        tb::EpochRecord r;
        r.epoch = 3;
        r.learningRate = 0.001;
        r.rateLowered = true;
        charts.addEpoch(r);
        QCOMPARE(charts.lossChart()->points(charts.loweredSeries()), (QList<QPointF>{{3.0, 0.0005}}));
        QCOMPARE(charts.validationName(), QStringLiteral("Validation (test set)"));
        c.validationLimit = 640;
        charts.setRun(c);
        QCOMPARE(charts.validationName(), QStringLiteral("Validation (first 640 of the test set)"));
    }

    // Stop after the first epoch, then File > Resume run…: the same final weights as an uninterrupted
    // run, with the charts pre-filled by the restored epochs. (The toy run is fast: enough epochs that
    // Stop, which the window sees through throttled progress, lands before the end.)
    void stopThenResumeEndsOnTheSameWeights()
    {
        constexpr int kEpochs = 30;
        const QString uninterrupted = uninterruptedHash(kEpochs);
        QVERIFY(!uninterrupted.isEmpty());
        auto w = makeWindow(m_data, kEpochs);
        QVERIFY(w);
        w->hyperparametersPanel()->runOptions()->setCheckpointEvery(3);
        QSignalSpy finished(w->runController(), &RunController::finished);
        bool clicked = false;
        connect(w->runController(), &RunController::batchFinished, this, [&](const tb::BatchProgress& p) {
            if (!clicked && p.epoch == 2 && p.step >= 2) {
                clicked = true;
                fixtures::answerNextBox(QStringLiteral("stopAndKeep")); // Stop asks first
                w->runPanel()->stopButton()->click();
            }
        });
        w->startTraining();
        const RunOutcome stopped = waitForRun(finished);
        QCOMPARE(int(stopped.status), int(RunStatus::Stopped));
        QVERIFY(!stopped.runFolder.isEmpty());
        QVERIFY(w->runPanel()->logText().contains(QStringLiteral("File > Resume run")));
        const tb::Checkpoint at = tb::readCheckpoint(tb::RunFolder::open(stopped.runFolder.toStdString()).checkpoint());
        QVERIFY(at.position.epoch >= 1);
        QVERIFY(at.position.epoch < kEpochs);

        finished.clear();
        // On one thread instead of two (the same weights): the log says where the run was.
        w->acceleratorPanel()->selectDevice(tb::parseDeviceSpec("cpu:1"));
        w->resumeRun(stopped.runFolder);
        QVERIFY(w->runController()->isRunning());
        const RunOutcome resumed = waitForRun(finished);
        QVERIFY2(w->runPanel()->logText().contains(QStringLiteral("It ran on cpu:2 until now; it continues on cpu:1.")),
                 qPrintable(w->runPanel()->logText()));
        QCOMPARE(int(resumed.status), int(RunStatus::Completed));
        QCOMPARE(resumed.weightsSha256, uninterrupted);
        QCOMPARE(resumed.runFolder, stopped.runFolder);
        QCOMPARE(int(w->history().size()), kEpochs); // the restored epochs and those it finished
        Chart* loss = w->chartsPanel()->lossChart();
        QCOMPARE(loss->pointCount(1), kEpochs); // train loss per epoch, the first ones from the checkpoint
        QCOMPARE(loss->pointCount(2), kEpochs);
        // Where it went on: a step of the epoch, or the epoch's validation when Stop landed there (the
        // window sees the steps late, through throttled progress: on a slow machine, the sanitizers' build,
        // the worker can be past the epoch's last step). 384 training images (512, a quarter held
        // out), batches of 32: makeWindow's.
        constexpr int kStepsPerEpoch = 384 / 32;
        const QString where =
            at.position.inValidation(kStepsPerEpoch)
                ? QStringLiteral("(resumed at epoch %1's validation)").arg(at.position.epoch + 1)
                : QStringLiteral("(resumed at epoch %1, step %2)").arg(at.position.epoch + 1).arg(at.position.step + 1);
        QVERIFY2(w->runPanel()->logText().contains(where), qPrintable(where + "\n" + w->runPanel()->logText()));
        QVERIFY(w->runPanel()->logText().contains(resumed.weightsSha256));
        // The Predict page names the run as a fresh one is named (model and device), not by its folder.
        const QString model = w->predictPanel()->modelText();
        QVERIFY2(model.startsWith(
                     QStringLiteral("Model: %1 on cpu:1, resumed ").arg(QString::fromStdString(at.weights.spec.name))),
                 qPrintable(model));
    }

    // A resumed run's per-batch curves (loss and accuracy, the learning rate beside them) are drawn as it
    // starts, from its first batch up to its checkpoint, as the run drew them before the stop; its own
    // batches follow, each once. Until 2026-12-07 they started at the resumed step.
    void resumeDrawsTheBatchesBeforeItsCheckpoint()
    {
        constexpr int kStepsPerEpoch = 384 / 32; // makeWindow's: 512 images, a quarter held out
        auto w = makeWindow(m_data, 3);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        // Held after epoch 2's fifth step, then stopped there (Stop releases the hold).
        const int before = kStepsPerEpoch + 5;
        w->runController()->pauseAfterBatches(before);
        const QMetaObject::Connection stopWhenHeld =
            connect(w->runController(), &RunController::held, w->runController(), &RunController::stop);
        w->startTraining();
        const RunOutcome stopped = waitForRun(finished);
        disconnect(stopWhenHeld);
        QCOMPARE(int(stopped.status), int(RunStatus::Stopped));
        const tb::Checkpoint at = tb::readCheckpoint(tb::RunFolder::open(stopped.runFolder.toStdString()).checkpoint());
        QCOMPARE(at.position.epoch * kStepsPerEpoch + at.position.step, before);

        finished.clear();
        ChartsPanel* charts = w->chartsPanel();
        int lossPoints = -1, accuracyPoints = -1, ratePoints = -1;
        QList<QPointF> drawn;
        connect(w->runController(), &RunController::started, this, [&] { // after the window's own slot
            lossPoints = charts->lossChart()->pointCount(charts->batchSeries());
            accuracyPoints = charts->accuracyChart()->pointCount(charts->accuracyBatchSeries());
            ratePoints = charts->lossChart()->pointCount(charts->rateSeries());
            drawn = charts->lossChart()->points(charts->batchSeries());
        });
        w->resumeRun(stopped.runFolder);
        QCOMPARE(int(waitForRun(finished).status), int(RunStatus::Completed));
        QCOMPARE(lossPoints, before);
        QCOMPARE(accuracyPoints, before);
        QCOMPARE(ratePoints, before); // per batch, as the run drew its rate, not one per restored epoch
        QCOMPARE(drawn.first().x(), 1.0 / kStepsPerEpoch);
        QCOMPARE(drawn.last().x(), double(before) / kStepsPerEpoch);
        const QList<QPointF> all = charts->lossChart()->points(charts->batchSeries());
        QVERIFY(all.size() > before);
        for (int i = 1; i < all.size(); ++i) // the batches trained after the checkpoint follow, none twice
            QVERIFY2(all[i].x() > all[i - 1].x(),
                     qPrintable(QStringLiteral("point %1 at x = %2").arg(i).arg(all[i].x())));
        QCOMPARE(all.last().x(), 3.0);
    }

    // A run made at a kernel level of its own (here by the CLI) goes on at that level in the window,
    // which chooses none: on the accelerator panel's device otherwise, as the log says.
    void resumeKeepsTheRunsKernelLevel()
    {
        const QString runs = m_tmp.filePath(QStringLiteral("baseline-runs"));
        const fixtures::CliResult r =
            fixtures::runCli(QStringLiteral(TRAINBENCH_CLI),
                             {"train", "--data", m_data, "--model", m_model, "--runs-dir", runs, "--json", "--epochs",
                              "1", "--max-batches", "2", "--device", "cpu:2@baseline"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString folder =
            QJsonDocument::fromJson(r.out.section('\n', 0, 0).toUtf8()).object()["run_folder"].toString();
        // A run whose end is not all there (no weights.tbw: its process died, or a build before 2026-12-06
        // recorded it complete at its last checkpoint) resumes, and only evaluates; one that ended is
        // refused (tst_ui_runs).
        QVERIFY(QFile::remove(folder + QStringLiteral("/weights.tbw")));
        auto w = makeWindow(m_data, 1); // cpu:2
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->resumeRun(folder);
        const RunOutcome o = waitForRun(finished);
        QVERIFY2(o.status == RunStatus::Completed, qPrintable(o.message));
        const QString log = w->runPanel()->logText();
        QVERIFY2(log.contains(QStringLiteral("baseline kernels")), qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("It ran on")), qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("Note:")), qPrintable(log));
        // A checkpoint written before checkpoints kept a hash of the images resumes with the CLI's note
        // of what could not be checked (the window said nothing).
        const std::string checkpoint = (folder + QStringLiteral("/checkpoint.tbw")).toStdString();
        tb::WeightsFile saved = tb::loadWeights(checkpoint);
        nlohmann::ordered_json position = tb::parseJson(saved.resume);
        QVERIFY(position["dataset"].contains("pixels_hash"));
        position["dataset"].erase("pixels_hash");
        saved.resume = tb::jsonText(position);
        tb::saveWeights(checkpoint, saved);
        QVERIFY(QFile::remove(folder + QStringLiteral("/weights.tbw")));
        w->resumeRun(folder);
        const RunOutcome again = waitForRun(finished);
        QVERIFY2(again.status == RunStatus::Completed, qPrintable(again.message));
        const QString noted = w->runPanel()->logText();
        QVERIFY2(noted.contains(QStringLiteral("Note: ") + folder +
                                QStringLiteral("/checkpoint.tbw was written before checkpoints kept a hash of their "
                                               "dataset's images: only the counts, sizes and labels of ")),
                 qPrintable(noted));
    }

    // The run's own dataset is loaded when another is open; a damaged checkpoint and a dataset that
    // is gone are messages in the window.
    void resumeFindsItsDatasetOrSaysWhy()
    {
        auto w = makeWindow(m_otherData, 1, 2);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        const RunOutcome first = waitForRun(finished);
        QCOMPARE(int(first.status), int(RunStatus::Completed));
        const QString folder = first.runFolder;
        // Without its weights.tbw, as if its process died before its end was recorded: it resumes and
        // only evaluates (a run that ended is refused: tst_ui_runs).
        QVERIFY(QFile::remove(QDir(folder).filePath(QStringLiteral("weights.tbw"))));

        // The window has another dataset open: the run's own is loaded for it.
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(m_data);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        const QString copy = m_tmp.filePath(QStringLiteral("copy-of-run"));
        QDir().mkpath(copy);
        for (const QString& name : QDir(folder).entryList(QDir::Files))
            QVERIFY(QFile::copy(QDir(folder).filePath(name), QDir(copy).filePath(name)));
        finished.clear();
        w->resumeRun(folder);
        RunOutcome o = waitForRun(finished);
        QVERIFY2(o.status == RunStatus::Completed, qPrintable(o.message));
        QVERIFY(w->runPanel()->logText().contains(m_otherData));
        // The Dataset panel follows the run to its dataset.
        QTRY_VERIFY_WITH_TIMEOUT(!w->datasetPanel()->isLoading() && w->datasetPanel()->dataset(),
                                 fixtures::kHangGuardMs);
        QCOMPARE(QDir::cleanPath(QString::fromStdString(w->datasetPanel()->dataset()->directory)),
                 QDir::cleanPath(m_otherData));

        // A truncated checkpoint.
        QFile file(QDir(copy).filePath(QStringLiteral("checkpoint.tbw")));
        const qint64 size = file.size();
        QVERIFY(file.open(QIODevice::ReadWrite));
        const QByteArray bytes = file.readAll();
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes.left(size / 2));
        file.close();
        // Refused before it starts, as every refusal of Resume (resumeRefusalsLeaveTheWindowAlone).
        finished.clear();
        w->resumeRun(copy);
        QVERIFY(!w->runController()->isRunning());
        QVERIFY(w->errorBox() && w->errorBox()->isVisible());
        QVERIFY2(w->errorBox()->informativeText().contains(QStringLiteral("checkpoint.tbw")),
                 qPrintable(w->errorBox()->informativeText()));
        QVERIFY(w->statusBar()->currentMessage().contains(w->errorBox()->informativeText()));
        w->errorBox()->close();

        // The run's dataset is gone and another is loaded: the difference is named.
        const QString again = m_tmp.filePath(QStringLiteral("run-without-data"));
        QDir().mkpath(again);
        for (const QString& name : QDir(folder).entryList(QDir::Files))
            if (name != QStringLiteral("weights.tbw")) // the resume above ended it: not an ended run here
                QVERIFY(QFile::copy(QDir(folder).filePath(name), QDir(again).filePath(name)));
        loaded.clear();
        w->datasetPanel()->loadFolder(m_data);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        QVERIFY(QDir(m_otherData).removeRecursively());
        finished.clear();
        w->resumeRun(again);
        QVERIFY(!w->runController()->isRunning());
        QVERIFY(w->errorBox() && w->errorBox()->isVisible());
        const QString why = w->errorBox()->informativeText();
        QVERIFY2(why.contains(QStringLiteral("another dataset")), qPrintable(why));
        qInfo("other dataset: %s", qPrintable(why));
        QVERIFY(finished.isEmpty());
    }

    // File > Resume run… on a folder it cannot resume (no checkpoint, a damaged one, a run of a
    // dataset that is gone): refused in a box before anything on screen changes; the last run's
    // charts, log, progress and page stay.
    void resumeRefusalsLeaveTheWindowAlone()
    {
        auto w = makeWindow(m_data, 2, 3);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        const RunOutcome first = waitForRun(finished);
        QCOMPARE(int(first.status), int(RunStatus::Completed));
        w->showPage(MainWindow::RunsPage);
        const QString log = w->runPanel()->logText();
        const QString status = w->runPanel()->statusText();
        const int progress = w->runPanel()->progressBar()->value();
        const int points = w->chartsPanel()->lossChart()->pointCount(1);
        QCOMPARE(points, 2);

        // A folder without a checkpoint.
        const QString empty = m_tmp.filePath(QStringLiteral("notds"));
        QVERIFY(QDir().mkpath(empty));
        // A damaged checkpoint.
        const QString damaged = m_tmp.filePath(QStringLiteral("damaged-run"));
        QVERIFY(QDir().mkpath(damaged));
        fixtures::writeRaw(QDir(damaged).filePath(QStringLiteral("checkpoint.tbw")).toStdString(), "TBWGHT01garbage");
        // A run of a dataset that is gone (another one is loaded).
        const QString goneData = m_tmp.filePath(QStringLiteral("toy-gone"));
        QVERIFY(QDir().mkpath(goneData));
        fixtures::writeToyDataset(goneData.toStdString(), 128, 30, 12, 3, false, 3);
        QString goneRun;
        {
            auto other = makeWindow(goneData, 1, 2);
            QVERIFY(other);
            QSignalSpy done(other->runController(), &RunController::finished);
            other->startTraining();
            goneRun = waitForRun(done).runFolder;
        }
        QVERIFY(QDir(goneData).removeRecursively());

        for (const QString& folder : {empty, damaged, goneRun}) {
            w->resumeRun(folder);
            QVERIFY2(!w->runController()->isRunning(), qPrintable(folder));
            QVERIFY(w->errorBox() && w->errorBox()->isVisible());
            QCOMPARE(w->errorBox()->text(),
                     QStringLiteral("The run in %1 cannot be resumed.").arg(QDir::toNativeSeparators(folder)));
            QVERIFY(!w->errorBox()->informativeText().isEmpty());
            QVERIFY(w->errorBox()->isModal());
            QCOMPARE(w->runPanel()->logText(), log);
            QCOMPARE(w->runPanel()->statusText(), status);
            QCOMPARE(w->runPanel()->progressBar()->value(), progress);
            QCOMPARE(w->chartsPanel()->lossChart()->pointCount(1), points);
            QCOMPARE(int(w->history().size()), 2);
            QVERIFY(w->hasWeights());
            QCOMPARE(w->tabs()->currentIndex(), int(MainWindow::RunsPage));
            w->errorBox()->close();
        }
        w->resumeRun(empty);
        QVERIFY2(w->errorBox()->informativeText().contains(QStringLiteral("holds no checkpoint.tbw")),
                 qPrintable(w->errorBox()->informativeText()));
        w->errorBox()->close();
        {
            // A run another process trains (its lock held): refused before anything changes too.
            const tb::RunLock held(first.runFolder.toStdString());
            w->resumeRun(first.runFolder);
            QVERIFY(!w->runController()->isRunning());
            QVERIFY2(w->errorBox() && w->errorBox()->informativeText().contains(QStringLiteral("is being trained by")),
                     qPrintable(w->errorBox() ? w->errorBox()->informativeText() : QString()));
            QCOMPARE(w->runPanel()->logText(), log);
            QCOMPARE(w->chartsPanel()->lossChart()->pointCount(1), points);
            w->errorBox()->close();
        }
        QVERIFY(finished.count() == 1);
    }

    // The Stop question holds the run while it is open (it could end before the answer otherwise);
    // Continue lets it go on, to the same weights as a run never asked.
    void stopQuestionPausesTheRun()
    {
        constexpr int kEpochs = 30;
        const QString uninterrupted = uninterruptedHash(kEpochs);
        QVERIFY(!uninterrupted.isEmpty());
        auto w = makeWindow(m_data, kEpochs);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        bool asked = false, pausedWhileAsked = false, heldWhileAsked = false;
        connect(w->runController(), &RunController::batchFinished, this, [&](const tb::BatchProgress& p) {
            if (asked || p.epoch != 2)
                return;
            asked = true;
            fixtures::onNextModal([&](QWidget* box) {
                pausedWhileAsked = w->runController()->isPaused();
                // The worker holds: the step it holds at is shown, and no batch follows it.
                heldWhileAsked =
                    pausedWhileAsked &&
                    QTest::qWaitFor(
                        [&] { return int(w->runPanel()->state()) == int(RunPanel::State::Paused) && held(*w); },
                        fixtures::kHangGuardMs);
                box->findChild<QPushButton*>(QStringLiteral("continueRun"))->click();
            });
            w->runPanel()->stopButton()->click();
        });
        w->startTraining();
        const RunOutcome o = waitForRun(finished);
        QVERIFY(asked);
        QVERIFY(pausedWhileAsked);
        QVERIFY(heldWhileAsked);
        QCOMPARE(int(o.status), int(RunStatus::Completed));
        QCOMPARE(o.weightsSha256, uninterrupted);
    }

    // Stop: the status line and the epoch bar say the step run.json and the Runs page record (the
    // batches finished), not the last progress heard, which the throttle can leave a step behind.
    void stoppedStepAgreesWithTheRunRecord()
    {
        auto w = makeWindow(m_data, 30);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        bool stopped = false;
        connect(w->runController(), &RunController::batchFinished, this, [&](const tb::BatchProgress& p) {
            if (!stopped && p.epoch == 2) {
                stopped = true;
                w->runController()->stop(); // as the question's Stop and keep does, without the question's pause
            }
        });
        w->startTraining();
        const RunOutcome o = waitForRun(finished);
        QCOMPARE(int(o.status), int(RunStatus::Stopped));
        const tb::RunSummary run = tb::readRun(o.runFolder.toStdString());
        const int epoch = run.partialStep > 0 ? run.partialEpoch : int(run.history.size()) + 1;
        const int step = run.partialStep;
        const QString status = w->runPanel()->statusText();
        QVERIFY2(status.startsWith(QStringLiteral("Stopped at epoch %1, step %2;").arg(epoch).arg(step)),
                 qPrintable(status + QStringLiteral(" / run.json: epoch %1, step %2").arg(epoch).arg(step)));
        QCOMPARE(w->runPanel()->progressBar()->value(), step);
    }

    // Stop in the first epoch: the stopped weights' test evaluation fills the Results page, named as the
    // weights at the stop (it said "Results appear after the first epoch."). Their folder holds no
    // weights.tbw, so the Runs page greys Open results and its tooltip says why.
    void stopInTheFirstEpochShowsTheStoppedWeights()
    {
        auto w = makeWindow(m_data, 1);
        QVERIFY(w);
        QSignalSpy finished(w->runController(), &RunController::finished);
        // Held after its second step, then stopped there (Stop releases the hold).
        w->runController()->pauseAfterBatches(2);
        connect(w->runController(), &RunController::held, w->runController(), &RunController::stop);
        w->startTraining();
        const RunOutcome o = waitForRun(finished);
        QCOMPARE(int(o.status), int(RunStatus::Stopped));
        QCOMPARE(o.stoppedEpoch, 1);
        QCOMPARE(o.stoppedStep, 2);
        QVERIFY(w->history().empty());
        const ResultsModel& results = w->resultsPanel()->model();
        QCOMPARE(results.samples(), 120); // the toy test set
        QCOMPARE(double(results.samples() - results.wrongCount()) / results.samples(), o.testAccuracy);
        const QString source = w->resultsPanel()->sourceText();
        QVERIFY2(source.contains(QStringLiteral("the weights kept at the stop (epoch 1, step %1) on 120 test images")
                                     .arg(o.stoppedStep)),
                 qPrintable(source));

        RunsPanel* runs = w->runsPanel();
        QSignalSpy listed(runs, &RunsPanel::listed);
        runs->refresh();
        QVERIFY(listed.wait(fixtures::kHangGuardMs));
        runs->selectRun(o.runFolder);
        QVERIFY(!runs->openButton()->isEnabled());
        QVERIFY2(runs->openButton()->toolTip().contains(QStringLiteral("stopped or interrupted before its end")),
                 qPrintable(runs->openButton()->toolTip()));
        QVERIFY(runs->resumeButton()->isEnabled());
    }

    // A checkpoint the disk has no room for (the runs folder on a 1 MiB tmpfs) fails the run with the
    // file's error in the status bar and the log, and keeps the weights trained so far: File > Save
    // weights puts them elsewhere, and they open and evaluate.
    void aFullDiskKeepsTheRunsWeights()
    {
        const fixtures::SmallDisk disk(tb::env::runsDir());
        if (!disk.skipReason().empty())
            QSKIP(disk.skipReason().c_str());
        // Its checkpoint (weights and Adam's two slots, 3.5 MB) does not fit; run.json does.
        const QString wide = m_tmp.filePath(QStringLiteral("wide.json"));
        fixtures::writeRaw(wide.toStdString(), R"({"name": "wide", "layers": [{"type": "Flatten"},
            {"type": "Dense", "units": 2000, "activation": "relu"},
            {"type": "Dense", "units": 3, "activation": "softmax"}]})");
        auto w = makeWindow(m_data, 2, 2);
        QVERIFY(w);
        w->modelPanel()->openModelFile(wide);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        const RunOutcome o = waitForRun(finished);
        QCOMPARE(int(o.status), int(RunStatus::Failed));
        const QString noRoom = QStringLiteral("/checkpoint.tbw: No space left on device; nothing was written");
        QVERIFY2(o.message.contains(noRoom), qPrintable(o.message));
        QVERIFY2(w->statusBar()->currentMessage().contains(noRoom), qPrintable(w->statusBar()->currentMessage()));
        QVERIFY2(w->runPanel()->logText().contains(noRoom), qPrintable(w->runPanel()->logText()));
        QVERIFY(o.weights);
        const QString saved = m_tmp.filePath(QStringLiteral("kept-after-full-disk.tbw"));
        QCOMPARE(w->saveWeights(saved), QString());
        QSignalSpy evaluated(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(saved);
        QVERIFY(evaluated.wait(fixtures::kHangGuardMs));
        QCOMPARE(evaluated.first().first().toBool(), true);
    }
};

QTEST_MAIN(TstUiResume)
#include "tst_ui_resume.moc"
