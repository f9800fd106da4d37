// Runs that are remembered (issue 18): the run record a finished run leaves, the runs folder read as
// a history with damaged runs listed beside the others, deleting runs, the HTML report of a real
// short run checked part by part, and `trainbench-cli runs` and `report`.
#include "cli_process.hpp"
#include "fixtures.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "data/dataset.hpp"
#include "io/png_writer.hpp"
#include "io/weights_file.hpp"
#include "model/model_spec.hpp"
#include "report/run_report.hpp"
#include "report/svg_chart.hpp"
#include "train/checkpoint.hpp"
#include "train/run_curve.hpp"
#include "train/run_history.hpp"
#include "train/run_lock.hpp"
#include "train/session.hpp"
#include "train/test_record.hpp"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>

using namespace tb;

class TstRuns : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    Dataset m_toy;
    ModelSpec m_model;
    std::string m_dataDir;
    std::string m_runPath; // a finished run of initTestCase's
    std::string m_paramsSha;

    using Cli = fixtures::CliResult;
    static Cli cli(const QStringList& args) { return fixtures::runCli(QStringLiteral(TRAINBENCH_CLI), args); }

    // Two epochs of batches of 10, seed 3.
    static TrainConfig toyConfig()
    {
        TrainConfig c;
        c.epochs = 2;
        c.batchSize = 10;
        c.seed = 3;
        return c;
    }

    // A finished run in `runsDir`: two epochs at a rate too low to learn much, so that the test set
    // has misclassified images to show.
    std::string finishedRun(const std::string& runsDir, std::string* paramsSha = nullptr)
    {
        TrainConfig c = toyConfig();
        c.optimizer.learningRate = 1e-5f;
        TrainingSession s(m_model, m_toy, c);
        s.enableCheckpoints(RunFolder::create(runsDir, "toy-cpu:1"));
        if (s.run() != TrainStatus::Completed)
            return {};
        s.recordEnd(s.evaluateTest(true));
        if (paramsSha)
            *paramsSha = s.weightsSha256();
        return s.runFolder()->path;
    }

    // The points of the series named `name` in a report's chart titled `title` (its polyline, in
    // pixels), and in `marks` how many marked points it has.
    static QList<QPointF> svgSeries(const QString& html, const QString& title, const QString& name,
                                    int* marks = nullptr)
    {
        const qsizetype chart = html.indexOf("aria-label=\"" + title + "\">");
        const QString svg = chart < 0 ? QString() : html.mid(chart, html.indexOf("</svg>", chart) - chart);
        const qsizetype group = svg.indexOf("<g class=\"series\" data-name=\"" + name + "\">");
        const QString g = group < 0 ? QString() : svg.mid(group, svg.indexOf("</g>", group) - group);
        if (marks)
            *marks = int(g.count("<circle"));
        QList<QPointF> points;
        const QString list = QRegularExpression("<polyline [^>]*points=\"([^\"]*)\"").match(g).captured(1);
        for (const QString& xy : list.split(' ', Qt::SkipEmptyParts))
            points << QPointF(xy.section(',', 0, 0).toDouble(), xy.section(',', 1, 1).toDouble());
        return points;
    }

    // Whether `pixels` are `values` drawn on a linear axis, within the SVG's rounding (a tenth of a pixel).
    static bool drawnLinearly(const std::vector<double>& values, const std::vector<double>& pixels)
    {
        if (values.size() != pixels.size() || values.size() < 2)
            return false;
        const double n = double(values.size());
        double mv = 0, mp = 0;
        for (size_t i = 0; i < values.size(); ++i) {
            mv += values[i] / n;
            mp += pixels[i] / n;
        }
        double cov = 0, var = 0;
        for (size_t i = 0; i < values.size(); ++i) {
            cov += (values[i] - mv) * (pixels[i] - mp);
            var += (values[i] - mv) * (values[i] - mv);
        }
        if (var <= 0)
            return false;
        const double slope = cov / var;
        for (size_t i = 0; i < values.size(); ++i)
            if (std::abs(mp + slope * (values[i] - mv) - pixels[i]) > 0.12)
                return false;
        return slope != 0;
    }

    static void write(const std::string& path, const std::string& bytes)
    {
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        fixtures::writeRaw(path, bytes);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_dataDir = m_tmp.path().toStdString() + "/toy";
        QDir().mkpath(QString::fromStdString(m_dataDir));
        fixtures::writeToyDataset(m_dataDir, 60, 30, 12, 3);
        m_toy = loadDataset(m_dataDir);
        m_model = parseModelSpec(fixtures::toyModelJson(), "toy");
        fixtures::writeRaw(m_tmp.path().toStdString() + "/toy.json", fixtures::toyModelJson());
        m_runPath = finishedRun(m_tmp.path().toStdString() + "/runs", &m_paramsSha);
        QVERIFY(!m_runPath.empty());
    }

    void finishedRunIsRecorded()
    {
        const RunSummary r = readRun(m_runPath);
        QVERIFY2(!r.damaged, r.damage.c_str());
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.model, std::string("toy"));
        QCOMPARE(r.epochs, 2);
        QCOMPARE(int(r.history.size()), 2);
        QVERIFY(r.history[1].seconds > 0);
        QVERIFY(r.history[1].samplesPerSec > 0);
        QVERIFY(r.test);
        QCOMPARE(r.weightsSha256, m_paramsSha);
        QCOMPARE(r.weightsFileSha256, sha256Hex(readWholeFile(m_runPath + "/weights.tbw")));
        QVERIFY(!r.started.empty() && !r.ended.empty());
        for (const char* f : {"run.json", "checkpoint.tbw", "weights.tbw", "evaluation.json"})
            QVERIFY2(r.holds(f), f);
        bool cpu = false;
        for (const auto& [label, value] : r.hardwareRows())
            cpu = cpu || (label == "CPU" && !value.empty());
        QVERIFY(cpu);
        std::string why;
        const auto test = readTestRecord(r, why);
        QVERIFY2(test, why.c_str());
        int64_t sum = 0;
        for (int64_t n : test->confusion)
            sum += n;
        QCOMPARE(sum, int64_t(m_toy.test.count));
        QCOMPARE(test->accuracy, r.test->accuracy);
    }

    // A run folder that cannot take its first run.json (a full disk; here a file-size limit, which needs
    // no privilege) is not left behind holding its lock alone, listed as damaged.
    void aRunFolderThatCannotBeWrittenIsNotLeft()
    {
        const std::string runs = m_tmp.path().toStdString() + "/no-room";
        std::filesystem::create_directories(runs);
        TrainingSession s(m_model, m_toy, toyConfig());
        struct rlimit old {};
        ::getrlimit(RLIMIT_FSIZE, &old);
        {
            const auto restore = qScopeGuard([&] {
                ::setrlimit(RLIMIT_FSIZE, &old);
                std::signal(SIGXFSZ, SIG_DFL);
            });
            std::signal(SIGXFSZ, SIG_IGN); // the write returns EFBIG instead
            struct rlimit small = old;
            small.rlim_cur = 64; // less than any run.json
            QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
            QVERIFY_THROWS_EXCEPTION(IoError, s.createRunFolder(runs));
        }
        QVERIFY(!s.runFolder());
        QVERIFY2(std::filesystem::is_empty(runs), "the failed run's folder was left");
        const RunList list = listRuns(runs);
        QVERIFY(list.runs.empty());
    }

    // finish() ends a run once for every front end: the test evaluation, the hash, the copy asked
    // for and the run folder's end, returned as one value.
    void finishEndsACompletedRun()
    {
        TrainConfig c = toyConfig();
        TrainingSession s(m_model, m_toy, c);
        s.createRunFolder(m_tmp.path().toStdString() + "/finish");
        const RunFolder folder = *s.runFolder();
        // The model and the device as it runs, its kernel level resolved where the config leaves it
        // to the CPU (as the window's does), as RunFolder::create spells them in a name (':' becomes '-').
        QVERIFY(!c.device.isa);
        const QString device = QString::fromStdString(s.info().device.id()).replace(QLatin1Char(':'), QLatin1Char('-'));
        QVERIFY2(device.startsWith("cpu-") && device.contains('@'), qPrintable(device));
        QVERIFY2(QString::fromStdString(folder.path).endsWith("-toy-" + device), folder.path.c_str());
        struct Seen : TrainObserver {
            int tests = 0;
            void testStarted(int) override { ++tests; }
        } seen;
        QCOMPARE(s.run(&seen), TrainStatus::Completed);
        FinishOptions o;
        o.savePath = m_tmp.path().toStdString() + "/finish.tbw";
        const RunResult r = s.finish(TrainStatus::Completed, o, &seen);
        QCOMPARE(r.status, TrainStatus::Completed);
        QVERIFY(r.evaluated && !r.abandoned);
        QVERIFY(r.testWasLastValidation); // the test set validated the last epoch with these weights
        QCOMPARE(seen.tests, 0);
        QCOMPARE(r.test.samples, m_toy.test.count);
        QCOMPARE(int(r.test.predicted.size()), m_toy.test.count); // for evaluation.json
        QCOMPARE(r.weightsSha256, s.weightsSha256());
        QCOMPARE(r.epochs, 2);
        QCOMPARE(r.samples, int64_t(2 * m_toy.train.count));
        QVERIFY(r.trainingSeconds > 0);
        QVERIFY(!r.restoredBest && r.bestEpoch == 0);
        QCOMPARE(r.files,
                 (std::vector<std::string>{o.savePath, folder.weights(), folder.evaluation(), folder.record()}));
        QCOMPARE(loadWeights(o.savePath).params, s.network().params());
        const RunSummary rec = readRun(folder.path);
        QCOMPARE(rec.status, RunStatus::Completed);
        QVERIFY(rec.test);
        QCOMPARE(rec.test->accuracy, r.test.accuracy);
        QCOMPARE(rec.weightsSha256, r.weightsSha256);
    }

    // A stopped run: the CLI's finish only saves the weights (the checkpoint stays for --resume); the
    // window's also evaluates them and records them as stopped; a closing window skips what is left.
    void finishEndsAStoppedRun()
    {
        TrainConfig c = toyConfig();
        TrainingSession s(m_model, m_toy, c);
        s.createRunFolder(m_tmp.path().toStdString() + "/finish-stopped");
        std::atomic<bool> stop{false};
        struct StopAtTwo : TrainObserver {
            std::atomic<bool>* stop = nullptr;
            int tests = 0;
            void batchFinished(const BatchProgress& p) override
            {
                if (p.step == 2)
                    stop->store(true);
            }
            void testStarted(int images) override { tests += images; }
        } observer;
        observer.stop = &stop;
        QCOMPARE(s.run(&observer, &stop), TrainStatus::Cancelled);

        FinishOptions cli;
        cli.savePath = m_tmp.path().toStdString() + "/stopped.tbw";
        const RunResult saved = s.finish(TrainStatus::Cancelled, cli, &observer);
        QCOMPARE(saved.status, TrainStatus::Cancelled);
        QVERIFY(!saved.evaluated && saved.weightsSha256.empty());
        QCOMPARE(saved.files, std::vector<std::string>{cli.savePath});
        QCOMPARE(observer.tests, 0);
        QCOMPARE(readRun(s.runFolder()->path).status, RunStatus::Stopped);
        QVERIFY(!readRun(s.runFolder()->path).test);

        std::atomic<bool> abandon{true};
        FinishOptions closing;
        closing.finishStopped = true;
        closing.abandon = &abandon;
        const RunResult skipped = s.finish(TrainStatus::Cancelled, closing, &observer);
        QVERIFY(skipped.abandoned && !skipped.evaluated && skipped.files.empty());
        QCOMPARE(observer.tests, 0);

        FinishOptions window;
        window.finishStopped = true;
        window.keepPredictions = true; // the Results page shows the stopped weights' predictions
        const RunResult r = s.finish(TrainStatus::Cancelled, window, &observer);
        QVERIFY(r.evaluated && !r.testWasLastValidation);
        QCOMPARE(observer.tests, m_toy.test.count);
        QCOMPARE(int(r.test.predicted.size()), m_toy.test.count);
        QCOMPARE(r.weightsSha256, s.weightsSha256());
        QCOMPARE(r.files, std::vector<std::string>{s.runFolder()->record()});
        const RunSummary rec = readRun(s.runFolder()->path);
        QCOMPARE(rec.status, RunStatus::Stopped);
        QVERIFY(rec.test);
        QCOMPARE(rec.test->accuracy, r.test.accuracy);
        QVERIFY(rec.record.at("test").value("at_stop", false));
        QVERIFY(!std::filesystem::exists(s.runFolder()->weights()));
        QVERIFY(!std::filesystem::exists(s.runFolder()->evaluation())); // the predictions are the window's only
    }

    // A run under way records its process in run.json; readers tell a run whose process is gone (a
    // kill -9, a crash, a write that failed) as interrupted instead of running forever. Records
    // without the process (older versions) read as they did.
    void aRunWhoseProcessIsGoneIsInterrupted()
    {
        const std::string runs = m_tmp.path().toStdString() + "/gone";
        std::string path;
        nlohmann::ordered_json record;
        {
            TrainingSession s(m_model, m_toy, toyConfig());
            s.enableCheckpoints(RunFolder::create(runs, "toy"));
            path = s.runFolder()->path;
            s.checkpoint(); // mid-run: status running, as every checkpoint before the last
            record = parseJson(readWholeFile(path + "/run.json"));
            QCOMPARE(record.at("status").get<std::string>(), std::string("running"));
            const nlohmann::ordered_json& process = record.at("process");
            QCOMPARE(process.at("pid").get<int64_t>(), int64_t(::getpid()));
            char host[256] = {};
            QVERIFY(::gethostname(host, sizeof host - 1) == 0);
            QCOMPARE(process.at("host").get<std::string>(), std::string(host));
            QVERIFY(process.at("boot_id").is_string());
            QCOMPARE(readRun(path).status, RunStatus::Running); // this process trains it
        }
        const auto withProcess = [&](const std::function<void(nlohmann::ordered_json&)>& change) {
            nlohmann::ordered_json r = record;
            change(r["process"]);
            writeFileAtomically(path + "/run.json", jsonText(r) + "\n");
            return readRun(path);
        };
        // A process that has ended (and was reaped): its id names no process now.
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(0);
        QVERIFY(child > 0);
        QCOMPARE(::waitpid(child, nullptr, 0), child);
        RunSummary gone = withProcess([&](nlohmann::ordered_json& p) { p["pid"] = int64_t(child); });
        QVERIFY2(!gone.damaged, gone.damage.c_str());
        QCOMPARE(gone.status, RunStatus::Interrupted);
        QCOMPARE(std::string(runStatusName(gone.status)), std::string("interrupted"));
        // The folder's lock says who trains it, whatever process has the recorded id now: this
        // process lives, but holds no lock on the folder (the session has ended), as a process
        // that took a dead trainer's id would not; while one holds it, the run is under way.
        QCOMPARE(withProcess([](nlohmann::ordered_json&) {}).status, RunStatus::Interrupted);
        QCOMPARE(runLockHeld(path), std::optional<bool>(false));
        {
            const RunLock held(path);
            QCOMPARE(runLockHeld(path), std::optional<bool>(true));
            QCOMPARE(withProcess([](nlohmann::ordered_json&) {}).status, RunStatus::Running);
            QCOMPARE(withProcess([&](nlohmann::ordered_json& p) { p["pid"] = int64_t(child); }).status,
                     RunStatus::Running);
        }
        // Without run.lock (a folder copied without it) the recorded id is all there is to ask: a
        // living process of this host trains it still.
        QVERIFY(std::filesystem::remove(path + "/" + RunLock::fileName()));
        QCOMPARE(runLockHeld(path), std::optional<bool>());
        QCOMPARE(withProcess([](nlohmann::ordered_json&) {}).status, RunStatus::Running);
        QCOMPARE(withProcess([&](nlohmann::ordered_json& p) { p["pid"] = int64_t(child); }).status,
                 RunStatus::Interrupted);
        // The host booted since: gone, whatever its id.
        if (!record["process"]["boot_id"].get<std::string>().empty())
            QCOMPARE(withProcess([](nlohmann::ordered_json& p) { p["boot_id"] = "another-boot"; }).status,
                     RunStatus::Interrupted);
        // Another host's process cannot be asked: the run is as its record says.
        QCOMPARE(withProcess([&](nlohmann::ordered_json& p) {
                     p["pid"] = int64_t(child);
                     p["host"] = "another-host.example";
                 }).status,
                 RunStatus::Running);
        // A record without the process (or a damaged one) is read as before.
        const RunSummary old = withProcess([](nlohmann::ordered_json& p) { p = nullptr; });
        QVERIFY2(!old.damaged, old.damage.c_str());
        QCOMPARE(old.status, RunStatus::Running);
        QCOMPARE(withProcess([](nlohmann::ordered_json& p) { p = "1234"; }).status, RunStatus::Running);
        // The listing and the report say so too.
        withProcess([&](nlohmann::ordered_json& p) { p["pid"] = int64_t(child); });
        const RunList list = listRuns(runs);
        QCOMPARE(int(list.runs.size()), 1);
        QCOMPARE(list.runs.front().status, RunStatus::Interrupted);
        const std::string html = runReportHtml(readReportInput(path));
        QVERIFY(html.find("— interrupted") != std::string::npos);
        bool shown = false;
        for (const auto& [label, value] : list.runs.front().configurationRows())
            shown = shown || (label == "Status" && value == "interrupted");
        QVERIFY(shown);
        // Once stopped or ended, a run records no process.
        {
            auto resumed = TrainingSession::resume(RunFolder::open(path), m_toy);
            QCOMPARE(resumed->run(), TrainStatus::Completed);
            resumed->finish(TrainStatus::Completed, {}); // the test evaluation, the weights: the end recorded
        }
        const nlohmann::ordered_json ended = parseJson(readWholeFile(path + "/run.json"));
        QCOMPARE(ended.at("status").get<std::string>(), std::string("completed"));
        QVERIFY(!ended.contains("process"));
    }

    // A run interrupted before its first checkpoint: `runs show` and the report say what `runs list`
    // and the Runs page say, that it cannot be resumed (they said plain "interrupted").
    void anInterruptedRunWithoutCheckpointSaysSoEverywhere()
    {
        const std::string runs = m_tmp.path().toStdString() + "/gone-early";
        std::string path;
        {
            TrainingSession s(m_model, m_toy, toyConfig());
            s.enableCheckpoints(RunFolder::create(runs, "toy"));
            path = s.runFolder()->path;
            s.checkpoint(); // run.json says running, naming this process
        }
        nlohmann::ordered_json record = parseJson(readWholeFile(path + "/run.json"));
        record["process"]["boot_id"] = "a-boot-that-ended"; // its process is gone
        writeFileAtomically(path + "/run.json", jsonText(record) + "\n");
        QVERIFY(std::filesystem::remove(path + "/checkpoint.tbw")); // killed in its first epoch
        const std::string cannot = "interrupted, no checkpoint (cannot resume)";
        const RunSummary r = readRun(path);
        QCOMPARE(r.status, RunStatus::Interrupted);
        QVERIFY(!r.resumable());
        bool shown = false;
        for (const auto& [label, value] : r.configurationRows())
            shown = shown || (label == "Status" && value == cannot);
        QVERIFY(shown);
        const std::string html = runReportHtml(readReportInput(path));
        QVERIFY2(html.find("— " + cannot) != std::string::npos, html.substr(0, 1500).c_str());
        const QString qruns = QString::fromStdString(runs);
        QVERIFY(QRegularExpression("\nStatus +interrupted, no checkpoint \\(cannot resume\\)\n")
                    .match(cli({"runs", "show", "latest", "--runs-dir", qruns}).out)
                    .hasMatch());
        QVERIFY(cli({"runs", "list", "--runs-dir", qruns}).out.contains(QString::fromStdString(" " + cannot + " ")));
        // With its checkpoint, it is plain "interrupted", and resumable.
        RunSummary kept = r;
        kept.files.push_back("checkpoint.tbw");
        QVERIFY(kept.resumable());
        for (const auto& [label, value] : kept.configurationRows())
            if (label == "Status")
                QCOMPARE(value, std::string("interrupted"));
    }

    // Numbers a damaged evaluation.json may hold where whole numbers belong (a cell of 1e90 was
    // fuzz_run_record's finding: converting it to an integer is undefined behaviour) are refused.
    void evaluationNumbersOutOfRangeAreRefused()
    {
        const auto good = nlohmann::ordered_json::parse(
            R"({"loss":0.5,"accuracy":0.5,"samples":2,"class_names":["a","b"],"confusion":[[1,0],[1,0]],)"
            R"("misclassified_count":0,"misclassified":[]})");
        QCOMPARE(parseTestRecord(good).confusion, (std::vector<int64_t>{1, 0, 1, 0}));
        for (const char* bad :
             {R"([[1e90,0],[1,0]])", R"([[1.5,0],[1,0]])", R"([[1,0],[-1e300,0]])", R"([[1,0],"x"])"}) {
            auto j = good;
            j["confusion"] = nlohmann::ordered_json::parse(bad);
            QVERIFY_THROWS_EXCEPTION(DataError, parseTestRecord(j));
        }
        for (const char* key : {"samples", "misclassified_count"}) {
            auto j = good;
            j[key] = 3e9;
            QVERIFY_THROWS_EXCEPTION(DataError, parseTestRecord(j));
        }
    }

    // The report of a real run, part by part.
    void reportOfARealRun()
    {
        const std::string out = m_tmp.path().toStdString() + "/report.html";
        writeRunReport(m_runPath, out);
        const QString html = QString::fromStdString(readWholeFile(out));
        const RunSummary r = readRun(m_runPath);

        // Self-contained: nothing fetched, nothing run.
        QVERIFY(!html.contains("<script"));
        QVERIFY(!html.contains(QRegularExpression("(src|href)=\"(https?:|//|file:)")));
        // Four inline SVG charts, with the run's values on their points.
        QCOMPARE(html.count("<svg class=\"chart\""), 4);
        for (const char* title : {">Loss<", ">Accuracy<", ">Learning rate<", ">Epoch time (s)<"})
            QVERIFY2(html.contains(title), title);
        for (const EpochRecord& e : r.history)
            for (double v : {e.loss, e.accuracy, e.valLoss, e.valAccuracy, e.seconds})
                QVERIFY2(html.contains(QString("data-value=\"%1\"").arg(QString::fromStdString(shortNumber(v)))),
                         shortNumber(v).c_str());
        // The configuration and hardware rows.
        QVERIFY(html.contains("<tr><th>Batch size</th><td>10</td></tr>"));
        QVERIFY(html.contains("<tr><th>Model</th><td>toy</td></tr>"));
        QVERIFY(html.contains("<tr><th>Optimizer</th><td>adam</td></tr>"));
        QVERIFY(html.contains("<tr><th>Epochs</th><td>2</td></tr>"));
        QVERIFY(html.contains("<tr><th>Precision</th><td>FP32</td></tr>"));
        QVERIFY(html.contains("<th>CPU</th>"));
        // The weights' hashes: weights.tbw's and the parameters' (as train prints it).
        const std::string fileSha = sha256Hex(readWholeFile(m_runPath + "/weights.tbw"));
        QVERIFY(html.contains(QString("<code class=\"file-sha256\">%1</code>").arg(QString::fromStdString(fileSha))));
        QVERIFY(
            html.contains(QString("<code class=\"params-sha256\">%1</code>").arg(QString::fromStdString(m_paramsSha))));
        QVERIFY(!html.contains("changed since the run ended"));
        // The confusion matrix: its cells sum to the test count.
        const int start = html.indexOf("<table class=\"confusion\">");
        QVERIFY(start > 0);
        const QString matrix = html.mid(start, html.indexOf("</table>", start) - start);
        QRegularExpression cell("<td style=\"[^\"]*\">(\\d+)</td>");
        int sum = 0, cells = 0;
        for (auto it = cell.globalMatch(matrix); it.hasNext(); ++cells)
            sum += it.next().captured(1).toInt();
        QCOMPARE(cells, 9);
        QCOMPARE(sum, m_toy.test.count);
        // The misclassified images, embedded as PNG that decode to the test images.
        std::string why;
        const auto test = readTestRecord(r, why);
        QVERIFY(test && !test->misclassified.empty());
        QRegularExpression img("<img class=\"misclassified\"[^>]*src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"");
        int images = 0;
        for (auto it = img.globalMatch(html); it.hasNext(); ++images) {
            const QImage decoded = QImage::fromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG");
            QVERIFY(!decoded.isNull());
            QCOMPARE(decoded.size(), QSize(12, 12));
            const MisclassifiedImage& m = test->misclassified[size_t(images)];
            const uint8_t* pixels = m_toy.test.image(m.index);
            for (int y = 0; y < 12; ++y)
                for (int x = 0; x < 12; ++x)
                    QCOMPARE(qGray(decoded.pixel(x, y)), int(pixels[y * 12 + x]));
        }
        QCOMPARE(images, int(test->misclassified.size()));
        QCOMPARE(test->misclassifiedCount, int(std::lround((1 - test->accuracy) * test->samples)));
    }

    // A bf16 run's report names its precision, in the heading's device and in the configuration
    // (read from run.json: this CPU need not be able to run bf16).
    void reportNamesTheRunsPrecision()
    {
        const std::string path = finishedRun(m_tmp.path().toStdString() + "/bf16");
        nlohmann::ordered_json record = parseJson(readWholeFile(path + "/run.json"));
        record["device"] = "cpu:1@avx512+bf16";
        record["config"]["device"] = "cpu:1@avx512+bf16";
        record["config"]["precision"] = "bf16";
        write(path + "/run.json", record.dump(1));
        const QString html = QString::fromStdString(runReportHtml(readReportInput(path)));
        QVERIFY2(html.contains("<tr><th>Precision</th><td>bf16 (bfloat16 products, FP32 accumulation)</td></tr>"),
                 qPrintable(html.section("id=\"configuration\"", 1).left(1500)));
        QVERIFY(html.contains("toy on ") && html.contains(", cpu:1@avx512+bf16 — "));
    }

    // The report's loss and accuracy charts draw the run's batches from its checkpoint, as the window's
    // live charts do: a point per point of the checkpoint's curve, each batch's own loss and accuracy
    // smoothed, at epoch - 1 + step / steps, a line without marks under the epochs' marked points.
    void reportDrawsTheCheckpointsBatches()
    {
        const Checkpoint c = readCheckpoint(m_runPath + "/checkpoint.tbw");
        const nlohmann::ordered_json& points = c.callbacks.at("batch_curve").at("points");
        QCOMPARE(int(points.size()), 12); // 2 epochs of 6 batches of 10
        const int steps = points.back()[1].get<int>();
        QCOMPARE(steps, 6);
        const double keep = std::clamp(1.0 - 20.0 / steps, 0.0, 0.9);
        std::vector<double> x, loss, accuracy;
        for (const auto& p : points) {
            x.push_back(p[0].get<double>() - 1 + p[1].get<double>() / steps);
            const double l = p[5].get<double>(), a = p[6].get<double>();
            loss.push_back(keep * (loss.empty() ? l : loss.back()) + (1 - keep) * l);
            accuracy.push_back(keep * (accuracy.empty() ? a : accuracy.back()) + (1 - keep) * a);
        }
        const ReportInput in = readReportInput(m_runPath);
        QCOMPARE(in.batches.missing, RunBatchCurve::Missing::None);
        QCOMPARE(int(in.batches.points.size()), 12);
        const QString html = QString::fromStdString(runReportHtml(in));
        QCOMPARE(html.count("<svg class=\"chart\""), 4);
        QVERIFY(!html.contains("batch-note"));
        const std::vector<std::pair<QString, std::vector<double>>> charts = {{"Loss", loss}, {"Accuracy", accuracy}};
        for (const auto& [title, values] : charts) {
            int marks = -1;
            const QList<QPointF> drawn = svgSeries(html, title, "train, per batch (smoothed)", &marks);
            QCOMPARE(drawn.size(), 12);
            QCOMPARE(marks, 0);
            std::vector<double> px, py;
            for (const QPointF& p : drawn) {
                px.push_back(p.x());
                py.push_back(p.y());
            }
            QVERIFY2(drawnLinearly(x, px), qPrintable(title));
            QVERIFY2(drawnLinearly(values, py), qPrintable(title));
            // The epochs' points stay, marked.
            int epochMarks = 0;
            QCOMPARE(svgSeries(html, title, "train", &epochMarks).size(), 2);
            QCOMPARE(epochMarks, 2);
        }
    }

    // A run whose checkpoint keeps no curve, or one that cannot be read, still reports its epochs, and
    // says why there is no per-batch line; `runs list` lists it as any other.
    void reportWithoutBatchesSaysWhy()
    {
        namespace fs = std::filesystem;
        const std::string runs = m_tmp.path().toStdString() + "/nobatches";
        fs::create_directories(runs);
        const auto rewrite = [](const std::string& path, const std::function<void(nlohmann::ordered_json&)>& change) {
            WeightsFile w = loadWeights(path);
            nlohmann::ordered_json r = parseJson(w.resume);
            change(r);
            w.resume = jsonText(r);
            saveWeights(path, w);
        };
        struct Case {
            std::string name;
            std::function<void(const std::string&)> spoil; // of checkpoint.tbw
            RunBatchCurve::Missing missing;
            std::string note;
        };
        const std::vector<Case> cases = {
            {"no-checkpoint", [](const std::string& f) { fs::remove(f); }, RunBatchCurve::Missing::NoCheckpoint,
             "No per-batch line: the run folder holds no checkpoint.tbw, which keeps the run's batches."},
            {"older",
             [&](const std::string& f) {
                 rewrite(f, [](nlohmann::ordered_json& r) { r["callbacks"].erase("batch_curve"); });
             },
             RunBatchCurve::Missing::OlderCheckpoint,
             "No per-batch line: the run's checkpoint.tbw was written before checkpoints kept the run's batches."},
            {"damaged",
             [](const std::string& f) {
                 std::string bytes = readWholeFile(f);
                 bytes[bytes.size() / 2] ^= 0x55;
                 fixtures::writeRaw(f, bytes);
             },
             RunBatchCurve::Missing::Unreadable,
             "checkpoint.tbw: the file is corrupt or truncated (checksum mismatch)."},
            {"truncated", [](const std::string& f) { fs::resize_file(f, 20); }, RunBatchCurve::Missing::Unreadable,
             "checkpoint.tbw: the file is truncated (20 bytes)."},
            {"bad-curve",
             [&](const std::string& f) {
                 rewrite(f, [](nlohmann::ordered_json& r) { r["callbacks"]["batch_curve"]["points"][3][1] = 0; });
             },
             RunBatchCurve::Missing::Unreadable,
             "checkpoint.tbw: its per-batch curve cannot be read (point 4's step is 0, not from 1 to 6)."},
        };
        const RunSummary original = readRun(m_runPath);
        for (const Case& k : cases) {
            const std::string path = runs + "/20261207-000000-" + k.name;
            fs::copy(m_runPath, path, fs::copy_options::recursive);
            k.spoil(path + "/checkpoint.tbw");
            ReportInput in;
            try {
                in = readReportInput(path);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString::fromStdString(k.name + ": " + e.what())));
            }
            QVERIFY2(in.batches.missing == k.missing, k.name.c_str());
            QVERIFY(in.batches.points.empty());
            const QString html = QString::fromStdString(runReportHtml(in));
            QCOMPARE(html.count("<svg class=\"chart\""), 4);
            QVERIFY2(svgSeries(html, "Loss", "train, per batch (smoothed)").isEmpty(), k.name.c_str());
            QCOMPARE(svgSeries(html, "Loss", "train").size(), 2);
            const qsizetype note = html.indexOf("<p class=\"sub batch-note\">");
            QVERIFY2(note > 0, k.name.c_str());
            const QString noteText = html.mid(note, html.indexOf("</p>", note) - note);
            QVERIFY2(noteText.endsWith(QString::fromStdString(k.note)), qPrintable(noteText));
        }
        // The list reads no checkpoint: every copy is listed, none damaged.
        const RunList list = listRuns(runs);
        QCOMPARE(int(list.runs.size()), int(cases.size()));
        for (const RunSummary& r : list.runs)
            QVERIFY2(!r.damaged && r.history.size() == original.history.size(), r.damage.c_str());
    }

    void reportWithoutEvaluationSaysWhy()
    {
        const std::string runs = m_tmp.path().toStdString() + "/noeval";
        const std::string path = finishedRun(runs);
        std::filesystem::remove(path + "/evaluation.json");
        const std::string html = runReportHtml(readReportInput(path));
        QVERIFY(html.find("no stored test evaluation") != std::string::npos);
        QCOMPARE(QString::fromStdString(html).count("<svg class=\"chart\""), 4);
        // A damaged run has no report, and says why.
        write(path + "/run.json", "{\"format\": \"trainbench-run\", \"version\": 2, \"history\": [");
        QVERIFY_THROWS_EXCEPTION(IoError, readReportInput(path));
    }

    void textIsEscaped()
    {
        QCOMPARE(htmlEscape("<a href=\"x\">&'</a>"), std::string("&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"));
        const std::string svg = svgLineChart("<b>", {{"<i>", "red\"", {1, 2}, {0.5, 0.25}}});
        QVERIFY(svg.find("<b>") == std::string::npos && svg.find("<i>") == std::string::npos);
        QVERIFY(svg.find("red&quot;") != std::string::npos);
    }

    // A report's phrase filled in one pass: an argument's own "%2" stays, a lone '%' and a number past
    // the arguments stay as written; a report in another language takes its words from the caller.
    void reportPhrasesAndTheirLanguage()
    {
        QCOMPARE(fillArgs("%1 of %2", {"%2", "x"}), std::string("%2 of x"));
        QCOMPARE(fillArgs("50% of %3, %", {"a"}), std::string("50% of %3, %"));
        tb::ReportLanguage shout;
        shout.lang = "xx";
        shout.phrase = [](const char* english) { return std::string("<").append(english).append(">"); };
        shout.value = [](const std::string& label, const std::string& english) { return label + "=" + english; };
        const std::string html = runReportHtml(readReportInput(m_runPath), shout);
        QVERIFY(html.find("<html lang=\"xx\">") != std::string::npos);
        QVERIFY(html.find("<h2>&lt;Curves&gt;</h2>") != std::string::npos);
        QVERIFY(html.find("<tr><th>&lt;Batch size&gt;</th><td>Batch size=") != std::string::npos);
        QVERIFY(html.find("aria-label=\"&lt;Loss&gt;\"") != std::string::npos);
        // Without a language, English as before.
        QVERIFY(runReportHtml(readReportInput(m_runPath)).find("<h2>Curves</h2>") != std::string::npos);
        // Its numbers in the reader's spelling: the figures, the epochs' table, the charts' ticks and
        // points; the points' data-value as printed, for programs.
        tb::ReportLanguage marked;
        marked.number = [](const std::string& printed) { return "#" + printed; };
        const QString numbers = QString::fromStdString(runReportHtml(readReportInput(m_runPath), marked));
        QVERIFY(numbers.contains(QRegularExpression("<div class=\"card\">Test accuracy<b>#\\d+\\.\\d+%</b>")));
        QVERIFY(numbers.contains(QRegularExpression("<div class=\"card\">Training time<b>#\\d+\\.\\d s</b>")));
        QVERIFY(numbers.contains(QRegularExpression("<td class=\"n\">#\\d+\\.\\d+</td>")));
        QVERIFY(!numbers.contains(QRegularExpression("<td class=\"n\">\\d+\\.\\d+</td>")));
        QVERIFY(numbers.contains(QRegularExpression("text-anchor=\"end\">#[\\d.]+</text>")));
        QVERIFY(!numbers.contains(QRegularExpression("text-anchor=\"end\">[\\d.]+</text>")));
        QVERIFY(numbers.contains(QRegularExpression("<title>train, epoch #1: #[\\d.]+</title>")));
        QVERIFY(numbers.contains(QRegularExpression("data-value=\"\\d[\\d.]*\"")) &&
                !numbers.contains("data-value=\"#"));
        // A decimal value of the configuration too ("0.001", "#0.001"); a count is no decimal.
        const QString rate = numbers.section("<tr><th>Learning rate</th><td>", 1).section("</td>", 0, 0);
        QVERIFY2(!rate.isEmpty() && (!rate.contains('.') || rate.startsWith('#')), qPrintable(rate));
        QVERIFY(numbers.contains("<tr><th>Batch size</th><td>10</td></tr>"));
    }

    // Precise BN recomputes BatchNorm's statistics after training: the report's test figures are of the
    // recomputed statistics, its curves of those before. It says so under the figures and the curves,
    // and puts the test figures beside the curves' last epoch, named as such; a run without it does not.
    void reportMarksPreciseBnsRecomputation()
    {
        const std::string path = finishedRun(m_tmp.path().toStdString() + "/precise");
        const QString plain = QString::fromStdString(runReportHtml(readReportInput(path)));
        QVERIFY(!plain.contains("precise-bn") && !plain.contains("after precise BN"));
        nlohmann::ordered_json record = parseJson(readWholeFile(path + "/run.json"));
        record["config"]["precise_bn_batches"] = 30;
        // A model without BatchNorm: precise BN recomputed nothing, which the report does not claim; nor
        // does it for a record that does not say (written before the test block said).
        for (const int layers : {0, -1}) {
            if (layers == 0)
                record["test"]["precise_bn_layers"] = 0;
            else
                record["test"].erase("precise_bn_layers");
            write(path + "/run.json", record.dump(1));
            const QString none = QString::fromStdString(runReportHtml(readReportInput(path)));
            QVERIFY(!none.contains("precise-bn") && !none.contains("after precise BN"));
        }
        record["test"]["precise_bn_layers"] = 2;
        write(path + "/run.json", record.dump(1));
        const RunSummary run = readRun(path);
        QVERIFY(run.test);
        const QString html = QString::fromStdString(runReportHtml(readReportInput(path)));
        const QString note = "<p class=\"warn precise-bn\">Precise BN recomputed BatchNorm's statistics over 30 "
                             "training batches after training: the test figures are of the recomputed statistics; the "
                             "curves and the epochs' validation figures are of those training left, before it.</p>";
        QCOMPARE(html.count(note), 2);
        QVERIFY(html.indexOf(note) > html.indexOf("Test accuracy") &&
                html.lastIndexOf(note) > html.indexOf("<h2>Curves"));
        QCOMPARE(html.count("<g class=\"series\" data-name=\"test, after precise BN\">"), 2); // loss, accuracy
        QVERIFY2(html.contains(QString::fromStdString("data-value=\"" + shortNumber(run.test->loss) +
                                                      "\"><title>test, after "
                                                      "precise BN, epoch 2: ")),
                 qPrintable(html.section("after precise BN", 1, 1).left(300)));
        QVERIFY(html.contains(QString::fromStdString("data-value=\"" + shortNumber(run.test->accuracy) +
                                                     "\"><title>test, "
                                                     "after precise BN, epoch 2: ")));
        QVERIFY(html.contains("<tr><th>Precise BN</th><td>BatchNorm statistics recomputed over 30 training batches "
                              "after training</td></tr>"));
    }

    void pngAndBase64()
    {
        for (const std::string& s :
             std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)})
            QCOMPARE(base64Decode(base64Encode(s)), s);
        QCOMPARE(base64Encode("Man"), std::string("TWFu"));
        QCOMPARE(base64Encode("Ma"), std::string("TWE="));
        std::vector<uint8_t> pixels(5 * 3);
        for (size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = uint8_t(i * 17);
        const std::string png = encodeGreyPng(pixels.data(), 5, 3);
        const QImage img = QImage::fromData(QByteArray(png.data(), int(png.size())), "PNG");
        QCOMPARE(img.size(), QSize(5, 3));
        QCOMPARE(qGray(img.pixel(4, 2)), int(pixels[14]));
    }

    // Each kind of damage is listed with its reason, beside the good run, never instead of it.
    void damagedRunsAreListedWithTheirReason()
    {
        const std::string runs = m_tmp.path().toStdString() + "/mixed";
        const std::string good = finishedRun(runs);
        const std::string valid = readWholeFile(good + "/run.json");
        write(runs + "/20200101-000000-empty/run.json", "");
        write(runs + "/20200101-000001-truncated/run.json", valid.substr(0, valid.size() / 2));
        write(runs + "/20200101-000002-invalid/run.json", "{\"format\": \"trainbench-run\",, }");
        write(runs + "/20200101-000003-array/run.json", "[1, 2]");
        write(runs + "/20200101-000004-other/run.json", "{\"format\": \"something-else\"}");
        write(runs + "/20200101-000005-newer/run.json", "{\"format\": \"trainbench-run\", \"version\": 99}");
        write(runs + "/20200101-000006-history/run.json",
              "{\"format\": \"trainbench-run\", \"version\": 2, \"history\": [{\"loss\": 1}]}");
        write(runs + "/20200101-000007-nojson/checkpoint.tbw", "TBW");
        std::filesystem::create_directories(runs + "/20200101-000008-unreadable/run.json"); // a folder: read fails
        write(runs + "/stray-file.txt", "not a run");
        std::filesystem::create_symlink(m_dataDir, runs + "/link-out"); // never followed
        write(runs + "/.cache/run.json", "not a run either");           // a hidden folder is some tool's
        // A version 1 record (before issue 18): read, without what it lacked.
        write(runs + "/20200101-000009-v1/run.json",
              R"({"format":"trainbench-run","version":1,"status":"completed","model":"toy","device":"cpu:1",)"
              R"("kernels":"k","dataset":"/d","seed":"1","epochs":1,"batch_size":10,"optimizer":"adam",)"
              R"("learning_rate":0.001,"schedule":"constant","early_stopping":"off","validation":"test set",)"
              R"("history":[{"epoch":1,"loss":0.5,"accuracy":0.8,"val_loss":0.6,"val_accuracy":0.75,)"
              R"("seconds":1.5,"learning_rate":0.001}]})");

        const RunList list = listRuns(runs);
        QVERIFY(list.problem.empty());
        QCOMPARE(int(list.runs.size()), 11);
        std::map<std::string, RunSummary> byId;
        for (const RunSummary& r : list.runs)
            byId[r.id] = r;
        QCOMPARE(list.runs.front().path, good); // newest first
        QVERIFY(!list.runs.front().damaged);
        const std::pair<const char*, const char*> expected[] = {
            {"20200101-000000-empty", "run.json is empty"},
            {"20200101-000001-truncated", "run.json is damaged: JSON error"},
            {"20200101-000002-invalid", "run.json is damaged: JSON error"},
            {"20200101-000003-array", "not a Trainbench run record"},
            {"20200101-000004-other", "not a Trainbench run record"},
            {"20200101-000005-newer", "version (99)"},
            {"20200101-000006-history", "no epoch number"},
            {"20200101-000007-nojson", "holds no run.json"},
            {"20200101-000008-unreadable", "run.json cannot be read"},
        };
        for (const auto& [id, reason] : expected) {
            QVERIFY2(byId.count(id), id);
            QVERIFY2(byId[id].damaged, id);
            QVERIFY2(byId[id].damage.find(reason) != std::string::npos,
                     (std::string(id) + ": " + byId[id].damage).c_str());
        }
        const RunSummary& v1 = byId["20200101-000009-v1"];
        QVERIFY2(!v1.damaged, v1.damage.c_str());
        QCOMPARE(int(v1.history.size()), 1);
        QCOMPARE(v1.finalAccuracy(), 0.75);
        QVERIFY(v1.hardwareRows().empty());
        QCOMPARE(v1.date(), std::string("2020-01-01 00:00"));

        // The CLI lists the same, damaged ones marked, and exits 0.
        const Cli c = cli({"runs", "list", "--runs-dir", QString::fromStdString(runs)});
        QCOMPARE(c.code, 0);
        QVERIFY(c.out.contains("20200101-000001-truncated") && c.out.contains("DAMAGED: run.json is damaged"));
        QVERIFY2(QRegularExpression("^RUN +STARTED +STATUS +PROGRESS +ACCURACY +TRAINING +DATASET\n")
                     .match(c.out)
                     .hasMatch(),
                 qPrintable(c.out));
        QVERIFY(c.out.contains(QString::fromStdString(std::filesystem::path(good).filename().string())));
        const Cli show = cli({"runs", "show", "20200101-000000-empty", "--runs-dir", QString::fromStdString(runs)});
        QCOMPARE(show.code, 5);
        QVERIFY(show.out.contains("DAMAGED: run.json is empty"));
        const Cli report = cli({"report", "20200101-000003", "--runs-dir", QString::fromStdString(runs), "-o",
                                m_tmp.path() + "/damaged.html"});
        QCOMPARE(report.code, 5);
        QVERIFY(report.err.contains("is damaged (run.json is damaged"));
        QVERIFY(!QFile::exists(m_tmp.path() + "/damaged.html"));
    }

    // A damaged record does not stop a checkpoint that is there (train --resume resumes it, the checkpoint
    // holding the run's settings): runs list says so, where it gave a damaged run no "resumable".
    void aDamagedRunWithACheckpointIsResumable()
    {
        const std::string runs = m_tmp.path().toStdString() + "/damaged-runs";
        for (const char* id : {"20200101-000000-with-checkpoint", "20200101-000001-without"}) {
            std::filesystem::create_directories(runs + "/" + id);
            write(runs + "/" + id + "/run.json", "{\"format\": \"trainbench-run\", \"vers");
        }
        write(runs + "/20200101-000000-with-checkpoint/checkpoint.tbw", "a checkpoint");
        const Cli list = cli({"runs", "list", "--runs-dir", QString::fromStdString(runs), "--json"});
        QCOMPARE(list.code, 0);
        const nlohmann::ordered_json j = parseJson(list.out.toStdString());
        QCOMPARE(int(j["runs"].size()), 2);
        for (const auto& r : j["runs"]) {
            QVERIFY(r["damaged"].get<bool>());
            QCOMPARE(r["resumable"].get<bool>(), r["id"].get<std::string>() == "20200101-000000-with-checkpoint");
        }
    }

    void missingAndUnreadableRunsFolders()
    {
        const RunList none = listRuns(m_tmp.path().toStdString() + "/no/such/runs");
        QVERIFY(none.runs.empty() && none.problem.empty());
        const std::string file = m_tmp.path().toStdString() + "/a-file";
        write(file, "x");
        const RunList notDir = listRuns(file);
        QVERIFY(!notDir.problem.empty());
        QVERIFY(notDir.runs.empty());
        // The CLI says only what is wrong: not also "No runs in" it, as though it were an empty folder.
        const Cli c = cli({"runs", "list", "--runs-dir", QString::fromStdString(file)});
        QCOMPARE(c.code, 5);
        QVERIFY2(c.err.contains("cannot read the runs folder"), qPrintable(c.err));
        QVERIFY2(c.out.isEmpty(), qPrintable(c.out));
    }

    // A runs folder that cannot be written: listed, read and reported as before; a new run and a
    // delete fail with IoError and change nothing.
    void unwritableRunsFolder()
    {
        const std::string runs = m_tmp.path().toStdString() + "/readonly";
        const std::string good = finishedRun(runs);
        const auto cleanup = qScopeGuard([&] {
            if (geteuid() == 0)
                ::umount2(runs.c_str(), MNT_DETACH);
            else
                ::chmod(runs.c_str(), 0755);
        });
        if (geteuid() == 0) {
            if (::mount(runs.c_str(), runs.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
                ::mount(nullptr, runs.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0)
                QSKIP(qPrintable(QString("cannot make a read-only bind mount here (%1)").arg(std::strerror(errno))));
        } else {
            QVERIFY(::chmod(runs.c_str(), 0555) == 0);
        }
        const RunList list = listRuns(runs);
        QVERIFY(list.problem.empty());
        QCOMPARE(int(list.runs.size()), 1);
        QVERIFY(!list.runs[0].damaged);
        QVERIFY_THROWS_EXCEPTION(IoError, RunFolder::create(runs, "toy"));
        QVERIFY_THROWS_EXCEPTION(IoError, deleteRun(good, runs));
        QVERIFY(std::filesystem::exists(good + "/run.json"));
        QVERIFY(!runReportHtml(readReportInput(good)).empty());
        const Cli c = cli({"runs", "list", "--runs-dir", QString::fromStdString(runs)});
        QCOMPARE(c.code, 0);
        const Cli d = cli({"runs", "delete", "latest", "--runs-dir", QString::fromStdString(runs)});
        QCOMPARE(d.code, 5);
    }

    void deleteOnlyRunFolders()
    {
        const std::string runs = m_tmp.path().toStdString() + "/delete";
        const std::string good = finishedRun(runs);
        // A link to a folder outside: refused, the target intact.
        const std::string outside = m_tmp.path().toStdString() + "/outside";
        write(outside + "/run.json", "{}");
        std::filesystem::create_symlink(outside, runs + "/link");
        QVERIFY_THROWS_EXCEPTION(IoError, deleteRun(runs + "/link", runs));
        QVERIFY(std::filesystem::exists(outside + "/run.json"));
        // Not run folders: one with a subfolder, one with none of a run's files.
        write(runs + "/photos/a.jpg", "x");
        QVERIFY_THROWS_EXCEPTION(IoError, deleteRun(runs + "/photos", runs));
        write(runs + "/nested/run.json", "{}");
        write(runs + "/nested/sub/x", "x");
        QVERIFY_THROWS_EXCEPTION(IoError, deleteRun(runs + "/nested", runs));
        QVERIFY(std::filesystem::exists(runs + "/nested/sub/x"));
        // A file that is not a run's keeps the whole folder, and the message names it.
        write(good + "/thesis.docx", "years of work");
        try {
            deleteRun(good, runs);
            QFAIL("a run folder holding a file of its own was deleted");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("holds thesis.docx, which is not a run's file: nothing was deleted") !=
                         std::string::npos,
                     e.what());
        }
        QVERIFY(std::filesystem::exists(good + "/thesis.docx") && std::filesystem::exists(good + "/run.json"));
        std::filesystem::remove(good + "/thesis.docx");
        // A link inside a run folder (by a run file's name) is removed, not followed; a write's leftover
        // temporary goes too.
        std::filesystem::remove(good + "/best.tbw");
        std::filesystem::create_symlink(outside + "/run.json", good + "/best.tbw");
        write(good + "/weights.tbw.tmp-Ab12Cd", "half");
        deleteRun(good, runs);
        QVERIFY(!std::filesystem::exists(good));
        QVERIFY(std::filesystem::exists(outside + "/run.json"));
        // An empty folder (a run that never wrote, listed as damaged) can be deleted.
        std::filesystem::create_directories(runs + "/empty");
        deleteRun(runs + "/empty", runs);
        QVERIFY(!std::filesystem::exists(runs + "/empty"));
        // Outside the runs folder, a folder without run.json is nobody's run: a weights file kept in a
        // folder of its own, or an empty folder, stays (`runs delete ./models` once deleted them).
        const std::string models = m_tmp.path().toStdString() + "/models";
        write(models + "/weights.tbw", "trained for hours");
        try {
            deleteRun(models, runs);
            QFAIL("a folder holding a weights file alone, outside the runs folder, was deleted");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("holds no run.json and is not in the runs folder") != std::string::npos,
                     e.what());
        }
        QVERIFY(std::filesystem::exists(models + "/weights.tbw"));
        std::filesystem::create_directories(m_tmp.path().toStdString() + "/empty-outside");
        QVERIFY_THROWS_EXCEPTION(IoError, deleteRun(m_tmp.path().toStdString() + "/empty-outside", runs));
        QVERIFY(std::filesystem::exists(m_tmp.path().toStdString() + "/empty-outside"));
        // Given as a path relative to the working folder, inside the runs folder, it still goes.
        std::filesystem::create_directories(runs + "/empty2");
        const std::filesystem::path was = std::filesystem::current_path();
        std::filesystem::current_path(runs);
        deleteRun("./empty2", ".");
        std::filesystem::current_path(was);
        QVERIFY(!std::filesystem::exists(runs + "/empty2"));
    }

    // A run folder that a session trains now (it holds the run's lock) is not deleted under it; once
    // the session has ended, its lock file goes with the folder.
    void aRunBeingTrainedIsNotDeleted()
    {
        std::string path;
        {
            TrainingSession s(m_model, m_toy, toyConfig());
            s.enableCheckpoints(RunFolder::create(m_tmp.path().toStdString() + "/delete-live", "toy"));
            path = s.runFolder()->path;
            try {
                deleteRun(path, m_tmp.path().toStdString() + "/delete-live");
                QFAIL("the folder of a run under way was deleted");
            } catch (const IoError& e) {
                QVERIFY2(std::string(e.what()).find(" is being trained by this process already") != std::string::npos,
                         e.what());
            }
            QVERIFY(std::filesystem::exists(path + "/run.json"));
            // Nor resumed, before its first checkpoint too: who trains it, not "no checkpoint".
            QVERIFY(!std::filesystem::exists(path + "/checkpoint.tbw"));
            try {
                RunFolder::open(path);
                QFAIL("a run under way was opened to resume");
            } catch (const IoError& e) {
                QVERIFY2(std::string(e.what()).find(" is being trained by this process already") != std::string::npos,
                         e.what());
            }
        }
        QVERIFY(std::filesystem::exists(path + "/run.lock"));
        try { // no checkpoint, and nobody trains it now
            RunFolder::open(path);
            QFAIL("a folder without a checkpoint was opened to resume");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()) == path + " holds no checkpoint.tbw to resume from", e.what());
        }
        deleteRun(path, m_tmp.path().toStdString() + "/delete-live");
        QVERIFY(!std::filesystem::exists(path));
    }

    void findRunByNamePrefixOrLatest()
    {
        const std::string runs = m_tmp.path().toStdString() + "/find";
        write(runs + "/20200101-000000-a/run.json", "{}");
        write(runs + "/20200102-000000-b/run.json", "{}");
        QCOMPARE(findRun(runs, "20200101-000000-a"), runs + "/20200101-000000-a");
        QCOMPARE(findRun(runs, "20200102"), runs + "/20200102-000000-b");
        QCOMPARE(findRun(runs, "latest"), runs + "/20200102-000000-b");
        QVERIFY_THROWS_EXCEPTION(ConfigError, findRun(runs, "2020")); // two runs: a usage error
        QVERIFY_THROWS_EXCEPTION(IoError, findRun(runs, "nothing"));
        QCOMPARE(findRun(runs, runs + "/20200101-000000-a"), runs + "/20200101-000000-a");
    }

    // A run named (or "latest") is found from the folders' names, not by reading every run.json: a
    // run.json of 200,000 epochs (22 MB) beside it took 457 MB and seconds to parse for any name
    // (`runs show`, `report`, `train --resume`). "latest" reads the start of each record, up to its
    // "started", which comes before the history.
    void findRunReadsNoOtherRecord()
    {
        const std::string runs = m_tmp.path().toStdString() + "/large";
        write(runs + "/20200101-000000-small/run.json", "{}");
        {
            std::string big = R"({"format":"trainbench-run","version":2,"status":"completed",)"
                              R"("started":"2020-01-02T00:00:00Z","history":[)";
            for (int e = 1; e <= 200000; ++e)
                big += (e > 1 ? ",{\"epoch\":" : "{\"epoch\":") + std::to_string(e) +
                       R"(,"loss":0.5,"accuracy":0.8,"val_loss":0.6,"val_accuracy":0.75,"seconds":1.5,)"
                       R"("learning_rate":0.001})";
            big += "]}";
            write(runs + "/20200102-000000-large/run.json", big);
        }
        if (fixtures::peakResidentBytes(true) < 0)
            QSKIP("the system does not say the process's peak memory (/proc/self/clear_refs, VmHWM)");
        const int64_t before = fixtures::peakResidentBytes(true);
        QCOMPARE(findRun(runs, "20200101"), runs + "/20200101-000000-small");
        QCOMPARE(findRun(runs, "20200101-000000-small"), runs + "/20200101-000000-small");
        QCOMPARE(findRun(runs, "latest"), runs + "/20200102-000000-large");
        QVERIFY_THROWS_EXCEPTION(IoError, findRun(runs, "nothing"));
        const int64_t grew = fixtures::peakResidentBytes() - before;
        QVERIFY2(grew < 16 << 20, qPrintable(QString("the peak memory grew by %1 MB").arg(grew >> 20)));
    }

    // A damaged record's numbers are not shown as they are: an epoch of 1e308 seconds (a 309-digit
    // TRAINING column) or a negative time, and a negative parameter count, mark the run damaged; a
    // control character in a cell of `runs list` (a newline in the dataset's path, ESC, a C1 control)
    // or a line separator is shown as '?', and the table keeps one line a run.
    void damagedNumbersAndControlCharacters()
    {
        const std::string runs = m_tmp.path().toStdString() + "/bounds";
        auto record = [](const std::string& dataset, const std::string& seconds, const std::string& more) {
            return "{\"format\":\"trainbench-run\",\"version\":1,\"status\":\"completed\",\"model\":\"toy\","
                   "\"device\":\"cpu:1\",\"kernels\":\"k\",\"dataset\":\"" +
                   dataset + "\",\"epochs\":1,\"batch_size\":10,\"optimizer\":\"adam\"," + more +
                   "\"history\":[{\"epoch\":1,\"loss\":0.5,\"accuracy\":0.8,\"val_loss\":0.6,"
                   "\"val_accuracy\":0.75,\"seconds\":" +
                   seconds + ",\"learning_rate\":0.001}]}";
        };
        write(runs + "/20200101-000000-slow/run.json", record("/d", "1e308", ""));
        write(runs + "/20200101-000001-backwards/run.json", record("/d", "-5", ""));
        write(runs + "/20200101-000002-parameters/run.json", record("/d", "1.5", "\"parameters\":-1,"));
        write(runs + "/20200101-000003-newline/run.json",
              record("/data/a\\nb\\u001b[31m\\u009b1m\\u2028z", "1.5", "")); // ESC, CSI (C1), LINE SEPARATOR
        write(runs + "/20200101-000004-fine/run.json", record("/d", "1.5", "\"parameters\":1191,"));

        std::map<std::string, RunSummary> byId;
        for (const RunSummary& r : listRuns(runs).runs)
            byId[r.id] = r;
        const std::pair<const char*, const char*> expected[] = {
            {"20200101-000000-slow", "run.json is damaged: epoch 1 of its history took 1e+308 seconds"},
            {"20200101-000001-backwards", "run.json is damaged: epoch 1 of its history took -5 seconds"},
            {"20200101-000002-parameters", "run.json is damaged: its parameter count (-1) is not a count"},
        };
        for (const auto& [id, reason] : expected) {
            QVERIFY2(byId[id].damaged, id);
            QVERIFY2(byId[id].damage.find(reason) == 0, (std::string(id) + ": " + byId[id].damage).c_str());
        }
        QVERIFY2(!byId["20200101-000003-newline"].damaged, byId["20200101-000003-newline"].damage.c_str());
        QCOMPARE(byId["20200101-000003-newline"].dataset,
                 std::string("/data/a\nb\x1b[31m\xc2\x9b"
                             "1m\xe2\x80\xa8z")); // as recorded
        QVERIFY2(!byId["20200101-000004-fine"].damaged, byId["20200101-000004-fine"].damage.c_str());

        const Cli c = cli({"runs", "list", "--runs-dir", QString::fromStdString(runs)});
        QCOMPARE(c.code, 0);
        const QStringList lines = c.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6); // the header and one line a run
        QVERIFY2(c.out.contains(QRegularExpression(
                     "20200101-000003-newline +2020-01-01 00:00 .*  /data/a\\?b\\?\\[31m\\?1m\\?z\n")),
                 qPrintable(c.out));
        for (const QString& line : lines)
            QVERIFY2(line.size() < 160, qPrintable(line));
    }

    // A text run's `runs show`: its validation in bits per symbol each epoch and the test's, as its
    // training printed them, and a validation limit among its settings.
    void textRunShowsBitsPerSymbol()
    {
        const QString runs = m_tmp.path() + "/text-runs";
        const Cli train =
            cli({"train", "--data", "/usr/share/common-licenses/GPL-3", "--sequence-length", "32", "--epochs", "1",
                 "--max-batches", "2", "--validation-limit", "5", "--threads", "1", "--runs-dir", runs});
        QVERIFY2(train.code == 0, qPrintable(train.err));
        const QString valBpc = QRegularExpression(" - val_bpc: ([0-9.]+)").match(train.out).captured(1);
        const QString testBpc = QRegularExpression(" - test bpc: ([0-9.]+)").match(train.out).captured(1);
        QVERIFY2(!valBpc.isEmpty() && !testBpc.isEmpty(), qPrintable(train.out));
        const Cli show = cli({"runs", "show", "latest", "--runs-dir", runs});
        QVERIFY2(show.code == 0, qPrintable(show.err));
        QVERIFY2(QRegularExpression("\nValidation limit +the first 5 samples each epoch\n").match(show.out).hasMatch(),
                 qPrintable(show.out));
        const QStringList lines = show.out.split('\n');
        const qsizetype header = lines.indexOf(QRegularExpression("^epoch +loss .* val_acc +val_bpc +lr +seconds$"));
        QVERIFY2(header > 0, qPrintable(show.out));
        // The same value, in shortNumber's four significant digits where the training line has four decimals.
        const double epochBpc = lines[header + 1].simplified().split(' ').value(5).toDouble();
        QVERIFY2(std::abs(epochBpc - valBpc.toDouble()) <= 1e-3 * valBpc.toDouble(),
                 qPrintable(lines[header + 1] + " against " + valBpc));
        QVERIFY2(show.out.contains(" - test bpc: " + testBpc + "\n"), qPrintable(show.out));
        // Its report draws its two batches' loss (in nats, as its epochs') and accuracy too.
        const QString out = runs + "/report.html";
        const Cli report = cli({"report", "latest", "--runs-dir", runs, "-o", out});
        QVERIFY2(report.code == 0, qPrintable(report.err));
        const QString html = QString::fromStdString(readWholeFile(out.toStdString()));
        QVERIFY(!html.contains("batch-note"));
        for (const char* title : {"Loss", "Accuracy"})
            QCOMPARE(svgSeries(html, title, "train, per batch (smoothed)").size(), 2);
    }

    // train, runs list/show, report, runs delete through the CLI.
    void cliEndToEnd()
    {
        const QString runs = m_tmp.path() + "/cli-runs";
        const Cli train =
            cli({"train", "--data", QString::fromStdString(m_dataDir), "--model", m_tmp.path() + "/toy.json",
                 "--epochs", "1", "--batch", "10", "--threads", "1", "--runs-dir", runs});
        QVERIFY2(train.code == 0, qPrintable(train.err));
        const QString sha = QRegularExpression("weights sha256: ([0-9a-f]{64})").match(train.out).captured(1);
        QVERIFY(!sha.isEmpty());

        const Cli list = cli({"runs", "list", "--runs-dir", runs, "--json"});
        QCOMPARE(list.code, 0);
        const nlohmann::ordered_json j = parseJson(list.out.toStdString());
        QCOMPARE(int(j["runs"].size()), 1);
        QCOMPARE(j["runs"][0]["status"].get<std::string>(), std::string("completed"));
        QCOMPARE(j["runs"][0]["weights_sha256"].get<std::string>(), sha.toStdString());
        QVERIFY(j["runs"][0]["test"]["samples"].get<int>() > 0); // the test result record, as run.json's
        const QString id = QString::fromStdString(j["runs"][0]["id"].get<std::string>());

        const Cli show = cli({"runs", "show", id, "--runs-dir", runs});
        QCOMPARE(show.code, 0);
        QVERIFY(show.out.contains("Weights sha256: " + sha));
        QVERIFY(show.out.contains("Batch size"));

        const QString out = m_tmp.path() + "/cli-report.html";
        const Cli report = cli({"report", "latest", "--runs-dir", runs, "-o", out});
        QCOMPARE(report.code, 0);
        QVERIFY(report.out.contains("Wrote " + out));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QCOMPARE(html.count("<svg class=\"chart\""), 4);
        QVERIFY(html.contains(sha));
        // The run may come after the options too, as with every option of every command.
        const QString before = m_tmp.path() + "/cli-report-options-first.html";
        const Cli first = cli({"report", "-o", before, "--runs-dir", runs, "latest"});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        QVERIFY(first.out.contains("Wrote " + before));
        QFile g(before);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(g.readAll()).contains(sha));
        QVERIFY(cli({"runs", "--runs-dir", runs, "show", "--json", id}).out.contains(sha));
        const Cli noRun = cli({"report", "-o", before, "--runs-dir", runs});
        QCOMPARE(noRun.code, 2);
        QVERIFY2(noRun.err.contains("report needs the run"), qPrintable(noRun.err));
        QCOMPARE(cli({"report", "latest", "extra", "--runs-dir", runs}).code, 2);
        const Cli piped = cli({"report", "latest", "--runs-dir", runs, "-o", "-"}); // standard output
        QCOMPARE(piped.code, 0);
        QVERIFY(piped.out.startsWith("<!DOCTYPE html>") && piped.out.contains(sha));
        QVERIFY(!QFile::exists("-"));
        const Cli pdf = cli({"report", "latest", "--runs-dir", runs, "-o", m_tmp.path() + "/r.pdf"});
        QCOMPARE(pdf.code, 2);
        QVERIFY2(pdf.err.contains("the report is an HTML file"), qPrintable(pdf.err));
        QVERIFY(!QFile::exists(m_tmp.path() + "/r.pdf"));
        QCOMPARE(cli({"report", "latest", "--runs-dir", runs, "-o", m_tmp.path() + "/R.HTML"}).code, 0);

        QCOMPARE(cli({"runs", "bogus", "--runs-dir", runs}).code, 2);
        QCOMPARE(cli({"runs", "show", "--runs-dir", runs}).code, 2);
        QCOMPARE(cli({"runs", "show", "nothing", "--runs-dir", runs}).code, 5);
        // A start of the name that several runs share is a usage error (2), on every command that takes a
        // run, and deletes nothing.
        const std::string twins = m_tmp.path().toStdString() + "/twins";
        write(twins + "/20200101-000000-a/run.json", "{}");
        write(twins + "/20200101-000001-b/run.json", "{}");
        for (const QStringList& ambiguous : {QStringList{"runs", "delete", "2020"}, QStringList{"runs", "show", "2020"},
                                             QStringList{"report", "2020", "-o", m_tmp.path() + "/twins.html"}}) {
            const Cli a = cli(ambiguous + QStringList{"--runs-dir", QString::fromStdString(twins)});
            QVERIFY2(a.code == 2, qPrintable(ambiguous.join(' ') + ": " + QString::number(a.code) + " " + a.err));
            QVERIFY2(a.err.contains("2020 names 2 runs in " + QString::fromStdString(twins) +
                                    " (20200101-000001-b, 20200101-000000-a): give more of the name"),
                     qPrintable(a.err));
        }
        QVERIFY(std::filesystem::exists(twins + "/20200101-000000-a/run.json"));
        QVERIFY(std::filesystem::exists(twins + "/20200101-000001-b/run.json"));
        QVERIFY(!QFile::exists(m_tmp.path() + "/twins.html"));
        const Cli del = cli({"runs", "delete", id, "--runs-dir", runs});
        QCOMPARE(del.code, 0);
        QVERIFY(QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
        const QString emptied = cli({"runs", "list", "--runs-dir", runs}).out;
        QVERIFY2(emptied.contains("No runs in") && !emptied.contains("does not exist"), qPrintable(emptied));
        QVERIFY2(!emptied.contains("STATUS"), qPrintable(emptied)); // no header above no runs
        const QString missing = cli({"runs", "list", "--runs-dir", runs + "/typo"}).out;
        QVERIFY2(missing.contains("(the folder does not exist yet)"), qPrintable(missing));

        // A run that diverges is recorded as such.
        const Cli diverged =
            cli({"train", "--data", QString::fromStdString(m_dataDir), "--model", m_tmp.path() + "/toy.json",
                 "--optimizer", "sgd", "--lr", "1e30", "--batch", "10", "--threads", "1", "--runs-dir", runs});
        QCOMPARE(diverged.code, 4);
        const nlohmann::ordered_json after =
            parseJson(cli({"runs", "list", "--runs-dir", runs, "--json"}).out.toStdString());
        QCOMPARE(int(after["runs"].size()), 1);
        QCOMPARE(after["runs"][0]["status"].get<std::string>(), std::string("diverged"));
        // Resumed, it says why there is nothing to resume, not only that a checkpoint is missing.
        const Cli resumed = cli({"train", "--resume", "latest", "--runs-dir", runs});
        QCOMPARE(resumed.code, 5);
        QVERIFY2(resumed.err.contains("diverged before its first checkpoint (its loss or weights became NaN or "
                                      "infinite): nothing to resume; train it again with a lower learning rate"),
                 qPrintable(resumed.err));

        // One that diverged after a checkpoint is not resumable either, as `runs list` says: resumed, it
        // replayed the same steps into the same divergence (exit code 4 again).
        const QString later = m_tmp.path() + "/cli-diverged-later";
        const Cli again = cli({"train", "--data", QString::fromStdString(m_dataDir), "--model",
                               m_tmp.path() + "/toy.json", "--optimizer", "sgd", "--lr", "1e30", "--batch", "10",
                               "--threads", "1", "--checkpoint-every", "1", "--runs-dir", later});
        QCOMPARE(again.code, 4);
        const nlohmann::ordered_json listed =
            parseJson(cli({"runs", "list", "--runs-dir", later, "--json"}).out.toStdString());
        QCOMPARE(int(listed["runs"].size()), 1);
        QCOMPARE(listed["runs"][0]["status"].get<std::string>(), std::string("diverged"));
        const QString folder = QString::fromStdString(listed["runs"][0]["path"].get<std::string>());
        QVERIFY(QFile::exists(folder + "/checkpoint.tbw"));
        QCOMPARE(listed["runs"][0]["resumable"].get<bool>(), false);
        const QByteArray recorded = readWholeFile((folder + "/run.json").toStdString()).c_str();
        const Cli refused = cli({"train", "--resume", folder, "--threads", "1"});
        QCOMPARE(refused.code, 5);
        QVERIFY2(refused.err.contains(folder + " diverged (its loss or weights became NaN or infinite): resumed, its "
                                               "checkpoint would repeat the same steps with the same settings and "
                                               "diverge again; train it again with a lower learning rate"),
                 qPrintable(refused.err));
        QCOMPARE(QByteArray(readWholeFile((folder + "/run.json").toStdString()).c_str()), recorded); // untouched
    }
};

QTEST_GUILESS_MAIN(TstRuns)
#include "tst_runs.moc"
