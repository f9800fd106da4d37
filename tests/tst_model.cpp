// Presets match Keras' parameter counts; model files are validated with messages naming the layer.
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "fixtures.hpp"
#include "io/torch_layout.hpp"
#include "layers/batch_norm.hpp"
#include "layers/layer_type.hpp"
#include "model/network.hpp"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace tb;

class TstModel : public QObject {
    Q_OBJECT

    static Network build(const std::string& json, int side = 28, int classes = 10)
    {
        return Network(parseModelSpec(json, "test.json"), Shape::image(side, side, 1), classes);
    }

    void expectModelError(const std::string& json, std::initializer_list<const char*> fragments, int classes = 10)
    {
        try {
            build(json, 28, classes);
            QFAIL("expected a ModelError");
        } catch (const ModelError& e) {
            const QString msg = QString::fromStdString(e.what());
            for (const char* f : fragments)
                QVERIFY2(msg.contains(QString::fromUtf8(f)), qPrintable("message was: " + msg));
        }
    }

private slots:
    void initTestCase()
    {
        const std::string why = fixtures::isaUnavailable();
        if (!why.empty())
            QSKIP(why.c_str());
        qInfo("kernels: %s", tb::describeKernels(tb::defaultKernels()).c_str());
    }

    void presetCounts_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("trainable");
        QTest::newRow("colab") << "colab-fashion-cnn" << qint64(1619470) << qint64(1619084);
        QTest::newRow("tpu") << "tpu-mnist-cnn" << qint64(695882) << qint64(695282);
        QTest::newRow("keras") << "keras-mnist-cnn" << qint64(1199882) << qint64(1199882);
    }
    void presetCounts()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, total);
        QFETCH(qint64, trainable);
        const Network net(loadModelSpec(preset.toStdString()), Shape::image(28, 28, 1), 10);
        QCOMPARE(net.paramCount() + net.stateCount(), total);
        QCOMPARE(net.paramCount(), trainable);
        const QString summary = QString::fromStdString(net.summary());
        QVERIFY(summary.contains("Total params: " + QLocale(QLocale::English).toString(total)));
        QVERIFY(summary.contains("Trainable params: " + QLocale(QLocale::English).toString(trainable)));
    }

    // A preset is an architecture: its classifier takes the dataset's class count (and the image
    // size), so a 26-class dataset of 32x32 letters fits every preset; a model file that fixes its
    // units keeps the clear error, and "units": "classes" is open to model files too.
    void presetsAdaptToTheClasses()
    {
        for (const std::string& name : presetNames()) {
            if (loadModelSpec(name).isText()) // tst_text covers the text presets
                continue;
            const Network net(loadModelSpec(name), Shape::image(32, 32, 1), 26);
            QCOMPARE(net.layer(net.layerCount() - 1).outShape().size(), int64_t(26));
            QVERIFY2(net.summary().find("(None, 26)") != std::string::npos, net.summary().c_str());
        }
        expectModelError(
            R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 10, "activation": "softmax"}]})",
            {"does not match the dataset's 26 classes", "needs 26 units"}, 26);
        const Network own = build(
            R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": "classes", "activation": "softmax"}]})", 28,
            3);
        QCOMPARE(own.layer(own.layerCount() - 1).outShape().size(), int64_t(3));
        expectModelError(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": "ten"}]})",
                         {"\"units\" must be a whole number or \"classes\""});
    }

    void summaryShapes()
    {
        const Network net(loadModelSpec("tpu-mnist-cnn"), Shape::image(28, 28, 1), 10);
        const QString s = QString::fromStdString(net.summary());
        QVERIFY(s.contains("conv2d_1 (Conv2D)"));
        QVERIFY(s.contains("(None, 14, 14, 24)"));
        QVERIFY(s.contains("(None, 7, 7, 64)"));
        QVERIFY(s.contains("(None, 3136)"));
    }

    // A ReLU right after a BatchNorm runs inside it; other activations stay layers of their own
    // (linear and softmax ones pass through).
    void reluAfterBatchNormIsFused()
    {
        const Network net = build(R"({"layers": [
            {"type": "Conv2D", "filters": 8, "kernel_size": 3, "use_bias": false},
            {"type": "BatchNormalization"}, {"type": "Activation", "activation": "relu"},
            {"type": "Conv2D", "filters": 8, "kernel_size": 3, "activation": "relu"},
            {"type": "BatchNormalization"}, {"type": "Activation", "activation": "elu"},
            {"type": "Flatten"}, {"type": "Dense", "units": 10}, {"type": "Activation", "activation": "softmax"}]})");
        QVERIFY(static_cast<const BatchNorm&>(net.layer(1)).fusedRelu());
        QVERIFY(net.layer(2).passThrough());
        QVERIFY(!static_cast<const BatchNorm&>(net.layer(4)).fusedRelu());
        QVERIFY(!net.layer(5).passThrough());
        QVERIFY(net.layer(8).passThrough());
        QCOMPARE(int(net.layer(2).kind()), int(LayerKind::Activation)); // the summary still lists it
    }

    void initializationIsSeededGlorot()
    {
        Network a(loadModelSpec("keras-mnist-cnn"), Shape::image(28, 28, 1), 10);
        Network b(loadModelSpec("keras-mnist-cnn"), Shape::image(28, 28, 1), 10);
        a.initialize(5);
        b.initialize(5);
        QCOMPARE(a.weightsSha256(), b.weightsSha256());
        b.initialize(6);
        QVERIFY(a.weightsSha256() != b.weightsSha256());
        // First conv: fan_in 9, fan_out 288 -> limit sqrt(6/297); its biases are zero.
        const float limit = std::sqrt(6.0f / 297.0f);
        float maxAbs = 0;
        for (int i = 0; i < 288; ++i)
            maxAbs = std::max(maxAbs, std::fabs(a.params()[size_t(i)]));
        QVERIFY(maxAbs <= limit && maxAbs > 0.9f * limit);
        for (int i = 288; i < 320; ++i)
            QCOMPARE(a.params()[size_t(i)], 0.0f);
    }

    // A network built without initial values (a summary's, one about to read a weights file) holds
    // zeros, and initialize() writes every value, the non-trainable state included: the training
    // session builds it so and then initializes with the run's seed, as the default constructor does
    // with seed 0.
    void zerosFillThenInitializeIsTheInitialNetwork()
    {
        for (const char* preset : {"tpu-mnist-cnn", "colab-fashion-cnn", "small-text-lstm"}) {
            const ModelSpec spec = loadModelSpec(preset);
            const Shape input = spec.isText() ? Shape::tokenIds(spec.sequenceLength) : Shape::image(28, 28, 1);
            const int classes = spec.isText() ? 256 : 10;
            const Network initial(spec, input, classes);
            Network zeros(spec, input, classes, Network::Fill::Zeros);
            QCOMPARE(zeros.paramCount(), initial.paramCount());
            QCOMPARE(zeros.stateCount(), initial.stateCount());
            QCOMPARE(zeros.summary(), initial.summary());
            QVERIFY(std::all_of(zeros.params().begin(), zeros.params().end(), [](float v) { return v == 0.0f; }));
            QVERIFY(std::all_of(zeros.state().begin(), zeros.state().end(), [](float v) { return v == 0.0f; }));
            zeros.initialize(0);
            QCOMPARE(zeros.weightsSha256(), initial.weightsSha256());
        }
    }

    void customModelFile()
    {
        const Network net = build(R"({"name": "mine", "layers": [
            {"type": "Reshape", "target_shape": [784]},
            {"type": "Reshape", "target_shape": [28, 28, 1]},
            {"type": "Conv2D", "filters": 2, "kernel_size": [3, 5], "strides": [1, 2]},
            {"type": "Flatten"}, {"type": "Dense", "units": 10, "activation": "softmax"}]})");
        QCOMPARE(net.layer(2).outShape(), Shape::image(26, 12, 2));
        QCOMPARE(net.spec().name, std::string("mine"));
    }

    // Every registered kind has all its parts, its own name, and an export size that agrees with
    // the layer it builds (layers/layer_type.hpp).
    void everyKindIsComplete()
    {
        std::set<std::string> classes, names;
        for (const LayerType* t : layerTypes()) {
            QVERIFY2(t->parse && t->build && t->weightFloats && t->onnx && t->torch, t->kerasClass);
            QVERIFY2(classes.insert(t->kerasClass).second, t->kerasClass);
            QVERIFY2(names.insert(t->defaultName).second, t->defaultName);
            QCOMPARE(findLayerType(t->kerasClass), t);
        }
        QCOMPARE(findLayerType("Conv3D"), nullptr);
        // One model with every built-in kind.
        const Network net = build(R"({"layers": [
            {"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "elu"},
            {"type": "BatchNormalization"}, {"type": "ReLU"}, {"type": "MaxPooling2D", "pool_size": 3},
            {"type": "ELU"}, {"type": "Dropout", "rate": 0.25}, {"type": "Reshape", "target_shape": [9, 9, 4]},
            {"type": "Flatten"}, {"type": "Dense", "units": 12}, {"type": "Activation", "activation": "relu"},
            {"type": "Dense", "units": "classes"}, {"type": "Softmax"}]})");
        std::set<std::string> used;
        Shape shape = net.inputShape();
        for (int i = 0; i < net.layerCount(); ++i) {
            const LayerSpec& ls = net.layerSpec(i);
            used.insert(ls.kerasClass);
            const uint64_t floats = ls.type->weightFloats(ls, shape, net.numClasses());
            QCOMPARE(shape, net.layer(i).outShape());
            QCOMPARE(int64_t(floats), net.layer(i).paramCount() + net.layer(i).stateCount());
        }
        // The text kinds, in a text model (token ids in): weightFloats counts what the export writes
        // (nn.LSTM's bias_hh and a Linear's bias are zeros the model does not hold).
        const Network text(parseModelSpec(R"({"layers": [
            {"type": "Embedding", "input_dim": 40, "output_dim": 6},
            {"type": "LSTM", "units": 5, "return_sequences": true}, {"type": "Dropout", "rate": 0.1},
            {"type": "LSTM", "units": 5, "return_sequences": true},
            {"type": "Dense", "units": "classes", "use_bias": false}, {"type": "Softmax"}]})",
                                          "text model"),
                           Shape::tokenIds(7), 30);
        QVERIFY(text.spec().isText());
        QVERIFY(!net.spec().isText());
        const std::vector<TorchTensor> layout = torchLayout(text);
        shape = text.inputShape();
        for (int i = 0; i < text.layerCount(); ++i) {
            const LayerSpec& ls = text.layerSpec(i);
            used.insert(ls.kerasClass);
            const uint64_t floats = ls.type->weightFloats(ls, shape, text.numClasses());
            QCOMPARE(shape, text.layer(i).outShape());
            int64_t written = 0;
            for (const TorchTensor& t : layout)
                if (t.layer == text.layer(i).name() + " (" + ls.kerasClass + ")")
                    written += t.numel();
            QCOMPARE(int64_t(floats), written);
        }
        QCOMPARE(used, classes);
    }

    // A model too large for memory in one layer, or in all, is refused from its shapes before any
    // layer is built: a first layer of 200 MB (a Dense's transposed kernel) is never allocated. The old
    // code built the layers in turn and refused the one too large (or the total) after the others.
    void tooLargeIsRefusedBeforeAnyLayerIsBuilt()
    {
        const uint64_t limit = physicalMemoryBytes() / 2;
        const uint64_t first = 28 * 28 * 65536ull + 65536; // 205 MB
        if (uint64_t(65536) * 1048576 * 4 <= limit)
            QSKIP("this machine could hold a Dense layer of 2^36 weights");
        if (fixtures::peakResidentBytes(true) < 0)
            QSKIP("the system does not say the process's peak memory (/proc/self/clear_refs, VmHWM)");
        auto refusal = [](const std::string& json) -> QString {
            try {
                build(json);
            } catch (const ModelError& e) {
                return QString::fromStdString(e.what());
            }
            return "no refusal";
        };
        const int64_t before = fixtures::peakResidentBytes(true);
        const QString one = refusal(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 65536},
            {"type": "Dense", "units": 1048576}, {"type": "Dense", "units": 10, "activation": "softmax"}]})");
        const int64_t grew = fixtures::peakResidentBytes() - before;
        QVERIFY2(grew < 100 << 20, qPrintable(QString("the peak memory grew by %1 MB").arg(grew >> 20)));
        const uint64_t second = 65536ull * 1048576 + 1048576;
        QCOMPARE(one, QString("test.json, layer 3 (dense_1, Dense): the layer has %1 weights (%2), more than can be "
                              "trained in %3")
                          .arg(QString::number(second), QString::fromStdString(humanBytes(second * 4)),
                               QString::fromStdString(memoryLimitText())));

        // Each layer under the limit, the three together over it: 0.6 of the limit twice.
        const uint64_t u2 = (limit * 6 / 10) / (4 * 65536) + 1, u3 = (limit * 6 / 10) / (4 * u2) + 1;
        QVERIFY(u2 <= 1048576 && u3 <= 1048576);
        const uint64_t total = first + (65536 * u2 + u2) + (u2 * u3 + u3) + (u3 * 10 + 10);
        const int64_t before2 = fixtures::peakResidentBytes(true);
        const QString all =
            refusal(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 65536},
            {"type": "Dense", "units": )" +
                    std::to_string(u2) + R"(}, {"type": "Dense", "units": )" + std::to_string(u3) + R"(},
            {"type": "Dense", "units": 10, "activation": "softmax"}]})");
        const int64_t grew2 = fixtures::peakResidentBytes() - before2;
        QVERIFY2(grew2 < 100 << 20, qPrintable(QString("the peak memory grew by %1 MB").arg(grew2 >> 20)));
        QCOMPARE(all, QString("test.json: the model has %1 weights (%2), more than can be trained in %3")
                          .arg(QString::number(total), QString::fromStdString(humanBytes(total * 4)),
                               QString::fromStdString(memoryLimitText())));
    }

    void validationErrors()
    {
        expectModelError(R"({"layers": [{"type": "Conv3D"}]})", {"layer 1", "unknown layer type \"Conv3D\""});
        expectModelError(R"({"layers": [{"type": "Dense", "units": 10, "activaton": "relu"}]})",
                         {"layer 1 (Dense)", "unknown argument \"activaton\""});
        expectModelError(R"({"layers": [{"type": "Flatten"}, {"type": "Conv2D", "filters": 4, "kernel_size": 3}]})",
                         {"layer 2 (conv2d, Conv2D)", "needs an image input", "(None, 784)"});
        expectModelError(R"({"layers": [{"type": "Dense", "units": 10}]})",
                         {"layer 1 (dense, Dense)", "add a Flatten"});
        expectModelError(R"({"layers": [{"type": "Conv2D", "filters": 4, "kernel_size": 40}]})",
                         {"40x40 kernel does not fit"});
        expectModelError(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 10, "activation": "softmax"},
                            {"type": "Dense", "units": 10, "activation": "softmax"}]})",
                         {"layer 2", "softmax is supported only as the model's final activation"});
        expectModelError(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 10}]})",
                         {"must end with a softmax"});
        expectModelError(R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 7, "activation": "softmax"}]})",
                         {"does not match the dataset's 10 classes"});
        expectModelError(R"({"layers": [{"type": "Dropout", "rate": 1.5}]})", {"layer 1 (Dropout)", "\"rate\""});
        expectModelError(R"({"layers": [{"type": "Reshape", "target_shape": [5, 5, 1]}]})",
                         {"cannot reshape (None, 28, 28, 1)"});
        expectModelError("{\"layers\": [\n  {\"type\": \"Flatten\",}\n]}", {"test.json", "line 2"});
        expectModelError(R"({"layers": []})", {"non-empty array"});
        QVERIFY_THROWS_EXCEPTION(ModelError, loadModelSpec("/no/such/model.json"));
    }
};

QTEST_GUILESS_MAIN(TstModel)
#include "tst_model.moc"
