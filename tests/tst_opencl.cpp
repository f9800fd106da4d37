// The OpenCL device against the CPU engine (tests run on whatever OpenCL device 0 is: PoCL in CI):
// each layer kind's forward and backward, a 30-step training with each optimizer, determinism run to
// run, and the errors that can be provoked (a device too small for the batch, kernels that do not
// build, a device lost mid-run, a diverging step, a device that does not exist), and the compiled-
// kernel cache: loaded the second time, rebuilt from source when an entry is damaged, harmless when
// its folder cannot be written.
#include "fixtures.hpp"
#include "opencl_cpu_reference.hpp"

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "device/kernel_cache.hpp"
#include "device/opencl/opencl_backend.hpp"
#include "device/opencl/opencl_devices.hpp"
#include "environment.hpp"
#include "model/network.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <numeric>

using namespace tb;

namespace {
// Sets an environment variable for one scope.
// A variable set while in scope, handed to the engine as the front ends do (app/environment).
struct ScopedEnv {
    const char* name;
    ScopedEnv(const char* n, const char* value) : name(n)
    {
        setenv(n, value, 1);
        tb::env::applyToEngine();
    }
    ~ScopedEnv()
    {
        unsetenv(name);
        tb::env::applyToEngine();
    }
};

// The test-only seam: OpenCL backends made while in scope lose their device at `step`.
struct ScopedDeviceLoss {
    explicit ScopedDeviceLoss(int64_t step) { loseOpenClDevicesAtStep(step); }
    ~ScopedDeviceLoss() { loseOpenClDevicesAtStep(-1); }
};

float maxAbs(const std::vector<float>& v)
{
    float m = 0.0f;
    for (float x : v)
        m = std::max(m, std::fabs(x));
    return m;
}

// The largest difference relative to the largest value of a.
double relativeDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    double d = 0.0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, double(std::fabs(a[i] - b[i])));
    return d / std::max(double(maxAbs(a)), 1e-12);
}

std::string model(const std::string& layers, double scale = 1.0 / 255)
{
    return R"({"name": "t", "input_scale": )" + std::to_string(scale) + R"(, "layers": [)" + layers +
           R"(, {"type": "Flatten"}, {"type": "Dense", "units": "classes", "activation": "softmax"}]})";
}
} // namespace

class TestOpenCl : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    Dataset m_toy;
    DeviceSpec m_device;

    Network network(const std::string& json, uint64_t seed = 7)
    {
        Network net(parseModelSpec(json, "test model"), Shape::image(12, 12, 1), m_toy.numClasses);
        net.initialize(seed);
        return net;
    }
    std::unique_ptr<OpenClBackend> backend(Network& net, OptimizerConfig opt = {}, int batch = 32,
                                           const std::string& cacheDir = {})
    {
        return std::make_unique<OpenClBackend>(net, m_toy, m_device, opt, batch, cacheDir);
    }

    // The weights' SHA-256 after 8 steps of the toy model with a kernel cache in cacheDir ("" none);
    // `origin` receives where the backend's kernels came from.
    std::string trainedHash(const std::string& cacheDir, ocl::ProgramOrigin* origin = nullptr)
    {
        Network net = network(fixtures::toyModelJson(), 5);
        auto cl = backend(net, {}, 32, cacheDir);
        std::vector<int> order(size_t(m_toy.train.count));
        std::iota(order.begin(), order.end(), 0);
        for (int s = 0; s < 8; ++s)
            cl->trainBatch(order.data() + s * 32, 32, hashKey(5, uint64_t(RngPurpose::Dropout), uint64_t(s)));
        cl->syncToHost();
        if (origin)
            *origin = cl->programOrigin();
        return net.weightsSha256();
    }

    // The cache's entries (one per program and device).
    static QStringList cacheEntries(const QString& cacheDir)
    {
        QStringList files;
        for (const QString& f : QDir(cacheDir + "/opencl").entryList({"*.bin"}, QDir::Files))
            files << cacheDir + "/opencl/" + f;
        return files;
    }

private slots:
    void initTestCase()
    {
        std::string reason;
        const auto devices = listOpenClDevices(reason);
        if (devices.empty())
            QSKIP(("no OpenCL device: " + reason).c_str());
        m_device.kind = DeviceKind::OpenCl;
        m_device.index = 0;
        qInfo("OpenCL device: %s (%s)", devices[0].name.c_str(), devices[0].platform.c_str());
        fixtures::writeToyDataset(m_tmp.path().toStdString(), 256, 100, 12, 3);
        m_toy = loadDataset(m_tmp.path().toStdString());
    }

    // One training step: loss, gradient and BatchNorm statistics, then inference's probabilities.
    void layerMatchesCpu_data()
    {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<double>("scale");
        const double unit = 1.0 / 255;
        QTest::newRow("conv same 3x3 bias relu")
            << R"({"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"})" << unit;
        QTest::newRow("conv valid 4x4 stride 2 elu")
            << R"({"type": "Conv2D", "filters": 5, "kernel_size": 4, "strides": 2, "activation": "elu"},
                  {"type": "Conv2D", "filters": 3, "kernel_size": 3, "activation": "elu"})"
            << unit;
        QTest::newRow("conv 6x6 stride 2 + batchnorm center + relu (fused)")
            << R"({"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "use_bias": false},
                  {"type": "Conv2D", "filters": 8, "kernel_size": 6, "strides": 2, "padding": "same", "use_bias": false},
                  {"type": "BatchNormalization", "center": true, "scale": false}, {"type": "Activation", "activation": "relu"})"
            << unit;
        QTest::newRow("batchnorm first, raw pixels, then elu activation layer")
            << R"({"type": "BatchNormalization"}, {"type": "Conv2D", "filters": 4, "kernel_size": 5, "padding": "same"},
                  {"type": "Activation", "activation": "elu"})"
            << 1.0;
        QTest::newRow("maxpool 2x2 and 3x3 stride 2 same")
            << R"({"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"},
                  {"type": "MaxPooling2D", "pool_size": 2},
                  {"type": "MaxPooling2D", "pool_size": 3, "strides": 2, "padding": "same"})"
            << unit;
        QTest::newRow("dropout spatial")
            << R"({"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same"}, {"type": "Dropout", "rate": 0.4})"
            << unit;
        // The CPU runs a Dropout over its input where the layer before does not read its output in
        // backward (the pooling here, the BatchNorm below), and beside it where it does (the ELU).
        QTest::newRow("dropout over a pooling, and after an elu")
            << R"({"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "elu"},
                  {"type": "Dropout", "rate": 0.3}, {"type": "MaxPooling2D", "pool_size": 2},
                  {"type": "Dropout", "rate": 0.4})"
            << unit;
        QTest::newRow("dense relu, batchnorm flat, dropout flat")
            << R"({"type": "Flatten"}, {"type": "Dense", "units": 16, "activation": "relu"},
                  {"type": "Dense", "units": 12, "use_bias": false}, {"type": "BatchNormalization"}, {"type": "ReLU"},
                  {"type": "Dropout", "rate": 0.5})"
            << unit;
        QTest::newRow("reshape flat to image and back")
            << R"({"type": "Conv2D", "filters": 2, "kernel_size": 3, "padding": "same"}, {"type": "Flatten"},
                  {"type": "Reshape", "target_shape": [6, 12, 4]},
                  {"type": "Conv2D", "filters": 3, "kernel_size": 3, "padding": "same", "activation": "relu"})"
            << unit;
    }
    void layerMatchesCpu()
    {
        QFETCH(QString, layers);
        QFETCH(double, scale);
        const std::string json = model(layers.toStdString(), scale);
        Network cpu = network(json), gpu = network(json);
        auto cl = backend(gpu);
        std::vector<int> idx(32);
        std::iota(idx.begin(), idx.end(), 40);
        const uint64_t key = hashKey(11, uint64_t(RngPurpose::Dropout), 0);
        const reference::Step ref = reference::cpuStep(cpu, m_toy, idx.data(), 32, key);
        const BatchResult b = cl->trainBatch(idx.data(), 32, key);
        QCOMPARE(b.diverged, Divergence::None);
        QVERIFY2(std::fabs(b.step.lossSum - ref.lossSum) <= 1e-4 * std::fabs(ref.lossSum),
                 qPrintable(QString("loss %1 vs CPU %2").arg(b.step.lossSum).arg(ref.lossSum)));
        QCOMPARE(b.step.correct, ref.correct);
        const double gd = relativeDifference(ref.gradient, cl->lastGradient());
        QVERIFY2(gd < 1e-4, qPrintable(QString("gradient differs by %1 of its largest value").arg(gd)));
        cl->syncToHost();
        QVERIFY2(relativeDifference(cpu.state(), gpu.state()) < 1e-5, "BatchNorm's moving statistics differ");

        // Inference from the same weights (the CPU's, with the step's statistics).
        Network cpuEval = network(json), gpuEval = network(json);
        auto clEval = backend(gpuEval);
        const reference::Eval refEval = reference::cpuEvaluate(cpuEval, m_toy, 70);
        const EvalResult e = clEval->evaluate(m_toy.test, 1, 70, EvalKeeps::Probabilities);
        QCOMPARE(e.samples, 70);
        QVERIFY(std::fabs(e.loss - refEval.loss) <= 1e-5 * std::max(1.0, refEval.loss));
        QVERIFY2(relativeDifference(refEval.probs, e.probs) < 1e-5, "inference probabilities differ");
    }

    // 30 steps of each optimizer from the same weights: the losses and the weights stay within the
    // stated tolerance of the CPU engine's (floating-point sums in another order, not another model).
    void trainingMatchesCpu_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("momentum");
        QTest::newRow("adam") << int(OptimizerKind::Adam) << 0.0;
        QTest::newRow("sgd nesterov") << int(OptimizerKind::SGD) << 0.9;
        QTest::newRow("rmsprop") << int(OptimizerKind::RMSprop) << 0.0;
    }
    void trainingMatchesCpu()
    {
        QFETCH(int, kind);
        QFETCH(double, momentum);
        OptimizerConfig opt;
        opt.kind = OptimizerKind(kind);
        opt.learningRate = defaultLearningRate(opt.kind);
        opt.momentum = float(momentum);
        opt.nesterov = momentum > 0;
        const int steps = 30, batch = 32;
        const uint64_t seed = 21;
        Network cpu = network(fixtures::toyModelJson()), gpu = network(fixtures::toyModelJson());
        const std::vector<double> ref = reference::cpuTrain(cpu, m_toy, opt, steps, batch, seed);
        auto cl = backend(gpu, opt, batch);
        std::vector<int> order(size_t(m_toy.train.count));
        std::iota(order.begin(), order.end(), 0);
        for (int s = 0; s < steps; ++s) {
            const int first = (s * batch) % (m_toy.train.count - batch + 1);
            const BatchResult b =
                cl->trainBatch(order.data() + first, batch, hashKey(seed, uint64_t(RngPurpose::Dropout), uint64_t(s)));
            QCOMPARE(b.diverged, Divergence::None);
            const double loss = b.step.lossSum / batch;
            QVERIFY2(std::fabs(loss - ref[size_t(s)]) <= 1e-3 * ref[size_t(s)],
                     qPrintable(QString("step %1: loss %2 vs CPU %3").arg(s + 1).arg(loss).arg(ref[size_t(s)])));
        }
        cl->syncToHost();
        const double wd = relativeDifference(cpu.params(), gpu.params());
        qInfo("after %d steps the weights differ by %.2e of the largest", steps, wd);
        QVERIFY2(wd < 1e-3, qPrintable(QString("weights differ by %1 of the largest").arg(wd)));
        QCOMPARE(cl->optimizerState().iterations, int64_t(steps));
    }

    // The same seed gives the same weights, bit for bit, run after run on the same device.
    void deterministicRunToRun()
    {
        std::string hashes[2];
        for (std::string& hash : hashes) {
            Network net = network(fixtures::toyModelJson(), 3);
            auto cl = backend(net);
            std::vector<int> order(size_t(m_toy.train.count));
            std::iota(order.begin(), order.end(), 0);
            for (int s = 0; s < 8; ++s)
                cl->trainBatch(order.data() + s * 32, 32, hashKey(3, uint64_t(RngPurpose::Dropout), uint64_t(s)));
            cl->syncToHost();
            hash = net.weightsSha256();
        }
        QCOMPARE(hashes[1], hashes[0]);
    }

    void batchTooLargeForDeviceMemory()
    {
        ScopedEnv cap("TRAINBENCH_OPENCL_MEMORY_LIMIT", "2M");
        Network net = network(fixtures::toyModelJson());
        try {
            backend(net, {}, 4096);
            QFAIL("a batch of 4096 fit in 2 MiB");
        } catch (const ConfigError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("needs about") && what.contains("TRAINBENCH_OPENCL_MEMORY_LIMIT") &&
                         what.contains("smaller batch"),
                     e.what());
        }
    }

    void kernelsThatDoNotBuild()
    {
        ScopedEnv broken("TRAINBENCH_OPENCL_BUILD_OPTIONS", "-DTB_PROVOKE_BUILD_ERROR");
        Network net = network(fixtures::toyModelJson());
        try {
            backend(net);
            QFAIL("the broken kernels built");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("did not build"), e.what());
        }
    }

    // A device lost mid-run: the step fails with a clear message, later calls too, and the host keeps
    // the weights it last received.
    void deviceLostKeepsHostWeights()
    {
        ScopedDeviceLoss lose(3);
        Network net = network(fixtures::toyModelJson());
        auto cl = backend(net);
        std::vector<int> idx(32);
        std::iota(idx.begin(), idx.end(), 0);
        cl->trainBatch(idx.data(), 32, 1);
        cl->syncToHost();
        const std::string synced = net.weightsSha256();
        cl->trainBatch(idx.data(), 32, 2);
        QVERIFY_THROWS_EXCEPTION(DeviceError, cl->trainBatch(idx.data(), 32, 3));
        try {
            cl->evaluate(m_toy.test, 1);
            QFAIL("evaluation ran on a lost device");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("was lost"), e.what());
        }
        cl->syncToHost();
        QCOMPARE(net.weightsSha256(), synced);
    }

    // A step that goes non-finite is not applied: weights, statistics and optimizer state stay.
    void divergingStepIsNotApplied()
    {
        OptimizerConfig opt;
        opt.kind = OptimizerKind::SGD;
        opt.learningRate = 1e30f;
        Network net = network(fixtures::toyModelJson());
        auto cl = backend(net, opt);
        std::vector<int> idx(32);
        std::iota(idx.begin(), idx.end(), 0);
        for (int s = 0; s < 10; ++s) {
            cl->syncToHost();
            const std::string before = net.weightsSha256();
            const int64_t iterations = cl->optimizerState().iterations;
            const BatchResult b = cl->trainBatch(idx.data(), 32, uint64_t(s));
            if (b.diverged == Divergence::None)
                continue;
            cl->syncToHost();
            QCOMPARE(net.weightsSha256(), before);
            QCOMPARE(cl->optimizerState().iterations, iterations);
            return;
        }
        QFAIL("a learning rate of 1e30 did not diverge in 10 steps");
    }

    // A second backend with the same cache folder loads the program the first one compiled.
    void compiledKernelsComeFromTheCacheTheSecondTime()
    {
        QTemporaryDir cache;
        ocl::ProgramOrigin first, second, none;
        const std::string uncached = trainedHash({}, &none);
        QVERIFY(!none.fromCache && !none.stored && none.note.empty());
        const std::string h1 = trainedHash(cache.path().toStdString(), &first);
        QVERIFY2(!first.fromCache && first.stored, first.note.c_str());
        QVERIFY2(QString::fromStdString(first.note).contains("compiled from source; stored in the cache"),
                 first.note.c_str());
        QCOMPARE(cacheEntries(cache.path()).size(), 1);
        const std::string h2 = trainedHash(cache.path().toStdString(), &second);
        QVERIFY2(second.fromCache && !second.stored, second.note.c_str());
        QVERIFY2(QString::fromStdString(second.note).contains("loaded from the cache"), second.note.c_str());
        QCOMPARE(h1, uncached);
        QCOMPARE(h2, uncached);
    }

    // A device that is the CPU itself (PoCL) says in its set-up line why it is slow; a GPU does not.
    void aCpuDeviceSaysItIsNotAGpu()
    {
        std::string reason;
        const bool cpu = listOpenClDevices(reason).at(0).type == "CPU";
        Network net = network(fixtures::toyModelJson(), 5);
        const std::string note = backend(net)->setupNote();
        QCOMPARE(QString::fromStdString(note).contains(
                     "opencl:0 is not a GPU: it runs the GPU's OpenCL kernels on this CPU's cores, many times "
                     "slower than the CPU devices (cpu:N)"),
                 cpu);
    }

    // A damaged entry is not an error: the program is built from source, the entry replaced, and the
    // weights are those of a run without a cache, bit for bit.
    void damagedCacheEntryIsRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("said");
        QTest::newRow("truncated") << "truncated"
                                   << "truncated";
        QTest::newRow("garbage") << "garbage"
                                 << "not a Trainbench kernel cache entry";
        QTest::newRow("another key") << "another key"
                                     << "another program or device";
        QTest::newRow("flipped byte") << "flipped byte"
                                      << "SHA-256 differs";
        QTest::newRow("binary the driver refuses") << "refused"
                                                   << "cached copy";
    }
    void damagedCacheEntryIsRebuilt()
    {
        QFETCH(QString, damage);
        QFETCH(QString, said);
        QTemporaryDir cache;
        const std::string dir = cache.path().toStdString();
        const std::string uncached = trainedHash({});
        trainedHash(dir);
        const QStringList entries = cacheEntries(cache.path());
        QCOMPARE(entries.size(), 1);
        QFile f(entries[0]);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        const std::string key = QFileInfo(entries[0]).baseName().toStdString();
        if (damage == "truncated") {
            bytes.truncate(bytes.size() / 2);
        } else if (damage == "garbage") {
            bytes = QByteArray(4096, 'x');
        } else if (damage == "another key") {
            std::string other(64, 'a');
            const std::string encoded = encodeKernelCacheEntry(other, bytes.mid(8 + 64 + 8 + 32).toStdString());
            bytes = QByteArray(encoded.data(), qsizetype(encoded.size()));
        } else if (damage == "flipped byte") {
            bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 0x40);
        } else { // a well-formed entry whose binary is nonsense to the driver
            const std::string encoded = encodeKernelCacheEntry(key, std::string(2048, '\x7f'));
            bytes = QByteArray(encoded.data(), qsizetype(encoded.size()));
        }
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();

        ocl::ProgramOrigin rebuilt, reloaded;
        QCOMPARE(trainedHash(dir, &rebuilt), uncached);
        const QString note = QString::fromStdString(rebuilt.note);
        QVERIFY2(!rebuilt.fromCache && rebuilt.stored, rebuilt.note.c_str());
        QVERIFY2(note.contains("compiled from source because the cached copy") && note.contains(said),
                 rebuilt.note.c_str());
        QCOMPARE(trainedHash(dir, &reloaded), uncached); // the entry was replaced
        QVERIFY2(reloaded.fromCache, reloaded.note.c_str());
    }

    // A cache folder that cannot be made costs the next run a compile, never this run.
    void unwritableCacheFolderDoesNotFailTheRun()
    {
        QTemporaryDir tmp;
        QFile blocker(tmp.path() + "/a-file");
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const std::string dir = (tmp.path() + "/a-file/cache").toStdString(); // under a file: never a folder
        ocl::ProgramOrigin origin;
        QCOMPARE(trainedHash(dir, &origin), trainedHash({}));
        QVERIFY2(!origin.fromCache && !origin.stored, origin.note.c_str());
        QVERIFY2(QString::fromStdString(origin.note).contains("not stored in the cache"), origin.note.c_str());
    }

    void missingDeviceIsAConfigError()
    {
        Network net = network(fixtures::toyModelJson());
        DeviceSpec spec = parseDeviceSpec("opencl:99");
        QCOMPARE(spec.kind, DeviceKind::OpenCl);
        QCOMPARE(spec.id(), std::string("opencl:99"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, OpenClBackend(net, m_toy, spec, {}, 32));
        QVERIFY(!deviceUnavailableReason(spec, detectSystem()).empty());
    }
};

QTEST_GUILESS_MAIN(TestOpenCl)
#include "tst_opencl.moc"
