// Prediction on pictures of one's own: the preprocessing (engine/data/preprocess.hpp) on hand-made
// pictures, and `trainbench-cli predict` end to end: a model trained here on a tiny fixture of drawn
// glyphs, its test images rendered back to PNG at another size with inverted colours, must get
// the predictions the evaluation gives; bad files give a clear message and exit code 5.
#include "core/errors.hpp"
#include "data/preprocess.hpp"
#include "fixtures.hpp"
#include "io/weights_file.hpp"
#include "predict/predictor.hpp"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QProcess>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <cmath>
#include <cstdio> // jpeglib.h needs FILE
#include <cstdlib>
#include <cstring>
#include <jpeglib.h>
#include <random>

namespace {

tb::GrayImage gray(int w, int h, uint8_t fill)
{
    return {w, h, std::vector<uint8_t>(size_t(w) * size_t(h), fill)};
}

tb::GrayImage fromQImage(const QImage& image)
{
    const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
    tb::RgbaImage out{rgba.width(), rgba.height(), std::vector<uint8_t>(size_t(rgba.width()) * rgba.height() * 4)};
    for (int y = 0; y < rgba.height(); ++y)
        std::memcpy(out.pixels.data() + size_t(y) * rgba.width() * 4, rgba.constScanLine(y), size_t(rgba.width()) * 4);
    return tb::toGray(out);
}

QImage toQImage(const uint8_t* pixels, int w, int h)
{
    QImage img(w, h, QImage::Format_Grayscale8);
    for (int y = 0; y < h; ++y)
        std::memcpy(img.scanLine(y), pixels + size_t(y) * w, size_t(w));
    return img;
}

// A glyph drawn in black on white at 112x112, its class told by its shape only (the centring
// moves and scales it): 0 ring, 1 vertical bar, 2 cross, 3 horizontal bar.
QImage glyph(int cls, std::mt19937& rng)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    QImage img(112, 112, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(Qt::black, 6 + 8 * u(rng), Qt::SolidLine, Qt::RoundCap));
    const double cx = 40 + 30 * u(rng), cy = 40 + 30 * u(rng), r = 18 + 18 * u(rng), tilt = 10 * (u(rng) - 0.5);
    p.translate(cx, cy);
    p.rotate(tilt);
    switch (cls) {
    case 0:
        p.drawEllipse(QPointF(0, 0), r * (0.7 + 0.3 * u(rng)), r);
        break;
    case 1:
        p.drawLine(QPointF(0, -r), QPointF(0, r));
        break;
    case 2:
        p.drawLine(QPointF(-r, -r), QPointF(r, r));
        p.drawLine(QPointF(-r, r), QPointF(r, -r));
        break;
    default:
        p.drawLine(QPointF(-r, 0), QPointF(r, 0));
        break;
    }
    return img;
}

const char* kGlyphModel = R"({"name": "glyphs", "input_scale": 0.00392156862745098, "layers": [
  {"type": "Conv2D", "filters": 8, "kernel_size": 3, "padding": "same", "activation": "relu"},
  {"type": "MaxPooling2D", "pool_size": 2},
  {"type": "Conv2D", "filters": 8, "kernel_size": 3, "padding": "same", "activation": "relu"},
  {"type": "MaxPooling2D", "pool_size": 2},
  {"type": "Flatten"},
  {"type": "Dense", "units": 4, "activation": "softmax"}]})";

} // namespace

class TstPredict : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_weights;
    std::vector<uint8_t> m_testPixels, m_testLabels;
    int m_testCount = 60;

    struct Result {
        int code;
        QString out, err;
    };
    // `input`: the file standard input reads (QProcess::nullDevice(): nothing); none, a pipe left open.
    Result cli(const QStringList& args, const QString& input = {})
    {
        QProcess p;
        if (!input.isEmpty())
            p.setStandardInputFile(input);
        p.start(QStringLiteral(TRAINBENCH_CLI), args);
        if (!p.waitForFinished(300000))
            return {-1, {}, QStringLiteral("timeout")};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QString path(const QString& name) const { return m_tmp.filePath(name); }
    QByteArray writeBytes(const QString& name, const QByteArray& bytes)
    {
        QFile f(path(name));
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return bytes;
    }

private slots:
    void toGrayCompositesOverWhite()
    {
        tb::RgbaImage img{3, 1, {255, 0, 0, 255, /**/ 0, 0, 0, 0, /**/ 0, 0, 0, 128}};
        const tb::GrayImage g = tb::toGray(img);
        QCOMPARE(int(g.pixels[0]), 76);  // red: 0.299 * 255
        QCOMPARE(int(g.pixels[1]), 255); // transparent: the white under it
        QCOMPARE(int(g.pixels[2]), 127); // half-transparent black
    }

    void plainResizeGivesBackAnIntegerUpscale()
    {
        std::mt19937 rng(3);
        tb::GrayImage small = gray(28, 28, 0);
        for (auto& v : small.pixels)
            v = uint8_t(rng() % 256);
        tb::GrayImage big = gray(84, 84, 0);
        for (int y = 0; y < 84; ++y)
            for (int x = 0; x < 84; ++x)
                big.pixels[size_t(y) * 84 + x] = small.pixels[size_t(y / 3) * 28 + x / 3];
        tb::PreprocessOptions plain;
        plain.centre = false;
        plain.autoInvert = false;
        const tb::PreprocessResult r = tb::preprocessImage(big, 28, 28, plain);
        QVERIFY(r.input.pixels == small.pixels);
        QVERIFY(!r.fitted); // the input's proportions: only resized
    }

    // A 5:3 picture: a 28x21 image scaled up twice on a margin of paper. Its margins are trimmed, and
    // it is fitted into 28x28 keeping its proportions, as Fashion-MNIST made its pictures: the image
    // itself in the middle rows, the paper's shade above and below. Stretched, its 21 rows became 28
    // and the margins stayed.
    void plainResizeKeepsTheProportions()
    {
        std::mt19937 rng(5);
        const uint8_t paper = 30;
        tb::GrayImage small = gray(28, 21, 0);
        for (auto& v : small.pixels)
            v = uint8_t(100 + rng() % 156); // none the paper's shade: the trimmed box is all of it
        tb::GrayImage big = gray(100, 60, paper);
        for (int y = 0; y < 42; ++y)
            for (int x = 0; x < 56; ++x)
                big.pixels[size_t(y + 9) * 100 + x + 20] = small.pixels[size_t(y / 2) * 28 + x / 2];
        tb::PreprocessOptions plain;
        plain.centre = false;
        plain.autoInvert = false;
        const tb::PreprocessResult r = tb::preprocessImage(big, 28, 28, plain);
        QVERIFY(r.fitted);
        const tb::GrayImage& in = r.input;
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x) {
                const int want = y >= 3 && y < 24 ? small.pixels[size_t(y - 3) * 28 + x] : paper;
                QCOMPARE(int(in.pixels[size_t(y) * 28 + x]), want);
            }
        // A tall one: a bar, trimmed and fitted to the full height, one column wide in the middle.
        tb::GrayImage tall = gray(10, 30, 0);
        for (int y = 3; y < 27; ++y)
            tall.pixels[size_t(y) * 10 + 5] = 255;
        const tb::GrayImage t = tb::preprocessImage(tall, 28, 28, plain).input;
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x)
                QCOMPARE(int(t.pixels[size_t(y) * 28 + x]), x == 13 ? 255 : 0);
    }

    // A picture within 10% of the input's proportions is resized as it is, margins and all, as a square
    // one: a photo cropped by hand about square is not trimmed to a different input. Past that, a
    // speck on the paper (dust, a JPEG artefact) is not trimmed to and blown up: the whole picture is
    // fitted. On white paper, inverted, the sides are the inverted paper's black.
    void nearSquareAndSpecks()
    {
        const auto boxed = [](int w, int h) {
            tb::GrayImage g = gray(w, h, 255);
            for (int y = h / 2 - 10; y < h / 2 + 10; ++y)
                for (int x = w / 2 - 10; x < w / 2 + 10; ++x)
                    g.pixels[size_t(y) * size_t(w) + size_t(x)] = 0;
            return g;
        };
        tb::PreprocessOptions plain;
        plain.centre = false;
        const tb::PreprocessResult square = tb::preprocessImage(boxed(100, 100), 28, 28, plain);
        const tb::PreprocessResult near = tb::preprocessImage(boxed(100, 104), 28, 28, plain);
        QVERIFY(square.inverted && near.inverted);
        QVERIFY(!square.fitted && !near.fitted);
        const auto bright = [](const tb::GrayImage& g) {
            return std::count_if(g.pixels.begin(), g.pixels.end(), [](uint8_t v) { return v > 128; });
        };
        QVERIFY(std::abs(int(bright(near.input)) - int(bright(square.input))) <= 6); // a box of about 5.6x5.6
        const tb::PreprocessResult tall = tb::preprocessImage(boxed(100, 120), 28, 28, plain);
        QVERIFY(tall.fitted); // trimmed to the box: it fills the input
        QCOMPARE(int(bright(tall.input)), 28 * 28);
        tb::GrayImage speck = gray(100, 120, 255);
        speck.pixels[60 * 100 + 50] = 0;
        const tb::PreprocessResult s = tb::preprocessImage(speck, 28, 28, plain);
        QVERIFY(s.fitted);
        QCOMPARE(int(bright(s.input)), 0);
        QCOMPARE(int(s.input.pixels[0]), 0); // the sides: the inverted paper
    }

    // A thin pen on a large page: shrinking averages the stroke with the paper beside it, and the
    // levels are stretched again after it, so the stroke reaches white as MNIST's do (it peaked at a
    // third of that).
    void centringKeepsAThinStrokeWhite()
    {
        tb::GrayImage page = gray(300, 400, 255);
        for (int y = 50; y < 350; ++y) // a 4-pixel ring, 250x300: a "0"
            for (int x = 25; x < 275; ++x)
                if (x < 29 || x >= 271 || y < 54 || y >= 346)
                    page.pixels[size_t(y) * 300 + x] = 0;
        const tb::PreprocessResult r = tb::preprocessImage(page, 28, 28, {});
        QVERIFY(r.centred);
        QCOMPARE(int(*std::max_element(r.input.pixels.begin(), r.input.pixels.end())), 255);
        QCOMPARE(int(r.input.pixels[14 * 28 + 14]), 0); // the ring's middle stays paper
    }

    void darkOnLightIsInverted()
    {
        tb::GrayImage g = gray(50, 50, 255);
        for (int y = 20; y < 30; ++y)
            for (int x = 10; x < 40; ++x)
                g.pixels[size_t(y) * 50 + x] = 0;
        tb::PreprocessOptions o;
        o.centre = false;
        tb::PreprocessResult r = tb::preprocessImage(g, 10, 10, o);
        QVERIFY(r.inverted);
        QCOMPARE(int(r.input.pixels[0]), 0);            // the paper, now black
        QCOMPARE(int(r.input.pixels[5 * 10 + 5]), 255); // the ink, now white
        o.autoInvert = false;
        r = tb::preprocessImage(g, 10, 10, o);
        QVERIFY(!r.inverted);
        QCOMPARE(int(r.input.pixels[0]), 255);
    }

    void centringFitsTheInkInto20x20ByItsCentreOfMass()
    {
        // A 10x40 bar in a corner of a grey 200x120 photo of paper.
        tb::GrayImage g = gray(200, 120, 200);
        for (int y = 5; y < 45; ++y)
            for (int x = 150; x < 160; ++x)
                g.pixels[size_t(y) * 200 + x] = 20;
        const tb::PreprocessResult r = tb::preprocessImage(g, 28, 28, {});
        QVERIFY(r.inverted);
        QVERIFY(r.centred);
        int x0 = 28, x1 = -1, y0 = 28, y1 = -1;
        double mass = 0, mx = 0, my = 0;
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x)
                if (const int v = r.input.pixels[size_t(y) * 28 + x]) {
                    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
                    mass += v, mx += v * x, my += v * y;
                }
        QCOMPARE(y1 - y0 + 1, 20); // the long side fills the box
        QCOMPARE(x1 - x0 + 1, 5);  // the aspect kept
        QVERIFY(std::abs(mx / mass - 14) <= 0.5);
        QVERIFY(std::abs(my / mass - 14) <= 0.5);
        QCOMPARE(int(r.input.pixels[14 * 28 + 14]), 255); // levels: the paper black, the ink white
        QCOMPARE(int(r.input.pixels[0]), 0);
    }

    void blankPicturesAndSizes()
    {
        QVERIFY(tb::preprocessImage(gray(40, 30, 255), 28, 28, {}).blank);
        QVERIFY(tb::preprocessImage(gray(40, 30, 0), 28, 28, {}).blank);
        bool thrown = false;
        try {
            tb::preprocessImage(gray(0, 0, 0), 28, 28, tb::PreprocessOptions());
        } catch (const tb::DataError&) {
            thrown = true;
        }
        QVERIFY(thrown);
        QCOMPARE(QString::fromStdString(tb::pictureSizeProblem(20000, 20000)),
                 QStringLiteral("20000x20000 pixels is too large to predict on (at most 16384 pixels a side and "
                                "67108864 pixels); scale it down first"));
        QVERIFY(tb::pictureSizeProblem(4000, 3000).empty());
        QVERIFY(tb::centringSuits({"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));
        QVERIFY(!tb::centringSuits({"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
                                    "Bag", "Ankle boot"}));
    }

    void topClassesAreSortedByProbability()
    {
        const auto top = tb::topClasses({0.1f, 0.6f, 0.05f, 0.25f}, 3);
        QCOMPARE(int(top.size()), 3);
        QCOMPARE(top[0].index, 1);
        QCOMPARE(top[1].index, 3);
        QCOMPARE(top[2].index, 0);
    }

    // The fixture: glyphs through the MNIST preprocessing, as MNIST's digits went through it.
    void trainOnGlyphs()
    {
        std::mt19937 rng(21);
        const int trainCount = 800;
        std::vector<uint8_t> trainPixels, trainLabels;
        for (int i = 0; i < trainCount + m_testCount; ++i) {
            const int cls = i % 4;
            const tb::GrayImage in = tb::preprocessImage(fromQImage(glyph(cls, rng)), 28, 28, {}).input;
            auto& pixels = i < trainCount ? trainPixels : m_testPixels;
            auto& labels = i < trainCount ? trainLabels : m_testLabels;
            pixels.insert(pixels.end(), in.pixels.begin(), in.pixels.end());
            labels.push_back(uint8_t(cls));
        }
        const std::string dir = m_tmp.path().toStdString();
        fixtures::writeIdx(dir + "/train-images-idx3-ubyte", {uint32_t(trainCount), 28, 28}, trainPixels);
        fixtures::writeIdx(dir + "/train-labels-idx1-ubyte", {uint32_t(trainCount)}, trainLabels);
        fixtures::writeIdx(dir + "/t10k-images-idx3-ubyte", {uint32_t(m_testCount), 28, 28}, m_testPixels);
        fixtures::writeIdx(dir + "/t10k-labels-idx1-ubyte", {uint32_t(m_testCount)}, m_testLabels);
        fixtures::writeRaw(dir + "/glyphs.json", kGlyphModel);
        m_weights = path(QStringLiteral("glyphs.tbw"));
        const Result r = cli({"train", "--data", m_tmp.path(), "--model", path("glyphs.json"), "--epochs", "4",
                              "--batch", "32", "--threads", "1", "--seed", "7", "--save", m_weights});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void picturesGetTheEvaluationsPredictions()
    {
        QVERIFY(!m_weights.isEmpty());
        const Result ev =
            cli({"evaluate", "--data", m_tmp.path(), "--weights", m_weights, "--predictions", path("eval.csv")});
        QVERIFY2(ev.code == 0, qPrintable(ev.err));
        QFile csv(path("eval.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        std::vector<int> evaluated;
        csv.readLine();
        while (!csv.atEnd())
            evaluated.push_back(QString::fromUtf8(csv.readLine()).split(QLatin1Char(','))[2].toInt());
        QCOMPARE(int(evaluated.size()), m_testCount);
        int correct = 0;
        for (int i = 0; i < m_testCount; ++i)
            correct += evaluated[size_t(i)] == m_testLabels[size_t(i)];
        QVERIFY2(correct >= m_testCount * 9 / 10, qPrintable(QString::number(correct))); // the model learned

        // Each test image at 100x100 (smooth) and at 84x84 (3x, nearest), inverted, as PNG.
        QDir().mkpath(path("smooth"));
        QDir().mkpath(path("nearest"));
        QDir().mkpath(path("inputs"));
        QStringList smooth, nearest;
        for (int i = 0; i < m_testCount; ++i) {
            QImage img = toQImage(m_testPixels.data() + size_t(i) * 784, 28, 28);
            img.invertPixels();
            smooth << path(QStringLiteral("smooth/%1.png").arg(i));
            nearest << path(QStringLiteral("nearest/%1.png").arg(i));
            QVERIFY(img.scaled(100, 100, Qt::IgnoreAspectRatio, Qt::SmoothTransformation).save(smooth.last()));
            QVERIFY(img.scaled(84, 84, Qt::IgnoreAspectRatio, Qt::FastTransformation).save(nearest.last()));
        }
        auto predicted = [&](const QStringList& images, const QString& centre) {
            Result r = cli(QStringList{"predict", "--weights", m_weights, "--json", "--top", "2", "--centre", centre,
                                       "--save-inputs", path("inputs"), "--image"} +
                           images);
            std::vector<int> out;
            if (r.code != 0)
                qWarning("%s", qPrintable(r.err));
            for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
                out.push_back(o[QStringLiteral("top")].toArray()[0].toObject()[QStringLiteral("class")].toInt());
            }
            return out;
        };
        // Scaled by 3 without smoothing and resized back: the very bytes of the dataset.
        const std::vector<int> plain = predicted(nearest, QStringLiteral("off"));
        QCOMPARE(int(plain.size()), m_testCount);
        for (int i = 0; i < m_testCount; ++i) {
            QFile in(path(QStringLiteral("inputs/%1.pgm").arg(i)));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QCOMPARE(in.readAll().right(784),
                     QByteArray(reinterpret_cast<const char*>(m_testPixels.data()) + i * 784, 784));
            QCOMPARE(plain[size_t(i)], evaluated[size_t(i)]);
        }
        // What --save-inputs wrote reads back (binary PGM; it was "not a PNG or JPEG picture"): the dataset's
        // bytes, the same answers.
        QStringList saved;
        for (int i = 0; i < m_testCount; ++i)
            saved << path(QStringLiteral("inputs/%1.pgm").arg(i));
        const Result back = cli(
            QStringList{"predict", "--weights", m_weights, "--json", "--centre", "off", "--invert", "off", "--image"} +
            saved);
        QVERIFY2(back.code == 0, qPrintable(back.err));
        const QStringList backLines = back.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(int(backLines.size()), m_testCount);
        for (int i = 0; i < m_testCount; ++i)
            QCOMPARE(QJsonDocument::fromJson(backLines[i].toUtf8())
                         .object()[QStringLiteral("top")]
                         .toArray()[0]
                         .toObject()[QStringLiteral("class")]
                         .toInt(),
                     evaluated[size_t(i)]);
        // Smoothed to another size and centred again: close to the dataset's bytes, same answers.
        const std::vector<int> centred = predicted(smooth, QStringLiteral("on"));
        QCOMPARE(int(centred.size()), m_testCount);
        int agree = 0;
        double diff = 0;
        for (int i = 0; i < m_testCount; ++i) {
            agree += centred[size_t(i)] == evaluated[size_t(i)];
            QFile in(path(QStringLiteral("inputs/%1.pgm").arg(i)));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray got = in.readAll().right(784);
            for (int k = 0; k < 784; ++k)
                diff += std::abs(int(uint8_t(got[k])) - int(m_testPixels[size_t(i) * 784 + k]));
        }
        qInfo("centred round trip: %d of %d predictions as in evaluation, mean pixel difference %.2f of 255", agree,
              m_testCount, diff / (784.0 * m_testCount));
        QCOMPARE(agree, m_testCount);
    }

    void predictOptionsAndOutput()
    {
        QVERIFY(!m_weights.isEmpty());
        QImage img = toQImage(m_testPixels.data(), 28, 28);
        img.invertPixels();
        QVERIFY(img.scaled(56, 56).save(path("one.jpg"), "JPEG", 95));
        QVERIFY(img.scaled(70, 70).save(path("one.png")));
        const Result r = cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--image", path("one.jpg"),
                              "--top", "3", "--centre", "on"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(path("one.png") + QStringLiteral(": class ")));
        QCOMPARE(lines[1].count(QLatin1Char('%')), 3);
        // Two pictures of one name: each input kept, under its own name.
        QDir().mkpath(path("same-stem"));
        QCOMPARE(cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--image", path("one.jpg"),
                      "--save-inputs", path("same-stem")})
                     .code,
                 0);
        QCOMPARE(QDir(path("same-stem")).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("one-2.pgm"), QStringLiteral("one.pgm")}));
        // A folder that is not there yet is made; one that cannot be is refused before any picture.
        Result made =
            cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--save-inputs", path("new/inputs")});
        QVERIFY2(made.code == 0, qPrintable(made.err));
        QVERIFY(QFile::exists(path("new/inputs/one.pgm")));
        made = cli(
            {"predict", "--weights", m_weights, "--image", path("one.png"), "--save-inputs", path("one.png/inputs")});
        QCOMPARE(made.code, 5);
        QVERIFY2(made.err.contains("cannot create the folder " + path("one.png/inputs")), qPrintable(made.err));
        QVERIFY(made.out.isEmpty());
        made = cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--save-inputs", path("one.png")});
        QCOMPARE(made.code, 5);
        QVERIFY2(made.err.contains("--save-inputs " + path("one.png") + " is a file, not a folder"),
                 qPrintable(made.err));
        QCOMPARE(cli({"predict", "--weights", m_weights}).code, 2);
        QCOMPARE(cli({"predict", "--image", path("one.png")}).code, 2);
        QCOMPARE(cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--top", "9"}).code, 2);
        QCOMPARE(cli({"predict", "--weights", m_weights, "--image", path("one.png"), "--centre", "maybe"}).code, 2);
    }

    // --image - reads the picture from standard input (it said "cannot open -: No such file or directory"):
    // the same answer as from its file, under the name "-" as typed, and --save-inputs keeps it as
    // stdin.pgm. An empty standard input, one that holds no picture and a terminal are said so, and
    // standard input holds one picture.
    void pictureFromStandardInput()
    {
        QVERIFY(!m_weights.isEmpty());
        const Result file = cli({"predict", "--weights", m_weights, "--json", "--image", path("one.png")});
        QVERIFY2(file.code == 0, qPrintable(file.err));
        const Result piped =
            cli({"predict", "--weights", m_weights, "--json", "--save-inputs", path("stdin-inputs"), "--image", "-"},
                path("one.png"));
        QVERIFY2(piped.code == 0, qPrintable(piped.err));
        const QJsonObject fromFile = QJsonDocument::fromJson(file.out.toUtf8()).object(),
                          fromStdin = QJsonDocument::fromJson(piped.out.toUtf8()).object();
        QCOMPARE(fromStdin[QStringLiteral("image")].toString(), QStringLiteral("-"));
        QCOMPARE(fromStdin[QStringLiteral("width")].toInt(), 70);
        QCOMPARE(fromStdin[QStringLiteral("top")].toArray(), fromFile[QStringLiteral("top")].toArray());
        QCOMPARE(QDir(path("stdin-inputs")).entryList(QDir::Files), QStringList{QStringLiteral("stdin.pgm")});
        // Beside files, in the order given; a JPEG as well.
        const Result mixed = cli({"predict", "--weights", m_weights, "--image", path("one.png"), "-"}, path("one.jpg"));
        QVERIFY2(mixed.code == 0, qPrintable(mixed.err));
        const QStringList lines = mixed.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].startsWith(QStringLiteral("-: class ")), qPrintable(mixed.out));

        const QString how =
            QStringLiteral("give --image - a PNG, JPEG, PGM or PPM picture through a pipe or a redirection "
                           "(trainbench-cli predict --weights FILE --image - < picture.png)");
        Result r = cli({"predict", "--weights", m_weights, "--image", "-"}, QProcess::nullDevice());
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(QStringLiteral("standard input is empty: ") + how), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        writeBytes(QStringLiteral("note.txt"), "hello, not a picture\n");
        r = cli({"predict", "--weights", m_weights, "--json", "--image", "-"}, path("note.txt"));
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(QStringLiteral("standard input: not a PNG, JPEG, PGM or PPM picture")),
                 qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("image")].toString(),
                 QStringLiteral("-"));
        // On a terminal (script(1) gives it one) the command would wait for a picture nobody types.
        const QString onTerminal =
            QStringLiteral("'%1' predict --weights '%2' --image -").arg(QStringLiteral(TRAINBENCH_CLI), m_weights);
        QProcess script;
        script.start(QStringLiteral("script"), {"-qec", onTerminal, "/dev/null"});
        QVERIFY(script.waitForFinished(fixtures::kHangGuardMs));
        const QString said = QString::fromUtf8(script.readAllStandardOutput());
        QCOMPARE(script.exitCode(), 5);
        QVERIFY2(said.contains(QStringLiteral("standard input is a terminal: ") + how), qPrintable(said));
        r = cli({"predict", "--weights", m_weights, "--image", "-", path("one.png"), "-"}, path("one.png"));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--image - is given more than once: standard input holds one picture")),
                 qPrintable(r.err));
    }

    // A safetensors file of another program (PyTorch's: no Trainbench metadata) predicts with --model
    // naming its model and --data the dataset of its classes, as evaluate and export take them (predict
    // had no --model, and said to export the file first): the same answers as the weights it came from.
    void modelOfAnotherProgramsFile()
    {
        QVERIFY(!m_weights.isEmpty());
        const QString exported = path("glyphs.safetensors"), foreign = path("glyphs-torch.safetensors");
        Result r = cli({"export", "--weights", m_weights, "--out", exported});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        {
            QFile in(exported), out(foreign);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            const QByteArray all = in.readAll();
            const qint64 n = qFromLittleEndian<qint64>(all.constData());
            QJsonObject header = QJsonDocument::fromJson(all.mid(8, int(n))).object();
            QVERIFY(header.contains(QStringLiteral("__metadata__")));
            header.remove(QStringLiteral("__metadata__"));
            QByteArray h = QJsonDocument(header).toJson(QJsonDocument::Compact);
            h.append(QByteArray((8 - h.size() % 8) % 8, ' '));
            QByteArray length(8, '\0');
            qToLittleEndian<qint64>(h.size(), length.data());
            out.write(length + h + all.mid(8 + int(n)));
        }
        const QStringList pictures = {"--image", path("one.png"), path("one.jpg")};
        const Result own = cli(QStringList{"predict", "--weights", m_weights} + pictures);
        QVERIFY2(own.code == 0, qPrintable(own.err));
        r = cli(QStringList{"predict", "--weights", foreign} + pictures);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("(written by another program?): say which model its tensors belong to "
                                               "(--model NAME|FILE")),
                 qPrintable(r.err));
        r = cli(QStringList{"predict", "--weights", foreign, "--model", path("glyphs.json"), "--data", m_tmp.path()} +
                pictures);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, own.out);
        // Only the test images are read: a folder without the training images gives the same.
        QDir().mkpath(path("test-split"));
        for (const char* part : {"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
            QVERIFY(QFile::copy(path(part), path("test-split/") + part));
        r = cli(
            QStringList{"predict", "--weights", foreign, "--model", path("glyphs.json"), "--data", path("test-split")} +
            pictures);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, own.out);
        // evaluate's --model: a file that names its model takes no other, and no dataset is read for it
        // (--data names none here).
        r = cli({"predict", "--weights", m_weights, "--model", "tpu-mnist-cnn", "--data", path("nowhere"), "--image",
                 path("one.png")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("holds glyphs, not --model tpu-mnist-cnn: the file names its model, so "
                                               "leave out --model")),
                 qPrintable(r.err));
        r = cli({"predict", "--weights", foreign, "--model", "small-text-lstm", "--image", path("one.png")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--model small-text-lstm is a text model (small-text-lstm): predict "
                                               "recognises pictures with an image model")),
                 qPrintable(r.err));
        r = cli({"predict", "--weights", m_weights, "--data", m_tmp.path(), "--image", path("one.png")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--data goes with --model")), qPrintable(r.err));
    }

    // Finite weights far too large (what a diverged run of an earlier version saved): evaluate and
    // predict refuse their NaN outputs instead of printing "loss: nan" and "-nan%" with exit code 0.
    void outputsThatAreNotNumbersAreRefused()
    {
        QVERIFY(!m_weights.isEmpty());
        tb::WeightsFile w = tb::loadWeights(m_weights.toStdString());
        std::fill(w.params.begin(), w.params.end(), 1e38f);
        const QString huge = path(QStringLiteral("huge.tbw"));
        tb::saveWeights(huge.toStdString(), w);
        QImage img = toQImage(m_testPixels.data(), 28, 28);
        QVERIFY(img.save(path("huge.png")));
        const QString why = QStringLiteral("the weights give outputs that are not numbers (NaN or infinite)");
        for (const QStringList& args : {QStringList{"evaluate", "--data", m_tmp.path(), "--weights", huge},
                                        QStringList{"predict", "--weights", huge, "--image", path("huge.png")}}) {
            const Result r = cli(args);
            QCOMPARE(r.code, 5);
            QVERIFY2(r.err.contains(why), qPrintable(r.err));
            QVERIFY2(!r.out.contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(r.out));
        }
    }

    void badPictures_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray sig("\x89PNG\r\n\x1a\n", 8);
        auto ihdr = [&](uint32_t w, uint32_t h) {
            QByteArray b = sig + QByteArray("\0\0\0\x0dIHDR", 8);
            for (uint32_t v : {w, h})
                for (int s = 24; s >= 0; s -= 8)
                    b.append(char((v >> s) & 0xff));
            b.append(QByteArray("\x08\x00\x00\x00\x00", 5));
            b.append(QByteArray(4, '\0')); // CRC (libpng checks it: computed below)
            b.append(QByteArray("\0\0\0\x0aIDAT", 8) + QByteArray(14, '\x55')); // some data to decode
            return b;
        };
        QTest::newRow("empty") << QByteArray() << QStringLiteral("the file is empty");
        QTest::newRow("text") << QByteArray("hello, not a picture\n")
                              << QStringLiteral("not a PNG, JPEG, PGM or PPM picture");
        QTest::newRow("corrupt png") << (sig + QByteArray(40, '\x11')) << QStringLiteral("not a valid PNG file");
        QTest::newRow("huge png") << ihdr(20000, 20000)
                                  << QStringLiteral("20000x20000 pixels is too large to predict on");
        QTest::newRow("0x0 png") << ihdr(0, 0) << QStringLiteral("not a valid PNG file");
        QTest::newRow("cut jpeg") << QByteArray("\xff\xd8\xff\xe0\x00\x10JFIF\x00", 11)
                                  << QStringLiteral("not a valid JPEG file");
        QTest::newRow("gif") << QByteArray("GIF89a\x02\x00\x02\x00", 10)
                             << QStringLiteral("a GIF picture; the command line reads PNG, JPEG, PGM and PPM");
        QTest::newRow("cut pgm") << QByteArray("P5\n28 28\n255\n\x01\x02", 15)
                                 << QStringLiteral("a truncated PGM file (784 bytes of pixels declared, 2 present)");
        QTest::newRow("cut 16-bit pgm") << QByteArray("P5 2 2 65535\n\x01\x02\x03\x04", 17)
                                        << QStringLiteral(
                                               "a truncated PGM file (8 bytes of pixels declared, 4 present)");
        QTest::newRow("pgm without its white space")
            << QByteArray("P5 2 2 255")
            << QStringLiteral("not a valid PGM file (no white space between its largest value");
        QTest::newRow("cut ppm") << QByteArray("P6 2 2 255\n\x01\x02", 13)
                                 << QStringLiteral("a truncated PPM file (12 bytes of pixels declared, 2 present)");
        QTest::newRow("plain-text pgm")
            << QByteArray("P2\n2 1\n255\n0 255\n")
            << QStringLiteral("a plain-text (P2) PGM picture; the command line reads binary PGM and PPM (P5, P6), "
                              "PNG and JPEG");
        QTest::newRow("pbm") << QByteArray("P4\n8 1\n\xff", 8)
                             << QStringLiteral("a PBM bitmap (P4); the command line reads PNG, JPEG, PGM and PPM");
        QTest::newRow("pgm without a size") << QByteArray("P5\n# a comment\nwide 28\n255\n")
                                            << QStringLiteral("not a valid PGM file (its width is not a number)");
    }

    void badPictures()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QVERIFY(!m_weights.isEmpty());
        if (bytes.mid(12, 4) == "IHDR") // fill in its CRC
            bytes = withCrc(bytes);
        writeBytes(QStringLiteral("bad.bin"), bytes);
        const Result r = cli({"predict", "--weights", m_weights, "--image", path("bad.bin")});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(path("bad.bin") + QStringLiteral(": ") + message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void aBadPictureAmongGoodOnes()
    {
        writeBytes(QStringLiteral("bad.png"), QByteArray("\x89PNG\r\n\x1a\n", 8));
        const Result r = cli({"predict", "--weights", m_weights, "--image", path("one.png"), path("bad.png"),
                              path("missing.png"), path("one.jpg")});
        QCOMPARE(r.code, 5);
        QCOMPARE(r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2);
        QVERIFY(r.err.contains(path("missing.png")));
        // With --json, each picture has its line in its place: its result, or its error and exit code.
        QImage blank(28, 28, QImage::Format_Grayscale8);
        blank.fill(255);
        QVERIFY(blank.save(path("blank.png")));
        const Result j = cli({"predict", "--weights", m_weights, "--json", "--save-inputs", path("refused-inputs"),
                              "--image", path("one.png"), path("bad.png"), path("blank.png")});
        QCOMPARE(j.code, 5);
        const QList<QByteArray> lines = j.out.toUtf8().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(QJsonDocument::fromJson(lines[0]).object().contains(QStringLiteral("top")));
        const QJsonObject bad = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(bad[QStringLiteral("event")].toString(), QStringLiteral("image_error"));
        QCOMPARE(bad[QStringLiteral("image")].toString(), path("bad.png"));
        QCOMPARE(bad[QStringLiteral("exit_code")].toInt(), 5);
        QVERIFY(bad[QStringLiteral("message")].toString().startsWith(path("bad.png") + QStringLiteral(": ")));
        const QJsonObject white = QJsonDocument::fromJson(lines[2]).object();
        QCOMPARE(white[QStringLiteral("exit_code")].toInt(), 3);
        QVERIFY(white[QStringLiteral("message")].toString().contains(QStringLiteral("the picture is blank")));
        // --save-inputs writes what the model received: nothing of a refused picture.
        QVERIFY(QFile::exists(path("refused-inputs/one.pgm")));
        QVERIFY(!QFile::exists(path("refused-inputs/blank.pgm")));
    }

    void sixteenBitAndAlpha()
    {
        QImage img = toQImage(m_testPixels.data(), 28, 28).convertToFormat(QImage::Format_Grayscale16);
        img.invertPixels();
        QVERIFY(img.scaled(56, 56).save(path("sixteen.png")));
        QImage alpha(56, 56, QImage::Format_ARGB32); // black ink on a transparent sheet
        alpha.fill(Qt::transparent);
        const QImage ink = toQImage(m_testPixels.data(), 28, 28).scaled(56, 56);
        for (int y = 0; y < 56; ++y)
            for (int x = 0; x < 56; ++x)
                alpha.setPixel(x, y, qRgba(0, 0, 0, qGray(ink.pixel(x, y))));
        QVERIFY(alpha.save(path("alpha.png")));
        const Result r = cli({"predict", "--weights", m_weights, "--json", "--centre", "off", "--image",
                              path("sixteen.png"), path("alpha.png")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        for (const QString& line : lines)
            QVERIFY(QJsonDocument::fromJson(line.toUtf8()).object()[QStringLiteral("inverted")].toBool());
    }

    // Binary PPM (P6) reads as its colours: a dataset image as grey RGB comes back as the dataset's
    // bytes; red, green and blue weigh as in a PNG (Rec. 601), also at 16 bits a sample.
    void ppmPictures()
    {
        QByteArray ppm("P6\n# grey\n28 28\n255\n");
        for (int k = 0; k < 784; ++k)
            ppm.append(QByteArray(3, char(m_testPixels[size_t(k)])));
        writeBytes(QStringLiteral("grey.ppm"), ppm);
        // A red square on white, and the same at 16 bits: its luma, 76, where the square is.
        QByteArray red("P6 28 28 255\n"), red16("P6 28 28 65535\n");
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x) {
                const bool in = x >= 8 && x < 20 && y >= 8 && y < 20;
                red.append(in ? QByteArray("\xff\x00\x00", 3) : QByteArray(3, '\xff'));
                red16.append(in ? QByteArray("\xff\xff\x00\x00\x00\x00", 6) : QByteArray(6, '\xff'));
            }
        writeBytes(QStringLiteral("red.ppm"), red);
        writeBytes(QStringLiteral("red16.ppm"), red16);
        QDir().mkpath(path("ppm-inputs"));
        const Result r =
            cli({"predict", "--weights", m_weights, "--centre", "off", "--invert", "off", "--image", path("grey.ppm"),
                 path("red.ppm"), path("red16.ppm"), "--save-inputs", path("ppm-inputs")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile in(path("ppm-inputs/grey.pgm"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QCOMPARE(in.readAll().right(784), QByteArray(reinterpret_cast<const char*>(m_testPixels.data()), 784));
        for (const char* name : {"ppm-inputs/red.pgm", "ppm-inputs/red16.pgm"}) {
            QFile f(path(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray px = f.readAll().right(784);
            QCOMPARE(int(uint8_t(px[14 * 28 + 14])), 76);
            QCOMPARE(int(uint8_t(px[0])), 255);
        }
    }

    // A CMYK JPEG as Photoshop writes it (Adobe marker, inks stored inverted) reads as the same
    // picture as a grey one: libjpeg gives CMYK only as CMYK, and the command line mixes the RGB.
    void cmykJpeg()
    {
        QVERIFY(!m_weights.isEmpty());
        QImage grey = toQImage(m_testPixels.data(), 28, 28).scaled(56, 56).convertToFormat(QImage::Format_Grayscale8);
        grey.invertPixels(); // a dark picture on white paper: black ink only
        std::vector<uint8_t> greyPixels, cmykPixels;
        for (int y = 0; y < grey.height(); ++y)
            for (int x = 0; x < grey.width(); ++x) {
                const uint8_t g = grey.constScanLine(y)[x];
                greyPixels.push_back(g);
                cmykPixels.insert(cmykPixels.end(), {255, 255, 255, g}); // inverted: 255 is no ink
            }
        writeBytes(QStringLiteral("grey.jpg"), jpeg(greyPixels, grey.width(), grey.height(), JCS_GRAYSCALE));
        writeBytes(QStringLiteral("cmyk.jpg"), jpeg(cmykPixels, grey.width(), grey.height(), JCS_CMYK));
        QDir().mkpath(path("cmyk-inputs"));
        const Result r = cli({"predict", "--weights", m_weights, "--json", "--image", path("grey.jpg"),
                              path("cmyk.jpg"), "--save-inputs", path("cmyk-inputs")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        const QJsonObject a = QJsonDocument::fromJson(lines[0].toUtf8()).object(),
                          b = QJsonDocument::fromJson(lines[1].toUtf8()).object();
        QCOMPARE(b[QStringLiteral("class")], a[QStringLiteral("class")]);
        QCOMPARE(b[QStringLiteral("inverted")], a[QStringLiteral("inverted")]);
        QFile ga(path("cmyk-inputs/grey.pgm")), cb(path("cmyk-inputs/cmyk.pgm"));
        QVERIFY(ga.open(QIODevice::ReadOnly) && cb.open(QIODevice::ReadOnly));
        const QByteArray pa = ga.readAll().right(784), pb = cb.readAll().right(784);
        double diff = 0;
        for (int k = 0; k < 784; ++k)
            diff += std::abs(int(uint8_t(pa[k])) - int(uint8_t(pb[k])));
        QVERIFY2(diff / 784 < 4, qPrintable(QString::number(diff / 784))); // JPEG's own rounding
    }

private:
    // `pixels` (one byte per component) as a quality-95 JPEG of `space` (CMYK gets libjpeg's Adobe marker).
    static QByteArray jpeg(std::vector<uint8_t>& pixels, int width, int height, J_COLOR_SPACE space)
    {
        jpeg_compress_struct c;
        jpeg_error_mgr err;
        c.err = jpeg_std_error(&err);
        jpeg_create_compress(&c);
        unsigned char* out = nullptr;
        unsigned long size = 0;
        jpeg_mem_dest(&c, &out, &size);
        c.image_width = JDIMENSION(width);
        c.image_height = JDIMENSION(height);
        c.input_components = space == JCS_CMYK ? 4 : 1;
        c.in_color_space = space;
        jpeg_set_defaults(&c);
        jpeg_set_quality(&c, 95, TRUE);
        jpeg_start_compress(&c, TRUE);
        const size_t stride = size_t(width) * size_t(c.input_components);
        while (c.next_scanline < c.image_height) {
            JSAMPROW row = pixels.data() + stride * c.next_scanline;
            jpeg_write_scanlines(&c, &row, 1);
        }
        jpeg_finish_compress(&c);
        jpeg_destroy_compress(&c);
        QByteArray bytes(reinterpret_cast<const char*>(out), qsizetype(size));
        std::free(out);
        return bytes;
    }

    static QByteArray withCrc(QByteArray b)
    {
        // CRC-32 of the chunk type and data (bytes 12..28 of the file), big-endian after them.
        uint32_t crc = 0xffffffffu;
        for (int i = 12; i < 29; ++i) {
            crc ^= uint8_t(b[i]);
            for (int k = 0; k < 8; ++k)
                crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
        crc ^= 0xffffffffu;
        for (int k = 0; k < 4; ++k)
            b[29 + k] = char((crc >> (24 - 8 * k)) & 0xff);
        return b;
    }
};

QTEST_MAIN(TstPredict)
#include "tst_predict.moc"
