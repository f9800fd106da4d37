// The catalogue of bad inputs: every way a downloaded dataset, model description, weights file or
// option can be wrong, each with the exact message and exit code trainbench-cli gives and the exact
// message the window shows (dataset panel, model panel, status bar for weights). Nothing crashes;
// nothing is allocated from a size the file does not justify (the suite also runs under ASan).
//
// TB_PRINT_MESSAGES=1 also prints what each case really gives (before comparing), to write a new row.
#include "fixtures.hpp"
#include "window_test.hpp"

#include "core/memory.hpp"
#include "data/idx.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "model/network.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/model_panel.hpp"
#include "train/cpu_executor.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <unistd.h>

using namespace tbui;

namespace {

enum class Area { Dataset, Model, Weights, Option };

struct Case {
    const char* name;
    Area area;
    std::function<void(const QString& dir)> make; // writes the case's files into its own folder
    QStringList args;                             // {dir}, {toy}, {model}, {weights} replaced
    int code;
    QString message;         // the engine's message: after "trainbench-cli <command>: ", and in the window
    bool doesNotFit = false; // a model that parses but cannot be built for the dataset's images
    QString cliPrefix = {};  // before the message on the command line only (the window names the file itself)
};

QByteArray readAll(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}
void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}
QByteArray idx(const std::vector<uint32_t>& dims, int dataBytes, uint8_t dtype = 8)
{
    QByteArray b;
    b.append(char(0)).append(char(0)).append(char(dtype)).append(char(dims.size()));
    for (uint32_t d : dims)
        for (int s = 24; s >= 0; s -= 8)
            b.append(char((d >> s) & 0xff));
    b.append(QByteArray(dataBytes, char(1)));
    return b;
}
const char* kTrainImages = "/train-images-idx3-ubyte";
const char* kTrainLabels = "/train-labels-idx1-ubyte";
const char* kTestLabels = "/t10k-labels-idx1-ubyte";

} // namespace

class TstBadInputs : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_toy, m_model, m_weights;
    std::vector<Case> m_cases;
    bool m_print = qEnvironmentVariableIsSet("TB_PRINT_MESSAGES");

    struct Result {
        int code;
        QString out, err;
    };
    Result runCli(const QStringList& args)
    {
        QProcess p;
        p.start(TRAINBENCH_CLI, args);
        if (!p.waitForFinished(120000))
            return {-1, {}, "timeout"};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -p.exitCode(),
                QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
    QString caseDir(const Case& c) const { return m_tmp.path() + "/" + QString(c.name).replace(' ', '_'); }
    // The toy dataset copied into `dir`, for a case to damage one file of.
    void copyToy(const QString& dir) const
    {
        for (const char* f : {"/train-images-idx3-ubyte", "/train-labels-idx1-ubyte", "/t10k-images-idx3-ubyte",
                              "/t10k-labels-idx1-ubyte"})
            QFile::copy(m_toy + f, dir + f);
    }
    QString expand(QString s, const QString& dir) const
    {
        return s.replace("{dir}", dir)
            .replace("{toy}", m_toy)
            .replace("{model}", m_model)
            .replace("{weights}", m_weights);
    }
    static QString humanBytes(uint64_t b) { return QString::fromStdString(tb::humanBytes(b)); }

    void buildCatalogue();

private slots:
    void initTestCase()
    {
        fixtures::beginWindowTest("tst_bad_inputs");
        m_toy = m_tmp.path() + "/toy";
        QDir().mkpath(m_toy);
        fixtures::writeToyDataset(m_toy.toStdString(), 40, 20, 12, 3, false);
        m_model = m_tmp.path() + "/toy.json";
        fixtures::writeRaw(m_model.toStdString(), fixtures::toyModelJson());
        m_weights = m_tmp.path() + "/toy.tbw";
        const Result r = runCli(
            {"train", "--data", m_toy, "--model", m_model, "--epochs", "1", "--batch", "8", "--save", m_weights});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        buildCatalogue();
        for (const Case& c : m_cases) {
            QDir().mkpath(caseDir(c));
            if (c.make)
                c.make(caseDir(c));
        }
    }

    void cli_data()
    {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < m_cases.size(); ++i)
            QTest::newRow(m_cases[i].name) << int(i);
    }
    void cli()
    {
        QFETCH(int, index);
        const Case& c = m_cases[size_t(index)];
        if (QString(c.name).startsWith("unreadable") && geteuid() == 0)
            QSKIP("running as root, which reads any file (the I/O error row covers a file that cannot be read)");
        const QString dir = caseDir(c);
        QStringList args;
        for (const QString& a : c.args)
            args << expand(a, dir);
        const Result r = runCli(args);
        const QString expected = "trainbench-cli " + args.first() + ": " + expand(c.cliPrefix + c.message, dir) + "\n";
        if (m_print)
            std::printf("CASE %s\n  code %d\n  err  %s\n", c.name, r.code, qPrintable(r.err));
        QCOMPARE(r.err, expected);
        QCOMPARE(r.code, c.code);
    }

    // The same files in the window: the dataset panel, the model panel, the status bar for weights.
    // (Options have no row here: the window's spin boxes cannot hold a value out of range.)
    void window_data() { cli_data(); }
    void window()
    {
        QFETCH(int, index);
        const Case& c = m_cases[size_t(index)];
        if (c.area == Area::Option)
            QSKIP("an option: the window's controls only offer valid values");
        if (QString(c.name).startsWith("unreadable") && geteuid() == 0)
            QSKIP("running as root, which reads any file");
        const QString dir = caseDir(c);
        const QString message = expand(c.message, dir);
        QString shown, expected;
        if (c.area == Area::Dataset) {
            DatasetPanel panel;
            QSignalSpy failed(&panel, &DatasetPanel::loadFailed);
            panel.loadFolder(expand(c.args[2], dir));
            QVERIFY(failed.wait(fixtures::kHangGuardMs));
            shown = panel.errorText();
            expected = "Could not load the dataset: " + message;
        } else if (c.area == Area::Model) {
            ModelPanel panel;
            panel.setInput(12, 12, 3);
            panel.openModelFile(expand(c.args[4], dir));
            shown = panel.errorText();
            expected = (c.doesNotFit ? QString("This model does not fit 12×12 images with 3 classes: ")
                                     : QString("Could not use this model: ")) +
                       message;
        } else {
            MainWindow w;
            QSignalSpy loaded(w.datasetPanel(), &DatasetPanel::datasetLoaded);
            w.datasetPanel()->loadFolder(expand(c.args[c.args.indexOf("--data") + 1], dir));
            QVERIFY(loaded.wait(fixtures::kHangGuardMs));
            if (c.args.contains("--model"))
                w.modelPanel()->openModelFile(expand(c.args[c.args.indexOf("--model") + 1], dir));
            QSignalSpy evaluated(&w, &MainWindow::evaluationFinished);
            const QString path = expand(c.args[c.args.indexOf("--weights") + 1], dir);
            w.openWeights(path);
            QVERIFY(evaluated.wait(fixtures::kHangGuardMs));
            QCOMPARE(evaluated.first().first().toBool(), false);
            shown = w.statusBar()->currentMessage();
            expected = "Could not evaluate " + path + ": " + message;
        }
        if (m_print)
            std::printf("WINDOW %s\n  %s\n", c.name, qPrintable(shown));
        QCOMPARE(shown, expected);
    }
};

void TstBadInputs::buildCatalogue()
{
    const QStringList train = {"train", "--data", "{dir}", "--model", "{model}", "--epochs", "1", "--max-batches", "1"};
    auto data = [&](const char* name, std::function<void(const QString&)> make, const QString& message,
                    QStringList args = {}) {
        m_cases.push_back({name, Area::Dataset, std::move(make), args.isEmpty() ? train : args, 3, message});
    };
    auto damaged = [&](const char* name, std::function<void(const QString&)> damage, const QString& message) {
        data(
            name,
            [this, damage](const QString& dir) {
                copyToy(dir);
                damage(dir);
            },
            message);
    };
    auto replace = [&](const char* name, const char* file, const QByteArray& bytes, const QString& message) {
        damaged(
            name, [file, bytes](const QString& dir) { writeAll(dir + file, bytes); }, message);
    };
    const int imageBytes = 40 * 12 * 12;

    // IDX files.
    damaged(
        "truncated images", [](const QString& d) { writeAll(d + kTrainImages, readAll(d + kTrainImages).chopped(10)); },
        "train-images-idx3-ubyte: is truncated: the header declares 5760 data bytes but only 5750 are present");
    damaged(
        "overlong images", [](const QString& d) { writeAll(d + kTrainImages, readAll(d + kTrainImages) + "xyz"); },
        "train-images-idx3-ubyte: is longer than its header says: 3 extra bytes after the declared 5760");
    replace("empty file", kTrainImages, QByteArray(),
            "train-images-idx3-ubyte: the file is too short to hold an IDX header (0 bytes)");
    replace("header cut in the dimensions", kTrainImages, idx({40, 12, 12}, 0).left(10),
            "train-images-idx3-ubyte: the header is truncated (dimension 2 is missing)");
    {
        QByteArray b = idx({40, 12, 12}, imageBytes);
        b[0] = 0x1f;
        b[1] = char(0x8b);
        replace("wrong magic (gzip without .gz)", kTrainImages, b,
                "train-images-idx3-ubyte: not an IDX file but a gzip-compressed one: name it "
                "train-images-idx3-ubyte.gz, or decompress it (gunzip)");
    }
    replace("wrong dtype (float32)", kTrainImages, idx({40, 12, 12}, imageBytes * 4, 0x0d),
            "train-images-idx3-ubyte: holds IDX data type 0x0d; only unsigned bytes (0x08) are supported");
    replace("labels where images belong", kTrainImages, idx({40}, 40),
            "train-images-idx3-ubyte: has 1 dimensions; expected 3 (images, rows, columns)");
    replace("zero images", kTrainImages, idx({0, 12, 12}, 0),
            "train-images-idx3-ubyte: the header declares 0 images: the file holds none");
    replace("absurd dimension", kTrainImages, idx({0xffffffffu, 12, 12}, 0),
            "train-images-idx3-ubyte: dimension 1 is absurd (4294967295)");
    {
        const uint64_t total = uint64_t(2000000000) * 60000 * 2;
        const uint64_t limit = tb::idxSizeLimit();
        replace(
            "more than the memory holds", kTrainImages, idx({2000000000, 60000, 2}, 0),
            QString("train-images-idx3-ubyte: declares %1 bytes of data (%2), more than this machine can hold (%3); "
                    "the header is probably corrupt")
                .arg(QString::number(total), humanBytes(total), humanBytes(limit)));
    }
    damaged(
        "images larger than supported",
        [](const QString& d) {
            writeAll(d + kTrainImages, idx({1, 5000, 5000}, 5000 * 5000));
            writeAll(d + kTrainLabels, idx({1}, 1));
        },
        "train-images-idx3-ubyte: images of 5000x5000 pixels are larger than Trainbench supports (4096x4096)");
    replace("counts disagree", kTrainLabels, idx({39}, 39),
            "train-labels-idx1-ubyte holds 39 labels but train-images-idx3-ubyte holds 40 images");
    {
        QByteArray labels = idx({20}, 0);
        labels.append(QByteArray(19, char(1))).append(char(7));
        replace("test label outside the classes", kTestLabels, labels,
                "t10k-labels uses label 7 but the training labels only cover 0..2");
    }
    replace("a single class", kTrainLabels, idx({40}, 40).replace(8, 40, QByteArray(40, char(0))),
            "train-labels holds a single class (0); a classifier needs at least two");
    damaged(
        "classes.txt names too few", [](const QString& d) { writeAll(d + "/classes.txt", "shirt\nbag\n"); },
        "classes.txt names 2 classes but train-labels uses labels up to 2");
    damaged(
        "classes.txt names too many",
        [](const QString& d) {
            QByteArray b;
            for (int i = 0; i < 300; ++i)
                b += "class " + QByteArray::number(i) + "\n";
            writeAll(d + "/classes.txt", b);
        },
        "classes.txt names more than 256 classes; labels are single bytes, so 256 is the most");
    replace("test images of another size", "/t10k-images-idx3-ubyte", idx({20, 10, 10}, 2000),
            "train images are 12x12 but test images are 10x10");

    // gzip.
    auto gz = [](const QString& dir, const char* file, const QByteArray& raw) {
        QFile::remove(dir + file);
        fixtures::writeRaw((dir + file + ".raw").toStdString(), raw.toStdString());
        QVERIFY(QProcess::execute("gzip", {"-n", "-f", dir + file + ".raw"}) == 0);
        QVERIFY(QFile::rename(dir + file + ".raw.gz", dir + file + ".gz"));
    };
    damaged(
        "gzip bomb",
        [gz](const QString& d) {
            gz(d, kTrainImages, idx({40, 12, 12}, 64 << 20));
        },
        "train-images-idx3-ubyte.gz: is longer than its header says: extra bytes after the declared 5760");
    damaged(
        "gzip promising more than it holds",
        [gz](const QString& d) {
            gz(d, kTrainImages, idx({40000, 1000, 12}, 5760));
        },
        "train-images-idx3-ubyte.gz: is truncated: the header declares 480000000 data bytes but only 5760 are present");
    damaged(
        "gzip corrupt",
        [gz](const QString& d) {
            gz(d, kTrainImages, idx({40, 12, 12}, imageBytes));
            QByteArray b = readAll(d + kTrainImages + ".gz");
            for (int i = 30; i < 40; ++i)
                b[i] = char(0xff);
            writeAll(d + kTrainImages + ".gz", b);
        },
        "train-images-idx3-ubyte.gz: the gzip data is corrupt (invalid bit length repeat)");
    // Two spellings of one file (gunzip -k leaves both): the same data trains, different data is refused.
    damaged(
        "raw and gzip copies that differ",
        [gz](const QString& d) {
            const QByteArray original = readAll(d + kTrainLabels);
            QByteArray changed = original;
            changed[8] = char((changed[8] + 1) % 3);
            gz(d, kTrainLabels, changed); // in place of the raw file
            writeAll(d + kTrainLabels, original);
        },
        "train-labels-idx1-ubyte and train-labels-idx1-ubyte.gz in {dir} hold different data: keep the one you mean "
        "to train on");
    damaged(
        "raw and gzip copies that agree",
        [gz](const QString& d) {
            const QByteArray original = readAll(d + kTrainLabels);
            gz(d, kTrainLabels, original);
            writeAll(d + kTrainLabels, original);
            writeAll(d + "/t10k-images-idx3-ubyte", QByteArray()); // the case fails later, on the test images
        },
        "t10k-images-idx3-ubyte: the file is too short to hold an IDX header (0 bytes)");
    damaged(
        "gzip cut short",
        [gz](const QString& d) {
            gz(d, kTrainImages, idx({40, 12, 12}, imageBytes));
            writeAll(d + kTrainImages + ".gz", readAll(d + kTrainImages + ".gz").left(25));
        },
        "train-images-idx3-ubyte.gz: is truncated: its gzip data ends before the compressed stream does (a download or "
        "copy cut short?)");
    damaged(
        "gzip with bytes after its data",
        [gz](const QString& d) {
            gz(d, kTrainImages, idx({40, 12, 12}, imageBytes));
            writeAll(d + kTrainImages + ".gz", readAll(d + kTrainImages + ".gz") + "appended\n");
        },
        "train-images-idx3-ubyte.gz: has bytes after the end of its gzip data that are not gzip data (the file is "
        "damaged, or something was appended to it)");

    // The file system.
    data("missing folder", nullptr, "dataset folder {dir}/nope does not exist",
         {"train", "--data", "{dir}/nope", "--model", "{model}", "--epochs", "1"});
    data("a loop of symbolic links",
         [](const QString& d) {
             QFile::link(d + "/loop2", d + "/loop1");
             QFile::link(d + "/loop1", d + "/loop2");
         },
         "cannot read the dataset folder {dir}/loop1: Too many levels of symbolic links",
         {"train", "--data", "{dir}/loop1", "--model", "{model}", "--epochs", "1"});
    data("a file for the folder", [](const QString& d) { writeAll(d + "/file", QByteArray("\0\0\x08\x03", 4)); },
         "{dir}/file is a file; choose the folder that holds the IDX files (a text trains a text model, such as "
         "small-text-lstm)",
         {"train", "--data", "{dir}/file", "--model", "{model}", "--epochs", "1"});
    damaged(
        "missing labels", [](const QString& d) { QFile::remove(d + kTrainLabels); },
        "no train-labels-idx1-ubyte[.gz] file in {dir}");
    damaged(
        "a folder where a file should be",
        [](const QString& d) {
            QFile::remove(d + kTrainImages);
            QDir().mkpath(d + kTrainImages);
        },
        "train-images-idx3-ubyte in {dir} is a folder, not an IDX file");
    damaged(
        "symlink loop",
        [](const QString& d) {
            QFile::remove(d + kTrainImages);
            QVERIFY(::symlink("train-images-idx3-ubyte", qPrintable(d + kTrainImages)) == 0);
        },
        "train-images-idx3-ubyte in {dir} cannot be opened: Too many levels of symbolic links");
    damaged(
        "unreadable file", [](const QString& d) { QFile::setPermissions(d + kTrainImages, QFileDevice::WriteOwner); },
        "train-images-idx3-ubyte: cannot open: Permission denied");
    damaged(
        "a file that cannot be read (I/O error)",
        [](const QString& d) {
            QFile::remove(d + kTrainImages);
            QVERIFY(::symlink("/proc/self/mem", qPrintable(d + kTrainImages)) == 0);
        },
        "train-images-idx3-ubyte: read error: Input/output error");

    // Model descriptions.
    // doesNotFit: the model parses, and the network for the dataset's images cannot be built.
    auto model = [&](const char* name, const QByteArray& json, const QString& message, bool doesNotFit = false) {
        m_cases.push_back({name,
                           Area::Model,
                           [json](const QString& d) { writeAll(d + "/model.json", json); },
                           {"train", "--data", "{toy}", "--model", "{dir}/model.json", "--epochs", "1"},
                           3,
                           message,
                           doesNotFit});
    };
    // The JSON itself (nlohmann-json's messages; duplicates, deep nesting and overflowing numbers
    // are refused by engine/core/json_text.cpp).
    model(
        "model: not JSON", "{\"layers\": [",
        "{dir}/model.json: JSON error at line 1, column 13: unexpected end of input; expected '[', '{', or a literal");
    model("model: empty file", "",
          "{dir}/model.json: JSON error at line 1, column 1: unexpected end of input; expected '[', '{', or a literal");
    model("model: duplicate member", R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 3, "units": 4}]})",
          "{dir}/model.json: JSON error at line 1, column 71: duplicate member \"units\"");
    model("model: number overflow", R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 1e999}]})",
          "{dir}/model.json: JSON error at line 1, column 61: the number 1e999 is out of range");
    model("model: NaN",
          R"({"layers": [{"type": "Dropout", "rate": NaN}, {"type": "Flatten"}, {"type": "Dense", "units": 3}]})",
          "{dir}/model.json: JSON error at line 1, column 41: invalid literal");
    model("model: 100000 nested arrays",
          QByteArray(R"({"description": )") + QByteArray(100000, '[') + QByteArray(100000, ']') +
              R"(, "layers": [{"type": "Flatten"}, {"type": "Dense", "units": 3}]})",
          "{dir}/model.json: JSON error at line 1, column 80: nesting deeper than 64 levels");
    model("model: units beyond any integer",
          R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 99999999999999999999}]})",
          "{dir}/model.json, layer 2 (Dense): \"units\" must be between 1 and 1048576 (got 1e+20)");
    model("model: rate as text",
          R"({"layers": [{"type": "Dropout", "rate": "half"}, {"type": "Flatten"}, {"type": "Dense", "units": 3}]})",
          "{dir}/model.json, layer 1 (Dropout): \"rate\" must be a number");
    model("model: no layers", R"({"name": "x", "layers": []})",
          "{dir}/model.json: \"layers\" must be a non-empty array");
    model("model: unknown layer", R"({"layers": [{"type": "Conv3D"}]})",
          "{dir}/model.json, layer 1: unknown layer type \"Conv3D\" (known: Conv2D, BatchNormalization, MaxPooling2D, "
          "Dropout, Flatten, Reshape, Dense, Activation, ReLU, ELU, Softmax, Embedding, LSTM)");
    model("model: unknown activation",
          R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 3, "activation": "swish2"}]})",
          "{dir}/model.json, layer 2 (Dense): unknown activation \"swish2\" (supported: relu, elu, softmax, linear)");
    model("model: zero units", R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 0}]})",
          "{dir}/model.json, layer 2 (Dense): \"units\" must be between 1 and 1048576 (got 0)");
    model("model: units as text", R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": "ten"}]})",
          "{dir}/model.json, layer 2 (Dense): \"units\" must be a whole number or \"classes\"");
    model(
        "model: kernel larger than the image",
        R"({"layers": [{"type": "Conv2D", "filters": 2, "kernel_size": 30}, {"type": "Flatten"}, {"type": "Dense", "units": 3, "activation": "softmax"}]})",
        "{dir}/model.json, layer 1 (conv2d, Conv2D): a 30x30 kernel does not fit its input (None, 12, 12, 1) with "
        "\"valid\" padding",
        true);
    model("model: dropout rate 1",
          R"({"layers": [{"type": "Dropout", "rate": 1.0}, {"type": "Flatten"}, {"type": "Dense", "units": 3}]})",
          "{dir}/model.json, layer 1 (Dropout): \"rate\" must be in [0, 1) (got 1)");
    model("model: output does not match the classes",
          R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 5, "activation": "softmax"}]})",
          "{dir}/model.json: the model's output (None, 5) does not match the dataset's 3 classes: the final Dense "
          "layer needs 3 units",
          true);
    {
        // 144 x 2^20 + 2^20 x 2^20 + ... weights: refused from the shapes before any layer is built (the
        // first Dense's 600 MB included), naming the layer over the limit, with its weights and bias.
        const uint64_t weights = 1048576ull * 1048576 + 1048576;
        model(
            "model: too large for memory",
            R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 1048576}, {"type": "Dense", "units": 1048576}, {"type": "Dense", "units": 3, "activation": "softmax"}]})",
            QString("{dir}/model.json, layer 3 (dense_1, Dense): the layer has %1 weights (%2), more than can be "
                    "trained in %3")
                .arg(QString::number(weights), humanBytes(weights * 4), QString::fromStdString(tb::memoryLimitText())),
            true);
    }
    m_cases.push_back({"model: missing file",
                       Area::Model,
                       nullptr,
                       {"train", "--data", "{toy}", "--model", "{dir}/none.json", "--epochs", "1"},
                       3,
                       "\"{dir}/none.json\" is neither a preset (tpu-mnist-cnn, colab-fashion-cnn, keras-mnist-cnn, "
                       "shakespeare-lstm, "
                       "small-text-lstm) nor a "
                       "readable model file"});
    m_cases.push_back({"model: a weights file",
                       Area::Model,
                       [](const QString& d) { fixtures::writeRaw((d + "/w.tbw").toStdString(), "TBWGHT01\x10rest"); },
                       {"train", "--data", "{toy}", "--model", "{dir}/w.tbw", "--epochs", "1"},
                       3,
                       "{dir}/w.tbw is a Trainbench weights file, not a model description: --model takes a preset or "
                       "a model's JSON file (a command that reads weights takes them with --weights)"});
    m_cases.push_back({"model: a folder",
                       Area::Model,
                       [](const QString& d) { QDir().mkpath(d + "/model.json"); },
                       {"train", "--data", "{toy}", "--model", "{dir}/model.json", "--epochs", "1"},
                       5,
                       "cannot read {dir}/model.json: it is a folder, not a file"});
    // 1e40 is a double, and infinite in single precision: every input would be.
    model(
        "model: input_scale beyond single precision",
        R"({"input_scale": 1e40, "layers": [{"type": "Flatten"}, {"type": "Dense", "units": 3, "activation": "softmax"}]})",
        "{dir}/model.json: \"input_scale\" must be a number between 1e-30 and 1e30");

    // Weights files.
    auto weights = [&](const char* name, std::function<void(const QString&)> make, const QString& message,
                       const QStringList& extra = {}) {
        m_cases.push_back({name, Area::Weights, std::move(make),
                           QStringList{"evaluate", "--data", "{toy}", "--weights", "{dir}/w.tbw"} + extra, 5, message});
    };
    weights(
        "weights: truncated", [this](const QString& d) { writeAll(d + "/w.tbw", readAll(m_weights).chopped(100)); },
        "{dir}/w.tbw: the file is corrupt or truncated (checksum mismatch)");
    weights(
        "weights: bad magic",
        [this](const QString& d) { writeAll(d + "/w.tbw", "XXXXXXXX" + readAll(m_weights).mid(8)); },
        "{dir}/w.tbw: not a Trainbench weights file (.tbw) nor a safetensors file");
    weights(
        "weights: cut after the magic",
        [this](const QString& d) { writeAll(d + "/w.tbw", readAll(m_weights).left(12)); },
        "{dir}/w.tbw: the file is truncated (12 bytes)");
    weights(
        "weights: empty", [](const QString& d) { writeAll(d + "/w.tbw", QByteArray()); },
        "{dir}/w.tbw is empty: not a weights file");
    weights(
        "weights: a run folder",
        [this](const QString& d) {
            QDir().mkpath(d + "/w.tbw");
            writeAll(d + "/w.tbw/run.json", "{}");
            writeAll(d + "/w.tbw/weights.tbw", readAll(m_weights));
        },
        "{dir}/w.tbw is a run folder: its trained weights are {dir}/w.tbw/weights.tbw");
    weights(
        "weights: a folder", [](const QString& d) { QDir().mkpath(d + "/w.tbw"); },
        "cannot read {dir}/w.tbw: it is a folder, not a file");
    weights(
        "weights: NaN",
        [this](const QString& d) {
            // The first weight made NaN and the checksum recomputed: a file that passes the SHA-256.
            QByteArray b = readAll(m_weights).chopped(32);
            uint64_t hlen = 0;
            std::memcpy(&hlen, b.constData() + 8, 8);
            const float nan = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(b.data() + 16 + hlen, &nan, 4);
            writeAll(d + "/w.tbw", b + QCryptographicHash::hash(b, QCryptographicHash::Sha256));
        },
        "{dir}/w.tbw: weight 0 is not a finite number (NaN or infinity); the file is damaged");
    // The header edited and the checksum recomputed: values of the wrong type are refused by name.
    weights(
        "weights: a class name that is a number",
        [this](const QString& d) {
            QByteArray b = readAll(m_weights).chopped(32);
            uint64_t hlen = 0;
            std::memcpy(&hlen, b.constData() + 8, 8);
            QByteArray header = b.mid(16, int(hlen));
            QVERIFY(header.contains("\"class_names\":["));
            header.replace("\"class_names\":[", "\"class_names\":[7,");
            const uint64_t n = uint64_t(header.size());
            b = b.left(8) + QByteArray(reinterpret_cast<const char*>(&n), 8) + header + b.mid(16 + int(hlen));
            writeAll(d + "/w.tbw", b + QCryptographicHash::hash(b, QCryptographicHash::Sha256));
        },
        "{dir}/w.tbw: the header's \"class_names\" holds a number, not a string; the file is corrupt");
    weights(
        "weights: of another model",
        [](const QString& d) {
            QDir().mkpath(d + "/data");
            fixtures::writeToyDataset((d + "/data").toStdString(), 40, 20, 28, 3, false);
        },
        "the model was trained on 12x12 images but {dir}/data holds 28x28 images");
    m_cases.back().args = {"evaluate", "--data", "{dir}/data", "--weights", "{weights}"};
    m_cases.back().code = 3;
    m_cases.back().cliPrefix = "{weights}: "; // "Could not evaluate {weights}: ..." in the window

    // Options: train/run_limits.hpp's limits, checked by the training options' table
    // (train/train_options.hpp), which names the option.
    auto option = [&](const char* name, const QStringList& extra, const QString& message) {
        m_cases.push_back({name, Area::Option, nullptr,
                           QStringList{"train", "--data", "{toy}", "--model", "{model}"} + extra, 2, message});
    };
    option("option: zero epochs", {"--epochs", "0"}, "--epochs must be between 1 and 100000 (got 0)");
    option("option: batch size 0", {"--batch", "0"}, "--batch must be between 1 and 65536 (got 0)");
    option("option: negative learning rate", {"--lr", "-1"},
           "--lr must be a positive number within a float's range, 1.4e-45 to 3.4e38 (got -1)");
    option("option: size multiplier 17", {"--size-multiplier", "17"},
           "--size-multiplier must be between 1 and 16 (got 17)");
    {
        // The toy model on 192x192 images (12x12 times 16), 65536 a batch: its buffers are estimated
        // and refused before the run allocates them.
        tb::Network net(tb::parseModelSpec(fixtures::toyModelJson(), "toy"), tb::Shape::image(192, 192, 1), 3);
        const uint64_t need = tb::CpuExecutor::trainingBytes(net, 65536, 2, 16);
        if (need > tb::physicalMemoryBytes())
            option("option: a batch that cannot fit in memory",
                   {"--batch", "65536", "--size-multiplier", "16", "--threads", "2"},
                   QString("a batch of 65536 images of 192x192 needs about %1 for training, more than %2; use a "
                           "smaller batch or size multiplier")
                       .arg(humanBytes(need), QString::fromStdString(tb::memoryLimitText())));
    }
    option("option: not a number", {"--threads", "many"}, "--threads needs a whole number, not \"many\"");
}

QTEST_MAIN(TstBadInputs)
#include "tst_bad_inputs.moc"
