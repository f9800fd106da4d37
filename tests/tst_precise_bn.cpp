// Precise BN (train/precise_bn.hpp, issue 30 item 11): a short run of a BatchNorm model tests far
// below its training accuracy because the moving statistics still hold their initial values;
// recomputing them over training batches closes the gap. Deterministic on any thread count, said by
// the CLI (--precise-bn on train and on evaluate).
#include "fixtures.hpp"

#include "cli_process.hpp"
#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/model_spec.hpp"
#include "train/precise_bn.hpp"
#include "train/session.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace tb;

namespace {
// The toy model's BatchNorm layers with Keras' momentum, trained for a few steps only: the
// moving statistics keep most of their initial mean 0 and variance 1.
struct ShortRun {
    double trainAccuracy = 0.0; // the training split in inference mode, the final weights
    double testAccuracy = 0.0;
    std::vector<float> state;
};

ShortRun shortRun(const Dataset& data, int threads, int preciseBn)
{
    TrainConfig cfg;
    cfg.epochs = 1;
    cfg.batchSize = 32;
    cfg.maxBatches = 32; // one epoch: 32 steps keep 0.99^32 = 72% of the initial statistics
    cfg.seed = 3;
    cfg.device.threads = threads;
    TrainingSession s(parseModelSpec(fixtures::toyModelJson(), "toy.json"), data, cfg);
    if (s.run() != TrainStatus::Completed)
        throw std::runtime_error("the run did not complete");
    if (preciseBn > 0) {
        const PreciseBnResult r = s.recomputeBatchNorm(preciseBn);
        if (r.layers != 2 || r.batches != preciseBn || r.samples != int64_t(preciseBn) * 32)
            throw std::runtime_error("precise BN did not run as asked");
    }
    ShortRun out;
    out.testAccuracy = s.evaluateTest().accuracy;
    out.trainAccuracy = s.evaluateTraining().accuracy;
    s.syncToHost();
    out.state = s.network().state();
    return out;
}
} // namespace

class TstPreciseBn : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    Dataset m_toy;

private slots:
    void initTestCase()
    {
        QDir().mkpath(m_tmp.filePath(QStringLiteral("toy")));
        fixtures::writeBrightToyDataset(m_tmp.filePath(QStringLiteral("toy")).toStdString(), 1024, 400);
        m_toy = loadDataset(m_tmp.filePath(QStringLiteral("toy")).toStdString());
    }

    void shortRunTestsFarBelowItsTrainingUntilPreciseBn()
    {
        const ShortRun plain = shortRun(m_toy, 2, 0);
        const ShortRun precise = shortRun(m_toy, 2, 30);
        qInfo("short run: train %.4f test %.4f; with precise BN: train %.4f test %.4f", plain.trainAccuracy,
              plain.testAccuracy, precise.trainAccuracy, precise.testAccuracy);
        // The gap the issue describes, reproduced on the toy data: the final weights classify the
        // training images well with statistics that fit them (precise BN's), the test images
        // poorly with the moving averages...
        QVERIFY2(precise.trainAccuracy > 0.85, qPrintable(QString::number(precise.trainAccuracy)));
        QVERIFY2(plain.testAccuracy < precise.trainAccuracy - 0.3, qPrintable(QString::number(plain.testAccuracy)));
        // ...and closed: the test accuracy rises to within a few points of the training accuracy.
        QVERIFY(precise.testAccuracy > plain.testAccuracy + 0.3);
        QVERIFY2(std::abs(precise.testAccuracy - precise.trainAccuracy) < 0.05,
                 qPrintable(QStringLiteral("train %1, test %2").arg(precise.trainAccuracy).arg(precise.testAccuracy)));
    }

    void sameStatisticsOnAnyThreadCount()
    {
        const ShortRun one = shortRun(m_toy, 1, 10);
        const ShortRun three = shortRun(m_toy, 3, 10);
        QVERIFY(one.state == three.state);
        const ShortRun plain = shortRun(m_toy, 1, 0);
        QVERIFY(plain.state != one.state);
    }

    void averagesTheBatchStatistics()
    {
        // One BatchNorm on the raw input: after precise BN over the whole training split in one
        // batch, its moving mean is the pixels' mean and its variance their (biased) variance.
        const ModelSpec spec = parseModelSpec(R"({"name": "bn", "input_scale": 1.0, "layers": [
          {"type": "BatchNormalization"}, {"type": "Flatten"}, {"type": "Dense", "units": 3, "activation": "softmax"}]})",
                                              "bn.json");
        Network net(spec, Shape::image(12, 12, 1), 3);
        net.initialize(1);
        const PreciseBnResult r = recomputeBatchNormStatistics(net, m_toy.train, 1, 1, m_toy.train.count, 5, 2);
        QCOMPARE(r.batches, 1);
        double sum = 0.0, sq = 0.0;
        const int64_t n = int64_t(m_toy.train.count) * 144;
        for (int64_t i = 0; i < n; ++i) {
            const double v = double(m_toy.train.pixels[size_t(i)]);
            sum += v;
            sq += v * v;
        }
        const double mean = sum / double(n), var = sq / double(n) - mean * mean;
        QVERIFY(std::abs(net.state()[0] - mean) < 1e-3 * mean);
        QVERIFY(std::abs(net.state()[1] - var) < 1e-3 * var);
        QVERIFY_THROWS_EXCEPTION(ConfigError, recomputeBatchNormStatistics(net, m_toy.train, 1, 0, 32, 5, 2));
    }

    void warmthSaysWhenStatisticsAreStillInitial()
    {
        Network net(parseModelSpec(fixtures::toyModelJson(), "toy.json"), Shape::image(12, 12, 1), 3);
        const auto shortRun = batchNormWarmth(net, 150);
        QVERIFY(shortRun);
        QCOMPARE(shortRun->momentum, 0.99f);
        QVERIFY(std::abs(shortRun->initialShare - std::pow(double(0.99f), 150)) < 1e-12);
        QVERIFY(shortRun->stillInitial());
        QVERIFY(batchNormWarmthText(*shortRun).find("22%") != std::string::npos);
        QVERIFY(!batchNormWarmth(net, 2000)->stillInitial());
        Network plain(
            parseModelSpec(
                R"({"name": "d", "layers": [{"type": "Flatten"}, {"type": "Dense", "units": 3, "activation": "softmax"}]})",
                "d.json"),
            Shape::image(12, 12, 1), 3);
        QVERIFY(!batchNormWarmth(plain, 10));
    }

    // Early stopping that restores the best epoch's weights restores its BatchNorm statistics too:
    // the warning counts that epoch's steps, not the run's.
    void warmthCountsTheRestoredEpochsSteps()
    {
        TrainConfig cfg;
        cfg.epochs = 5;
        cfg.batchSize = 32;
        cfg.maxBatches = 8;
        cfg.seed = 3;
        cfg.earlyStopping.enabled = true;
        cfg.earlyStopping.minDelta = 1e9; // no epoch after the first improves on it
        cfg.earlyStopping.patience = 2;
        cfg.earlyStopping.restoreBestWeights = true;
        TrainingSession s(parseModelSpec(fixtures::toyModelJson(), "toy.json"), m_toy, cfg);
        QCOMPARE(s.run(), TrainStatus::Completed);
        const RunResult r = s.finish(TrainStatus::Completed, FinishOptions{});
        QCOMPARE(r.epochs, 3); // stopped after two epochs without improvement
        QVERIFY(r.restoredBest);
        QCOMPARE(r.bestEpoch, 1);
        QVERIFY(r.batchNormWarmth);
        QCOMPARE(r.batchNormWarmth->steps, int64_t(8));
    }

    // The CLI: train says the statistics are still initial, --precise-bn recomputes them; evaluate
    // --precise-bn does it after training and saves the weights.
    void cliSaysAndOffersPreciseBn()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("toy"));
        const QString model = m_tmp.filePath(QStringLiteral("toy.json"));
        QFile f(model);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(fixtures::toyModelJson()));
        f.close();
        const QString saved = m_tmp.filePath(QStringLiteral("short.tbw"));
        const QStringList common = {QStringLiteral("train"),
                                    QStringLiteral("--data"),
                                    dir,
                                    QStringLiteral("--model"),
                                    model,
                                    QStringLiteral("--epochs"),
                                    QStringLiteral("1"),
                                    QStringLiteral("--batch"),
                                    QStringLiteral("32"),
                                    QStringLiteral("--max-batches"),
                                    QStringLiteral("32"),
                                    QStringLiteral("--seed"),
                                    QStringLiteral("3"),
                                    QStringLiteral("--threads"),
                                    QStringLiteral("2"),
                                    QStringLiteral("--no-run-folder")};
        const fixtures::CliResult plain =
            fixtures::runCli(QStringLiteral(TRAINBENCH_CLI), common + QStringList{QStringLiteral("--save"), saved});
        QCOMPARE(plain.code, 0);
        QVERIFY2(plain.out.contains(QStringLiteral("of their initial values (mean 0, variance 1)")),
                 qPrintable(plain.out));
        const fixtures::CliResult precise = fixtures::runCli(
            QStringLiteral(TRAINBENCH_CLI), common + QStringList{QStringLiteral("--precise-bn"), QStringLiteral("30")});
        QCOMPARE(precise.code, 0);
        QVERIFY2(precise.out.contains(QStringLiteral("Precise BN: BatchNorm's moving statistics recomputed over 30 "
                                                     "training batches (960 images) in 2 layers.")),
                 qPrintable(precise.out));
        QVERIFY(!precise.out.contains(QStringLiteral("of their initial values (mean 0, variance 1)")));
        auto accuracy = [](const QString& out) {
            const int at = out.indexOf(QStringLiteral("test accuracy: "));
            return at < 0 ? -1.0 : out.mid(at + 15, 6).toDouble();
        };
        QVERIFY(accuracy(precise.out) > accuracy(plain.out) + 0.3);
        // After training, on the saved weights: the same statistics as precise BN at the end of the run.
        const QString fixed = m_tmp.filePath(QStringLiteral("fixed.tbw"));
        const fixtures::CliResult later =
            fixtures::runCli(QStringLiteral(TRAINBENCH_CLI),
                             {QStringLiteral("evaluate"), QStringLiteral("--data"), dir, QStringLiteral("--weights"),
                              saved, QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--precise-bn"),
                              QStringLiteral("30"), QStringLiteral("--batch"), QStringLiteral("32"),
                              QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--save"), fixed});
        QCOMPARE(later.code, 0);
        QVERIFY2(later.out.contains(QStringLiteral("Precise BN:")), qPrintable(later.out));
        QCOMPARE(accuracy(later.out), accuracy(precise.out));
        QVERIFY(QFile::exists(fixed));
        const fixtures::CliResult bad =
            fixtures::runCli(QStringLiteral(TRAINBENCH_CLI),
                             {QStringLiteral("evaluate"), QStringLiteral("--data"), dir, QStringLiteral("--weights"),
                              saved, QStringLiteral("--precise-bn"), QStringLiteral("0")});
        QCOMPARE(bad.code, 2);
    }
};

QTEST_MAIN(TstPreciseBn)
#include "tst_precise_bn.moc"
