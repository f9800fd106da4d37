// Runs that survive (issue 17): checkpoints and exact resume after a clean stop and after SIGKILL, on
// 1 and 2 threads; learning-rate schedules and early stopping with Keras' semantics; the validation
// split; damaged and mismatched checkpoints; the per-batch curve a resumed run shows before its own
// batches (the same as a run never interrupted, thinned for a long run, absent from an older or damaged
// checkpoint).
#include "cli_process.hpp"
#include "fixtures.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "model/model_spec.hpp"
#include "train/batch_curve.hpp"
#include "train/checkpoint.hpp"
#include "train/session.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace tb;

namespace {
// Stops the run (as Stop or Ctrl-C do) once it reaches a given epoch and step.
struct StopAt : TrainObserver {
    int epoch, step;
    std::atomic<bool>* flag;
    StopAt(int e, int s, std::atomic<bool>* f) : epoch(e), step(s), flag(f) {}
    void batchFinished(const BatchProgress& p) override
    {
        if (p.epoch == epoch && p.step == step)
            flag->store(true);
    }
};

// Keeps every batch the run reports; stops the run (as StopAt) at a given epoch and step when given a flag.
struct Batches : TrainObserver {
    std::vector<BatchProgress> seen;
    int epoch = 0, step = 0;
    std::atomic<bool>* flag = nullptr;
    std::function<void(const RunPosition&)> advanced; // after each checkpoint that is due
    const TrainingSession* session = nullptr;
    void batchFinished(const BatchProgress& p) override
    {
        seen.push_back(p);
        if (flag && p.epoch == epoch && p.step == step)
            flag->store(true);
    }
    void positionAdvanced(bool) override
    {
        if (advanced)
            advanced(session->position());
    }
};

// What training decides of each batch (not its timing), to the bit: a curve resumed must be the
// curve of the run never interrupted.
QString curveText(const std::vector<BatchProgress>& batches)
{
    QStringList lines;
    for (const BatchProgress& p : batches)
        lines << QString::asprintf("epoch %d/%d step %d/%d: loss %a accuracy %a batch %a %a rate %a", p.epoch, p.epochs,
                                   p.step, p.steps, p.loss, p.accuracy, p.batchLoss, p.batchAccuracy, p.learningRate);
    return lines.join('\n');
}

// A callback of the test's own: each epoch's end halves the rate of the steps after it. Its state
// (the epochs seen) must come back from the checkpoint, or a resumed run takes other rates.
struct Halving : Callback {
    int epochs = 0;
    std::string name() const override { return "halving"; }
    double stepRate(double rate, const StepPosition&) const override { return rate * std::ldexp(1.0, -epochs); }
    void epochEnded(EpochEnd&) override { ++epochs; }
    nlohmann::ordered_json saveState() const override { return {{"epochs", epochs}}; }
    void restoreState(Trainer&, const nlohmann::ordered_json& s, const std::string&) override
    {
        epochs = s.at("epochs").get<int>();
    }
};
} // namespace

class TstResume : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    Dataset m_toy;
    ModelSpec m_model;
    std::string m_dataDir, m_modelPath;

    TrainConfig config(int threads) const
    {
        TrainConfig c;
        c.epochs = 3;
        c.batchSize = 10; // 8 steps an epoch, the last one partial
        c.seed = 7;
        c.device.threads = threads;
        return c;
    }

    std::string uninterrupted(const TrainConfig& c)
    {
        TrainingSession s(m_model, m_toy, c);
        s.run();
        return s.weightsSha256();
    }

    using Cli = fixtures::CliResult;
    static Cli cli(const QStringList& args) { return fixtures::runCli(QStringLiteral(TRAINBENCH_CLI), args); }
    // Trains `c` with checkpoints in `runs` (a runs folder of its own) until StopAt(epoch, step) stops it.
    TrainStatus runUntil(const TrainConfig& c, const QString& runs, int epoch, int step)
    {
        std::atomic<bool> stop{false};
        TrainingSession s(m_model, m_toy, c);
        s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
        StopAt at(epoch, step, &stop);
        return s.run(&at, &stop);
    }

    static QString runFolderOf(const QString& runsDir)
    {
        const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        return runs.size() == 1 ? runsDir + "/" + runs.first() : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_dataDir = m_tmp.path().toStdString() + "/toy";
        QDir().mkpath(QString::fromStdString(m_dataDir));
        fixtures::writeToyDataset(m_dataDir, 75, 30, 12, 3);
        m_toy = loadDataset(m_dataDir);
        m_model = parseModelSpec(fixtures::toyModelJson(), "toy");
        m_modelPath = m_tmp.path().toStdString() + "/toy.json";
        fixtures::writeRaw(m_modelPath, fixtures::toyModelJson());
    }

    void cleanStopResumesBitIdentical_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("resumeThreads");
        QTest::newRow("1 thread") << 1 << 1;
        QTest::newRow("2 threads") << 2 << 2;
        QTest::newRow("stopped on 1, resumed on 2") << 1 << 2;
    }
    void cleanStopResumesBitIdentical()
    {
        QFETCH(int, threads);
        QFETCH(int, resumeThreads);
        const TrainConfig c = config(threads);
        const std::string expected = uninterrupted(c);
        const QString runs = m_tmp.path() + "/clean-" + QString::number(threads) + QString::number(resumeThreads);
        std::atomic<bool> stop{false};
        {
            TrainingSession s(m_model, m_toy, c);
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            StopAt at(2, 3, &stop); // in the middle of the second epoch
            QCOMPARE(s.run(&at, &stop), TrainStatus::Cancelled);
            QCOMPARE(s.position().epoch, 1);
            QCOMPARE(s.position().step, 3);
        }
        DeviceSpec other;
        other.threads = resumeThreads;
        auto resumed = TrainingSession::resume(RunFolder::open(runFolderOf(runs).toStdString()), m_toy, other);
        QCOMPARE(resumed->position().step, 3);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        QCOMPARE(resumed->weightsSha256(), expected);
        QCOMPARE(int(resumed->history().size()), 3);
    }

    // A stop in an epoch's validation (Ctrl-C no longer waits for the whole set) leaves the run at the
    // epoch's last step; `train --resume` says it continues with that validation, and ends with the
    // weights of a run never stopped.
    void aStopInTheValidationResumesThere()
    {
        const TrainConfig c = config(1);
        const std::string expected = uninterrupted(c);
        const QString runs = m_tmp.path() + "/in-validation";
        std::atomic<bool> stop{false};
        {
            TrainingSession s(m_model, m_toy, c);
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            StopAt at(2, s.info().stepsPerEpoch, &stop); // the validation sees it
            QCOMPARE(s.run(&at, &stop), TrainStatus::Cancelled);
            QCOMPARE(s.position().epoch, 1);
            QCOMPARE(s.position().step, s.info().stepsPerEpoch);
            QCOMPARE(int(s.history().size()), 1);
        }
        const Cli resumed = cli({"train", "--resume", runFolderOf(runs)});
        QCOMPARE(resumed.code, 0);
        QVERIFY2(resumed.out.contains(QStringLiteral("(resumed at epoch 2's validation)")), qPrintable(resumed.out));
        QVERIFY2(resumed.out.contains(QString::fromStdString("weights sha256: " + expected)), qPrintable(resumed.out));
    }

    // A run whose last step is done but whose end is not recorded (its process died in the test evaluation,
    // or weights.tbw could not be written) is not completed: run.json says so until the end is recorded,
    // and `train --resume` finishes it. It was recorded completed at its last checkpoint, and the resume
    // refused it as complete, pointing at a weights.tbw that did not exist.
    void aRunThatDiedBeforeItsEndResumesToFinish()
    {
        const TrainConfig c = config(1);
        const std::string expected = uninterrupted(c);
        const QString runs = m_tmp.path() + "/unfinished";
        {
            TrainingSession s(m_model, m_toy, c);
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            QCOMPARE(s.run(), TrainStatus::Completed); // and no finish(): the process ends here
        }
        const QString folder = runFolderOf(runs);
        QVERIFY(!QFile::exists(folder + "/weights.tbw"));
        const auto status = [&] {
            return parseJson(readWholeFile((folder + "/run.json").toStdString())).at("status").get<std::string>();
        };
        QCOMPARE(status(), std::string("running"));
        const Cli resumed = cli({"train", "--resume", folder});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains(QStringLiteral("(the run is complete)")), qPrintable(resumed.out));
        QVERIFY2(resumed.out.contains(QString::fromStdString("weights sha256: " + expected)), qPrintable(resumed.out));
        QVERIFY(QFile::exists(folder + "/weights.tbw"));
        QCOMPARE(status(), std::string("completed"));
        QCOMPARE(cli({"train", "--resume", folder}).code, 2); // now it is complete
    }

    // A run is trained by one session at a time: resuming one that a session (here, of this process)
    // still trains is refused before anything is read or written; once that session has ended, the
    // run resumes.
    void aRunUnderWayIsNotResumedTwice()
    {
        const QString runs = m_tmp.path() + "/twice";
        std::atomic<bool> stop{false};
        std::string path;
        {
            TrainingSession s(m_model, m_toy, config(1));
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            StopAt at(1, 3, &stop);
            QCOMPARE(s.run(&at, &stop), TrainStatus::Cancelled);
            path = s.runFolder()->path;
            const std::string before = readWholeFile(path + "/checkpoint.tbw");
            for (int overload = 0; overload < 2; ++overload) {
                try {
                    const RunFolder folder = RunFolder::open(path);
                    if (overload == 0)
                        TrainingSession::resume(folder, m_toy);
                    else
                        TrainingSession::resume(folder, readCheckpoint(folder.checkpoint()), m_toy);
                    QFAIL("a run under way was resumed by a second session");
                } catch (const IoError& e) {
                    QCOMPARE(std::string(e.what()),
                             path + " is being trained by this process already; wait for it to end, or stop it first");
                }
            }
            QCOMPARE(readWholeFile(path + "/checkpoint.tbw"), before);
        }
        auto resumed = TrainingSession::resume(RunFolder::open(path), m_toy);
        QCOMPARE(resumed->position().step, 3);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
    }

    // A callback added to the session keeps its own state in the checkpoint under its name and gets it
    // back on resume, without the trainer or the checkpoint knowing what it is.
    void aCallbackKeepsItsStateInTheCheckpoint()
    {
        const TrainConfig c = config(2);
        std::string expected;
        {
            TrainingSession s(m_model, m_toy, c);
            s.addCallback(std::make_unique<Halving>());
            s.run();
            expected = s.weightsSha256();
        }
        QVERIFY(expected != uninterrupted(c)); // the callback changes the run
        const QString runs = m_tmp.path() + "/halving";
        std::atomic<bool> stop{false};
        {
            TrainingSession s(m_model, m_toy, c);
            s.addCallback(std::make_unique<Halving>());
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            StopAt at(3, 2, &stop);
            QCOMPARE(s.run(&at, &stop), TrainStatus::Cancelled);
        }
        const RunFolder folder = RunFolder::open(runFolderOf(runs).toStdString());
        QCOMPARE(readCheckpoint(folder.checkpoint()).callbacks.at("halving").at("epochs").get<int>(), 2);
        auto resumed = TrainingSession::resume(folder, m_toy);
        resumed->addCallback(std::make_unique<Halving>());
        QCOMPARE(resumed->learningRate(), double(c.optimizer.learningRate) / 4);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        QCOMPARE(resumed->weightsSha256(), expected);
    }

    // A checkpoint of version 1 (0.2.0) kept reduce-on-plateau's and early stopping's state in its
    // position; it resumes to the same weights as a run never stopped.
    void version1CheckpointsResume()
    {
        TrainConfig c = config(1);
        c.epochs = 6;
        c.optimizer.learningRate = 0.05f;
        c.schedule = parseLrSchedule("plateau:0.5:1");
        c.earlyStopping.enabled = true;
        c.earlyStopping.patience = 3;
        c.earlyStopping.restoreBestWeights = true;
        std::vector<EpochRecord> history;
        std::string expected;
        {
            TrainingSession s(m_model, m_toy, c);
            s.run();
            expected = s.weightsSha256();
            history = s.history();
        }
        int lowered = 0, best = 0;
        for (const EpochRecord& e : history) {
            lowered += e.rateLowered && e.epoch < 4;
            best += e.best && e.epoch < 4;
        }
        QVERIFY2(lowered > 0 && best > 0, "the run needs a lowered rate and a best epoch before the stop");
        const QString runs = m_tmp.path() + "/version1";
        QCOMPARE(runUntil(c, runs, 4, 3), TrainStatus::Cancelled);
        const RunFolder folder = RunFolder::open(runFolderOf(runs).toStdString());
        WeightsFile w = loadWeights(folder.checkpoint());
        nlohmann::ordered_json r = parseJson(w.resume);
        QCOMPARE(r["version"].get<int>(), 2);
        nlohmann::ordered_json& pos = r["position"];
        pos["plateau"] = r["callbacks"]["lr_schedule"];
        pos["early"] = r["callbacks"]["early_stopping"];
        pos.erase("stopped_epoch");
        r.erase("callbacks");
        r["version"] = 1;
        w.resume = jsonText(r);
        saveWeights(folder.checkpoint(), w);
        auto resumed = TrainingSession::resume(folder, m_toy);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        QCOMPARE(resumed->weightsSha256(), expected);
    }

    // The CLI killed with SIGKILL in the middle of an epoch continues from its last checkpoint.
    // Killed, then resumed as it was, or with --threads, which changes only the thread count of the
    // run's own device (its kernels' level stays).
    void sigkillResumesBitIdentical_data()
    {
        QTest::addColumn<QStringList>("where");
        QTest::addColumn<QStringList>("resumeWith");
        QTest::addColumn<QString>("resumedOn");
        QTest::newRow("1 thread") << QStringList{"--threads", "1"} << QStringList{} << QString();
        QTest::newRow("2 threads") << QStringList{"--threads", "2"} << QStringList{} << QString();
        QTest::newRow("baseline level, resumed with --threads 2")
            << QStringList{"--device", "cpu:1@baseline"} << QStringList{"--threads", "2"} << "cpu:2@baseline";
        // Precise BN is the run's own: the resumed run recomputes the statistics as the whole one did.
        QTest::newRow("precise BN") << QStringList{"--threads", "2", "--precise-bn", "3"} << QStringList{} << QString();
    }
    void sigkillResumesBitIdentical()
    {
        QFETCH(QStringList, where);
        QFETCH(QStringList, resumeWith);
        QFETCH(QString, resumedOn);
        const QStringList common = QStringList{"--data",   QString::fromStdString(m_dataDir),
                                               "--model",  QString::fromStdString(m_modelPath),
                                               "--epochs", "3",
                                               "--batch",  "10",
                                               "--seed",   "7"} +
                                   where;
        const Cli whole = cli(QStringList{"train", "--no-run-folder", "--json"} + common);
        QCOMPARE(whole.code, 0);
        const QString expected = QJsonDocument::fromJson(whole.out.split('\n', Qt::SkipEmptyParts).last().toUtf8())
                                     .object()["weights_sha256"]
                                     .toString();
        QCOMPARE(expected.size(), 64);

        const QString runs = m_tmp.path() + "/kill-" + QString::fromLatin1(QTest::currentDataTag()).left(1);
        QProcess p;
        p.start(TRAINBENCH_CLI, QStringList{"train", "--json", "--runs-dir", runs, "--checkpoint-every", "2"} + common);
        QVERIFY(p.waitForStarted());
        // Read the progress until the second epoch's fifth step, then kill at once.
        QByteArray seen;
        bool reached = false;
        while (!reached && p.waitForReadyRead(60000)) {
            seen += p.readAllStandardOutput();
            reached = seen.contains("\"epoch\":2,\"epochs\":3,\"step\":5");
        }
        QVERIFY2(reached, seen.constData());
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        const QString folder = runFolderOf(runs);
        QVERIFY(!folder.isEmpty());
        const Checkpoint left = readCheckpoint((folder + "/checkpoint.tbw").toStdString());
        QVERIFY2(left.position.epoch < 3, "the run finished before it was killed: the test proves nothing");

        const Cli resumed = cli(QStringList{"train", "--json", "--resume", folder} + resumeWith);
        QCOMPARE(resumed.code, 0);
        const QList<QByteArray> lines = resumed.out.toUtf8().split('\n');
        const QJsonObject start = QJsonDocument::fromJson(lines.first()).object();
        // Where it ran before, when it goes on elsewhere: in the start line, and in run.json with the
        // position it left that device at (`runs show` and the report list them).
        QFile record(folder + "/run.json");
        QVERIFY(record.open(QIODevice::ReadOnly));
        const QJsonArray earlier = QJsonDocument::fromJson(record.readAll()).object()["earlier_devices"].toArray();
        if (!resumedOn.isEmpty()) {
            QCOMPARE(start["device"].toString(), resumedOn);
            const QString before = QString::fromStdString(left.config.device.id());
            QCOMPARE(start["ran_on"].toString(), before);
            QCOMPARE(earlier.size(), 1);
            QCOMPARE(earlier[0].toObject()["device"].toString(), before);
            QCOMPARE(earlier[0].toObject()["epochs"].toInt(), left.position.epoch);
            QCOMPARE(earlier[0].toObject()["steps"].toInt(), left.position.step);
        } else {
            QVERIFY(!start.contains("ran_on"));
            QVERIFY(earlier.isEmpty());
        }
        QCOMPARE(start["resumed_epoch"].toInt(), left.position.epoch);
        QCOMPARE(start["resumed_step"].toInt(), left.position.step);
        const QString sha = QJsonDocument::fromJson(resumed.out.split('\n', Qt::SkipEmptyParts).last().toUtf8())
                                .object()["weights_sha256"]
                                .toString();
        QCOMPARE(sha, expected);
        // The batch and epoch lines: the resumed run's replayed ones (up to its checkpoint, "replayed":
        // true), then its own, are those of the run never interrupted, in its order, each once (those
        // trained after the checkpoint and before the kill were trained again). Times differ: left out.
        int replayed = 0;
        const auto progressLines = [&replayed](const QString& out) {
            QStringList lines;
            for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
                const QJsonObject j = QJsonDocument::fromJson(line.toUtf8()).object();
                const QString event = j["event"].toString();
                if (event != QLatin1String("batch") && event != QLatin1String("epoch"))
                    continue;
                replayed += j["replayed"].toBool();
                QString text = event == QLatin1String("batch")
                                   ? QStringLiteral("epoch %1 step %2").arg(j["epoch"].toInt()).arg(j["step"].toInt())
                                   : QStringLiteral("end of epoch %1").arg(j["epoch"].toInt());
                for (const char* key : {"loss", "accuracy", "batch_loss", "batch_accuracy", "val_loss", "val_accuracy"})
                    if (j.contains(QLatin1String(key)))
                        text += QStringLiteral(" %1").arg(j[QLatin1String(key)].toDouble(), 0, 'g', 17);
                lines << text;
            }
            return lines;
        };
        const QStringList uninterrupted = progressLines(whole.out);
        QCOMPARE(uninterrupted.size(), 3 * 8 + 3);
        QCOMPARE(replayed, 0);
        QCOMPARE(progressLines(resumed.out), uninterrupted);
        QCOMPARE(replayed, left.position.epoch * 8 + left.position.step + left.position.epoch);
    }

    // A resumed run hands its front ends the batches before its checkpoint (RunInfo::batches), and they
    // and the batches it trains are those of a run never interrupted, to the bit. After a stop the
    // checkpoint is at the stop; after a kill it is the last one written (every 3 batches here), and
    // the batches trained after it are trained again and told once.
    void resumedRunShowsTheBatchesBeforeItsCheckpoint_data()
    {
        QTest::addColumn<bool>("killed");
        QTest::newRow("stopped at epoch 2, step 6") << false;
        QTest::newRow("killed at epoch 2, step 6, checkpoint at step 3") << true;
    }
    void resumedRunShowsTheBatchesBeforeItsCheckpoint()
    {
        QFETCH(bool, killed);
        TrainConfig c = config(1);
        c.schedule = parseLrSchedule("cosine"); // a rate of its own at every step
        Batches whole;
        {
            TrainingSession s(m_model, m_toy, c);
            QCOMPARE(s.run(&whole), TrainStatus::Completed);
        }
        QCOMPARE(int(whole.seen.size()), 3 * 8);
        const QString runs = m_tmp.path() + "/curve-" + QString::number(killed);
        std::atomic<bool> stop{false};
        std::string folder;
        {
            TrainingSession s(m_model, m_toy, c);
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"), 3);
            folder = s.runFolder()->path;
            Batches first;
            first.epoch = 2;
            first.step = 6;
            first.flag = &stop;
            first.session = &s;
            if (killed) // the checkpoint written at epoch 2, step 3 is the one a kill at step 6 leaves
                first.advanced = [&](const RunPosition& at) {
                    if (at.epoch == 1 && at.step == 3)
                        std::filesystem::copy_file(folder + "/checkpoint.tbw", folder + "/kept.tbw");
                };
            QCOMPARE(s.run(&first, &stop), TrainStatus::Cancelled);
            QCOMPARE(int(first.seen.size()), 8 + 6);
        }
        if (killed)
            std::filesystem::rename(folder + "/kept.tbw", folder + "/checkpoint.tbw");
        const int before = 8 + (killed ? 3 : 6);
        auto resumed = TrainingSession::resume(RunFolder::open(folder), m_toy);
        QCOMPARE(resumed->position().step, before - 8);
        QVERIFY(resumed->curveNote().empty());
        std::vector<BatchProgress> curve;
        for (const BatchPoint& b : resumed->info().batches) {
            QCOMPARE(b.batches, int64_t(1));
            curve.push_back(b.progress);
        }
        QCOMPARE(int(curve.size()), before);
        Batches after;
        QCOMPARE(resumed->run(&after), TrainStatus::Completed);
        QCOMPARE(int(after.seen.size()), 3 * 8 - before);
        curve.insert(curve.end(), after.seen.begin(), after.seen.end());
        QCOMPARE(curveText(curve), curveText(whole.seen));
    }

    // A checkpoint without a per-batch curve (an earlier version's) resumes as before: no batches before
    // the resumed step, and the checkpoints after it keep the curve from there on.
    void checkpointWithoutACurveResumes()
    {
        const TrainConfig c = config(1);
        const std::string expected = uninterrupted(c);
        const QString runs = m_tmp.path() + "/no-curve";
        QCOMPARE(runUntil(c, runs, 2, 3), TrainStatus::Cancelled);
        const RunFolder folder = RunFolder::open(runFolderOf(runs).toStdString());
        WeightsFile w = loadWeights(folder.checkpoint());
        nlohmann::ordered_json r = parseJson(w.resume);
        QVERIFY(r["callbacks"].contains("batch_curve"));
        r["callbacks"].erase("batch_curve");
        w.resume = jsonText(r);
        saveWeights(folder.checkpoint(), w);
        {
            auto resumed = TrainingSession::resume(folder, m_toy);
            QVERIFY(resumed->info().batches.empty());
            QVERIFY(resumed->curveNote().empty());
            std::atomic<bool> stop{false};
            StopAt at(3, 2, &stop);
            QCOMPARE(resumed->run(&at, &stop), TrainStatus::Cancelled);
        }
        const Checkpoint later = readCheckpoint(folder.checkpoint());
        const nlohmann::ordered_json& points = later.callbacks.at("batch_curve").at("points");
        QCOMPARE(int(points.size()), 5 + 2); // epoch 2's steps 4 to 8, epoch 3's 1 and 2
        QCOMPARE(points[0][0].get<int>(), 2);
        QCOMPARE(points[0][1].get<int>(), 4);
        auto resumed = TrainingSession::resume(folder, m_toy);
        QCOMPARE(int(resumed->info().batches.size()), 7);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        QCOMPARE(resumed->weightsSha256(), expected);
    }

    // A per-batch curve that cannot be read does not stop the resume: the run goes on to the same weights,
    // its curve starts at the resumed step, and curveNote says why (the CLI and the window print it).
    void damagedCurveIsANote_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("why");
        QTest::newRow("a step out of range") << "step"
                                             << "point 2's step is 0, not from 1 to 8";
        QTest::newRow("a newer version") << "version"
                                         << "it is of version 2, which this Trainbench does not read";
        QTest::newRow("points not an array") << "points"
                                             << "its \"points\" is a string, not an array";
        QTest::newRow("its last point missing") << "last"
                                                << "it ends at epoch 2, step 2, not where the checkpoint stands";
        QTest::newRow("a loss that is not a number") << "loss"
                                                     << "point 1's loss is null, not a finite number";
        QTest::newRow("not thinned evenly") << "batches"
                                            << "point 1 covers 1 batches, where every point but the last "
                                               "covers 2";
    }
    void damagedCurveIsANote()
    {
        QFETCH(QString, damage);
        QFETCH(QString, why);
        const TrainConfig c = config(1);
        const std::string expected = uninterrupted(c);
        const QString runs = m_tmp.path() + "/damaged-curve-" + damage;
        QCOMPARE(runUntil(c, runs, 2, 3), TrainStatus::Cancelled);
        const RunFolder folder = RunFolder::open(runFolderOf(runs).toStdString());
        WeightsFile w = loadWeights(folder.checkpoint());
        nlohmann::ordered_json r = parseJson(w.resume);
        nlohmann::ordered_json& curve = r["callbacks"]["batch_curve"];
        QCOMPARE(int(curve["points"].size()), 8 + 3);
        if (damage == "step")
            curve["points"][1][1] = 0;
        else if (damage == "version")
            curve["version"] = 2;
        else if (damage == "points")
            curve["points"] = "lost";
        else if (damage == "last")
            curve["points"].erase(curve["points"].size() - 1);
        else if (damage == "loss")
            curve["points"][0][3] = nullptr;
        else if (damage == "batches")
            curve["batches_per_point"] = 2;
        w.resume = jsonText(r);
        saveWeights(folder.checkpoint(), w);
        auto resumed = TrainingSession::resume(folder, m_toy);
        QVERIFY(resumed->info().batches.empty());
        QCOMPARE(QString::fromStdString(resumed->curveNote()), QString::fromStdString(folder.checkpoint()) +
                                                                   ": its per-batch curve cannot be read (" + why +
                                                                   "): the curve starts at the resumed step");
        Batches after;
        QCOMPARE(resumed->run(&after), TrainStatus::Completed);
        QCOMPARE(after.seen.front().epoch, 2);
        QCOMPARE(after.seen.front().step, 4);
        QCOMPARE(resumed->weightsSha256(), expected);
    }

    // A long run's curve is thinned: at most kMaxPoints points, each the mean of as many batches (a power
    // of two), the last one filling. Written and read back at any batch, it goes on as the curve never
    // written does.
    void longCurvesAreThinned()
    {
        constexpr int kSteps = 1000, kEpochs = 100;
        const int total = 3 * BatchCurve::kMaxPoints + 5;
        auto batch = [&](int i) { // the i-th batch (0-based) of the run
            BatchProgress p;
            p.epochs = kEpochs;
            p.steps = kSteps;
            p.epoch = i / kSteps + 1;
            p.step = i % kSteps + 1;
            p.batchLoss = i;
            p.batchAccuracy = 1.0 / (i + 1);
            p.loss = 0.5 * i;
            p.learningRate = 0.01;
            return p;
        };
        BatchCurve whole, resumed;
        const int saveAt = 2 * BatchCurve::kMaxPoints + 3; // within a point of 4 batches
        for (int i = 0; i < total; ++i) {
            whole.add(batch(i));
            if (i < saveAt)
                resumed.add(batch(i));
            if (i == saveAt - 1) {
                RunPosition at;
                at.epoch = i / kSteps;
                at.step = i % kSteps + 1;
                resumed = BatchCurve::fromJson(parseJson(jsonText(resumed.toJson())), at, kEpochs, kSteps, "test");
            } else if (i >= saveAt) {
                resumed.add(batch(i));
            }
        }
        QCOMPARE(whole.batchesPerPoint(), int64_t(4));
        // 16,384 batches in 4,096 points of 4, then 8,197 in 2,050 (the last of one).
        QCOMPARE(int(whole.points().size()), 4096 + 2050);
        int64_t covered = 0;
        for (size_t k = 0; k < whole.points().size(); ++k) {
            const BatchPoint& b = whole.points()[k];
            covered += b.batches;
            QCOMPARE(b.batches, k + 1 < whole.points().size() ? int64_t(4) : int64_t(1));
            const int last = int(covered) - 1;
            QCOMPARE(b.progress.epoch, batch(last).epoch);
            QCOMPARE(b.progress.step, batch(last).step);
            QCOMPARE(b.progress.loss, batch(last).loss); // the last batch's running figures
            if (b.batches == 4)                          // the mean of the batches' own: (4k + 4k+1 + 4k+2 + 4k+3) / 4
                QCOMPARE(b.progress.batchLoss, double(last) - 1.5);
        }
        QCOMPARE(covered, int64_t(total));
        QCOMPARE(jsonText(resumed.toJson()), jsonText(whole.toJson()));
        // A curve full at the most batches a point holds (2^52: a checkpoint made so, not a run) cannot
        // be halved again: the last point takes the next batch, and the curve stays within kMaxPoints.
        nlohmann::ordered_json crafted = {{"version", 1}, {"batches_per_point", int64_t(1) << 52}};
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (int k = 0; k < BatchCurve::kMaxPoints; ++k)
            points.push_back({k / kSteps + 1, k % kSteps + 1, int64_t(1) << 52, 1, 0.5, 1, 0.5, 0.01, 1, 100});
        crafted["points"] = points;
        RunPosition at;
        at.epoch = (BatchCurve::kMaxPoints - 1) / kSteps;
        at.step = (BatchCurve::kMaxPoints - 1) % kSteps + 1;
        BatchCurve full = BatchCurve::fromJson(crafted, at, kEpochs, kSteps, "crafted");
        full.add(batch(BatchCurve::kMaxPoints));
        QCOMPARE(int(full.points().size()), BatchCurve::kMaxPoints);
    }

    void schedulesFollowKeras()
    {
        const PlateauState none;
        LrSchedule step = parseLrSchedule("step:2:0.5");
        QCOMPARE(scheduledRate(step, 0.1, 0, 0, 100, none), 0.1);
        QCOMPARE(scheduledRate(step, 0.1, 50, 1, 100, none), 0.1);
        QCOMPARE(scheduledRate(step, 0.1, 50, 2, 100, none), 0.05);
        QCOMPARE(scheduledRate(step, 0.1, 90, 5, 100, none), 0.025);
        LrSchedule exp = parseLrSchedule("exp:0.5:10"); // ExponentialDecay(0.1, 10, 0.5)
        QVERIFY(std::fabs(scheduledRate(exp, 0.1, 10, 0, 100, none) - 0.05) < 1e-15);
        QVERIFY(std::fabs(scheduledRate(exp, 0.1, 5, 0, 100, none) - 0.1 * std::sqrt(0.5)) < 1e-15);
        LrSchedule cos = parseLrSchedule("cosine:10:0.1");
        QVERIFY(std::fabs(scheduledRate(cos, 1.0, 0, 0, 110, none) - 0.1) < 1e-12); // warm-up from 0
        QVERIFY(std::fabs(scheduledRate(cos, 1.0, 9, 0, 110, none) - 1.0) < 1e-12);
        QVERIFY(std::fabs(scheduledRate(cos, 1.0, 60, 0, 110, none) - 0.55) < 1e-12); // half-way: (1+0.1)/2
        QVERIFY(std::fabs(scheduledRate(cos, 1.0, 110, 0, 110, none) - 0.1) < 1e-12);
        // ReduceLROnPlateau(factor=0.5, patience=2): two epochs without improvement lower the rate.
        LrSchedule plateau = parseLrSchedule("plateau:0.5:2");
        PlateauState p;
        p.rate = 0.01;
        QVERIFY(!updatePlateau(plateau, p, 1.0));
        QVERIFY(!updatePlateau(plateau, p, 0.9));
        QVERIFY(!updatePlateau(plateau, p, 0.95));
        QVERIFY(updatePlateau(plateau, p, 0.91));
        QCOMPARE(p.rate, 0.005);
        QVERIFY(!updatePlateau(plateau, p, 0.8999)); // less than min_delta (1e-4) better: no improvement
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseLrSchedule("step:0:0.5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseLrSchedule("exp:1.5:10"));
        try {
            parseLrSchedule("warp:2");
            QFAIL("an unknown schedule was accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).startsWith("the learning-rate schedule \"warp\" is not one Trainbench knows; "
                                                  "use constant, step:EVERY:FACTOR"),
                     e.what());
        }
    }

    void earlyStoppingFollowsKeras()
    {
        EarlyStopping es;
        es.enabled = true;
        es.monitor = Monitor::ValLoss;
        es.patience = 2;
        es.minDelta = 0.01;
        EarlyStoppingState s;
        QVERIFY(updateEarlyStopping(es, s, 1, 1.0));
        QVERIFY(updateEarlyStopping(es, s, 2, 0.8));
        QVERIFY(!updateEarlyStopping(es, s, 3, 0.795)); // better by less than min_delta
        QCOMPARE(s.stoppedEpoch, 0);
        QVERIFY(!updateEarlyStopping(es, s, 4, 0.9));
        QCOMPARE(s.stoppedEpoch, 4);
        QCOMPARE(s.bestEpoch, 2);
        es.monitor = Monitor::ValAccuracy;
        es.patience = 0;
        EarlyStoppingState a;
        QVERIFY(updateEarlyStopping(es, a, 1, 0.5));
        QVERIFY(!updateEarlyStopping(es, a, 2, 0.5));
        QCOMPARE(a.stoppedEpoch, 2);
    }

    // A run that early stopping ends keeps the best epoch's weights, and resumes to the same end.
    void earlyStoppingRestoresTheBestWeights()
    {
        TrainConfig c = config(2);
        c.epochs = 12;
        c.optimizer.learningRate = 0.05f; // noisy enough for val_loss to get worse
        c.earlyStopping.enabled = true;
        c.earlyStopping.patience = 1;
        c.earlyStopping.restoreBestWeights = true;
        TrainingSession s(m_model, m_toy, c);
        s.run();
        const RunPosition& end = s.position();
        QVERIFY2(end.stoppedEpoch > 0, "the run did not stop early; the test needs a noisier run");
        const auto& h = s.history();
        QCOMPARE(int(h.size()), end.stoppedEpoch);
        QVERIFY(h.back().stopped);
        int bestEpoch = 0;
        for (const EpochRecord& e : h)
            if (e.best)
                bestEpoch = e.epoch;
        QVERIFY(bestEpoch > 0 && bestEpoch < end.stoppedEpoch);
        const EvalResult now = s.evaluateTest();
        QCOMPARE(now.loss, h[size_t(bestEpoch - 1)].valLoss); // the weights of the best epoch
    }

    // When the best epoch is the last, the final weights are the best: nothing is restored and nothing
    // claims it was (the CLI's "Restoring model weights" line is for a run that ended on a worse epoch).
    void bestLastEpochIsNotRestored()
    {
        TrainConfig c = config(1);
        c.epochs = 1; // the only epoch is the best
        c.earlyStopping.enabled = true;
        c.earlyStopping.restoreBestWeights = true;
        TrainingSession s(m_model, m_toy, c);
        QCOMPARE(s.run(), TrainStatus::Completed);
        const RunResult r = s.finish(TrainStatus::Completed, FinishOptions{});
        QCOMPARE(r.bestEpoch, 1);
        QVERIFY(!r.restoredBest);

        const QStringList common = {"train",
                                    "--data",
                                    QString::fromStdString(m_dataDir),
                                    "--model",
                                    QString::fromStdString(m_modelPath),
                                    "--batch",
                                    "25",
                                    "--seed",
                                    "7",
                                    "--no-run-folder",
                                    "--early-stopping",
                                    "val_loss",
                                    "--restore-best-weights"};
        Cli last = cli(common + QStringList{"--epochs", "1"});
        QVERIFY2(last.code == 0, qPrintable(last.err));
        QVERIFY2(!last.out.contains("Restoring"), qPrintable(last.out));
        // No epoch after the first improves by 1e9: stopped at 2, the first epoch's weights put back.
        Cli stopped = cli(common + QStringList{"--epochs", "4", "--patience", "1", "--min-delta", "1e9"});
        QVERIFY2(stopped.code == 0, qPrintable(stopped.err));
        QVERIFY2(stopped.out.contains("Restoring model weights from the end of the best epoch: 1."),
                 qPrintable(stopped.out));
    }

    void validationSplitHoldsOutTheLastImages()
    {
        DatasetOptions o;
        o.validationSplit = 0.2;
        const Dataset d = withOptions(m_toy, o);
        QCOMPARE(d.train.count, 60);
        QCOMPARE(d.validation.count, 15);
        QCOMPARE(d.validation.labels.front(), m_toy.train.labels[60]);
        QCOMPARE(std::memcmp(d.validation.image(14), m_toy.train.image(74), size_t(m_toy.train.imageBytes())), 0);
        TrainConfig c = config(1);
        c.epochs = 1;
        c.validationSplit = 0.2;
        TrainingSession s(m_model, m_toy, c);
        s.run();
        QCOMPARE(&s.validationSplit(), &s.data().validation);
        QCOMPARE(s.history()[0].samples, int64_t(60));
        o.validationSplit = 0.999;
        QVERIFY_THROWS_EXCEPTION(DataError, withOptions(m_toy, o));
    }

    void damagedOrForeignCheckpointsAreRefused()
    {
        const QString runs = m_tmp.path() + "/bad";
        {
            TrainConfig c = config(1);
            c.epochs = 1;
            TrainingSession s(m_model, m_toy, c);
            s.enableCheckpoints(RunFolder::create(runs.toStdString(), "toy"));
            s.run();
        }
        const QString folder = runFolderOf(runs);
        const std::string path = (folder + "/checkpoint.tbw").toStdString();
        // Another dataset (same sizes, other labels).
        const std::string otherDir = m_tmp.path().toStdString() + "/other";
        QDir().mkpath(QString::fromStdString(otherDir));
        fixtures::writeToyDataset(otherDir, 75, 30, 12, 3, false, 99);
        try {
            TrainingSession::resume(RunFolder::open(folder.toStdString()), loadDataset(otherDir));
            QFAIL("resumed on another dataset");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("the labels differ"), e.what());
        }
        // Another dataset of the same counts, sizes and labels: one pixel of one training image differs.
        const std::string samePixelsDir = m_tmp.path().toStdString() + "/one-pixel";
        QDir().mkpath(QString::fromStdString(samePixelsDir));
        for (const char* part :
             {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
            std::filesystem::copy_file(m_dataDir + "/" + part, samePixelsDir + "/" + part);
        {
            std::fstream images(samePixelsDir + "/train-images-idx3-ubyte",
                                std::ios::in | std::ios::out | std::ios::binary);
            images.seekg(16 + 40);
            const char was = char(images.get());
            images.seekp(16 + 40);
            images.put(char(was ^ 0x10));
        }
        const Dataset onePixel = loadDataset(samePixelsDir);
        QCOMPARE(onePixel.train.labels, m_toy.train.labels);
        QVERIFY(onePixel.pixelsHash != m_toy.pixelsHash);
        try {
            TrainingSession::resume(RunFolder::open(folder.toStdString()), onePixel);
            QFAIL("resumed on a dataset of other images");
        } catch (const DataError& e) {
            QVERIFY2(
                QString(e.what()).contains(": the images differ, although the counts, sizes and labels are the same"),
                e.what());
        }
        // A checkpoint written before the images' hash (no "pixels_hash") is still resumed, saying what
        // could not be checked.
        {
            WeightsFile w = loadWeights(path);
            nlohmann::ordered_json r = parseJson(w.resume);
            QVERIFY(r["dataset"].contains("pixels_hash"));
            r["dataset"].erase("pixels_hash");
            w.resume = jsonText(r);
            saveWeights(path, w);
            QCOMPARE(readCheckpoint(path).data.pixelsHash, std::string());
            auto old = TrainingSession::resume(RunFolder::open(folder.toStdString()), onePixel);
            QVERIFY2(old->datasetNote().find("only the counts, sizes and labels of " + samePixelsDir +
                                             " were checked, not the images themselves") != std::string::npos,
                     old->datasetNote().c_str());
        }
        // A plain weights file is not a checkpoint.
        const std::string plain = m_tmp.path().toStdString() + "/plain.tbw";
        saveWeights(plain, loadWeights(path));
        {
            WeightsFile w = loadWeights(path);
            w.resume.clear();
            saveWeights(plain, w);
        }
        try {
            readCheckpoint(plain);
            QFAIL("read a weights file as a checkpoint");
        } catch (const IoError& e) {
            QVERIFY2(QString(e.what()).contains("not a checkpoint"), e.what());
        }
        // Truncated: the previous checkpoint is what a crash mid-write leaves, never this.
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(f.size() / 2));
        f.close();
        try {
            TrainingSession::resume(RunFolder::open(folder.toStdString()), m_toy);
            QFAIL("resumed from a truncated checkpoint");
        } catch (const IoError& e) {
            QVERIFY2(QString(e.what()).contains("corrupt or truncated"), e.what());
        }
        // Not a run folder: none there, or a file (its checkpoint, a weights file) where the folder goes.
        QVERIFY_THROWS_EXCEPTION(IoError, RunFolder::open(m_tmp.path().toStdString() + "/nowhere"));
        const Cli file = cli({"train", "--resume", QString::fromStdString(plain)});
        QCOMPARE(file.code, 5);
        QVERIFY2(file.err.contains(QString::fromStdString(plain) + " is a file, not a run folder: a run goes on from "
                                                                   "the folder it wrote"),
                 qPrintable(file.err));
        QVERIFY2(!file.err.contains("no such folder"), qPrintable(file.err));
    }

    void unwritableRunsFolderIsAClearError()
    {
        const std::string file = m_tmp.path().toStdString() + "/a-file";
        fixtures::writeRaw(file, "x");
        try {
            RunFolder::create(file + "/runs", "toy");
            QFAIL("made a run folder under a file");
        } catch (const IoError& e) {
            QVERIFY2(QString(e.what()).contains("cannot create the runs folder"), e.what());
        }
    }
};

QTEST_MAIN(TstResume)
#include "tst_resume.moc"
