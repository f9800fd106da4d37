// The window as a new user meets it (issue 30), offscreen: the save dialog's filter and typed name,
// the mouse wheel over fields while scrolling, Stop's question, Start during a comparison, a bad
// picture on Predict, the layout at first-launch size in English and Spanish, and the Spanish of
// the texts that reached the window in English. Each test drives the window as the user did: the
// real dialog (the widget-based one, through a seam), the wheel event at the pointer, the buttons.
#include "fixtures.hpp"
#include "modal_answer.hpp"
#include "window_test.hpp"

#include "charts/chart.hpp"
#include "charts/probability_bars.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "compare/compare_panel.hpp"
#include "export/export_dialog.hpp"
#include "i18n/language.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"
#include "main_window.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/charts_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_options_fields.hpp"
#include "panels/run_panel.hpp"
#include "predict/drawing_pad.hpp"
#include "predict/predict_panel.hpp"
#include "results/image_grid.hpp"
#include "results/results_model.hpp"
#include "results/results_panel.hpp"
#include "run/run_controller.hpp"
#include "runs/runs_panel.hpp"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>
#include <QtTest>

#include <functional>

using namespace tbui;

namespace {
using fixtures::onNextModal;

// With TRAINBENCH_SHOTS set to a folder, the tests save what they drive there (docs/ screenshots).
void shot(QWidget* w, const QString& name)
{
    const QString dir = qEnvironmentVariable("TRAINBENCH_SHOTS");
    if (dir.isEmpty() || !w)
        return;
    QDir().mkpath(dir);
    QTest::qWait(30);
    w->grab().save(QDir(dir).filePath(name + QStringLiteral("-") + Language::effective() + QStringLiteral(".png")));
}

QAction* menuAction(QWidget& window, const QString& text)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == text)
            return a;
    return nullptr;
}

// In the widget-based save dialog: picks the filter whose text starts with `filterStart` as the
// user does (the file-type combo box, keyboard), types `name` when given, then presses Save.
void answerSaveDialog(QWidget* modal, const QString& filterStart, const QString& name)
{
    auto* dialog = qobject_cast<QFileDialog*>(modal);
    QVERIFY(dialog);
    auto* types = dialog->findChild<QComboBox*>(QStringLiteral("fileTypeCombo"));
    QVERIFY(types);
    // Whatever fails below, the dialog closes: a box left open would hold the test until its timeout.
    const auto close = qScopeGuard([dialog] {
        if (dialog->isVisible())
            dialog->reject();
    });
    // Typed text keeps its place only in an active dialog: while the line edit lacks focus, a folder
    // listing that arrives late selects the file the dialog was opened with and writes its name over
    // the typed one (a busy machine, then an overwrite question that held the test until its timeout).
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    types->setFocus();
    QTest::keyClick(types, Qt::Key_Home); // the first filter, then down to the one wanted
    for (int k = 0; k < types->count() && !types->currentText().startsWith(filterStart); ++k)
        QTest::keyClick(types, Qt::Key_Down); // emits activated(), as a choice in the list does
    QVERIFY(types->currentText().startsWith(filterStart));
    auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QVERIFY(edit);
    if (!name.isNull()) {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, name);
    }
    shot(dialog, QStringLiteral("save-dialog-") + filterStart.toLower() +
                     (name.isNull() ? QString() : QStringLiteral("-typed")));
    auto* buttons = dialog->findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
    QVERIFY(buttons);
    // A box the dialog opens over itself (asking to replace a file) is answered No and reported.
    QString asked;
    QTimer nested;
    nested.setInterval(10);
    QObject::connect(&nested, &QTimer::timeout, [&asked] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box && box->isVisible()) {
            asked = box->text();
            box->reject();
        }
    });
    nested.start();
    QTest::mouseClick(buttons->button(QDialogButtonBox::Save), Qt::LeftButton);
    nested.stop();
    QVERIFY2(asked.isEmpty(), qPrintable(QStringLiteral("the save dialog asked: ") + asked));
}

// A wheel notch at `pos` of `window` as the platform delivers it: to the widget under the pointer,
// spontaneous, so that an ignored event goes on to the parents (the page's scroll area).
void wheelAt(QWidget* window, QPoint pos, int notches)
{
    QWidget* target = window->childAt(pos);
    QVERIFY(target);
    const QPoint local = target->mapFrom(window, pos);
    QWheelEvent ev(QPointF(local), QPointF(window->mapToGlobal(pos)), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                   Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&ev);
    qApp->notify(target, &ev); // sendEvent() would mark it non-spontaneous, which never propagates
}

QString safetensorsMagic(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = f.read(9);
    return head.size() == 9 ? QString(QChar::fromLatin1(head[8])) : QString();
}
} // namespace

class TstUiNewUser : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_data, m_model;

    std::unique_ptr<MainWindow> makeWindow(int epochs = 1, int batch = 32)
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(m_data);
        if (!loaded.wait(fixtures::kHangGuardMs))
            return nullptr;
        w->modelPanel()->openModelFile(m_model);
        w->hyperparametersPanel()->setEpochs(epochs);
        w->hyperparametersPanel()->setBatchSize(batch);
        w->hyperparametersPanel()->setSeed(7);
        w->hyperparametersPanel()->setMaxBatches(0);
        tb::DeviceSpec cpu2;
        cpu2.threads = 2;
        w->acceleratorPanel()->selectDevice(cpu2);
        return w;
    }

    bool train(MainWindow& w)
    {
        QSignalSpy finished(w.runController(), &RunController::finished);
        w.startTraining();
        return finished.wait(fixtures::kHangGuardMs);
    }

private slots:
    void initTestCase()
    {
        fixtures::beginWindowTest("tst_ui_new_user", m_tmp.filePath(QStringLiteral("data-home")));
        setNativeFileDialogs(false);
        m_data = m_tmp.filePath(QStringLiteral("toy"));
        QDir().mkpath(m_data);
        fixtures::writeToyDataset(m_data.toStdString(), 1024, 200, 12, 3);
        m_model = m_tmp.filePath(QStringLiteral("toy.json"));
        fixtures::writeRaw(m_model.toStdString(), fixtures::toyModelJson());
    }

    void cleanupTestCase() { fixtures::endWindowTest(); }

    // Item 1: File → Export weights, the safetensors filter chosen in the dialog, the proposed name
    // kept; then a name typed with its extension while the ONNX filter is left selected.
    void exportWeightsFollowsTheChosenFormat()
    {
        auto w = makeWindow();
        QVERIFY(w);
        QVERIFY(train(*w));
        QTemporaryDir out;
        QSettings().setValue(QStringLiteral("export/folder"), out.path());
        QAction* exportWeights = menuAction(*w, QStringLiteral("Export weights (ONNX, safetensors)…"));
        QVERIFY(exportWeights && exportWeights->isEnabled());

        onNextModal([](QWidget* m) { answerSaveDialog(m, QStringLiteral("safetensors"), QString()); });
        exportWeights->trigger();
        QCOMPARE(QDir(out.path()).entryList(QDir::Files), QStringList{QStringLiteral("model.safetensors")});
        QCOMPARE(safetensorsMagic(out.filePath(QStringLiteral("model.safetensors"))), QStringLiteral("{"));
        QVERIFY(!tb::loadAnyWeights(out.filePath(QStringLiteral("model.safetensors")).toStdString()).params.empty());

        onNextModal(
            [](QWidget* m) { answerSaveDialog(m, QStringLiteral("ONNX"), QStringLiteral("typed.safetensors")); });
        exportWeights->trigger();
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("typed.safetensors"))));
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("typed.safetensors.onnx"))));
        QCOMPARE(safetensorsMagic(out.filePath(QStringLiteral("typed.safetensors"))), QStringLiteral("{"));

        // A bare name gets the selected filter's extension.
        onNextModal([](QWidget* m) { answerSaveDialog(m, QStringLiteral("safetensors"), QStringLiteral("bare")); });
        exportWeights->trigger();
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("bare.safetensors"))));
        // And ONNX stays ONNX (a protobuf, not a safetensors header).
        onNextModal([](QWidget* m) { answerSaveDialog(m, QStringLiteral("ONNX"), QStringLiteral("net")); });
        exportWeights->trigger();
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("net.onnx"))));
        QVERIFY(safetensorsMagic(out.filePath(QStringLiteral("net.onnx"))) != QStringLiteral("{"));
    }

    // Item 7: File → Export report: the misclassified images in the window's order (wrong ones, most
    // confident first), in red frames.
    void reportShowsMistakesAsTheWindowDoes()
    {
        auto w = makeWindow();
        QVERIFY(w);
        QVERIFY(train(*w));
        const ResultsModel& m = w->resultsPanel()->model();
        QVERIFY(m.wrongCount() > 1);
        QTemporaryDir out;
        QSettings().setValue(QStringLiteral("export/folder"), out.path());
        QAction* exportReport = menuAction(*w, QStringLiteral("Export report (HTML)…"));
        QVERIFY(exportReport && exportReport->isEnabled());
        onNextModal([](QWidget* d) { answerSaveDialog(d, QStringLiteral("HTML"), QStringLiteral("report")); });
        exportReport->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out.filePath(QStringLiteral("report.html"))),
                                 fixtures::kHangGuardMs); // written in the background
        QFile f(out.filePath(QStringLiteral("report.html")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.contains(QStringLiteral("figure img.misclassified { border: 3px solid #d62728")));
        QStringList indices;
        static const QRegularExpression caption(QStringLiteral("<figcaption>#(\\d+) "));
        for (auto it = caption.globalMatch(html); it.hasNext();)
            indices << it.next().captured(1);
        const std::vector<int>& order = w->resultsPanel()->displayOrder();
        QStringList expected;
        for (int k = 0; k < std::min(m.wrongCount(), 100); ++k)
            expected << QString::number(order[size_t(k)]);
        QCOMPARE(indices, expected);
    }

    // Item 2: a wheel notch over the learning rate while scrolling the Setup page scrolls the page
    // and leaves the field alone; once clicked (focused), the wheel changes it.
    void wheelScrollsThePageNotTheFields()
    {
        auto w = makeWindow();
        QVERIFY(w);
        w->resize(1152, 500); // short enough that the Setup page scrolls
        w->showPage(MainWindow::SetupPage);
        QTest::qWait(50);
        auto* scroll = qobject_cast<QScrollArea*>(w->tabs()->currentWidget());
        QVERIFY(scroll);
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        auto* lr = w->hyperparametersPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("learningRate"));
        QVERIFY(lr);
        scroll->ensureWidgetVisible(lr);
        QTest::qWait(20);
        const double before = lr->value();
        const int scrolled = scroll->verticalScrollBar()->value();
        const QPoint at = lr->mapTo(w.get(), lr->rect().center());
        QVERIFY(!lr->hasFocus());
        wheelAt(w.get(), at, scrolled > 0 ? 1 : -1);
        QCOMPARE(lr->value(), before);
        QVERIFY(scroll->verticalScrollBar()->value() != scrolled); // the page scrolled instead
        shot(w.get(), QStringLiteral("setup-wheel"));
        // Every spin box and combo box of every page is guarded the same way.
        for (QAbstractSpinBox* box : w->findChildren<QAbstractSpinBox*>())
            QVERIFY2(box->focusPolicy() != Qt::WheelFocus, qPrintable(box->objectName()));
        auto* optimizer = w->hyperparametersPanel()->findChild<QComboBox*>();
        QVERIFY(optimizer);
        scroll->ensureWidgetVisible(optimizer);
        QTest::qWait(20);
        const int choice = optimizer->currentIndex();
        wheelAt(w.get(), optimizer->mapTo(w.get(), optimizer->rect().center()), -1);
        QCOMPARE(optimizer->currentIndex(), choice);
        // Focused by a click, the field takes the wheel.
        scroll->ensureWidgetVisible(lr);
        QTest::qWait(20);
        QTest::mouseClick(lr->findChild<QLineEdit*>(), Qt::LeftButton);
        QVERIFY(lr->hasFocus());
        wheelAt(w.get(), lr->mapTo(w.get(), lr->rect().center()), 1);
        QVERIFY(lr->value() != before);
    }

    // Item 3: at the first-launch size on a 1280x720 screen (90%: 1152x648), in English and in
    // Spanish, no page scrolls sideways, the Setup page's texts are whole and every spin box shows
    // its arrows.
    void firstLaunchSizeFitsInBothLanguages_data() { fixtures::bothLanguages(); }
    void firstLaunchSizeFitsInBothLanguages()
    {
        const auto back = fixtures::inRowLanguage();
        auto w = makeWindow();
        QVERIFY(w);
        w->resize(1152, 648);
        QCOMPARE(w->size(), QSize(1152, 648));
        w->showPage(MainWindow::SetupPage);
        shot(w.get(), QStringLiteral("first-launch-setup"));
        for (int page = 0; page < w->tabs()->count(); ++page) {
            w->tabs()->setCurrentIndex(page);
            QTest::qWait(20);
            shot(w.get(), QStringLiteral("first-launch-page%1").arg(page));
            if (auto* scroll = qobject_cast<QScrollArea*>(w->tabs()->currentWidget()))
                QVERIFY2(
                    !scroll->horizontalScrollBar()->isVisible(),
                    qPrintable(QStringLiteral("page %1 (%2) scrolls sideways: %3 px too wide")
                                   .arg(page)
                                   .arg(w->tabs()->tabText(page))
                                   .arg(scroll->widget()->minimumSizeHint().width() - scroll->viewport()->width())));
        }
        w->showPage(MainWindow::SetupPage);
        QTest::qWait(20);
        QWidget* setup = qobject_cast<QScrollArea*>(w->tabs()->currentWidget())->widget();
        for (QAbstractButton* b : setup->findChildren<QAbstractButton*>()) {
            if (!b->isVisibleTo(setup) || b->text().isEmpty())
                continue;
            QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(QStringLiteral("\"%1\" is cut: %2 of %3 px")
                                                                         .arg(b->text())
                                                                         .arg(b->width())
                                                                         .arg(b->sizeHint().width())));
        }
        for (QAbstractSpinBox* box : setup->findChildren<QAbstractSpinBox*>()) {
            if (!box->isVisibleTo(setup))
                continue;
            QVERIFY2(box->width() >= box->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("%1 hides its arrows: %2 of %3 px")
                                    .arg(box->objectName())
                                    .arg(box->width())
                                    .arg(box->minimumSizeHint().width())));
        }
    }

    // At 1152x720 with the Advanced section open, every spin box shows its whole text: the Spanish
    // validation fraction's "0 (conjunto de prueba)" showed as "njunto de prueba)".
    void advancedFieldsShowTheirWholeText_data() { fixtures::bothLanguages(); }
    void advancedFieldsShowTheirWholeText()
    {
        const auto back = fixtures::inRowLanguage();
        auto w = makeWindow();
        QVERIFY(w);
        w->resize(1152, 720);
        w->showPage(MainWindow::SetupPage);
        w->hyperparametersPanel()->runOptions()->setExpanded(true);
        QTest::qWait(20);
        shot(w.get(), QStringLiteral("setup-advanced"));
        int checked = 0; // the test checks boxes, not an empty page
        for (QAbstractSpinBox* box : w->hyperparametersPanel()->findChildren<QAbstractSpinBox*>()) {
            if (!box->isVisible())
                continue;
            ++checked;
            const QLineEdit* edit = box->findChild<QLineEdit*>();
            const int needs = edit->fontMetrics().horizontalAdvance(edit->text()) + 4; // QLineEdit's margins
            QVERIFY2(edit->contentsRect().width() >= needs, qPrintable(QStringLiteral("\"%1\" is cut: %2 of %3 px")
                                                                           .arg(edit->text())
                                                                           .arg(edit->contentsRect().width())
                                                                           .arg(needs)));
        }
        QVERIFY(checked >= 5);
    }

    // Item 10: the texts that reached the Spanish window in English: the Keras-style log line, a
    // model file's and a weights file's errors, a run's damage reason, the About box, the Results
    // source line after a live switch, Fashion-MNIST's class names; Predict says "draw a digit"
    // only for a digit model.
    void spanishReachesEveryText()
    {
        auto w = makeWindow();
        QVERIFY(w);
        QVERIFY(train(*w));
        QVERIFY(w->resultsPanel()->sourceText().startsWith(QStringLiteral("Run ")));
        Language::apply(QStringLiteral("es"));
        const auto back = qScopeGuard([] { Language::apply(QStringLiteral("en")); });
        QVERIFY2(w->resultsPanel()->sourceText().startsWith(QStringLiteral("Entrenamiento ")),
                 qPrintable(w->resultsPanel()->sourceText()));
        // The run's name too ("toy on cpu:2, started 1:47 PM" stayed English), here and on Predict.
        for (const QString& line : {w->resultsPanel()->sourceText(), w->predictPanel()->modelText()})
            QVERIFY2(line.contains(QStringLiteral(" en cpu:")) && !line.contains(QStringLiteral(" on cpu:")) &&
                         !line.contains(QStringLiteral("started")),
                     qPrintable(line));
        // The log of a run in Spanish.
        QVERIFY(train(*w));
        const QString log = w->runPanel()->logText();
        QVERIFY2(log.contains(QStringLiteral("pérdida: ")) && log.contains(QStringLiteral("exactitud_val: ")),
                 qPrintable(log.right(400)));
        // Its numbers with the decimal comma, as the rest of the window.
        QVERIFY2(log.contains(QRegularExpression(QStringLiteral("exactitud_val: \\d,\\d{4}"))),
                 qPrintable(log.right(400)));
        QVERIFY2(!log.contains(QRegularExpression(QStringLiteral("(pérdida|exactitud)(_val)?: \\d\\."))),
                 qPrintable(log.right(400)));
        // A broken model file.
        const QString badModel = m_tmp.filePath(QStringLiteral("bad-model.json"));
        QFile bm(badModel);
        QVERIFY(bm.open(QIODevice::WriteOnly));
        bm.write(R"({"name": "x", "layers": [{"type": "Conv9D"}]})");
        bm.close();
        w->modelPanel()->openModelFile(badModel);
        w->showPage(MainWindow::SetupPage);
        shot(w.get(), QStringLiteral("model-error"));
        QVERIFY2(w->modelPanel()->errorText().contains(QStringLiteral("tipo de capa desconocido")),
                 qPrintable(w->modelPanel()->errorText()));
        w->modelPanel()->openModelFile(m_model);
        // A weights file that is not one.
        const QString badWeights = m_tmp.filePath(QStringLiteral("bad.tbw"));
        QFile bw(badWeights);
        QVERIFY(bw.open(QIODevice::WriteOnly));
        bw.write("not weights at all, not even close");
        bw.close();
        QSignalSpy evaluated(w.get(), &MainWindow::evaluationFinished);
        w->openWeights(badWeights);
        QVERIFY(evaluated.wait(fixtures::kHangGuardMs));
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("no es un archivo de pesos")),
                 qPrintable(w->statusBar()->currentMessage()));
        // The engine's messages without an id, by their English form.
        QCOMPARE(
            EngineText::english(QStringLiteral("run.json is damaged: JSON error at line 3, column 7: unexpected "
                                               "end of input")),
            QStringLiteral("run.json está dañado: error de JSON en la línea 3, columna 7: unexpected end of input"));
        QCOMPARE(
            EngineText::english(QStringLiteral("/tmp/c.tbw: the checkpoint lacks \"position\"; it is damaged or "
                                               "not a checkpoint")),
            QStringLiteral("/tmp/c.tbw: al punto de control le falta \"position\"; está dañado o no es un punto de "
                           "control"));
        // The About box's kernels.
        QString about;
        onNextModal([&](QWidget* m) {
            about = qobject_cast<QMessageBox*>(m)->text();
            m->close();
        });
        menuAction(*w, QStringLiteral("Acerca de Trainbench"))->trigger();
        QVERIFY2(about.contains(QStringLiteral("productos de matrices")), qPrintable(about));
        // Fashion-MNIST's classes, and Predict's hint for a model that is not of digits.
        const QString fashion = m_tmp.filePath(QStringLiteral("toy-fashion"));
        QDir().mkpath(fashion);
        fixtures::writeToyDataset(fashion.toStdString(), 400, 100, 12, 10);
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(fashion);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        QCOMPARE(className(w->datasetPanel()->dataset()->classNames, 9), QStringLiteral("Botín"));
        QVERIFY(w->datasetPanel()->sampleGrid()->tile(0).caption == QStringLiteral("Camiseta/top"));
        const QString tenClasses = m_tmp.filePath(QStringLiteral("toy10.json"));
        QFile model(tenClasses);
        QVERIFY(model.open(QIODevice::WriteOnly));
        model.write(QByteArray::fromStdString(fixtures::toyModelJson()).replace("\"units\": 3,", "\"units\": 10,"));
        model.close();
        w->modelPanel()->openModelFile(tenClasses);
        QVERIFY2(w->startBlocker().isEmpty(), qPrintable(w->startBlocker()));
        QVERIFY(train(*w));
        PredictPanel* page = w->predictPanel();
        page->pad()->clear();
        QVERIFY(QTest::qWaitFor([&] { return page->idle(); }, 10000));
        w->showPage(MainWindow::PredictPage);
        shot(w.get(), QStringLiteral("predict-fashion"));
        w->showPage(MainWindow::ResultsPage);
        shot(w.get(), QStringLiteral("results-fashion"));
        w->showPage(MainWindow::TrainingPage);
        shot(w.get(), QStringLiteral("training-log"));
        QVERIFY2(!page->statusText().contains(QStringLiteral("dígito")), qPrintable(page->statusText()));
        QVERIFY2(page->statusText().startsWith(QStringLiteral("Dibuja")), qPrintable(page->statusText()));
    }

    // Item 5: a run stopped mid-epoch is listed with how far it got, its test accuracy and its time;
    // the Runs page shows six rows at first-launch size and its splitter moves; two one-epoch runs
    // overlaid show their accuracy on a 0-1 axis with whole markers.
    void runsPageShowsStoppedAndShortRuns()
    {
        auto w = makeWindow(5, 16); // 64 steps an epoch
        QVERIFY(w);
        QSignalSpy batches(w->runController(), &RunController::batchFinished);
        QSignalSpy finished(w->runController(), &RunController::finished);
        // The worker pauses itself after step 10, on its own thread: a pause from here, on a queued
        // batchFinished, could land at the epoch's end on a busy machine. Only this run pauses.
        w->runController()->pauseAfterBatches(10);
        w->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(w->runController()->isPaused(), fixtures::kHangGuardMs);
        // The held step's progress is always sent.
        QTRY_VERIFY_WITH_TIMEOUT(!batches.isEmpty() && batches.last().first().value<tb::BatchProgress>().step == 10,
                                 fixtures::kHangGuardMs);
        onNextModal([](QWidget* m) { m->findChild<QPushButton*>(QStringLiteral("stopAndKeep"))->click(); });
        QTest::mouseClick(w->runPanel()->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(fixtures::kHangGuardMs));
        const RunOutcome stopped = finished.first().first().value<RunOutcome>();
        QCOMPARE(int(stopped.status), int(RunStatus::Stopped));
        QVERIFY(stopped.weights);
        QCOMPARE(stopped.weights->optimizerIterations, int64_t(10)); // Stop ends the pause: no step 11
        // Two one-epoch runs.
        w->hyperparametersPanel()->setEpochs(1);
        w->hyperparametersPanel()->setBatchSize(32);
        QVERIFY(train(*w));
        QVERIFY(train(*w));
        RunsPanel* runs = w->runsPanel();
        QSignalSpy listed(runs, &RunsPanel::listed);
        runs->refresh();
        QVERIFY(listed.wait(fixtures::kHangGuardMs));
        QTableWidget* table = runs->table();
        int row = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->data(Qt::UserRole).toString() == stopped.runFolder)
                row = r;
        QVERIFY(row >= 0);
        auto cell = [&](int column) { return table->item(row, column)->text(); };
        // Short in the cell ("1 of 2 + 37/120 steps"), whole in its tooltip.
        QVERIFY2(cell(5).contains(QRegularExpression(QStringLiteral("^\\d+ of \\d+ \\+ \\d+/\\d+ steps$"))),
                 qPrintable(cell(5)));
        QVERIFY2(table->item(row, 5)->toolTip().contains(QStringLiteral("stopped at step")),
                 qPrintable(table->item(row, 5)->toolTip()));
        QVERIFY2(cell(6) == QStringLiteral("%1%").arg(stopped.testAccuracy * 100, 0, 'f', 2), qPrintable(cell(6)));
        QVERIFY2(table->item(row, 7)->data(Qt::UserRole + 1).toDouble() > 0, qPrintable(cell(7))); // the steps' time
        // At first-launch size: four rows and a chart of 200 px at least (it was 70 px tall beside six
        // rows), a splitter that moves.
        w->resize(1152, 648);
        w->showPage(MainWindow::RunsPage);
        QTest::qWait(50);
        const int rows = table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 4, qPrintable(QString::number(rows)));
        QVERIFY2(runs->chart()->height() >= 200, qPrintable(QString::number(runs->chart()->height())));
        auto* split = runs->findChild<QSplitter*>(QStringLiteral("runsSplitter"));
        QVERIFY(split);
        const QList<int> before = split->sizes();
        split->setSizes({before[0] + 400, before[1] - 400}); // as far as it goes down
        const int down = split->sizes()[0];
        split->setSizes({before[0] - 400, before[1] + 400});
        const int up = split->sizes()[0];
        QVERIFY2(down - up >= 80, qPrintable(QStringLiteral("the splitter moves %1 px").arg(down - up)));
        // The two one-epoch runs overlaid, on accuracy.
        int ticked = 0;
        for (const tb::RunSummary& r : runs->runs())
            if (r.status == tb::RunStatus::Completed && r.history.size() == 1 && ticked < 2) {
                runs->setOverlaid(qs(r.path), true);
                ++ticked;
            }
        QCOMPARE(ticked, 2);
        runs->setMetric(0);
        QTest::qWait(50);
        runs->chart()->flush();
        QCOMPARE(runs->chart()->yRange().first, 0.0);
        QVERIFY(runs->chart()->yRange().second >= 1.0 && runs->chart()->yRange().second <= 1.1); // room above 1
        QVERIFY(runs->chart()->xRange().second < 1.5);
        shot(w.get(), QStringLiteral("runs-page"));
        QVERIFY2(runs->chart()->pixelsRightOfLastPoint() >= 7,
                 qPrintable(QString::number(runs->chart()->pixelsRightOfLastPoint())));
    }

    // Item 9: an empty chart shows no axis titles (they would float at its top left); with data the
    // titles are whole and the last epoch's markers lie whole inside the plot, at first-launch size,
    // in both languages.
    void chartsKeepTheirTitlesAndPointsInside_data() { fixtures::bothLanguages(); }
    void chartsKeepTheirTitlesAndPointsInside()
    {
        QFETCH(QString, language);
        const auto back = fixtures::inRowLanguage();
        auto w = makeWindow(2);
        QVERIFY(w);
        w->resize(1152, 648);
        w->showPage(MainWindow::TrainingPage);
        QTest::qWait(50);
        shot(w.get(), QStringLiteral("charts-empty"));
        for (Chart* c : w->chartsPanel()->charts())
            if (c != w->chartsPanel()->memoryChart()) { // the memory chart samples from the start
                QVERIFY2(c->shownAxisTitles().isEmpty(), qPrintable(c->title()));
                // It says what will appear instead.
                QVERIFY2(!c->shownEmptyText().isEmpty(), qPrintable(c->title()));
            }
        w->showPage(MainWindow::ComparePage);
        QTest::qWait(50);
        QVERIFY(w->comparePanel()->chart()->shownAxisTitles().isEmpty());
        QVERIFY(w->comparePanel()->chart()->shownEmptyText().contains(QStringLiteral("Run comparison")) ||
                language != QLatin1String("en"));
        QVERIFY(!w->comparePanel()->chart()->shownEmptyText().isEmpty());
        QSignalSpy done(w->comparePanel(), &ComparePanel::comparisonFinished);
        QCOMPARE(w->comparePanel()->start(), QString());
        QVERIFY(done.wait(fixtures::kHangGuardMs));
        w->comparePanel()->chart()->flush();
        QTest::qWait(50);
        shot(w.get(), QStringLiteral("compare-chart"));
        QCOMPARE(w->comparePanel()->chart()->shownAxisTitles().size(), 3); // device, seconds, speed-up
        QVERIFY2(w->comparePanel()->chart()->cutAxisTitles().isEmpty(),
                 qPrintable(w->comparePanel()->chart()->cutAxisTitles().join(QLatin1Char(','))));
        w->showPage(MainWindow::TrainingPage);
        QVERIFY(train(*w));
        QTest::qWait(50);
        QCOMPARE(w->comparePanel()->chart()->shownEmptyText(), QString());
        for (Chart* c : w->chartsPanel()->charts()) {
            c->flush();
            QCOMPARE(c->shownEmptyText(), QString());
            QVERIFY2(c->shownAxisTitles().size() >= 2, qPrintable(c->title()));
            QVERIFY2(c->cutAxisTitles().isEmpty(),
                     qPrintable(c->title() + QStringLiteral(": ") + c->cutAxisTitles().join(QLatin1Char(','))));
        }
        shot(w.get(), QStringLiteral("charts-trained"));
        // No schedule: the loss chart's learning-rate axis has nothing to show, nor its title.
        QVERIFY(!w->chartsPanel()->lossChart()->shownAxisTitles().contains(
            QCoreApplication::translate("tbui::ChartsPanel", "Learning rate")));
        Chart* accuracy = w->chartsPanel()->accuracyChart();
        QVERIFY2(accuracy->pixelsRightOfLastPoint() >= 7,
                 qPrintable(QString::number(accuracy->pixelsRightOfLastPoint())));
        // The axes' numbers in the window's language: a decimal comma in Spanish ("0,8"), a point
        // in English, on every chart; never a label left blank.
        const bool spanish = language == QLatin1String("es");
        const QRegularExpression wanted(spanish ? QStringLiteral("\\d,\\d") : QStringLiteral("\\d\\.\\d"));
        // A number in the language's spelling: digits, thousands grouped by its separator (a group
        // never starts with 0: "0.412" is no Spanish thousand), its decimal sign ("26,666.7", "26.666,7").
        const QString group = spanish ? QStringLiteral("\\.") : QStringLiteral(",");
        const QString decimal = spanish ? QStringLiteral(",") : QStringLiteral("\\.");
        const QRegularExpression inLanguage(
            QStringLiteral("^-?(\\d+|[1-9]\\d{0,2}(%1\\d{3})+)(%2\\d+)?$").arg(group, decimal));
        const QRegularExpression numeric(QStringLiteral("^-?\\d[\\d.,]*$"));
        QStringList all;
        for (Chart* c : w->chartsPanel()->charts() + QList<Chart*>{w->comparePanel()->chart()}) {
            const QStringList labels = c->axisLabels();
            QVERIFY2(labels.size() >= 4, qPrintable(c->title() + QStringLiteral(": ") + labels.join(QLatin1Char('|'))));
            for (const QString& label : labels)
                QVERIFY2(!label.contains(numeric) || label.contains(inLanguage),
                         qPrintable(c->title() + QStringLiteral(": ") + label));
            all << labels;
        }
        QVERIFY2(all.filter(wanted).size() >= 3, qPrintable(all.join(QLatin1Char('|'))));
        // Each Compare bar carries its value: a fast device's bar beside a slow one's is a sliver.
        const QString firstBar = QLocale().toString(w->comparePanel()->rows().front().secondsPerEpoch, 'g', 3);
        QVERIFY2(w->comparePanel()->chart()->axisLabels().contains(firstBar),
                 qPrintable(firstBar + QStringLiteral(" in ") + w->comparePanel()->chart()->axisLabels().join(u'|')));
    }

    // Item 11 in the window: a short run says on the Results page and in the log that BatchNorm's
    // statistics are still near their initial values; with Advanced → Precise BN (typed into its
    // field) the same run tests close to its training accuracy and says what was done.
    void preciseBnOptionClosesAShortRunsGap()
    {
        auto w = makeWindow(1, 32);
        QVERIFY(w);
        const QString bright = m_tmp.filePath(QStringLiteral("bright"));
        QDir().mkpath(bright);
        fixtures::writeBrightToyDataset(bright.toStdString(), 1024, 400);
        QSignalSpy loaded(w->datasetPanel(), &DatasetPanel::datasetLoaded);
        w->datasetPanel()->loadFolder(bright);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        w->hyperparametersPanel()->setMaxBatches(32);
        w->hyperparametersPanel()->setSeed(3);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        QVERIFY(finished.wait(fixtures::kHangGuardMs));
        const RunOutcome plain = finished.first().first().value<RunOutcome>();
        QVERIFY2(w->resultsPanel()->noteText().contains(QStringLiteral("of their initial values (mean 0, variance 1)")),
                 qPrintable(w->resultsPanel()->noteText()));
        QVERIFY(w->runPanel()->logText().contains(QStringLiteral("of their initial values (mean 0, variance 1)")));
        w->showPage(MainWindow::ResultsPage);
        shot(w.get(), QStringLiteral("results-batchnorm-warning"));

        auto* field = w->hyperparametersPanel()->findChild<QSpinBox*>(QStringLiteral("preciseBn"));
        QVERIFY(field);
        w->hyperparametersPanel()->runOptions()->setExpanded(true);
        w->showPage(MainWindow::SetupPage);
        qobject_cast<QScrollArea*>(w->tabs()->currentWidget())->ensureWidgetVisible(field);
        QTest::mouseClick(field->findChild<QLineEdit*>(), Qt::LeftButton);
        field->findChild<QLineEdit*>()->selectAll();
        QTest::keyClicks(field->findChild<QLineEdit*>(), QStringLiteral("30"));
        QTest::keyClick(field->findChild<QLineEdit*>(), Qt::Key_Tab);
        QCOMPARE(field->value(), 30);
        shot(w.get(), QStringLiteral("setup-precise-bn"));
        QSignalSpy again(w->runController(), &RunController::finished);
        w->startTraining();
        QVERIFY(again.wait(fixtures::kHangGuardMs));
        const RunOutcome precise = again.first().first().value<RunOutcome>();
        QVERIFY(precise.preciseBn);
        QCOMPARE(precise.preciseBn->batches, 30);
        QVERIFY2(precise.testAccuracy > plain.testAccuracy + 0.3,
                 qPrintable(QStringLiteral("%1 -> %2").arg(plain.testAccuracy).arg(precise.testAccuracy)));
        QVERIFY2(w->resultsPanel()->noteText().startsWith(QStringLiteral("Precise BN:")),
                 qPrintable(w->resultsPanel()->noteText()));
        // The Results page shows the recomputed statistics' predictions.
        const ResultsModel& m = w->resultsPanel()->model();
        QCOMPARE(double(m.samples() - m.wrongCount()) / m.samples(), precise.testAccuracy);
        w->showPage(MainWindow::ResultsPage);
        shot(w.get(), QStringLiteral("results-precise-bn"));
        w->hyperparametersPanel()->runOptions()->setPreciseBnBatches(0);
    }

    // Item 4: the Stop button asks the same question as Esc and Run → Stop; "Continue training"
    // leaves the run alone, "Stop and keep the weights" stops it.
    void stopButtonAsksFirst()
    {
        auto w = makeWindow(500, 16);
        QVERIFY(w);
        QSignalSpy batches(w->runController(), &RunController::batchFinished);
        QSignalSpy finished(w->runController(), &RunController::finished);
        w->startTraining();
        QVERIFY(batches.wait(fixtures::kHangGuardMs));
        w->runController()->setPaused(true); // cannot end on its own while the box is answered
        QStringList seen;
        onNextModal([&](QWidget* m) {
            shot(m, QStringLiteral("stop-question"));
            for (QPushButton* b : m->findChildren<QPushButton*>())
                seen << b->objectName();
            m->findChild<QPushButton*>(QStringLiteral("continueRun"))->click();
        });
        QTest::mouseClick(w->runPanel()->stopButton(), Qt::LeftButton);
        QVERIFY2(seen.contains(QStringLiteral("stopAndKeep")) && seen.contains(QStringLiteral("continueRun")),
                 qPrintable(seen.join(QLatin1Char(','))));
        QVERIFY(w->runController()->isRunning());
        QVERIFY(w->runController()->isPaused());
        QVERIFY(finished.isEmpty());
        // Esc offers the same two choices.
        QStringList esc;
        onNextModal([&](QWidget* m) {
            for (QPushButton* b : m->findChildren<QPushButton*>())
                esc << b->objectName();
            m->findChild<QPushButton*>(QStringLiteral("continueRun"))->click();
        });
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QTest::keyClick(w.get(), Qt::Key_Escape);
        QCOMPARE(esc, seen);
        QVERIFY(w->runController()->isRunning());
        onNextModal([](QWidget* m) { m->findChild<QPushButton*>(QStringLiteral("stopAndKeep"))->click(); });
        QTest::mouseClick(w->runPanel()->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(fixtures::kHangGuardMs));
        QCOMPARE(int(finished.first().first().value<RunOutcome>().status), int(RunStatus::Stopped));
    }

    // Item 6: while a comparison runs, Start (button and menu) is disabled and says why.
    void startIsDisabledWhileComparing()
    {
        auto w = makeWindow(20, 16);
        QVERIFY(w);
        QVERIFY(w->runPanel()->startButton()->isEnabled());
        ComparePanel* compare = w->comparePanel();
        w->showPage(MainWindow::ComparePage);
        QSignalSpy done(compare, &ComparePanel::comparisonFinished);
        QCOMPARE(compare->start(), QString());
        QVERIFY(!w->runPanel()->startButton()->isEnabled());
        QVERIFY(!menuAction(*w, QStringLiteral("Start"))->isEnabled());
        compare->stop();
        QVERIFY(done.wait(fixtures::kHangGuardMs));
        QVERIFY(w->runPanel()->startButton()->isEnabled());
        QVERIFY(menuAction(*w, QStringLiteral("Start"))->isEnabled());
    }

    // Item 8: a picture that cannot be read, after a good one: the previous picture, its input
    // preview and its bars go; the error is shown beside the empty page (the blank sheet's preview).
    void failedPictureLeavesNoOldPrediction()
    {
        auto w = makeWindow();
        QVERIFY(w);
        QVERIFY(train(*w));
        PredictPanel* page = w->predictPanel();
        w->showPage(MainWindow::PredictPage);
        QVERIFY(QTest::qWaitFor([&] { return page->idle(); }, 10000));
        QVERIFY(page->hasModel());
        QImage good(60, 60, QImage::Format_RGB32);
        good.fill(Qt::black);
        for (int y = 10; y < 50; ++y)
            for (int x = 25; x < 35; ++x)
                good.setPixel(x, y, qRgb(255, 255, 255));
        const QString goodPath = m_tmp.filePath(QStringLiteral("good.png"));
        QVERIFY(good.save(goodPath));
        QSignalSpy opened(page, &PredictPanel::pictureOpened);
        page->openPicture(goodPath);
        QVERIFY(opened.wait(fixtures::kHangGuardMs));
        QVERIFY(QTest::qWaitFor([&] { return page->idle() && page->bars()->barCount() > 0; }, 10000));
        const QString bad = m_tmp.filePath(QStringLiteral("bad.png"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x89PNG\r\n\x1a\nnot a picture");
        f.close();
        QSignalSpy openedBad(page, &PredictPanel::pictureOpened);
        page->openPicture(bad);
        QVERIFY(openedBad.wait(fixtures::kHangGuardMs));
        QCOMPARE(openedBad.first().first().toBool(), false);
        QVERIFY(QTest::qWaitFor([&] { return page->idle(); }, 10000));
        QCOMPARE(page->bars()->barCount(), 0);
        shot(w.get(), QStringLiteral("predict-bad-picture"));
        // The caption does not call a file that failed a blank picture, and the message says it is
        // damaged (Qt's own words were "Unable to read image data").
        QVERIFY2(page->inputCaption().endsWith(QStringLiteral("nothing, no picture is open")),
                 qPrintable(page->inputCaption()));
        QVERIFY2(page->statusText().contains(QStringLiteral("bad.png is damaged: its picture data cannot be decoded")),
                 qPrintable(page->statusText()));
        // The pad is blank: the bad file's picture is not the old one.
        const QImage sheet = page->pad()->picture();
        QCOMPARE(sheet.pixel(sheet.width() / 2, sheet.height() / 2), qRgb(255, 255, 255));
    }
};

QTEST_MAIN(TstUiNewUser)
#include "tst_ui_new_user.moc"
