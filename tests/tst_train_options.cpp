// The training options' table (train/train_options.hpp), which the CLI, the benchmark and the window
// read: an option out of its limits is refused with its name and the limits, a word where a number
// goes is named, what goes together is checked, and every option written by formatTrainOptions reads
// back to the same settings.
#include "train/train_options.hpp"
#include "train_config_compare.hpp"

#include "core/errors.hpp"
#include "core/thread_pool.hpp"
#include "kernels/isa.hpp"
#include "train/run_limits.hpp"

#include <QtTest>

#include <cmath>
#include <map>

namespace {
// The message applyTrainOptions refuses `given` with; empty when it accepts them.
QString refusal(const std::map<std::string, std::string>& given)
{
    tb::TrainSettings s;
    try {
        tb::applyTrainOptions(s, given);
    } catch (const tb::ConfigError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

tb::TrainSettings parsed(const std::vector<std::string>& args)
{
    return fixtures::parseTrainArguments(args);
}

void compareSettings(const tb::TrainSettings& a, const tb::TrainSettings& b)
{
    fixtures::compareTrainConfigs(a.config, b.config);
    QVERIFY(a.config.device == b.config.device);
    QCOMPARE(a.checkpointEvery, b.checkpointEvery);
}
} // namespace

class TstTrainOptions : public QObject {
    Q_OBJECT
private slots:
    void outOfLimitsIsRefusedWithTheNameAndTheLimits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        using namespace tb::limits;
        const auto row = [](const char* name, const char* value, const QString& message) {
            QTest::newRow((std::string(name) + "=" + value).c_str()) << name << value << message;
        };
        row("epochs", "0", QString("--epochs must be between 1 and %1 (got 0)").arg(kMaxEpochs));
        row("epochs", "100001", "--epochs must be between 1 and 100000 (got 100001)");
        row("batch", "65537", QString("--batch must be between 1 and %1 (got 65537)").arg(kMaxBatch));
        row("threads", "0", QString("--threads must be between 1 and %1 (got 0)").arg(kMaxThreads));
        row("size-multiplier", "17", "--size-multiplier must be between 1 and 16 (got 17)");
        row("max-batches", "-1", QString("--max-batches must be between 0 and %1 (got -1)").arg(kMaxBatchesPerEpoch));
        row("shard", "0", "--shard must be between 1 and 65536 (got 0)");
        row("momentum", "1", "--momentum must be between 0 and 0.999 (got 1)");
        row("lr", "-1", "--lr must be a positive number within a float's range, 1.4e-45 to 3.4e38 (got -1)");
        row("lr", "0", "--lr must be a positive number within a float's range, 1.4e-45 to 3.4e38 (got 0)");
        row("lr", "1e40", "--lr must be a positive number within a float's range, 1.4e-45 to 3.4e38 (got 1e40)");
        row("validation-split", "1", "--validation-split must be 0 or between 0.001 and 0.999 (got 1)");
        row("checkpoint-every", "-5", "--checkpoint-every must be between 0 and 1073741824 (got -5)");
        row("precise-bn", "-1", "--precise-bn must be between 0 and 1073741824 (got -1)");
        row("epochs", "two", "--epochs needs a whole number, not \"two\"");
        row("threads", "x", "--threads needs a whole number, not \"x\"");
        row("batch", "12.5", "--batch needs a whole number, not \"12.5\"");
        row("epochs", "99999999999999999999",
            QString("--epochs must be between 1 and %1 (got 99999999999999999999)").arg(kMaxEpochs));
        row("seed", "18446744073709551616",
            "--seed must be between 0 and 18446744073709551615 (got 18446744073709551616)");
        row("seed", "-3", "--seed needs a non-negative whole number, not \"-3\"");
        row("seed", " -3", "--seed needs a non-negative whole number, not \" -3\"");
        row("lr", "fast", "--lr needs a number, not \"fast\"");
        row("lr", "inf", "--lr needs a finite number, not \"inf\"");
        // Space on either side alike, decimal only, and no number that underflows to 0 (which may mean
        // something else: greedy, none).
        row("epochs", " 2", "--epochs needs a whole number, not \" 2\"");
        row("epochs", "2 ", "--epochs needs a whole number, not \"2 \"");
        row("lr", " 0.1", "--lr needs a number, not \" 0.1\"");
        row("lr", "0x1p-3", "--lr needs a number, not \"0x1p-3\"");
        row("lr", "1e-5000", "--lr 1e-5000 is too small: it rounds to 0");
        row("optimizer", "adagrad", "--optimizer: unknown optimizer \"adagrad\" (use adam, sgd or rmsprop)");
    }
    void outOfLimitsIsRefusedWithTheNameAndTheLimits()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, message);
        QCOMPARE(refusal({{name.toStdString(), value.toStdString()}}), message);
    }

    // Each parser the table hands a value to says which option it was.
    void delegatedParsersNameTheOption()
    {
        QVERIFY(refusal({{"lr-schedule", "step:0:0.5"}}).startsWith("--lr-schedule: "));
        QVERIFY(refusal({{"early-stopping", "loss"}}).startsWith("--early-stopping: "));
        QVERIFY(refusal({{"device", "tpu:0"}}).startsWith("--device: "));
        QVERIFY(refusal({{"isa", "sse9"}}).startsWith("--isa: "));
    }

    void whatGoesTogether()
    {
        QCOMPARE(refusal({{"patience", "3"}}), QString("--patience needs --early-stopping val_loss|val_accuracy"));
        QCOMPARE(refusal({{"restore-best-weights", ""}}),
                 QString("--restore-best-weights needs --early-stopping val_loss|val_accuracy"));
        QCOMPARE(refusal({{"device", "cpu:2"}, {"threads", "2"}}),
                 QString("give either --device or --threads, not both"));
        // validateTrainConfig still checks the run as a whole.
        QCOMPARE(refusal({{"momentum", "0.9"}}), QString("momentum and Nesterov apply to the SGD optimizer only"));
        QCOMPARE(refusal({{"early-stopping", "val_loss"}, {"patience", "3"}}), QString());
    }

    // A device keeps the level and the precision it names ("cpu:2@baseline", "cpu:2+fp32") and takes
    // --isa's and --precision's where it names none, whatever the order on the command line.
    void aDeviceKeepsWhatItNames()
    {
        using tb::Precision;
        QVERIFY(parsed({"--device", "cpu:2+fp32"}).config.device.precision == Precision::Fp32);
        QVERIFY(parsed({"--device", "cpu:2+bf16", "--precision", "bf16"}).config.device.precision == Precision::Bf16);
        QVERIFY(parsed({"--device", "cpu:2", "--precision", "bf16"}).config.device.precision == Precision::Bf16);
        // Saying two things is refused, not settled silently.
        QCOMPARE(refusal({{"device", "cpu:2+fp32"}, {"precision", "bf16"}}),
                 QString("--precision bf16 and --device cpu:2+fp32 name two precisions"));
        QCOMPARE(refusal({{"device", "cpu:2@avx512"}, {"isa", "baseline"}}), // a level every x86-64 CPU runs
                 QString("--isa baseline and --device cpu:2@avx512 name two levels"));
        const tb::DeviceSpec named = parsed({"--isa", "baseline", "--device", "cpu:2@baseline"}).config.device;
        QVERIFY(named.isa == tb::Isa::Baseline);
        const tb::DeviceSpec taken = parsed({"--device", "cpu:3", "--isa", "baseline"}).config.device;
        QVERIFY(taken.isa == tb::Isa::Baseline);
        QCOMPARE(taken.threads, 3);
        QCOMPARE(refusal({{"device", "opencl:0"}, {"precision", "bf16"}}),
                 QString("--precision bf16 is for the CPU, not opencl:0"));
    }

    // `train --resume`: the options change only what they name of the run's own device.
    void optionsOverARunsDevice()
    {
        tb::TrainSettings run;
        run.config.device = tb::parseDeviceSpec("cpu:1@avx512+bf16");
        tb::TrainSettings s = run;
        tb::applyTrainOptions(s, {{"threads", "2"}});
        QCOMPARE(s.config.device.id(), std::string("cpu:2@avx512+bf16"));
        s = run;
        tb::applyTrainOptions(s, {{"precision", "fp32"}});
        QCOMPARE(s.config.device.id(), std::string("cpu:1@avx512"));
        s = run;
        tb::applyTrainOptions(s, {{"device", "cpu:3"}});
        QCOMPARE(s.config.device.id(), std::string("cpu:3@avx512+bf16"));
        s = run;
        tb::applyTrainOptions(s, {{"device", "cpu:3+fp32"}});
        QCOMPARE(s.config.device.id(), std::string("cpu:3@avx512"));
        // A run that went on on OpenCL comes back to the CPU with --threads.
        s.config.device = tb::parseDeviceSpec("opencl:0");
        tb::applyTrainOptions(s, {{"threads", "2"}});
        QCOMPARE(s.config.device.id(), std::string("cpu:2"));
        s.config.device = tb::parseDeviceSpec("opencl:0");
        QVERIFY_THROWS_EXCEPTION(tb::ConfigError, tb::applyTrainOptions(s, {{"precision", "bf16"}}));
    }

    // An optimizer brings Keras' default rate, and --lr wins whatever the order on the command line.
    void optimizerThenRate()
    {
        QCOMPARE(parsed({"--optimizer", "sgd"}).config.optimizer.learningRate,
                 tb::defaultLearningRate(tb::OptimizerKind::SGD));
        QCOMPARE(parsed({"--lr", "0.05", "--optimizer", "sgd"}).config.optimizer.learningRate, 0.05f);
        QCOMPARE(parsed({"--optimizer", "sgd", "--lr", "0.05"}).config.optimizer.learningRate, 0.05f);
        // SGD's own default rate is not written back.
        QVERIFY(tb::formatTrainOptions(parsed({"--optimizer", "sgd"})) ==
                std::vector<std::string>({"--optimizer", "sgd"}));
    }

    void defaultsWriteNothing()
    {
        QVERIFY(tb::formatTrainOptions(tb::TrainSettings()).empty());
        QCOMPARE(tb::TrainSettings().config.device.threads, tb::hardwareThreads());
    }

    // Every option of the table, set away from its default, is written and reads back to the same
    // settings; the text written is the same when written again.
    void everyOptionRoundTrips()
    {
        const std::map<std::string, std::string> samples = {
            {"epochs", "7"},
            {"batch", "33"},
            {"seed", "18446744073709551615"},
            {"optimizer", "sgd"},
            {"lr", "0.0123"},
            {"momentum", "0.9"},
            {"nesterov", ""},
            {"size-multiplier", "2"},
            {"max-batches", "5"},
            {"validation-limit", "640"},
            {"drop-remainder", ""},
            {"shard", "8"},
            {"validation-split", "0.15"},
            {"lr-schedule", "plateau:0.3:4:1e-05"},
            {"early-stopping", "val_accuracy"},
            {"patience", "3"},
            {"min-delta", "0.001"},
            {"restore-best-weights", ""},
            {"threads", std::to_string(tb::hardwareThreads() == 3 ? 2 : 3)},
            {"isa", tb::isaName(tb::Isa::Baseline)},
            {"precision", "bf16"},
            {"checkpoint-every", "25"},
            {"precise-bn", "100"},
        };
        std::vector<std::string> names;
        for (const tb::TrainOption& o : tb::trainOptions()) {
            QVERIFY2(!o.help.empty(), o.name.c_str());
            if (o.name != "device") // another row: it replaces --threads
                QVERIFY2(samples.count(o.name), ("no sample value for --" + o.name).c_str());
        }
        tb::TrainSettings s;
        tb::applyTrainOptions(s, samples);
        const std::vector<std::string> args = tb::formatTrainOptions(s);
        for (const auto& [name, value] : samples) {
            const auto at = std::find(args.begin(), args.end(), "--" + name);
            QVERIFY2(at != args.end(), name.c_str());
            if (!value.empty())
                QCOMPARE(QString::fromStdString(*(at + 1)), QString::fromStdString(value));
        }
        const tb::TrainSettings back = parsed(args);
        compareSettings(back, s);
        QVERIFY(tb::formatTrainOptions(back) == args);

        // Each schedule, a device of its own and a rate that needs more than 6 digits.
        for (const char* schedule : {"step:3:0.25", "exp:0.9:500", "cosine:100:0.1", "plateau:0.5:2:0"}) {
            const tb::TrainSettings one = parsed({"--lr-schedule", schedule, "--lr", "0.00123456789"});
            compareSettings(parsed(tb::formatTrainOptions(one)), one);
        }
        const tb::TrainSettings cpu = parsed({"--device", "cpu:2@baseline"});
        QVERIFY(tb::formatTrainOptions(cpu) == std::vector<std::string>({"--threads", "2", "--isa", "baseline"}) ||
                tb::hardwareThreads() == 2);
        compareSettings(parsed(tb::formatTrainOptions(cpu)), cpu);
        const tb::TrainSettings bf16 = parsed({"--device", "cpu:2+bf16"});
        QCOMPARE(bf16.config.device.precision, tb::Precision::Bf16);
        QVERIFY(tb::formatTrainOptions(bf16) == std::vector<std::string>({"--threads", "2", "--precision", "bf16"}) ||
                tb::hardwareThreads() == 2);
        compareSettings(parsed(tb::formatTrainOptions(bf16)), bf16);
    }

    // An option's limits (which the window's field takes as its range) are the ones its parser
    // checks: both ends read, a step past either is refused naming the option. The window's options
    // have a label.
    void limitsAreWhatTheParserChecks()
    {
        int withLimits = 0;
        for (const tb::TrainOption& o : tb::trainOptions()) {
            const bool window = o.name != "threads" && o.name != "device" && o.name != "isa" && o.name != "shard" &&
                                o.name != "nesterov";
            QVERIFY2(window == !o.label.empty(), o.name.c_str());
            if (o.lo == o.hi)
                continue;
            ++withLimits;
            const bool wholeNumber = o.lo == std::floor(o.lo) && o.hi == std::floor(o.hi) && o.hi > 1;
            auto text = [&](double v) { return wholeNumber ? std::to_string((long long)v) : tb::formatReal(v); };
            for (double v : {o.lo, o.hi}) {
                tb::TrainSettings s;
                o.parse(s, text(v), o);
            }
            for (double v : {o.lo - 1, o.hi + (wholeNumber ? 1 : o.hi + 1)}) {
                tb::TrainSettings s;
                try {
                    o.parse(s, text(v), o);
                    QFAIL(("--" + o.name + " " + text(v) + " was taken").c_str());
                } catch (const tb::ConfigError& e) {
                    QVERIFY2(std::string(e.what()).find("--" + o.name) != std::string::npos, e.what());
                }
            }
        }
        QVERIFY(withLimits >= 10);
    }

    // --help's lines: the option, its value, its help from the column on, wrapped within the width.
    void helpLines()
    {
        QCOMPARE(QString::fromStdString(tb::optionHelpLine("epochs", "N", "epochs to train", 14)),
                 QString("  --epochs N  epochs to train\n"));
        QCOMPARE(QString::fromStdString(tb::optionHelpLine("early-stopping", "M", "one two three", 10, 18)),
                 QString("  --early-stopping M\n          one two\n          three\n"));
        for (const tb::TrainOption& o : tb::trainOptions())
            for (const QString& line :
                 QString::fromStdString(tb::optionHelpLine(o.name, o.value, o.help)).split('\n', Qt::SkipEmptyParts))
                QVERIFY2(line.size() <= 100 || !line.contains(' '), qPrintable(line));
    }
};

QTEST_GUILESS_MAIN(TstTrainOptions)
#include "tst_train_options.moc"
