// The Predict page, offscreen: the preview and the bars while drawing, the same probabilities as
// the engine's Predictor on the same picture, pictures opened from files, and bad files; the window's
// screenshot of the page.
#include "fixtures.hpp"

#include "charts/probability_bars.hpp"
#include "data/preprocess.hpp"
#include "io/weights_file.hpp"
#include "main_window.hpp"
#include "model/model_spec.hpp"
#include "predict/drawing_pad.hpp"
#include "predict/picture_reader.hpp"
#include "predict/predict_panel.hpp"
#include "predict/predictor.hpp"

#include <QCheckBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace tbui;

namespace {

const char* kModel = R"({"name": "tiny", "input_scale": 0.00392156862745098, "layers": [
  {"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"},
  {"type": "MaxPooling2D", "pool_size": 2},
  {"type": "Flatten"},
  {"type": "Dense", "units": 10, "activation": "softmax"}]})";

WeightsPtr randomWeights()
{
    auto w = std::make_shared<tb::WeightsFile>();
    w->spec = tb::parseModelSpec(kModel, "tiny.json");
    w->input = tb::Shape::image(28, 28, 1);
    for (int i = 0; i < 10; ++i)
        w->classNames.push_back(std::to_string(i));
    tb::Network net(w->spec, w->input, 10);
    net.initialize(5);
    w->params = net.params();
    w->state = net.state();
    return w;
}

// A "7" drawn on the pad's sheet.
std::vector<QPointF> seven()
{
    return {{70, 60}, {210, 60}, {170, 130}, {130, 220}};
}

} // namespace

class TstUiPredict : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    static bool settle(PredictPanel& page)
    {
        return QTest::qWaitFor([&] { return page.idle(); }, 10000);
    }
    QString writeBytes(const QString& name, const QByteArray& bytes)
    {
        QFile f(m_tmp.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return f.fileName();
    }

private slots:
    void previewWithoutAModel()
    {
        PredictPanel page;
        page.resize(1100, 500);
        page.show();
        QVERIFY(settle(page));
        QVERIFY(!page.hasModel());
        // A blank sheet: nothing was resized or centred, whatever the switches say.
        QVERIFY2(page.inputCaption().endsWith(QStringLiteral("nothing, the picture is blank")),
                 qPrintable(page.inputCaption()));
        page.pad()->drawStroke(seven());
        QVERIFY(settle(page));
        QVERIFY2(page.inputCaption().endsWith(QStringLiteral("cropped, fitted into 20×20 and centred")),
                 qPrintable(page.inputCaption()));
        QCOMPARE(page.modelInput().size(), QSize(28, 28));
        QCOMPARE(page.bars()->barCount(), 0);
        QVERIFY(page.statusText().contains(QStringLiteral("No model")));
        QVERIFY(page.modelText().startsWith(QStringLiteral("No model yet")));
    }

    void predictsWhatThePredictorGives()
    {
        PredictPanel page;
        page.show();
        const WeightsPtr w = randomWeights();
        page.setWeights(w, [] { return QStringLiteral("tiny"); });
        QVERIFY(page.centreBox()->isChecked()); // digits: MNIST's centring
        page.pad()->drawStroke(seven());
        QVERIFY(settle(page));
        QCOMPARE(page.bars()->barCount(), 10);
        QVERIFY(page.statusText().contains(QStringLiteral("ms on one core")));
        tb::Predictor predictor(*w);
        const tb::PreprocessResult in =
            tb::preprocessImage(tb::toGray(toRgba(page.pad()->picture())), 28, 28, tb::PreprocessOptions());
        QVERIFY(in.inverted && in.centred);
        QCOMPARE(page.probabilities(), predictor.probabilities(in.input));
        const tb::RankedClass best = tb::topClasses(page.probabilities(), 1)[0];
        QCOMPARE(page.bars()->categories().first(), QString::number(best.index));

        // The centring switched off: the whole sheet resized.
        const QImage centred = page.modelInput();
        page.centreBox()->setChecked(false);
        QVERIFY(settle(page));
        QVERIFY(page.modelInput() != centred);
        page.invertBox()->setChecked(false);
        QVERIFY(settle(page));
        QCOMPARE(qGray(page.modelInput().pixel(0, 0)), 255); // the white paper, as it is

        page.pad()->undo();
        QVERIFY(settle(page));
        QVERIFY(page.statusText().startsWith(QStringLiteral("Draw a digit"))); // blank again
        QCOMPARE(page.bars()->barCount(), 0);
    }

    // Every bar's value is written, in the window's locale: the small ones too, which Qt Charts would
    // leave without a label (a confident prediction's other classes).
    void barsSayEveryProbability()
    {
        ProbabilityBars bars;
        bars.setBars({"Bag", "Shirt", "Coat", "Dress"}, {0.973, 0.0042, 1e-7, 0.0});
        // A colon between the class and its value: "7 7.8%" read as 77.8%.
        QCOMPARE(bars.labels(), (QStringList{"Bag: 97.3%", "Shirt: 0.42%", "Coat: < 0.01%", "Dress: 0%"}));
        // The axis reads rich text: its labels are escaped, or "< 0.01%" would vanish as a tag.
        QCOMPARE(bars.axisLabels().at(1), QString("Coat: &lt; 0.01%"));
        QCOMPARE(bars.categories(), (QStringList{"Bag", "Shirt", "Coat", "Dress"}));
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::Spanish, QLocale::Spain));
        bars.setBars({"Bag", "Shirt"}, {0.973, 0.0042});
        QLocale::setDefault(before);
        const QString nbsp(QChar(0x00a0)); // Spanish writes a space before the sign
        QCOMPARE(bars.labels(), (QStringList{"Bag: 97,3" + nbsp + "%", "Shirt: 0,42" + nbsp + "%"}));
        bars.show();
        // (The drawn text has a plain space where the label has Spanish's no-break space.)
        QTRY_VERIFY2_WITH_TIMEOUT(bars.drawnLabels().contains("Shirt: 0,42 %"),
                                  qPrintable(bars.drawnLabels().join(u'|')), fixtures::kHangGuardMs);
        // Cleared (a picture that cannot be read): no class of the previous prediction stays on screen.
        bars.clear();
        QCOMPARE(bars.barCount(), 0);
        QVERIFY(bars.labels().isEmpty());
        QApplication::processEvents();
        QVERIFY2(bars.drawnLabels().isEmpty(), qPrintable(bars.drawnLabels().join(u'|')));
    }

    void opensPictures()
    {
        PredictPanel page;
        page.setWeights(randomWeights(), [] { return QStringLiteral("tiny"); });
        QVERIFY(settle(page));
        // A drawn digit saved larger, white on black: the same input as the drawing (within the
        // resampling), and a 16-bit PNG is read too.
        page.pad()->drawStroke(seven());
        QVERIFY(settle(page));
        const QImage drawn = page.modelInput();
        QImage file = page.pad()->picture().convertToFormat(QImage::Format_Grayscale16);
        file.invertPixels();
        const QString path = m_tmp.filePath(QStringLiteral("seven16.png"));
        QVERIFY(file.scaled(400, 400, Qt::IgnoreAspectRatio, Qt::SmoothTransformation).save(path));
        QSignalSpy opened(&page, &PredictPanel::pictureOpened);
        page.openPicture(path);
        QVERIFY(opened.wait(fixtures::kHangGuardMs));
        QVERIFY(opened.first().first().toBool());
        QVERIFY(settle(page));
        QCOMPARE(page.pad()->picture().size(), QSize(400, 400));
        int diff = 0;
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x)
                diff += std::abs(qGray(page.modelInput().pixel(x, y)) - qGray(drawn.pixel(x, y)));
        QVERIFY2(diff / 784 < 12, qPrintable(QString::number(diff / 784)));
        QCOMPARE(page.bars()->barCount(), 10);
    }

    // A picture of other proportions than the input, centring off: trimmed and fitted, as the caption
    // says; a square one is resized.
    void aWidePictureIsFittedNotStretched()
    {
        PredictPanel page;
        page.setWeights(randomWeights(), [] { return QStringLiteral("tiny"); });
        page.centreBox()->setChecked(false);
        QVERIFY(settle(page));
        for (const QSize size : {QSize(120, 40), QSize(80, 80)}) {
            QImage picture(size, QImage::Format_RGB32);
            picture.fill(Qt::white);
            for (int y = size.height() / 4; y < size.height() * 3 / 4; ++y)
                for (int x = size.width() / 6; x < size.width() * 5 / 6; ++x)
                    picture.setPixel(x, y, qRgb(0, 0, 0));
            const QString path = m_tmp.filePath(QStringLiteral("bar-%1.png").arg(size.width()));
            QVERIFY(picture.save(path));
            QSignalSpy opened(&page, &PredictPanel::pictureOpened);
            page.openPicture(path);
            QVERIFY(opened.wait(fixtures::kHangGuardMs));
            QVERIFY(settle(page));
            const QString how = size.width() == size.height()
                                    ? QStringLiteral("inverted, resized")
                                    : QStringLiteral("inverted, trimmed and fitted, not stretched");
            QVERIFY2(page.inputCaption().endsWith(how), qPrintable(page.inputCaption()));
        }
    }

    void badPictures_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("bad.img is empty (0 bytes).");
        QTest::newRow("text") << QByteArray("hello, not a picture\n")
                              << QStringLiteral("bad.img is not a picture Trainbench can read");
        QTest::newRow("corrupt png") << (QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(40, '\x11'))
                                     << QStringLiteral("bad.img");
        // An IHDR for 20000x20000 (CRC included): refused by the header, nothing decoded.
        QTest::newRow("huge png") << QByteArray::fromHex(
                                         "89504e470d0a1a0a0000000d4948445200004e2000004e200800000000c6"
                                         "1b19e50000000a4944415455555555555555555555000000000000000049454e44"
                                         "ae426082")
                                  << QStringLiteral("bad.img is 20000×20000 pixels, too large to predict on");
        QTest::newRow("0x0 png") << QByteArray::fromHex("89504e470d0a1a0a0000000d49484452000000000000000008000000001e"
                                                        "e023ce0000000049454e44ae426082")
                                 << QStringLiteral("bad.img");
    }

    void badPictures()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        PredictPanel page;
        QSignalSpy opened(&page, &PredictPanel::pictureOpened);
        page.openPicture(writeBytes(QStringLiteral("bad.img"), bytes));
        QVERIFY(opened.wait(fixtures::kHangGuardMs));
        QVERIFY(!opened.first().first().toBool());
        QVERIFY(settle(page)); // the page's first preview, racing the file, does not hide the message
        QVERIFY2(page.statusText().contains(message), qPrintable(page.statusText()));
        QCOMPARE(page.pad()->picture().size(), QSize(DrawingPad::kSheetSide, DrawingPad::kSheetSide));
    }

    // A picture that cannot be read after a drawing: the page goes back to its empty state, the blank
    // sheet's preview with its caption and no bars (it showed a black square without a caption), and
    // the error stays said.
    void badPictureLeavesTheEmptyState()
    {
        PredictPanel page;
        page.setWeights(randomWeights(), [] { return QStringLiteral("tiny"); });
        page.pad()->drawStroke(seven());
        QVERIFY(settle(page));
        QCOMPARE(page.bars()->barCount(), 10);
        QSignalSpy opened(&page, &PredictPanel::pictureOpened);
        page.openPicture(writeBytes(QStringLiteral("truncated.png"), QByteArray("\x89PNG\r\n\x1a\n", 8)));
        QVERIFY(opened.wait(fixtures::kHangGuardMs));
        QVERIFY(!opened.first().first().toBool());
        QVERIFY(settle(page));
        QVERIFY2(page.inputCaption().endsWith(QStringLiteral("nothing, no picture is open")),
                 qPrintable(page.inputCaption()));
        QCOMPARE(page.bars()->barCount(), 0);
        QVERIFY2(page.statusText().contains(QStringLiteral("truncated.png")), qPrintable(page.statusText()));
    }

    void animatedGifIsReadAsItsFirstFrame()
    {
        // Two 4x4 frames, black then white (ImageMagick's `convert -delay 10 -size 4x4 xc:black xc:white`).
        const QByteArray gif = QByteArray::fromHex(
            "47494638396104000400f0000000000000000021f904000a00000021ff0b4e45545343415045322e3003010000002c00"
            "00000004000400000204848f09050021f904000a0000002c000000000400040080ffffff0000000204848f0905003b");
        PredictPanel page;
        QSignalSpy opened(&page, &PredictPanel::pictureOpened);
        page.openPicture(writeBytes(QStringLiteral("anim.gif"), gif));
        QVERIFY(opened.wait(fixtures::kHangGuardMs));
        QVERIFY2(opened.first().first().toBool(), qPrintable(page.statusText()));
        QVERIFY(settle(page));
        QVERIFY2(page.statusText().contains(QStringLiteral("anim.gif is animated (2 frames): predicting on its first "
                                                           "frame.")),
                 qPrintable(page.statusText()));
    }

    void theWindowHasThePage()
    {
        MainWindow window;
        // Setup, Training, Results, Compare, Predict, Write (its text counterpart, beside it), Runs.
        QCOMPARE(window.tabs()->count(), 7);
        QCOMPARE(window.tabs()->tabText(MainWindow::PredictPage), QStringLiteral("Predict"));
        QCOMPARE(window.tabs()->tabText(MainWindow::WritePage), QStringLiteral("Write"));
        QCOMPARE(MainWindow::WritePage, MainWindow::PredictPage + 1);
        QCOMPARE(window.tabs()->widget(MainWindow::PredictPage)->findChild<PredictPanel*>(), window.predictPanel());
    }

    // The window's screenshot of this page (trainbench --screenshots DIR --predict-screenshot WEIGHTS,
    // scripts/screenshots.sh) with weights that open but cannot predict, finite but far too large: it
    // wrote the page with its error and exited 0. It fails, with the page's message on stderr, as
    // weights that do not open do; usable weights give the screenshot.
    void predictScreenshotFailsOnUnusableWeights()
    {
        const WeightsPtr usable = randomWeights();
        tb::WeightsFile huge = *usable;
        std::fill(huge.params.begin(), huge.params.end(), 1e38f);
        const QString hugePath = m_tmp.filePath(QStringLiteral("huge.tbw")),
                      usablePath = m_tmp.filePath(QStringLiteral("usable.tbw"));
        tb::saveWeights(hugePath.toStdString(), huge);
        tb::saveWeights(usablePath.toStdString(), *usable);
        auto screenshot = [&](const QString& weights, const QString& dir) {
            QProcess p;
            p.start(QStringLiteral(TRAINBENCH_GUI),
                    {QStringLiteral("--screenshots"), dir, QStringLiteral("--predict-screenshot"), weights});
            if (!p.waitForFinished(fixtures::kHangGuardMs) || p.exitStatus() != QProcess::NormalExit)
                return std::make_pair(-1, QStringLiteral("did not finish"));
            return std::make_pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
        };
        const QString refused = m_tmp.filePath(QStringLiteral("refused-shots"));
        const auto [code, err] = screenshot(hugePath, refused);
        QVERIFY2(code != 0 && code != -1, qPrintable(QString::number(code) + QLatin1Char(' ') + err));
        QVERIFY2(err.contains(hugePath + QStringLiteral(": the weights give outputs that are not numbers (NaN or "
                                                        "infinite)")),
                 qPrintable(err));
        QVERIFY(!QFile::exists(refused + QStringLiteral("/predict-page.png")));
        const QString taken = m_tmp.filePath(QStringLiteral("shots"));
        const auto [usableCode, usableErr] = screenshot(usablePath, taken);
        QVERIFY2(usableCode == 0, qPrintable(usableErr));
        QVERIFY(QFile::exists(taken + QStringLiteral("/predict-page.png")));
    }

    // The window's --help in the user's language: its own lines and Qt's help lines too, not only "Uso:".
    void theWindowsHelpIsInTheUsersLanguage()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LANG"), QStringLiteral("es_ES.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("es"));
        env.remove(QStringLiteral("LC_ALL"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("help-config"))); // no saved one
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TRAINBENCH_GUI), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(fixtures::kHangGuardMs) && p.exitStatus() == QProcess::NormalExit);
        const QString help = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(help.contains(QStringLiteral("Entrena redes neuronales")), qPrintable(help));
        QVERIFY2(help.contains(QStringLiteral("Una carpeta de archivos IDX")), qPrintable(help));
        QVERIFY2(!help.contains(QStringLiteral("Train neural networks")), qPrintable(help));
        // Qt's own --help lines, which Qt's Spanish catalogue lacks, come from the application's.
        QVERIFY2(help.contains(QStringLiteral("Muestra la ayuda sobre las opciones")), qPrintable(help));
        QVERIFY2(!help.contains(QStringLiteral("Displays help")), qPrintable(help));
    }
};

QTEST_MAIN(TstUiPredict)
#include "tst_ui_predict.moc"
