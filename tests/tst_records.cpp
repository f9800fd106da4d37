// Files written by release 0.2.0 (tests/data/release-0.2.0: run folders, checkpoints, weights files)
// still read through the public readers: the run history, a checkpoint, a weights file, a stored test
// evaluation, and a stopped run's checkpoint resumed to the same weights as a run never stopped. And
// the typed records (config/records.hpp) that every file and JSON line now writes: round trips, the
// old spellings still read, damaged members named.
#include "fixtures.hpp"
#include "train_config_compare.hpp"

#include "config/records.hpp"
#include "core/atomic_file.hpp"
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "kernels/isa.hpp"
#include "model/model_spec.hpp"
#include "train/checkpoint.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"
#include "train/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace tb;

namespace {
// Copies the files of a fixture folder into `to` (resuming writes into its run folder).
bool copyFolder(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to))
        return false;
    for (const QString& f : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + "/" + f, to + "/" + f))
            return false;
    return true;
}

bool hasRow(const std::vector<std::pair<std::string, std::string>>& rows, const std::string& label,
            const std::string& value)
{
    return std::find(rows.begin(), rows.end(), std::pair{label, value}) != rows.end();
}
} // namespace

class TstRecords : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::string m_dataDir, m_completed, m_stopped;
    ModelSpec m_tiny;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const QString fixtures = QStringLiteral(TRAINBENCH_RELEASE_FIXTURES);
        m_dataDir = m_tmp.path().toStdString() + "/toy";
        QDir().mkpath(QString::fromStdString(m_dataDir));
        fixtures::writeToyDataset(m_dataDir, 75, 30, 12, 3); // the bytes the fixtures were made on
        m_completed = m_tmp.path().toStdString() + "/runs/completed";
        m_stopped = m_tmp.path().toStdString() + "/runs/stopped";
        QVERIFY(copyFolder(fixtures + "/completed-run", QString::fromStdString(m_completed)));
        QVERIFY(copyFolder(fixtures + "/stopped-run", QString::fromStdString(m_stopped)));
        m_tiny = parseModelSpec(readWholeFile((fixtures + "/tiny.json").toStdString()), "tiny.json");
    }

    // run.json of a completed 0.2.0 run (version 2) in the run history.
    void completedRunRecord()
    {
        const RunSummary r = readRun(m_completed);
        QVERIFY2(!r.damaged, r.damage.c_str());
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.model, std::string("tiny"));
        QCOMPARE(r.device, std::string("cpu:1@avx2"));
        QCOMPARE(r.started, std::string("2026-11-25T02:46:28Z"));
        QCOMPARE(r.epochs, 8);
        QCOMPARE(int(r.history.size()), 3); // early stopping ended it after epoch 3
        QCOMPARE(r.history[0].epoch, 1);
        QCOMPARE(r.history[0].loss, 0.37039342386069296);
        QCOMPARE(r.history[0].valAccuracy, 0.6666666666666666);
        QCOMPARE(r.history[2].valLoss, 0.8250536648355872);
        QCOMPARE(r.history[2].learningRate, 0.02500000037252903); // halved by the plateau schedule
        QVERIFY(r.test);
        QCOMPARE(r.test->loss, 0.5421734019986687);
        QCOMPARE(r.test->accuracy, 0.6666666666666666);
        QCOMPARE(r.test->samples, 30);
        QCOMPARE(r.test->misclassified, 10);
        QVERIFY(!r.test->atStop);
        QCOMPARE(r.finalAccuracy(), 0.6666666666666666);
        QCOMPARE(r.weightsSha256, std::string("cfab4f2f3bc075d68afb8fd9068c17783a9c7746ac21d86c9957e11125cc9188"));
        QCOMPARE(r.weightsFileSha256, std::string("f45e6763f9530e67408069d554401f55fe738368088fea79ee77cae7a6cc8b78"));
        QCOMPARE(r.files.size(), size_t(5));
        const auto rows = r.configurationRows();
        QVERIFY(hasRow(rows, "Optimizer", "adam"));
        QVERIFY(hasRow(rows, "Learning rate", "0.05"));
        QVERIFY(hasRow(rows, "Batch size", "8"));
        QVERIFY(hasRow(rows, "Seed", "11"));
        QVERIFY(hasRow(rows, "Schedule", "reduce on plateau of val_loss: x0.5 after 1 epochs, minimum 0"));
        QVERIFY(hasRow(rows, "Early stopping", "val_loss, patience 2, min_delta 0, restoring the best weights"));
        QVERIFY(hasRow(rows, "Validation", "test set"));
        QVERIFY(hasRow(rows, "Dataset images", "75 train, 30 test, 12x12, 3 classes"));
        QVERIFY(hasRow(r.hardwareRows(), "Kernel ISA", "avx2"));

        std::string why;
        const std::optional<TestRecord> test = readTestRecord(r, why);
        QVERIFY2(test, why.c_str());
        QCOMPARE(test->samples, 30);
        QCOMPARE(test->misclassifiedCount, 10);
        QCOMPARE(test->classes(), 3);
        QCOMPARE(test->accuracy, 0.6666666666666666);
    }

    // run.json of a run stopped mid-epoch, with the test result at the stop.
    void stoppedRunRecord()
    {
        const RunSummary r = readRun(m_stopped);
        QVERIFY2(!r.damaged, r.damage.c_str());
        QCOMPARE(r.status, RunStatus::Stopped);
        QCOMPARE(r.epochs, 4);
        QCOMPARE(int(r.history.size()), 1);
        QCOMPARE(r.history[0].loss, 0.6453139733339519);
        QCOMPARE(r.partialEpoch, 2);
        QCOMPARE(r.partialStep, 5);
        QCOMPARE(r.stepsPerEpoch, 8);
        QVERIFY(r.test);
        QCOMPARE(r.test->accuracy, 1.0);
        QVERIFY(r.test->atStop);
        QCOMPARE(r.weightsSha256, std::string("467a4bab994dfae45113d5300795210c840a18c95c57f1c5871bfcc2db2a137f"));
        const auto rows = r.configurationRows();
        QVERIFY(hasRow(rows, "Optimizer", "sgd"));
        QVERIFY(hasRow(rows, "Momentum", "0.9"));
        QVERIFY(hasRow(rows, "Nesterov", "yes"));
        QVERIFY(hasRow(rows, "Schedule", "step decay x0.5 every 1 epochs"));
        QVERIFY(hasRow(rows, "Early stopping", "off"));
        QVERIFY(std::none_of(rows.begin(), rows.end(), [](const auto& row) { return row.first == "Earlier devices"; }));
    }

    // A run resumed elsewhere lists the devices it left, and where: `runs show` and the report's rows.
    void earlierDevicesRow()
    {
        const std::string folder = m_tmp.path().toStdString() + "/runs/moved";
        QVERIFY(copyFolder(QString::fromStdString(m_stopped), QString::fromStdString(folder)));
        nlohmann::ordered_json r = parseJson(readWholeFile(folder + "/run.json"));
        r["earlier_devices"] =
            nlohmann::ordered_json::array({{{"device", "cpu:1@avx2+bf16"}, {"epochs", 1}, {"steps", 3}},
                                           {{"device", "cpu:2@avx2"}, {"epochs", 2}, {"steps", 0}}});
        writeFileAtomically(folder + "/run.json", jsonText(r) + "\n");
        const RunSummary moved = readRun(folder);
        QVERIFY2(!moved.damaged, moved.damage.c_str());
        QVERIFY(hasRow(moved.configurationRows(), "Earlier devices",
                       "cpu:1@avx2+bf16 (to epoch 2, step 3); cpu:2@avx2 (to the end of epoch 2)"));
    }

    // A 0.2.0 checkpoint (version 1): every setting, the position and the history with its flags.
    void completedCheckpoint()
    {
        const Checkpoint c = readCheckpoint(m_completed + "/checkpoint.tbw");
        const TrainConfig& t = c.config;
        QCOMPARE(t.epochs, 8);
        QCOMPARE(t.batchSize, 8);
        QCOMPARE(t.seed, uint64_t(11));
        QCOMPARE(t.device.id(), std::string("cpu:1@avx2"));
        QCOMPARE(int(t.optimizer.kind), int(OptimizerKind::Adam));
        QCOMPARE(t.optimizer.learningRate, 0.05f);
        QCOMPARE(int(t.schedule.kind), int(ScheduleKind::Plateau));
        QCOMPARE(t.schedule.factor, 0.5);
        QCOMPARE(t.schedule.patience, 1);
        QVERIFY(t.earlyStopping.enabled);
        QCOMPARE(int(t.earlyStopping.monitor), int(Monitor::ValLoss));
        QCOMPARE(t.earlyStopping.patience, 2);
        QVERIFY(t.earlyStopping.restoreBestWeights);
        QCOMPARE(t.validationSplit, 0.0);
        QCOMPARE(t.shardSize, 16);
        QCOMPARE(c.position.epoch, 3);
        QCOMPARE(c.position.step, 0);
        QCOMPARE(c.data.trainCount, 75);
        QCOMPARE(c.data.testCount, 30);
        QCOMPARE(c.data.classes, 3);
        const std::vector<EpochRecord>& h = c.weights.history;
        QCOMPARE(int(h.size()), 3);
        QVERIFY(h[0].best && !h[0].stopped && !h[0].rateLowered);
        QVERIFY(!h[1].best && !h[1].stopped && h[1].rateLowered);
        QVERIFY(!h[2].best && h[2].stopped && h[2].rateLowered);
        QCOMPARE(h[2].samples, int64_t(75));
        // The checkpoint is of the run's own data.
        requireSameDataset(c.data, loadDataset(m_dataDir), m_completed + "/checkpoint.tbw");
    }

    // The final weights of a 0.2.0 run: the model, the classes, the settings, the history, and the
    // parameters whose hash the run recorded.
    void weightsFile()
    {
        const WeightsFile w = loadWeights(m_completed + "/weights.tbw");
        QCOMPARE(w.spec.name, std::string("tiny"));
        QCOMPARE(w.input.h, 12);
        QCOMPARE(w.input.w, 12);
        QCOMPARE(int(w.classNames.size()), 3);
        QVERIFY(w.resume.empty());
        QCOMPARE(w.train.epochs, 8);
        QCOMPARE(w.train.batchSize, 8);
        QCOMPARE(w.train.seed, uint64_t(11));
        QCOMPARE(w.train.device.threads, 1);
        QCOMPARE(int(w.optimizer.kind), int(OptimizerKind::Adam));
        QCOMPARE(w.optimizer.learningRate, 0.025f); // the optimizer's rate at the end: halved once
        QCOMPARE(int(w.history.size()), 3);
        QVERIFY(w.history[0].best);
        QVERIFY(w.history[2].stopped);
        QCOMPARE(w.history[1].valLoss, 0.551755119607482);
        const Network net = w.buildNetwork();
        QCOMPARE(net.paramCount() + net.stateCount(), int64_t(1191));
        QCOMPARE(net.weightsSha256(), std::string("cfab4f2f3bc075d68afb8fd9068c17783a9c7746ac21d86c9957e11125cc9188"));
        // best.tbw holds the same (restored) best epoch's weights.
        QCOMPARE(loadWeights(m_completed + "/best.tbw").buildNetwork().weightsSha256(), net.weightsSha256());
    }

    // The stopped run's checkpoint: its settings, and resumed it ends with the weights of the same run
    // never stopped (the first part trained by 0.2.0, the rest by this version).
    void stoppedCheckpointResumes()
    {
        const Checkpoint c = readCheckpoint(m_stopped + "/checkpoint.tbw");
        TrainConfig expected;
        expected.epochs = 4;
        expected.batchSize = 8;
        expected.seed = 7;
        expected.optimizer.kind = OptimizerKind::SGD;
        expected.optimizer.learningRate = 0.05f;
        expected.optimizer.momentum = 0.9f;
        expected.optimizer.nesterov = true;
        expected.validationSplit = 0.2;
        expected.schedule = parseLrSchedule("step:1:0.5");
        QCOMPARE(c.config.epochs, expected.epochs);
        QCOMPARE(c.config.batchSize, expected.batchSize);
        QCOMPARE(c.config.seed, expected.seed);
        QCOMPARE(int(c.config.optimizer.kind), int(OptimizerKind::SGD));
        QCOMPARE(c.config.optimizer.momentum, 0.9f);
        QVERIFY(c.config.optimizer.nesterov);
        QCOMPARE(c.config.validationSplit, 0.2);
        QCOMPARE(int(c.config.schedule.kind), int(ScheduleKind::StepDecay));
        QCOMPARE(c.config.schedule.everyEpochs, 1);
        QVERIFY(!c.config.earlyStopping.enabled);
        QCOMPARE(c.position.epoch, 1);
        QCOMPARE(c.position.step, 5);
        QCOMPARE(c.position.seen, int64_t(40));
        QCOMPARE(int(c.weights.history.size()), 1);

        // The first part ran on AVX2 kernels; the rest must too for the same bits.
        if (!isaSupported(Isa::Avx2))
            QSKIP("the fixture was trained with the avx2 kernels, which this CPU lacks");
        expected.device = parseDeviceSpec("cpu:1@avx2");
        const Dataset toy = loadDataset(m_dataDir);
        std::vector<float> uninterrupted;
        {
            TrainingSession s(m_tiny, toy, expected);
            QCOMPARE(s.run(), TrainStatus::Completed);
            uninterrupted = s.weightsFile().params;
        }
        auto resumed = TrainingSession::resume(RunFolder::open(m_stopped), toy, expected.device);
        QCOMPARE(resumed->position().epoch, 1);
        QCOMPARE(resumed->position().step, 5);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        resumed->finish(TrainStatus::Completed, {}); // the test evaluation, the weights: the end recorded
        // 0.2.0 computed the loss's softmax with libm's double exp, this version with its own float
        // one: the first part's weights differ in their last bits, so the two runs end within that
        // rounding, not to the bit. A lost optimizer state, learning rate or shuffle position would
        // move them by orders of magnitude more (tst_resume checks this version's resume to the bit).
        const std::vector<float> weights = resumed->weightsFile().params;
        QCOMPARE(weights.size(), uninterrupted.size());
        float largest = 0.0f, moved = 0.0f;
        for (size_t i = 0; i < weights.size(); ++i) {
            largest = std::max(largest, std::abs(weights[i] - uninterrupted[i]));
            moved = std::max(moved, std::abs(weights[i] - c.weights.params[i]));
        }
        qInfo("largest difference from the run never stopped: %g; from the checkpoint: %g", double(largest),
              double(moved));
        QVERIFY2(largest <= 1e-5f, "the resumed run does not continue the 0.2.0 checkpoint's training");
        QVERIFY2(moved > 1e-3f, "the resumed run did not train");
        QCOMPARE(int(resumed->history().size()), 4);
        QCOMPARE(resumed->history()[0].loss, 0.6453139733339519); // epoch 1 as 0.2.0 recorded it

        // The record the resumed run rewrote keeps its first start and reads as completed.
        const RunSummary r = readRun(m_stopped);
        QVERIFY2(!r.damaged, r.damage.c_str());
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.started, std::string("2026-11-25T02:46:34Z"));
        QCOMPARE(int(r.history.size()), 4);
    }

    // A configuration with every setting away from its default comes back the same.
    void configRoundTrip()
    {
        const TrainSettings s = fixtures::parseTrainArguments({"--epochs",
                                                               "7",
                                                               "--batch",
                                                               "33",
                                                               "--seed",
                                                               "18446744073709551615",
                                                               "--optimizer",
                                                               "sgd",
                                                               "--lr",
                                                               "0.02",
                                                               "--momentum",
                                                               "0.8",
                                                               "--nesterov",
                                                               "--size-multiplier",
                                                               "2",
                                                               "--max-batches",
                                                               "9",
                                                               "--drop-remainder",
                                                               "--shard",
                                                               "8",
                                                               "--validation-split",
                                                               "0.25",
                                                               "--lr-schedule",
                                                               "cosine:5:0.1",
                                                               "--early-stopping",
                                                               "val_accuracy",
                                                               "--patience",
                                                               "3",
                                                               "--min-delta",
                                                               "0.01",
                                                               "--restore-best-weights",
                                                               "--device",
                                                               "cpu:3@baseline"});
        const nlohmann::ordered_json j = s.config;
        QCOMPARE(j["seed"].get<std::string>(), std::string("18446744073709551615"));
        QCOMPARE(j["schedule"]["kind"].get<std::string>(), std::string("cosine"));
        QCOMPARE(j["device"].get<std::string>(), std::string("cpu:3@baseline"));
        const TrainConfig back = parseJson(jsonText(j)).get<TrainConfig>();
        fixtures::compareTrainConfigs(back, s.config);
        QCOMPARE(back.device.id(), s.config.device.id());
        QCOMPARE(back.seed, s.config.seed);
        // The float settings as they were given (run.json said 0.019999999552965164 for --lr 0.02).
        const std::string text = jsonText(j);
        for (const char* given :
             {"\"learning_rate\":0.02,", "\"momentum\":0.8,", "\"beta_2\":0.999,", "\"epsilon\":1e-07,"})
            QVERIFY2(text.find(given) != std::string::npos, text.c_str());
    }

    // jsonFloat: a float's shortest decimal, which reads back as the same float.
    void floatsWriteTheirShortestDecimal()
    {
        QCOMPARE(jsonText(nlohmann::ordered_json(jsonFloat(0.001f))), std::string("0.001"));
        QCOMPARE(jsonText(nlohmann::ordered_json(jsonFloat(3e-38f))), std::string("3e-38"));
        QCOMPARE(jsonText(nlohmann::ordered_json(jsonFloat(16777216.0f))), std::string("16777216.0"));
        // 0x15ae43fd, 7.038531e-26: its shortest decimal read as a double, then as a float, rounds up
        // to the next float (one of two such floats, found by trying all 2^32).
        uint32_t bits = 0x15ae43fd;
        for (int i = 0; i < 100000; ++i) {
            if (i > 1)
                bits = bits * 1664525u + 1013904223u;
            else if (i == 1)
                bits = 0x95ae43fd;
            float f;
            std::memcpy(&f, &bits, sizeof f);
            if (!std::isfinite(f))
                continue;
            const float back = parseJson(jsonText(nlohmann::ordered_json(jsonFloat(f)))).get<float>();
            QVERIFY2(std::memcmp(&back, &f, sizeof f) == 0, qPrintable(QString::number(double(f), 'g', 9)));
        }
    }

    // An epoch record: its one spelling, and the CLI's --json spellings of 0.2.0 read as the same marks.
    void epochRecordSpellings()
    {
        EpochRecord r;
        r.epoch = 4;
        r.loss = 0.25;
        r.samples = 60;
        r.stopped = true;
        r.rateLowered = true;
        const nlohmann::ordered_json j = r;
        QCOMPARE(jsonText(j), std::string(R"({"epoch":4,"loss":0.25,"accuracy":0.0,"val_loss":0.0,"val_accuracy":0.0,)"
                                          R"("seconds":0.0,"samples_per_sec":0.0,"samples":60,"learning_rate":0.0,)"
                                          R"("best":false,"stopped":true,"rate_lowered":true})"));
        const EpochRecord old = parseJson(R"({"event":"epoch","epoch":2,"loss":null,"accuracy":0.5,)"
                                          R"("early_stopping":true,"learning_rate_lowered":true,"best":false})")
                                    .get<EpochRecord>();
        QCOMPARE(old.epoch, 2);
        QVERIFY(std::isnan(old.loss)); // NaN is written as null
        QCOMPARE(old.accuracy, 0.5);
        QVERIFY(old.stopped && old.rateLowered && !old.best);
        try {
            parseJson(R"({"epoch":2,"stopped":"yes"})").get<EpochRecord>();
            QFAIL("a mark that is not true or false was read");
        } catch (const RecordError& e) {
            QCOMPARE(e.member(), std::string("stopped"));
            QCOMPARE(std::string(e.what()), std::string("\"stopped\" is a string, not true or false"));
        }
        try {
            parseJson(R"({"loss":1})").get<EpochRecord>();
            QFAIL("an epoch without its number was read");
        } catch (const RecordError& e) {
            QVERIFY(e.problem() == RecordError::Problem::Missing);
        }
    }

    // A test result, and the CLI's spellings of 0.2.0 (test_loss, test_accuracy, images).
    void testResultSpellings()
    {
        TestResult t;
        t.loss = 0.5;
        t.accuracy = 0.75;
        t.samples = 40;
        QCOMPARE(jsonText(nlohmann::ordered_json(t)), std::string(R"({"loss":0.5,"accuracy":0.75,"samples":40})"));
        t.misclassified = 10;
        t.atStop = true;
        QCOMPARE(jsonText(nlohmann::ordered_json(t)),
                 std::string(R"({"loss":0.5,"accuracy":0.75,"samples":40,"misclassified":10,"at_stop":true})"));
        const TestResult old =
            parseJson(R"({"test_loss":0.5,"test_accuracy":0.75,"misclassified":10,"images":40})").get<TestResult>();
        QCOMPARE(old.loss, 0.5);
        QCOMPARE(old.accuracy, 0.75);
        QCOMPARE(old.samples, 40);
        QCOMPARE(old.misclassified, 10);
        QVERIFY(!old.atStop);
    }

    // The run status: one word each way, and an unknown word refused.
    void runStatusWords()
    {
        for (RunStatus s : {RunStatus::Running, RunStatus::Completed, RunStatus::Stopped, RunStatus::Diverged,
                            RunStatus::Failed, RunStatus::Interrupted})
            QCOMPARE(parseRunStatus(runStatusName(s)), s);
        QCOMPARE(std::string(runStatusName(RunStatus::Interrupted)), std::string("interrupted"));
        QCOMPARE(std::string(runStatusName(RunStatus::Completed)), std::string("completed"));
        QVERIFY_THROWS_EXCEPTION(RecordError, parseRunStatus("finished"));
    }

    // A run of this version writes run.json (version 3), a checkpoint (version 2) and weights (version 2)
    // with the records; they read back as they were.
    void currentFilesReadBack()
    {
        const Dataset toy = loadDataset(m_dataDir);
        TrainConfig c;
        c.epochs = 2;
        c.batchSize = 16;
        c.seed = 5;
        c.schedule = parseLrSchedule("plateau:0.5:1");
        c.validationSplit = 0.2;
        const std::string runs = m_tmp.path().toStdString() + "/current";
        std::string folder;
        {
            TrainingSession s(m_tiny, toy, c);
            s.enableCheckpoints(RunFolder::create(runs, "tiny"));
            QCOMPARE(s.run(), TrainStatus::Completed);
            s.finish(TrainStatus::Completed);
            folder = s.runFolder()->path;
        }
        const nlohmann::ordered_json record = parseJson(readWholeFile(folder + "/run.json"));
        QCOMPARE(record["version"].get<int>(), 3);
        QCOMPARE(record["config"]["schedule"]["kind"].get<std::string>(), std::string("plateau"));
        QVERIFY(!record.contains("learning_rate") && !record.contains("batch_size")); // in "config" only
        const RunSummary r = readRun(folder);
        QVERIFY2(!r.damaged, r.damage.c_str());
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.epochs, 2);
        QVERIFY(r.config);
        QCOMPARE(r.config->batchSize, 16);
        QVERIFY(
            hasRow(r.configurationRows(), "Schedule", "reduce on plateau of val_loss: x0.5 after 1 epochs, minimum 0"));
        QVERIFY(hasRow(r.configurationRows(), "Batch size", "16"));
        QVERIFY(hasRow(r.configurationRows(), "Validation", "last 20% of train"));
        QVERIFY(!r.isText());
        // Precise BN is a setting the page shows (it is why the test accuracy differs from the last
        // validation); memory in GB, as `devices` and the window say it.
        RunSummary precise = r;
        precise.config->preciseBnBatches = 3;
        QVERIFY(hasRow(precise.configurationRows(), "Precise BN",
                       "BatchNorm statistics recomputed over 3 training batches after training"));
        bool gb = false;
        for (const auto& [label, value] : r.hardwareRows())
            gb = gb || (label == "Memory" && value.size() > 3 && value.substr(value.size() - 3) == " GB");
        QVERIFY(gb);
        QVERIFY(r.test);

        const Checkpoint cp = readCheckpoint(folder + "/checkpoint.tbw");
        QCOMPARE(parseJson(cp.weights.resume)["version"].get<int>(), 2);
        c.device = cp.config.device; // as the session resolved it
        fixtures::compareTrainConfigs(cp.config, c);

        const WeightsFile w = loadWeights(folder + "/weights.tbw");
        fixtures::compareTrainConfigs(w.train, cp.config); // the weights file keeps every setting now
        QCOMPARE(w.train.device.id(), cp.config.device.id());
        QCOMPARE(int(w.history.size()), 2);
        QCOMPARE(w.history[1].loss, r.history[1].loss);
        QCOMPARE(w.history[1].samples, r.history[1].samples);
    }
};

QTEST_GUILESS_MAIN(TstRecords)
#include "tst_records.moc"
