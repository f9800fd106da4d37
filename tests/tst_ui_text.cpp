// Text models in the window, offscreen: the Dataset panel with good and bad text files, the model
// panel's text presets and its refusal of an image model on text, a short text training run from
// the window (samples in the log, the text Results, the Write page), writing with a fixed seed
// giving the engine's own text, and Stop while writing.
#include "fixtures.hpp"

#include "charts/chart.hpp"
#include "common/text.hpp"
#include "compare/compare_panel.hpp"
#include "data/text_dataset.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "model/model_spec.hpp"
#include "panels/charts_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_panel.hpp"
#include "predict/predict_panel.hpp"
#include "predict/text_generator.hpp"
#include "results/results_panel.hpp"
#include "results/text_results.hpp"
#include "run/run_controller.hpp"
#include "train/session.hpp"
#include "window_test.hpp"
#include "write/write_panel.hpp"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QtTest>

using namespace tbui;

namespace {
// A tiny text model: trains in a second on a few kilobytes.
const char* kTextModel = R"({"name": "tiny-text", "sequence_length": 16, "layers": [
  {"type": "Embedding", "input_dim": 256, "output_dim": 8},
  {"type": "LSTM", "units": 16, "return_sequences": true, "stateful": true},
  {"type": "Dense", "units": 256, "activation": "softmax"}]})";

const char* kImageModel = R"({"name": "tiny-cnn", "layers": [
  {"type": "Flatten"}, {"type": "Dense", "units": 10, "activation": "softmax"}]})";

QStringList comboItems(const QComboBox* box)
{
    QStringList out;
    for (int i = 0; i < box->count(); ++i)
        out << box->itemText(i);
    return out;
}
} // namespace

class TstUiText : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_text, m_textModel, m_imageModel;

    QString writeFile(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_tmp.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(bytes);
        return path;
    }

    // Loads `path` in the panel (as a text: the Text file… button) and waits for the outcome.
    static bool load(DatasetPanel& panel, const QString& path, DatasetPanel::Kind kind = DatasetPanel::Kind::Text)
    {
        panel.load(path, kind);
        return QTest::qWaitFor([&] { return !panel.isLoading(); }, 20000);
    }

private slots:
    void initTestCase()
    {
        fixtures::beginWindowTest("tst_ui_text", m_tmp.filePath(QStringLiteral("data-home")));
        QByteArray text;
        for (int i = 0; text.size() < 4000; ++i)
            text += QByteArray("the cat sat on the mat and the dog sat on the log, line ") + QByteArray::number(i % 7) +
                    "\n";
        m_text = writeFile(QStringLiteral("tiny.txt"), text);
        m_textModel = writeFile(QStringLiteral("tiny-text.json"), kTextModel);
        m_imageModel = writeFile(QStringLiteral("tiny-cnn.json"), kImageModel);
        QVERIFY(!m_text.isEmpty() && !m_textModel.isEmpty() && !m_imageModel.isEmpty());
    }

    // A text switches the image model to small-text-lstm with the settings it learns with (a few
    // epochs of small RMSprop batches: Adam's batch 128 is 4 steps an epoch of a licence text); an
    // image model gets its own settings back.
    void textPresetBringsItsSettings()
    {
        MainWindow w;
        w.modelPanel()->selectPreset(QStringLiteral("tpu-mnist-cnn"));
        // The Compare page's size sweep, chosen for the image model, is greyed for the text model.
        auto* sweep = w.comparePanel()->findChild<QComboBox*>(QStringLiteral("sweepKind"));
        QVERIFY(sweep);
        const auto sizeSweep = [sweep] {
            return qobject_cast<QStandardItemModel*>(sweep->model())->item(sweep->findData(int(tb::SweepKind::Size)));
        };
        QVERIFY(sizeSweep()->isEnabled());
        w.comparePanel()->setSweep(tb::SweepKind::Size, QStringLiteral("1,2"));
        HyperparametersPanel& hyper = *w.hyperparametersPanel();
        hyper.setBasics({tb::OptimizerKind::Adam, 0.002, 64, 3});
        QVERIFY(load(*w.datasetPanel(), m_text));
        QCOMPARE(w.modelPanel()->spec()->name, std::string("small-text-lstm"));
        QVERIFY(!sizeSweep()->isEnabled());
        QCOMPARE(tb::SweepKind(sweep->currentData().toInt()), tb::SweepKind::None);
        QVERIFY(!sizeSweep()->toolTip().isEmpty());
        HyperparametersPanel::Basics b = hyper.basics();
        QCOMPARE(int(b.optimizer), int(tb::OptimizerKind::RMSprop));
        QCOMPARE(b.learningRate, 0.01);
        QCOMPARE(b.batchSize, 16);
        QCOMPARE(b.epochs, 6);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("small-text-lstm trains with its own")),
                 qPrintable(w.statusBar()->currentMessage()));
        // The notebook's model brings its own (a lower rate: small-text-lstm's 0.01 stalls it), and the
        // image model's still come back after it.
        w.modelPanel()->selectPreset(QStringLiteral("shakespeare-lstm"));
        b = hyper.basics();
        QCOMPARE(int(b.optimizer), int(tb::OptimizerKind::RMSprop));
        QCOMPARE(b.learningRate, 0.001);
        QCOMPARE(b.batchSize, 16);
        QCOMPARE(b.epochs, 10);
        const QString images = m_tmp.filePath(QStringLiteral("images"));
        QVERIFY(QDir().mkpath(images));
        fixtures::writeToyDataset(images.toStdString(), 60, 20, 12, 3);
        QVERIFY(load(*w.datasetPanel(), images, DatasetPanel::Kind::FromPath)); // an IDX folder: images again
        QVERIFY(w.modelPanel()->spec() && !w.modelPanel()->spec()->isText());
        QVERIFY(sizeSweep()->isEnabled() && sizeSweep()->toolTip().isEmpty());
        b = hyper.basics();
        QCOMPARE(int(b.optimizer), int(tb::OptimizerKind::Adam));
        QCOMPARE(b.learningRate, 0.002);
        QCOMPARE(b.batchSize, 64);
        QCOMPARE(b.epochs, 3);
        // Said in place of the text preset's message, which stayed up for its 15 s.
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("image models' settings again")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    // A session that ends on a text preset's settings: the next starts on an image model (no dataset is
    // loaded yet) with the image model's own settings (a new user's report: after a restart on
    // Fashion-MNIST, tpu-mnist-cnn had RMSprop at 0.01, batch 16, the text preset's), and a text opened
    // then and an image folder after it bring them back again.
    void imageSettingsComeBackAfterARestart()
    {
        {
            MainWindow w;
            w.modelPanel()->selectPreset(QStringLiteral("tpu-mnist-cnn"));
            w.hyperparametersPanel()->setBasics({tb::OptimizerKind::SGD, 0.03, 32, 4});
            QVERIFY(load(*w.datasetPanel(), m_text));
            QCOMPARE(int(w.hyperparametersPanel()->basics().optimizer), int(tb::OptimizerKind::RMSprop));
        }
        const auto check = [](const HyperparametersPanel::Basics& b) {
            QCOMPARE(int(b.optimizer), int(tb::OptimizerKind::SGD));
            QCOMPARE(b.learningRate, 0.03);
            QCOMPARE(b.batchSize, 32);
            QCOMPARE(b.epochs, 4);
        };
        MainWindow w;
        QVERIFY(w.modelPanel()->spec() && !w.modelPanel()->spec()->isText());
        check(w.hyperparametersPanel()->basics());
        QVERIFY(load(*w.datasetPanel(), m_text));
        QCOMPARE(int(w.hyperparametersPanel()->basics().optimizer), int(tb::OptimizerKind::RMSprop));
        const QString images = m_tmp.filePath(QStringLiteral("restart-images"));
        QVERIFY(QDir().mkpath(images));
        fixtures::writeToyDataset(images.toStdString(), 60, 20, 12, 3);
        QVERIFY(load(*w.datasetPanel(), images, DatasetPanel::Kind::FromPath));
        check(w.hyperparametersPanel()->basics());
        // From a text model file (no settings of its own), its settings changed, to a preset and back to
        // images: the image model's come back, not the file's.
        w.modelPanel()->openModelFile(m_textModel);
        QVERIFY(w.modelPanel()->spec() && w.modelPanel()->spec()->isText());
        w.hyperparametersPanel()->setBasics({tb::OptimizerKind::Adam, 0.005, 8, 9});
        QVERIFY(load(*w.datasetPanel(), m_text));
        w.modelPanel()->selectPreset(QStringLiteral("small-text-lstm"));
        QCOMPARE(w.modelPanel()->spec()->name, std::string("small-text-lstm"));
        QCOMPARE(int(w.hyperparametersPanel()->basics().optimizer), int(tb::OptimizerKind::RMSprop));
        QVERIFY(load(*w.datasetPanel(), images, DatasetPanel::Kind::FromPath));
        QVERIFY(w.modelPanel()->spec() && !w.modelPanel()->spec()->isText());
        check(w.hyperparametersPanel()->basics());
        // Given back once: an image model's settings changed after it stay.
        w.hyperparametersPanel()->setBasics({tb::OptimizerKind::Adam, 0.001, 128, 2});
        MainWindow again;
        QCOMPARE(int(again.hyperparametersPanel()->basics().optimizer), int(tb::OptimizerKind::Adam));
        QCOMPARE(again.hyperparametersPanel()->basics().batchSize, 128);
    }

    void datasetPanelShowsAText()
    {
        MainWindow w;
        DatasetPanel& panel = *w.datasetPanel();
        QVERIFY(load(panel, m_text));
        QVERIFY(panel.dataset());
        QVERIFY(panel.dataset()->isText());
        QCOMPARE(panel.errorText(), QString());
        QVERIFY(panel.textSample()->isVisibleTo(&panel));
        QVERIFY(panel.textSample()->toPlainText().startsWith(QStringLiteral("the cat sat on the mat")));
        QCOMPARE(panel.dataset()->textVocabulary, std::string("bytes"));
        bool described = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            described = described || (label->text().contains(QStringLiteral("byte-level")) &&
                                      label->text().contains(QStringLiteral("4.")));
        QVERIFY2(described, "the panel names the vocabulary and the size");
        // The model panel offers the text presets by name, and no image preset.
        const QStringList presets = comboItems(w.modelPanel()->findChild<QComboBox*>());
        QVERIFY2(presets.contains(QStringLiteral("small-text-lstm")), qPrintable(presets.join(u',')));
        QVERIFY(presets.contains(QStringLiteral("shakespeare-lstm")));
        QVERIFY(!presets.contains(QStringLiteral("tpu-mnist-cnn")));
        // An image model gives way to the text model that learns in minutes, not the notebook's large one.
        QVERIFY(w.modelPanel()->spec() && w.modelPanel()->spec()->isText());
        QCOMPARE(w.modelPanel()->spec()->name, std::string("small-text-lstm"));
        // The text is cut into the chosen model's sequence length.
        QTRY_COMPARE_WITH_TIMEOUT(panel.dataset() ? panel.dataset()->inputHeight() : 0,
                                  w.modelPanel()->spec()->sequenceLength, fixtures::kHangGuardMs);
        QVERIFY(w.startBlocker().isEmpty());

        // Character-level: the distinct characters of the text.
        panel.setTextVocabulary(true);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isLoading() && panel.dataset()->textVocabulary == "characters",
                                 fixtures::kHangGuardMs);
        QCOMPARE(panel.dataset()->numClasses,
                 int(tb::TextVocabulary::characters(tb::readText(m_text.toStdString(), true), "").size()));
    }

    // The chosen model decides how a path is read, as the CLI's --data: an image model reads an IDX
    // folder (a text file gets the IDX message), a text model reads a text; the gestures that say
    // what they are (a file dropped or chosen from the recent list) load a text and switch the model.
    void theModelDecidesHowAPathIsRead()
    {
        MainWindow w;
        QVERIFY(!w.modelPanel()->spec() || !w.modelPanel()->spec()->isText());
        DatasetPanel& panel = *w.datasetPanel();
        QVERIFY(!panel.textModel());
        QVERIFY(load(panel, m_text, DatasetPanel::Kind::ByModel));
        QVERIFY(!panel.dataset());
        QCOMPARE(panel.errorText(), QStringLiteral("Could not load the dataset: %1 is a file; choose the folder that "
                                                   "holds the IDX files (a text trains a text model, such as "
                                                   "small-text-lstm)")
                                        .arg(m_text));
        const QString folder = m_tmp.filePath(QStringLiteral("texts"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::copy(m_text, folder + QStringLiteral("/a.txt")));
        QVERIFY(load(panel, folder, DatasetPanel::Kind::ByModel));
        QVERIFY(!panel.dataset());
        QVERIFY2(panel.errorText().contains(QStringLiteral("train-images")), qPrintable(panel.errorText()));
        QVERIFY(!DatasetPanel::readsAsText(folder, false));
        QVERIFY(DatasetPanel::readsAsText(folder, true));
        QVERIFY(DatasetPanel::readsAsText(m_text, false));

        // A file from the recent list or dropped: a text, and the model panel turns to the text presets.
        QVERIFY(load(panel, m_text, DatasetPanel::Kind::FromPath));
        QVERIFY(panel.dataset() && panel.dataset()->isText());
        QVERIFY(w.modelPanel()->spec() && w.modelPanel()->spec()->isText());
        QVERIFY(panel.textModel());
        // With a text model chosen, a folder is read as a text.
        QVERIFY(load(panel, folder, DatasetPanel::Kind::ByModel));
        QVERIFY2(panel.dataset() && panel.dataset()->isText(), qPrintable(panel.errorText()));
        QCOMPARE(panel.errorText(), QString());
    }

    // The text widgets (the Dataset panel's vocabulary and sample, the Write page, the text Results)
    // narrow with the window: its minimum stays within a small screen's 600 px, in both languages,
    // and at 1152x648 no page scrolls sideways.
    void textPagesFitASmallScreen_data() { fixtures::bothLanguages(); }
    void textPagesFitASmallScreen()
    {
        const auto back = fixtures::inRowLanguage();
        MainWindow w;
        QVERIFY(load(*w.datasetPanel(), m_text));
        QVERIFY(w.datasetPanel()->dataset() && w.datasetPanel()->dataset()->isText());
        w.show();
        w.resize(1152, 648);
        QCOMPARE(w.size(), QSize(1152, 648));
        for (int page = 0; page < w.tabs()->count(); ++page) {
            w.tabs()->setCurrentIndex(page);
            QTest::qWait(20);
            const QSize min = w.minimumSizeHint();
            QVERIFY2(min.width() <= 600, qPrintable(QStringLiteral("page %1 (%2): minimum %3 px wide")
                                                        .arg(page)
                                                        .arg(w.tabs()->tabText(page))
                                                        .arg(min.width())));
            if (auto* scroll = qobject_cast<QScrollArea*>(w.tabs()->currentWidget()))
                QVERIFY2(
                    !scroll->horizontalScrollBar()->isVisible(),
                    qPrintable(QStringLiteral("page %1 (%2) scrolls sideways").arg(page).arg(w.tabs()->tabText(page))));
        }
    }

    void badTextsSayWhy_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("binary") << QByteArray("some text\0more text and more text and more", 43)
                                << QStringLiteral("binary");
        QTest::newRow("short") << QByteArray("too short a text\n") << QStringLiteral("shorter than one sequence");
        QByteArray controls; // binary with no zero byte
        for (int i = 0; i < 2000; ++i)
            controls += char(1 + (i * 7919) % 255);
        QTest::newRow("binary, no zero byte") << controls << QStringLiteral("bytes are control characters");
    }

    void badTextsSayWhy()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        MainWindow w;
        const QString path =
            writeFile(QStringLiteral("bad-%1.txt").arg(QString::fromLatin1(QTest::currentDataTag())), bytes);
        QVERIFY(load(*w.datasetPanel(), path));
        QVERIFY(!w.datasetPanel()->dataset());
        QVERIFY2(w.datasetPanel()->errorText().contains(expected), qPrintable(w.datasetPanel()->errorText()));
        QVERIFY(w.datasetPanel()->errorText().contains(QStringLiteral("bad-")));
        QVERIFY(!w.startBlocker().isEmpty());
    }

    void unreadableTextSaysWhy()
    {
        MainWindow w;
        QVERIFY(load(*w.datasetPanel(), m_tmp.filePath(QStringLiteral("missing.txt"))));
        QVERIFY(!w.datasetPanel()->dataset());
        QVERIFY(!w.datasetPanel()->errorText().isEmpty());
    }

    // A byte-level model on a text with accents: each lone byte has a label of its own (the confusion's
    // headers were all "?"), a mistake's context joins its bytes into characters, and the summary counts
    // bytes.
    void byteSymbolsReadable()
    {
        std::string text;
        for (int i = 0; i < 40; ++i)
            text += "héllo wörld, ça va ";
        tb::TextOptions o;
        o.sequenceLength = 8;
        auto data = std::make_shared<const tb::Dataset>(tb::textDataset(text, "accents", o));
        auto eval = std::make_shared<tb::EvalResult>();
        const size_t n = data->test.labels.size();
        eval->samples = int(n);
        eval->predicted.assign(n, uint8_t('x')); // every prediction wrong
        eval->confidence.assign(n, 1.0f / float(data->numClasses));
        TextResults view;
        view.setResults(data, eval);
        QVERIFY2(view.summaryText().contains(QStringLiteral("held-out bytes")), qPrintable(view.summaryText()));
        QSet<QString> headers;
        QTableWidget* confusion = view.confusionTable();
        for (int c = 0; c < confusion->columnCount(); ++c)
            headers.insert(confusion->horizontalHeaderItem(c)->text());
        QCOMPARE(headers.size(), confusion->columnCount());
        QVERIFY2(headers.contains(QStringLiteral("⟨c3⟩")), qPrintable(QStringList(headers.values()).join(" ")));
        QString contexts;
        for (int r = 0; r < view.mistakesTable()->rowCount(); ++r)
            contexts += view.mistakesTable()->item(r, 0)->text();
        QVERIFY2(contexts.contains(QStringLiteral("ö")) || contexts.contains(QStringLiteral("é")),
                 qPrintable(contexts));
        QVERIFY2(!contexts.contains(QStringLiteral("??")), qPrintable(contexts));
    }

    // A character-level model's Write page names a prompt character its vocabulary lacks, and writes
    // nothing.
    void writeRefusesAPromptOutsideTheVocabulary()
    {
        tb::TextOptions o;
        o.vocabulary = tb::TextVocabularyKind::Characters;
        o.sequenceLength = 16;
        const tb::Dataset d = tb::loadTextDataset(m_text.toStdString(), o);
        tb::TrainConfig c;
        c.epochs = 1;
        c.batchSize = 8;
        c.maxBatches = 2;
        tb::TrainingSession s(tb::parseModelSpec(tb::presetJson("small-text-lstm"), "small-text-lstm"), d, c);
        QCOMPARE(s.run(), tb::TrainStatus::Completed);
        const QString path = m_tmp.filePath(QStringLiteral("chars.tbw"));
        s.save(path.toStdString());
        MainWindow w;
        WritePanel& page = *w.writePanel();
        page.openWeightsFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(page.hasModel(), fixtures::kHangGuardMs);
        page.promptEdit()->setText(QStringLiteral("the €"));
        QSignalSpy done(&page, &WritePanel::writingFinished);
        page.writeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, fixtures::kHangGuardMs);
        QVERIFY2(page.errorText().contains(
                     QStringLiteral("the prompt's character \"€\" at byte offset 4 (bytes 0xe2 0x82 0xac) is not in "
                                    "the model's character-level vocabulary")),
                 qPrintable(page.errorText()));
        QCOMPARE(page.generatedSymbols(), 0);
    }

    void imageModelRefusedOnText()
    {
        MainWindow w;
        QVERIFY(load(*w.datasetPanel(), m_text));
        w.modelPanel()->openModelFile(m_imageModel);
        QVERIFY2(w.startBlocker().contains(QStringLiteral("image model")), qPrintable(w.startBlocker()));
        QVERIFY(w.modelPanel()->errorText().contains(QStringLiteral("image model")));
        w.runPanel()->startButton()->click();
        QVERIFY(!w.runController()->isRunning());
    }

    // Alt+letter on the Write page: each of its fields' letters differs from the menus' (Alt+L went to
    // Length before the Language menu; in Spanish Alt+I to Inicio before Idioma), in both languages.
    void writePageMnemonicsLeaveTheMenus_data() { fixtures::bothLanguages(); }
    void writePageMnemonicsLeaveTheMenus()
    {
        const auto back = fixtures::inRowLanguage();
        MainWindow w;
        auto mnemonic = [](const QString& text) {
            const int at = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
            return at < 0 ? QChar() : text.at(at + 1).toLower();
        };
        QMap<QChar, QString> taken;
        for (const QAction* menu : w.menuBar()->actions())
            if (const QChar key = mnemonic(menu->text()); !key.isNull())
                taken.insert(key, menu->text());
        for (const QLabel* label : w.writePanel()->findChildren<QLabel*>()) {
            const QChar key = mnemonic(label->text());
            if (key.isNull())
                continue;
            QVERIFY2(!taken.contains(key), qPrintable(label->text() + QStringLiteral(" takes Alt+") + key +
                                                      QStringLiteral(" from ") + taken.value(key)));
            taken.insert(key, label->text());
        }
        QVERIFY(taken.size() >= 8); // four menus, four fields
    }

    void trainWriteAndResults()
    {
        MainWindow w;
        w.modelPanel()->openModelFile(m_textModel);
        QVERIFY(load(*w.datasetPanel(), m_text));
        QCOMPARE(w.datasetPanel()->dataset()->inputHeight(), 16);
        w.hyperparametersPanel()->setEpochs(2);
        w.hyperparametersPanel()->setBatchSize(8);
        w.hyperparametersPanel()->setSeed(3);
        QVERIFY2(w.startBlocker().isEmpty(), qPrintable(w.startBlocker()));
        w.startTraining();
        QVERIFY(w.runController()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!w.runController()->isRunning() && w.hasWeights(), fixtures::kHangGuardMs);
        const QString log = w.runPanel()->logText();
        QVERIFY2(log.contains(QStringLiteral("Sample after epoch 1: ")), qPrintable(log));
        QVERIFY(log.contains(QStringLiteral("Sample after epoch 2: ")));
        QVERIFY(log.contains(QStringLiteral("bpc: ")));
        QCOMPARE(int(w.history().size()), 2);
        // The Predict page, which recognises pictures, says calmly where the text model went: no error.
        QVERIFY(!w.predictPanel()->hasModel());
        QVERIFY2(!w.predictPanel()->statusIsError(), qPrintable(w.predictPanel()->statusText()));
        QVERIFY2(w.predictPanel()->statusText().startsWith(QStringLiteral("A text model writes on the Write page")),
                 qPrintable(w.predictPanel()->statusText()));
        // The validation curves name the end of the text, not a test set a text does not have.
        ChartsPanel* charts = w.chartsPanel();
        QCOMPARE(charts->lossChart()->seriesName(charts->validationSeries()),
                 QStringLiteral("Validation (last 10% of the text)"));

        // Results: the held-out text, its mistakes most confident first, the confusion.
        ResultsPanel& results = *w.resultsPanel();
        QVERIFY(results.showsText());
        const TextResultsModel& m = results.textResults()->model();
        QVERIFY(!m.expected.empty());
        QCOMPARE(m.expected.size(), m.predicted.size());
        // Symbols, not "test images".
        QVERIFY2(results.sourceText().endsWith(formatCount(int64_t(m.expected.size())) + " held-out symbols"),
                 qPrintable(results.sourceText()));
        int wrong = 0;
        for (size_t i = 0; i < m.expected.size(); ++i)
            wrong += m.expected[i] != m.predicted[i] ? 1 : 0;
        QCOMPARE(m.wrong, wrong);
        QCOMPARE(int(m.mistakes.size()), wrong);
        for (size_t i = 1; i < m.mistakes.size(); ++i)
            QVERIFY(m.mistakes[i - 1].confidence >= m.mistakes[i].confidence);
        QCOMPARE(results.textResults()->mistakesTable()->rowCount(),
                 std::min(wrong, int(TextResults::kListedMistakes)));
        int confusionTotal = 0;
        for (int v : m.confusion)
            confusionTotal += v;
        int frequentTotal = 0;
        for (size_t i = 0; i < m.expected.size(); ++i)
            frequentTotal += std::count(m.frequent.begin(), m.frequent.end(), m.expected[i]) ? 1 : 0;
        QCOMPARE(confusionTotal, frequentTotal);

        // The Write page has the run's model; a fixed seed writes the engine's own text.
        w.showPage(MainWindow::WritePage);
        WritePanel& page = *w.writePanel();
        QVERIFY(page.hasModel());
        QVERIFY(page.writeButton()->isEnabled());
        page.promptEdit()->setText(QStringLiteral("the "));
        page.lengthBox()->setValue(60);
        page.temperatureBox()->setValue(0.8);
        page.seedBox()->setValue(11);
        QSignalSpy done(&page, &WritePanel::writingFinished);
        page.writeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, fixtures::kHangGuardMs);
        QCOMPARE(page.errorText(), QString());
        QCOMPARE(page.generatedSymbols(), 60);

        tb::GenerateOptions g;
        g.prompt = "the ";
        g.length = 60;
        g.temperature = 0.8;
        g.seed = 11;
        const tb::Network net = page.weights()->buildNetwork();
        tb::TextGenerator engine(net, tb::TextVocabulary::fromClassNames(page.weights()->classNames));
        QCOMPARE(page.generatedText(), engine.generate(g).front());
        // The length and the status count what the model writes one at a time: bytes for a byte-level
        // vocabulary (the page said "characters" above and "symbols" below).
        const QString unit =
            tb::TextVocabulary::fromClassNames(page.weights()->classNames).kind == tb::TextVocabularyKind::Bytes
                ? QStringLiteral("bytes")
                : QStringLiteral("characters");
        QCOMPARE(page.lengthBox()->suffix(), u' ' + unit);
        QVERIFY2(page.statusText().startsWith(QStringLiteral("Wrote 60 %1; mean probability ").arg(unit)),
                 qPrintable(page.statusText()));
        // Every generated character is in the page, after the prompt in bold.
        QVERIFY(page.output()->toPlainText().startsWith(QStringLiteral("the ")));

        // Stop: the writing ends early and the page is ready again.
        page.lengthBox()->setValue(20000);
        page.writeButton()->click();
        QVERIFY(page.isWriting());
        QVERIFY(page.stopButton()->isEnabled());
        page.stopButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, fixtures::kHangGuardMs);
        QVERIFY(!page.isWriting());
        QVERIFY(page.generatedSymbols() < 20000);
        QVERIFY2(page.statusText().contains(QStringLiteral("Stopped")), qPrintable(page.statusText()));
        QVERIFY(page.writeButton()->isEnabled());

        // Weights opened from a file: the page names the file, in the window's language after a switch.
        const QString saved = m_tmp.filePath(QStringLiteral("written.tbw"));
        QCOMPARE(w.saveWeights(saved), QString());
        QSignalSpy opened(&w, &MainWindow::evaluationFinished);
        w.openWeights(saved);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, fixtures::kHangGuardMs);
        QCOMPARE(page.sourceText(), QStringLiteral("Model: weights file written.tbw"));
        // The page's own Open takes safetensors too (as exported, with the model in its metadata).
        const QString st = m_tmp.filePath(QStringLiteral("written.safetensors"));
        QCOMPARE(w.saveWeights(st), QString());
        page.openWeightsFile(st);
        QTRY_COMPARE_WITH_TIMEOUT(page.sourceText(), QStringLiteral("Model: weights file written.safetensors"),
                                  fixtures::kHangGuardMs);
        QVERIFY(page.writeButton()->isEnabled());
        QCOMPARE(page.noticeText(), QString());
        // Its metadata's weights_sha256 edited (one hex digit, the header's length kept): the weights read,
        // and the page says, under the model's line, that they differ from it, as the CLI warns.
        QFile file(st);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray edited = file.readAll();
        file.close();
        const QByteArray key = "\"weights_sha256\":\"";
        const qsizetype at = edited.indexOf(key) + key.size();
        QVERIFY(at >= key.size());
        edited[at] = edited[at] == '0' ? '1' : '0';
        const QString changed = m_tmp.filePath(QStringLiteral("changed.safetensors"));
        file.setFileName(changed);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(edited);
        file.close();
        page.openWeightsFile(changed);
        QTRY_COMPARE_WITH_TIMEOUT(page.sourceText(), QStringLiteral("Model: weights file changed.safetensors"),
                                  fixtures::kHangGuardMs);
        QVERIFY2(page.noticeText().startsWith(
                     changed + QStringLiteral("'s weights differ from the SHA-256 its metadata records (")),
                 qPrintable(page.noticeText()));
        QCOMPARE(page.errorText(), QString());
        page.openWeightsFile(saved);
        QTRY_COMPARE_WITH_TIMEOUT(page.sourceText(), QStringLiteral("Model: weights file written.tbw"),
                                  fixtures::kHangGuardMs);
        Language::apply(QStringLiteral("es"));
        const auto back = qScopeGuard([] { Language::apply(QStringLiteral("en")); });
        QCOMPARE(page.sourceText(), QStringLiteral("Modelo: archivo de pesos written.tbw"));
        QCOMPARE(page.noticeText(), QString()); // the .tbw says nothing
    }

    // A character-level model's weights opened (File > Open weights) on a text the Dataset panel holds: the
    // text is cut with the model's own characters, not the panel's cut (bytes, or the text's own
    // characters), so a text without one of the model's characters evaluates; it was refused ("the model
    // classifies 27 classes but ... has 256").
    void characterModelOpenedOnAnotherText()
    {
        QFile f(m_text);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString trainedOn = writeFile(QStringLiteral("with-z.txt"), "Zebra. " + f.readAll()); // one more
        tb::TextOptions o;
        o.sequenceLength = 16;
        o.vocabulary = tb::TextVocabularyKind::Characters;
        tb::TrainConfig cfg;
        cfg.batchSize = 8;
        cfg.maxBatches = 2;
        cfg.device.threads = 1;
        const char* characters = R"({"name": "tiny-characters", "sequence_length": 16, "layers": [
          {"type": "Embedding", "input_dim": 256, "output_dim": 8}, {"type": "LSTM", "units": 8, "return_sequences": true},
          {"type": "Dense", "units": "classes", "activation": "softmax"}]})";
        tb::TrainingSession s(tb::parseModelSpec(characters, "tiny-characters"),
                              tb::loadTextDataset(trainedOn.toStdString(), o), cfg);
        s.run();
        const QString weights = m_tmp.filePath(QStringLiteral("characters.tbw"));
        s.save(weights.toStdString());

        MainWindow w;
        QVERIFY(load(*w.datasetPanel(), m_text));
        QSignalSpy evaluated(&w, &MainWindow::evaluationFinished);
        w.openWeights(weights);
        QTRY_COMPARE_WITH_TIMEOUT(evaluated.count(), 1, fixtures::kHangGuardMs);
        QVERIFY2(evaluated.first().first().toBool(), qPrintable(w.statusBar()->currentMessage()));
    }

    // The Runs page's Open results on a run trained on a text FILE: the run's text is evaluated as the
    // run cut it and the text Results page shows; a text that is gone is said so in a box (no word of
    // misclassified images), nothing else.
    void aTextRunsResultsOpen()
    {
        QString runFolder, copy = m_tmp.filePath(QStringLiteral("gone-soon.txt"));
        QVERIFY(QFile::copy(m_text, copy));
        {
            MainWindow w;
            w.modelPanel()->openModelFile(m_textModel);
            QVERIFY(load(*w.datasetPanel(), copy));
            w.hyperparametersPanel()->setEpochs(1);
            w.hyperparametersPanel()->setBatchSize(8);
            w.hyperparametersPanel()->setMaxBatches(3);
            QSignalSpy finished(w.runController(), &RunController::finished);
            w.startTraining();
            QVERIFY(finished.wait(fixtures::kHangGuardMs));
            const RunOutcome o = finished.first().first().value<RunOutcome>();
            QVERIFY2(o.status == RunStatus::Completed, qPrintable(o.message));
            runFolder = o.runFolder;
        }
        MainWindow w; // nothing loaded, as after a restart
        QSignalSpy evaluated(&w, &MainWindow::evaluationFinished);
        w.openRunResults(runFolder);
        QTRY_COMPARE_WITH_TIMEOUT(evaluated.count(), 1, fixtures::kHangGuardMs);
        QVERIFY2(evaluated.first().first().toBool(), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(!w.errorBox());
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::ResultsPage));
        QVERIFY(w.resultsPanel()->showsText());
        QVERIFY(!w.resultsPanel()->textResults()->model().expected.empty());
        QVERIFY(w.writePanel()->hasModel());

        QVERIFY(QFile::remove(copy));
        evaluated.clear();
        w.openRunResults(runFolder);
        QCOMPARE(evaluated.count(), 1);
        QVERIFY(!evaluated.first().first().toBool());
        QVERIFY(w.errorBox() && w.errorBox()->isVisible());
        const QString said = w.errorBox()->text() + QLatin1Char('\n') + w.errorBox()->informativeText();
        QVERIFY2(said.contains(QStringLiteral("The text %1 the run trained on is gone").arg(copy)), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("misclassified")), qPrintable(said));
    }
};

QTEST_MAIN(TstUiText)
#include "tst_ui_text.moc"
