// The weights exports: safetensors round trips (same weights to the bit, same predictions, same
// hash), the PyTorch names and layouts of the presets (bench/pytorch_bench.py's modules), and the
// reader's answers to files that lie. onnxruntime and PyTorch themselves run in tests/interop.
#include "fixtures.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/rng.hpp"
#include "data/dataset.hpp"
#include "io/onnx_export.hpp"
#include "io/safetensors.hpp"
#include "io/torch_layout.hpp"
#include "io/weights_formats.hpp"
#include "train/cpu_executor.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

namespace {
tb::WeightsFile randomWeights(const std::string& model, tb::Shape input, int classes, uint64_t seed)
{
    tb::WeightsFile w;
    w.spec = tb::loadModelSpec(model);
    w.input = input;
    for (int c = 0; c < classes; ++c)
        w.classNames.push_back("class " + std::to_string(c));
    tb::Network net(w.spec, input, classes);
    net.initialize(seed);
    // Moving statistics and biases away from their initial 0/1, so that a misplaced value shows.
    tb::Rng rng(seed + 1);
    for (float& v : net.params())
        v += 0.05f * (2.0f * rng.uniform() - 1.0f);
    for (float& v : net.state())
        v = 0.2f + rng.uniform();
    w.params = net.params();
    w.state = net.state();
    return w;
}

// A safetensors file split into its header and data, to be edited and put back together.
using Json = nlohmann::ordered_json;

struct Split {
    Json header;
    std::string data;
};

Split split(const std::string& bytes)
{
    uint64_t n = 0;
    std::memcpy(&n, bytes.data(), 8);
    return {tb::parseJson(bytes.substr(8, n)), bytes.substr(8 + n)};
}

std::string join(const Json& header, const std::string& data)
{
    const std::string h = tb::jsonText(header);
    std::string out(8, '\0');
    const uint64_t n = h.size();
    std::memcpy(out.data(), &n, 8);
    return out + h + data;
}

Json& member(Json& o, const std::string& key)
{
    return o[key];
}

Json offsets(uint64_t b, uint64_t e)
{
    return {b, e};
}

// The message of the error parseSafetensors throws (of type E), or "" when it throws none.
// The file as another program (PyTorch) writes it: without Trainbench's metadata.
std::string withoutMetadata(const std::string& bytes)
{
    const Split s = split(bytes);
    Json h = Json::object();
    for (const auto& [k, v] : s.header.items())
        if (k != "__metadata__")
            h[k] = v;
    return join(h, s.data);
}

template <typename E> QString errorOf(const std::string& bytes, const tb::ModelHint* hint = nullptr)
{
    try {
        tb::parseSafetensors(bytes, "f.safetensors", hint);
    } catch (const tb::Error& e) {
        bool right = true;
        if constexpr (!std::is_same_v<E, tb::Error>)
            right = dynamic_cast<const E*>(&e) != nullptr;
        return (right ? "" : "wrong error type: ") + QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TstExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void safetensorsRoundTripKeepsWeightsHashAndPredictions_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("classes");
        QTest::newRow("toy") << QString::fromStdString(m_tmp.path().toStdString() + "/toy.json") << 12 << 3;
        for (const std::string& p : tb::presetNames())
            if (!tb::loadModelSpec(p).isText()) // image models; text exports are refused (tst_text)
                QTest::newRow(p.c_str()) << QString::fromStdString(p) << 28 << 10;
    }
    void safetensorsRoundTripKeepsWeightsHashAndPredictions()
    {
        QFETCH(QString, model);
        QFETCH(int, side);
        QFETCH(int, classes);
        const std::string dir = m_tmp.path().toStdString() + "/data" + std::to_string(side);
        fixtures::writeRaw(m_tmp.path().toStdString() + "/toy.json", fixtures::toyModelJson());
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        fixtures::writeToyDataset(dir, 20, 40, side, classes);
        const tb::Dataset data = tb::loadDataset(dir);
        const tb::WeightsFile w = randomWeights(model.toStdString(), tb::Shape::image(side, side, 1), classes, 7);
        const std::string path = m_tmp.path().toStdString() + "/w.safetensors";
        tb::saveWeightsAs(path, w, tb::weightsFormatOfPath(path));
        const tb::WeightsFile back = tb::loadAnyWeights(path);
        QVERIFY(back.params == w.params);
        QVERIFY(back.state == w.state);
        QCOMPARE(back.classNames, w.classNames);
        QVERIFY(back.input == w.input);
        QCOMPARE(back.spec.name, w.spec.name);

        tb::Network a = w.buildNetwork(), b = back.buildNetwork();
        QCOMPARE(b.weightsSha256(), a.weightsSha256());
        tb::CpuExecutor ea(a, 2), eb(b, 2);
        const tb::EvalResult ra = ea.evaluate(data.test, 1, 0, tb::EvalKeeps::Probabilities),
                             rb = eb.evaluate(data.test, 1, 0, tb::EvalKeeps::Probabilities);
        QVERIFY(ra.predicted == rb.predicted);
        QVERIFY(ra.probs == rb.probs);

        // The file records the hash it was written with.
        const Split s = split(tb::readWholeFile(path));
        QCOMPARE(s.header["__metadata__"]["weights_sha256"].get<std::string>(), a.weightsSha256());
        // Export is a pure function of the weights.
        QVERIFY(tb::safetensorsBytes(a, w.classNames) == tb::safetensorsBytes(b, back.classNames));
        QVERIFY(tb::onnxModel(a, w.classNames) == tb::onnxModel(b, back.classNames));
    }

    // Names and shapes of bench/pytorch_bench.py's tpu_mnist_cnn() state_dict.
    void tpuPresetHasPyTorchNames()
    {
        const tb::Network net(tb::loadModelSpec("tpu-mnist-cnn"), tb::Shape::image(28, 28, 1), 10);
        QStringList names;
        for (const tb::TorchTensor& t : tb::torchLayout(net)) {
            QStringList dims;
            for (int64_t d : t.shape)
                dims << QString::number(d);
            names << QString::fromStdString(t.name) + "(" + dims.join(",") + ")";
        }
        auto bn = [](int i, int c) {
            const QString s = QString::number(i) + ".", n = QString::number(c);
            return QStringList{s + "weight(" + n + ")", s + "bias(" + n + ")", s + "running_mean(" + n + ")",
                               s + "running_var(" + n + ")", s + "num_batches_tracked()"};
        };
        QStringList expected{"0.weight(12,1,3,3)"};
        expected << bn(1, 12) << "4.weight(24,12,6,6)" << bn(5, 24) << "8.weight(64,24,6,6)" << bn(9, 64)
                 << "12.weight(200,3136)" << bn(13, 200) << "16.weight(10,200)"
                 << "16.bias(10)";
        QCOMPARE(names, expected);
    }

    void colabPresetHasPyTorchNames()
    {
        const tb::Network net(tb::loadModelSpec("colab-fashion-cnn"), tb::Shape::image(28, 28, 1), 10);
        QStringList names;
        for (const tb::TorchTensor& t : tb::torchLayout(net))
            if (!QString::fromStdString(t.name).contains("running") && !QString::fromStdString(t.name).contains("num_"))
                names << QString::fromStdString(t.name);
        QCOMPARE(names, (QStringList{"0.weight", "0.bias", "1.weight", "1.bias", "5.weight", "5.bias", "6.weight",
                                     "6.bias", "10.weight", "10.bias", "11.weight", "11.bias", "16.weight", "16.bias",
                                     "19.weight", "19.bias"}));
    }

    // PyTorch flattens (C, H, W), Keras (H, W, C): the Linear after Flatten gets its columns permuted.
    void denseAfterFlattenIsPermutedToPyTorchOrder()
    {
        const tb::WeightsFile w = randomWeights("keras-mnist-cnn", tb::Shape::image(28, 28, 1), 10, 3);
        const tb::Network net = w.buildNetwork();
        int dense = -1;
        for (int i = 0; i < net.layerCount(); ++i)
            if (net.layer(i).kind() == tb::LayerKind::Dense) {
                dense = i;
                break;
            }
        QVERIFY(dense > 0);
        const tb::Shape in = net.layer(dense - 2).outShape(); // before Dropout and Flatten: (12, 12, 64)
        QCOMPARE(in.c, 64);
        const Split s = split(tb::safetensorsBytes(net, w.classNames));
        const Json& e = s.header["7.weight"];
        QCOMPARE(tb::jsonText(e["shape"]), std::string("[128,9216]"));
        const float* torchW = reinterpret_cast<const float*>(s.data.data() + e["data_offsets"][0].get<int64_t>());
        const float* kernel = net.params().data() + net.paramOffset(dense); // (F, units), F in (h, w, c) order
        for (int u : {0, 5, 127})
            for (int c : {0, 1, 63})
                for (int y : {0, 7, 11})
                    for (int x : {0, 3, 11}) {
                        const int64_t t = (int64_t(c) * in.h + y) * in.w + x, k = (int64_t(y) * in.w + x) * in.c + c;
                        QCOMPARE(torchW[u * 9216 + t], kernel[k * 128 + u]);
                    }
    }

    void liesInTheHeaderAreRefusedNamingTheTensor()
    {
        const tb::WeightsFile w = randomWeights("tpu-mnist-cnn", tb::Shape::image(28, 28, 1), 10, 5);
        const tb::Network net = w.buildNetwork();
        const std::string good = tb::safetensorsBytes(net, w.classNames);
        QVERIFY(errorOf<tb::Error>(good).isEmpty());

        // An enormous header length, and a file shorter than the length field.
        std::string bytes = good;
        const uint64_t huge = 0x7fffffffffffffffull;
        std::memcpy(bytes.data(), &huge, 8);
        QVERIFY(
            errorOf<tb::IoError>(bytes).contains("header length (9223372036854775807 bytes) is larger than the file"));
        QVERIFY(errorOf<tb::IoError>(good.substr(0, 5)).contains("shorter than the 8-byte header length"));
        QVERIFY(errorOf<tb::IoError>(good.substr(0, good.size() - 4)).contains("lie outside"));
        QVERIFY(errorOf<tb::IoError>(join(Json::array({1, 2}), "")).contains("not a JSON object"));
        QVERIFY(errorOf<tb::IoError>(std::string(8, '\0') + "x").contains("not valid JSON"));

        Split s = split(good);
        const uint64_t dataSize = s.data.size();
        // Offsets outside the data.
        {
            Split t = s;
            member(t.header, "16.bias")["data_offsets"] = offsets(dataSize - 40, dataSize + 1000000);
            const QString e = errorOf<tb::IoError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"16.bias\"") && e.contains("lie outside"), qPrintable(e));
        }
        // Two tensors over the same bytes (and so a hole elsewhere).
        {
            Split t = s;
            const uint64_t begin = t.header["0.weight"]["data_offsets"][0].get<uint64_t>();
            member(t.header, "1.bias")["data_offsets"] = offsets(begin, begin + 48);
            const QString e = errorOf<tb::IoError>(join(t.header, t.data));
            QVERIFY2(e.contains("overlap") && e.contains("\"1.bias\""), qPrintable(e));
        }
        // Bytes that belong to no tensor.
        {
            const QString e = errorOf<tb::IoError>(join(s.header, s.data + std::string(16, '\0')));
            QVERIFY2(e.contains("16 bytes after its last tensor"), qPrintable(e));
        }
        // A shape that does not match the byte range.
        {
            Split t = s;
            member(t.header, "16.bias")["shape"] = Json::array({11});
            const QString e = errorOf<tb::IoError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"16.bias\"") && e.contains("needs 44 bytes but its data_offsets span 40"),
                     qPrintable(e));
        }
        // A shape too large for any file (the product must not overflow).
        {
            Split t = s;
            const int64_t big = int64_t(1) << 40;
            member(t.header, "16.bias")["shape"] = Json::array({big, big, big, big});
            const QString e = errorOf<tb::IoError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"16.bias\""), qPrintable(e));
        }
        // The right size in the wrong dtype and the wrong shape.
        {
            Split t = s;
            member(t.header, "16.bias")["dtype"] = "I32";
            const QString e = errorOf<tb::ModelError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"16.bias\"") && e.contains("is I32 but must be F32"), qPrintable(e));
        }
        {
            Split t = s;
            member(t.header, "16.bias")["shape"] = Json::array({2, 5});
            const QString e = errorOf<tb::ModelError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"16.bias\"") && e.contains("has shape [2, 5] but the model needs [10]"),
                     qPrintable(e));
        }
        {
            Split t = s;
            member(t.header, "16.bias")["dtype"] = "X99";
            QVERIFY(errorOf<tb::IoError>(join(t.header, t.data)).contains("no known \"dtype\""));
        }
        // A BatchNorm without scale: PyTorch's weight must stay ones.
        {
            Split t = s;
            const size_t at = t.header["1.weight"]["data_offsets"][0].get<size_t>();
            const float half = 0.5f;
            std::memcpy(t.data.data() + at + 8, &half, 4);
            const QString e = errorOf<tb::ModelError>(join(t.header, t.data));
            QVERIFY2(e.contains("\"1.weight\"") && e.contains("must be all ones") && e.contains("index 2"),
                     qPrintable(e));
        }
        // A NaN among the weights.
        {
            Split t = s;
            const size_t at = t.header["16.bias"]["data_offsets"][0].get<size_t>();
            const float nan = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(t.data.data() + at, &nan, 4);
            // Damaged, as a .tbw holding one is: exit code 5 for both.
            const QString e = errorOf<tb::IoError>(join(t.header, t.data));
            QVERIFY2(
                e.contains("\"16.bias\"") &&
                    e.contains("NaN or infinite value at index 0: a diverged run's weights, or the file is damaged"),
                qPrintable(e));
        }
        // A tensor missing (the last one, with its bytes), and one too many.
        {
            Split t = s;
            Json h = Json::object();
            for (const auto& [k, v] : t.header.items())
                if (k != "16.bias")
                    h[k] = v;
            const QString e = errorOf<tb::ModelError>(join(h, t.data.substr(0, t.data.size() - 40)));
            QVERIFY2(e.contains("lacks tensor \"16.bias\""), qPrintable(e));
        }
        {
            Split t = s;
            Json extra = Json::object();
            extra["dtype"] = "F32";
            extra["shape"] = Json::array();
            extra["data_offsets"] = offsets(dataSize, dataSize + 4);
            member(t.header, "99.weight") = extra;
            const QString e = errorOf<tb::ModelError>(join(t.header, t.data + std::string(4, '\0')));
            QVERIFY2(e.contains("\"99.weight\"") && e.contains("has no place in tpu-mnist-cnn"), qPrintable(e));
        }
    }

    // A file whose own model description needs far more weights than it holds is refused before
    // that model is built.
    void anEnormousModelDescriptionIsNotBuilt()
    {
        const tb::WeightsFile w = randomWeights("tpu-mnist-cnn", tb::Shape::image(28, 28, 1), 10, 5);
        Split s = split(tb::safetensorsBytes(w.buildNetwork(), w.classNames));
        std::string model = s.header["__metadata__"]["model"].get<std::string>();
        const size_t at = model.find("\"units\":200");
        QVERIFY(at != std::string::npos);
        model.replace(at, std::strlen("\"units\":200"), "\"units\":1000000");
        member(member(s.header, "__metadata__"), "model") = model;
        const QString e = errorOf<tb::ModelError>(join(s.header, s.data));
        QVERIFY2(e.contains("needs at least 12600264728") && e.contains("the file holds 2784760"), qPrintable(e));
    }

    // A text model of another program takes its vocabulary from the text the reader gives: where the
    // sizes differ, the message names the vocabulary (bytes give 256; the text's characters another
    // count), not "another model". The file says whether it named its model.
    void aTextModelOfAnotherVocabularyIsNamed()
    {
        const tb::WeightsFile w = randomWeights("small-text-lstm", tb::Shape::tokenIds(48), 76, 5);
        const std::string bytes = tb::safetensorsBytes(w.buildNetwork(), w.classNames);
        QVERIFY(tb::parseSafetensors(bytes, "own").describesModel);
        const std::string foreign = withoutMetadata(bytes);
        const tb::ModelSpec spec = tb::loadModelSpec("small-text-lstm");
        tb::ModelHint hint;
        hint.spec = &spec;
        hint.input = w.input;
        const auto withSymbols = [&](int n) {
            hint.classNames.assign(size_t(n), "61");
            return errorOf<tb::ModelError>(foreign, &hint);
        };
        const QString asBytes = withSymbols(256);
        QVERIFY2(
            asBytes.startsWith("f.safetensors: its model has 76 symbols (tensor \"dense.weight\" is [76, 128]), and "
                               "the text read as bytes gives 256: a character-level model needs the vocabulary "
                               "of characters"),
            qPrintable(asBytes));
        const QString otherText = withSymbols(79);
        QVERIFY2(otherText.endsWith("and the characters of the text give 79: it learned from another text, or from "
                                    "bytes (--vocabulary bytes)"),
                 qPrintable(otherText));
        QVERIFY(withSymbols(76).isEmpty());
        QVERIFY(!tb::parseSafetensors(foreign, "foreign", &hint).describesModel);
    }

    void aFileOfAnotherModelIsRefused()
    {
        const tb::WeightsFile w = randomWeights("tpu-mnist-cnn", tb::Shape::image(28, 28, 1), 10, 5);
        const std::string bytes = tb::safetensorsBytes(w.buildNetwork(), w.classNames);
        // Without Trainbench's metadata (as PyTorch writes it) the caller must name the model.
        const std::string foreign = withoutMetadata(bytes);
        QVERIFY(errorOf<tb::ModelError>(foreign).contains("--model"));

        const tb::ModelSpec colab = tb::loadModelSpec("colab-fashion-cnn");
        tb::ModelHint hint;
        hint.spec = &colab;
        hint.input = w.input;
        hint.classNames = w.classNames;
        const QString e = errorOf<tb::ModelError>(foreign, &hint);
        QVERIFY2(e.contains("\"0.weight\"") && e.contains("[12, 1, 3, 3]") && e.contains("another model"),
                 qPrintable(e));
        // A file that describes itself is read as what it says it is.
        QVERIFY(tb::parseSafetensors(bytes, "own", &hint).spec.name == "tpu-mnist-cnn");

        const tb::ModelSpec tpu = tb::loadModelSpec("tpu-mnist-cnn");
        tb::ModelHint ok;
        ok.spec = &tpu;
        ok.input = w.input;
        ok.classNames = w.classNames;
        const tb::WeightsFile back = tb::parseSafetensors(foreign, "foreign", &ok);
        QVERIFY(back.params == w.params);
        QVERIFY(back.state == w.state);
        ok.classNames.pop_back(); // a dataset with 9 classes: the preset's classifier then has 9 units
        const QString nine = errorOf<tb::ModelError>(foreign, &ok);
        QVERIFY2(nine.contains("[10, 200]") && nine.contains("[9, 200]"), qPrintable(nine));
    }

    // The hint's dataset is asked for only by a file that needs it (no metadata, a model named): the
    // CLI reads its dataset, a text for a text model, only then, and once.
    void theHintsDatasetIsAskedForOnlyWhenNeeded()
    {
        const tb::WeightsFile w = randomWeights("tpu-mnist-cnn", tb::Shape::image(28, 28, 1), 10, 5);
        const std::string bytes = tb::safetensorsBytes(w.buildNetwork(), w.classNames);
        tb::Dataset data;
        data.train.height = data.train.width = 28;
        data.classNames = w.classNames;
        const tb::ModelSpec tpu = tb::loadModelSpec("tpu-mnist-cnn");
        int asked = 0;
        tb::ModelHint hint;
        hint.spec = &tpu;
        hint.dataset = [&] {
            ++asked;
            return &data;
        };
        QVERIFY(tb::parseSafetensors(bytes, "own", &hint).describesModel);
        QCOMPARE(asked, 0);
        const tb::WeightsFile back = tb::parseSafetensors(withoutMetadata(bytes), "foreign", &hint);
        QCOMPARE(asked, 1);
        QVERIFY(back.params == w.params);
        QCOMPARE(back.classNames, w.classNames);
        QCOMPARE(back.input.keras(), w.input.keras());
        hint.spec = nullptr; // no model named: refused before any dataset is read
        QVERIFY(errorOf<tb::ModelError>(withoutMetadata(bytes), &hint).contains("--model"));
        QCOMPARE(asked, 1);
    }

    void formatsByNameAndExtension()
    {
        QVERIFY(tb::weightsFormatOfPath("a/b.safetensors") == tb::WeightsFormat::Safetensors);
        QVERIFY(tb::weightsFormatOfPath("b.onnx") == tb::WeightsFormat::Onnx);
        QVERIFY(tb::weightsFormatOfPath("b.tbw") == tb::WeightsFormat::Trainbench);
        QCOMPARE(tb::withWeightsExtension("runs.d/run.tbw", tb::WeightsFormat::Onnx), std::string("runs.d/run.onnx"));
        QCOMPARE(tb::withWeightsExtension("runs.d/run", tb::WeightsFormat::Safetensors),
                 std::string("runs.d/run.safetensors"));
        QVERIFY(!tb::parseWeightsFormat("pt"));
        bool threw = false;
        try {
            tb::loadAnyWeights(m_tmp.path().toStdString() + "/x.onnx");
        } catch (const tb::IoError& e) {
            threw = QString(e.what()).contains("export");
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TstExport)
#include "tst_export.moc"
