#include "main_window.hpp"

#include "charts/chart.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "common/wheel_guard.hpp"
#include "compare/compare_panel.hpp"
#include "core/errors.hpp"
#include "data/text_dataset.hpp"
#include "environment.hpp"
#include "export/export_dialog.hpp"
#include "export/save_file.hpp"
#include "i18n/language.hpp"
#include "io/weights_formats.hpp"
#include "kernels/kernels.hpp"
#include "model/model_spec.hpp"
#include "optim/optimizer.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/charts_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "panels/run_options_fields.hpp"
#include "panels/run_panel.hpp"
#include "predict/predict_panel.hpp"
#include "results/confusion_matrix.hpp"
#include "results/image_grid.hpp"
#include "results/results_panel.hpp"
#include "run/run_controller.hpp"
#include "run/train_worker.hpp"
#include "runs/runs_panel.hpp"
#include "train/evaluation.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"
#include "train/run_lock.hpp"
#include "train/session.hpp"
#include "write/write_panel.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QImage>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QtConcurrent>

#include <algorithm>
#include <optional>
#include <utility>

namespace tbui {

struct MainWindow::Actions {
    QAction* openDataset;
    QAction* openModel;
    QAction* openWeights;
    QAction* resumeRun;
    QAction* exportReport;
    QAction* exportCharts;
    QAction* exportCsv;
    QAction* exportGrid;
    QAction* exportConfusion;
    QAction* saveWeights;
    QAction* exportWeights;
    QAction* quit;
    QAction* start;
    QAction* pause;
    QAction* stop;
    QAction* systemLanguage;
    QList<QAction*> languages;
    QAction* about;
};

namespace {
const char* kGeometryKey = "ui/geometry";
// Saved only once the user drags it: "ui/splitter", saved always before 2026-12-07, is not read, so
// that the log's lines follow the window's height for those users too.
const char* kSplitterKey = "ui/logSplitter";

// A page that scrolls when the window is smaller than the page's minimum size.
QWidget* scrolling(QWidget* page)
{
    auto* scroll = new QScrollArea;
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

QWidget* framed(QWidget* panel)
{
    auto* frame = new QFrame;
    frame->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(panel);
    return frame;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_system(tb::detectSystem()), m_dataset(new DatasetPanel), m_model(new ModelPanel),
      m_accelerator(new AcceleratorPanel(m_system)), m_hyper(new HyperparametersPanel), m_run(new RunPanel),
      m_charts(new ChartsPanel), m_results(new ResultsPanel),
      m_compare(new ComparePanel(m_system, [this](CompareRequest& r) { return compareRequest(r); })),
      m_predict(new PredictPanel), m_runs(new RunsPanel(qs(tb::env::runsDir()))), m_write(new WritePanel),
      m_controller(new RunController(this)), m_tabs(new QTabWidget), m_act(new Actions)
{
    WheelGuard::install(); // before the fields are first shown (polished)
    setAcceptDrops(true);
    auto* setup = new QWidget;
    auto* grid = new QGridLayout(setup);
    grid->addWidget(framed(m_dataset), 0, 0, 2, 1);
    grid->addWidget(framed(m_model), 0, 1, 2, 1);
    grid->addWidget(framed(m_accelerator), 0, 2);
    grid->addWidget(framed(m_hyper), 1, 2);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 3);
    grid->setColumnStretch(2, 2);
    m_tabs->addTab(scrolling(setup), QString());
    m_tabs->addTab(scrolling(m_charts), QString());
    m_tabs->addTab(scrolling(m_results), QString());
    m_tabs->addTab(scrolling(m_compare), QString());
    m_tabs->addTab(scrolling(m_predict), QString());
    m_tabs->addTab(m_write, QString()); // the text counterpart of Predict
    m_tabs->addTab(m_runs, QString());

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_tabs);
    splitter->addWidget(m_run);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0); // the log keeps its lines as the window grows, as a terminal pane does
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);
    resize(1280, 860);
    m_splitterChosen = splitter->restoreState(QSettings().value(kSplitterKey).toByteArray());
    connect(splitter, &QSplitter::splitterMoved, this, [this] { m_splitterChosen = true; }); // dragged

    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateStartState);
    connect(m_dataset, &DatasetPanel::datasetLoaded, this, &MainWindow::onDatasetLoaded);
    connect(m_dataset, &DatasetPanel::loadFailed, this, [this](const QString&) {
        updateStartState();
        showPage(SetupPage);
    });
    connect(m_model, &ModelPanel::modelChanged, this, [this] {
        // A sequence model reads a text, an image model an IDX folder (as the CLI's --data).
        m_dataset->setTextModel(m_model->spec() && m_model->spec()->isText());
        m_accelerator->setTextModel(m_model->spec() && m_model->spec()->isText());
        m_compare->setTextModel(m_model->spec() && m_model->spec()->isText());
        // A text is cut into the text model's own sequence length.
        if (m_model->spec() && m_model->spec()->isText())
            m_dataset->setTextSequenceLength(m_model->spec()->sequenceLength);
        followModelKind();
        updateStartState();
    });
    m_accelerator->setTextModel(m_model->spec() && m_model->spec()->isText());
    m_compare->setTextModel(m_model->spec() && m_model->spec()->isText());
    if (m_model->spec() && m_model->spec()->isText())
        m_textModel = m_model->spec()->name;
    else // the last session ended on a text model (its preset's settings)
        restoreImageSettings();
    connect(m_hyper, &HyperparametersPanel::changed, this, [this] {
        m_accelerator->setPerReplicaBatch(m_hyper->batchSize());
        if (const DatasetPtr data = m_dataset->dataset())
            onDatasetLoaded(data); // the size multiplier changes the model's input
        updateStartState();
    });
    connect(m_accelerator, &AcceleratorPanel::deviceChanged, this, [this] {
        m_hyper->runOptions()->setPrecision(m_accelerator->device().precision);
        updateStartState();
    });
    m_accelerator->setPerReplicaBatch(m_hyper->batchSize());
    m_hyper->runOptions()->setPrecision(m_accelerator->device().precision);

    connect(m_run, &RunPanel::startRequested, this, &MainWindow::startTraining);
    connect(m_run, &RunPanel::pauseRequested, m_controller, &RunController::setPaused);
    connect(m_run, &RunPanel::stopRequested, this, &MainWindow::confirmStop); // asks, as Esc and Run → Stop do
    connect(m_controller, &RunController::pausedChanged, m_run, &RunPanel::setPaused);
    connect(m_controller, &RunController::stopping, m_run, &RunPanel::setStopping);
    connect(m_controller, &RunController::evaluatingTestSet, m_run, &RunPanel::evaluatingTestSet);
    connect(m_controller, &RunController::started, this, &MainWindow::onRunStarted);
    connect(m_controller, &RunController::batchFinished, this, [this](const tb::BatchProgress& p) {
        m_run->batchFinished(p);
        m_charts->addBatch(p);
    });
    connect(m_controller, &RunController::epochFinished, this, &MainWindow::onEpochFinished);
    connect(m_controller, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_controller, &RunController::textSampled, this, [this](int epoch, const QString& sample) {
        m_run->appendLog([epoch, text = qs(tb::printableSample(ss(sample)))] {
            return tr("Sample after epoch %1: %2").arg(epoch).arg(text);
        });
    });
    connect(m_compare, &ComparePanel::comparisonStarted, this, &MainWindow::updateStartState);
    connect(m_compare, &ComparePanel::comparisonFinished, this, &MainWindow::updateStartState);
    connect(m_runs, &RunsPanel::openResultsRequested, this, &MainWindow::openRunResults);
    connect(m_runs, &RunsPanel::resumeRequested, this, &MainWindow::resumeRun);
    connect(m_runs, &RunsPanel::message, this, [this](const QString& text) { statusBar()->showMessage(text, 15000); });
    connect(m_runs, &RunsPanel::reportExported, this, [this](const QString&, const QString& error) {
        if (!error.isEmpty())
            showError(tr("The report could not be exported."), error);
    });
    connect(m_runs, &RunsPanel::listed, this, &MainWindow::updateStartState);

    buildMenus();
    retranslate();
    updateStartState();
}

MainWindow::~MainWindow()
{
    m_controller->stopAndWait();
    delete m_act;
}

void MainWindow::buildMenus()
{
    Actions& a = *m_act;
    m_fileMenu = menuBar()->addMenu(QString());
    a.openDataset = m_fileMenu->addAction(QString(), QKeySequence::Open, m_dataset, &DatasetPanel::chooseFolder);
    a.openModel = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a model file"), QString(),
                                                          tr("Model files (*.json);;All files (*)"));
        if (!path.isEmpty())
            m_model->openModelFile(path);
    });
    a.openWeights = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open trained weights"), QString(),
                                                          tr("Weights (*.tbw *.safetensors);;All files (*)"));
        if (!path.isEmpty())
            openWeights(path);
    });
    a.resumeRun = m_fileMenu->addAction(QString(), this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Resume a run from its folder"), qs(tb::env::runsDir()));
        if (!folder.isEmpty())
            resumeRun(folder);
    });
    m_fileMenu->addSeparator();
    a.exportReport = m_fileMenu->addAction(QString(), this, [this] { m_runs->askAndExportReport(reportRun()); });
    a.exportCharts = m_fileMenu->addAction(QString(), this, [this] {
        const QString dir = askExportFolder(this, tr("Export the charts to a folder"));
        if (!dir.isEmpty())
            exportCharts(dir);
    });
    a.exportCsv = m_fileMenu->addAction(QString(), this, [this] {
        askAndSave(tr("Export the history"), QStringLiteral("history.csv"), tr("CSV files (*.csv)"),
                   [this](const QString& path) { return exportHistoryCsv(path); });
    });
    a.exportGrid = m_fileMenu->addAction(QString(), this, [this] {
        askAndSave(tr("Export the misclassified images"), QStringLiteral("misclassified.png"), tr("PNG images (*.png)"),
                   [this](const QString& path) { return exportGrid(path); });
    });
    a.exportConfusion = m_fileMenu->addAction(QString(), this, [this] {
        askAndSave(tr("Export the confusion matrix"), QStringLiteral("confusion-matrix.png"), tr("PNG images (*.png)"),
                   [this](const QString& path) { return exportConfusion(path); });
    });
    a.saveWeights = m_fileMenu->addAction(QString(), this, [this] {
        askAndSave(tr("Save the trained weights"), QStringLiteral("model.tbw"), tr("Trainbench weights (*.tbw)"),
                   [this](const QString& path) { return saveWeights(path); });
    });
    a.saveWeights->setShortcut(QKeySequence::Save);
    a.exportWeights = m_fileMenu->addAction(QString(), this, [this] {
        askAndSave(tr("Export the trained weights"), QStringLiteral("model.onnx"),
                   tr("ONNX model (*.onnx);;safetensors for PyTorch (*.safetensors)"),
                   [this](const QString& path) { return saveWeights(path); });
    });
    m_fileMenu->addSeparator();
    a.quit = m_fileMenu->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);

    m_runMenu = menuBar()->addMenu(QString());
    a.start = m_runMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::startTraining);
    a.pause = m_runMenu->addAction(QString(), this, [this] { m_controller->setPaused(!m_controller->isPaused()); });
    a.stop = m_runMenu->addAction(QString(), QKeySequence(Qt::Key_Escape), this, &MainWindow::confirmStop);

    m_languageMenu = menuBar()->addMenu(QString());
    m_languages = new QActionGroup(this);
    a.systemLanguage = m_languageMenu->addAction(QString());
    a.systemLanguage->setCheckable(true);
    a.systemLanguage->setData(QString());
    m_languages->addAction(a.systemLanguage);
    m_languageMenu->addSeparator();
    for (const QString& code : Language::available()) {
        QAction* act = m_languageMenu->addAction(Language::nativeName(code));
        act->setCheckable(true);
        act->setData(code);
        m_languages->addAction(act);
        a.languages << act;
    }
    const QString saved = Language::saved();
    for (QAction* act : m_languages->actions())
        act->setChecked(act->data().toString() == saved);
    connect(m_languages, &QActionGroup::triggered, this, [](QAction* act) { Language::apply(act->data().toString()); });

    m_helpMenu = menuBar()->addMenu(QString());
    a.about = m_helpMenu->addAction(QString(), this, [this] {
        QMessageBox::about(
            this, tr("About Trainbench"),
            tr("<b>Trainbench %1</b><br>Train convolutional networks on IDX image datasets and LSTM "
               "language models on text files, and compare what each accelerator does with the same work, "
               "offline.<br>CPU kernels: %2.")
                .arg(QCoreApplication::applicationVersion(), EngineText::kernels(tb::kernelsFor(m_system.cpu.isa))));
    });
}

void MainWindow::askAndSave(const QString& title, const QString& name, const QString& filter,
                            const std::function<QString(const QString&)>& save)
{
    const QString path = askSavePath(this, title, name, filter);
    if (!path.isEmpty())
        save(path); // reports success or the error itself
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("Trainbench"));
    m_tabs->setTabText(SetupPage, tr("Setup"));
    m_tabs->setTabText(TrainingPage, tr("Training"));
    m_tabs->setTabText(ResultsPage, tr("Results"));
    m_tabs->setTabText(ComparePage, tr("Compare"));
    m_tabs->setTabText(PredictPage, tr("Predict"));
    m_tabs->setTabText(WritePage, tr("Write"));
    m_tabs->setTabText(RunsPage, tr("Runs"));
    Actions& a = *m_act;
    m_fileMenu->setTitle(tr("&File"));
    a.openDataset->setText(tr("Open dataset folder…"));
    a.openModel->setText(tr("Open model file…"));
    a.openWeights->setText(tr("Open weights and evaluate…"));
    a.resumeRun->setText(tr("Resume run…"));
    a.resumeRun->setToolTip(tr("Continue a stopped or interrupted run from its folder's checkpoint"));
    a.exportReport->setText(tr("Export report (HTML)…"));
    a.exportReport->setToolTip(tr("The last run's report, else the one of the run selected on the Runs page"));
    a.exportCharts->setText(tr("Export charts (PNG and SVG)…"));
    a.exportCsv->setText(tr("Export history (CSV)…"));
    a.exportGrid->setText(tr("Export misclassified grid (PNG)…"));
    a.exportConfusion->setText(tr("Export confusion matrix (PNG)…"));
    a.saveWeights->setText(tr("Save trained weights…"));
    a.exportWeights->setText(tr("Export weights (ONNX, safetensors)…"));
    a.quit->setText(tr("Quit"));
    m_runMenu->setTitle(tr("&Run"));
    a.start->setText(tr("Start"));
    a.pause->setText(tr("Pause / resume"));
    a.stop->setText(tr("Stop"));
    m_languageMenu->setTitle(tr("&Language"));
    a.systemLanguage->setText(tr("System language"));
    m_helpMenu->setTitle(tr("&Help"));
    a.about->setText(tr("About Trainbench"));
    if (m_resultsSource)
        m_results->setSource(m_resultsSource());
    if (m_resultsNote)
        m_results->setNote(m_resultsNote());
    updateStartState();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::showPage(Page page)
{
    m_tabs->setCurrentIndex(page);
}

QString MainWindow::startBlocker() const
{
    if (m_controller->isRunning())
        return tr("A run is in progress.");
    if (m_compare->isRunning())
        return tr("A comparison is in progress.");
    if (const QString why = setupBlocker(); !why.isEmpty())
        return why;
    const QString why = EngineText::deviceUnavailable(m_accelerator->device(), m_system);
    if (!why.isEmpty())
        return tr("The chosen accelerator cannot be used: %1").arg(why);
    return {};
}

QString MainWindow::setupBlocker() const
{
    if (m_dataset->isLoading())
        return tr("The dataset is still loading.");
    if (!m_dataset->dataset())
        return tr("Choose a dataset folder first.");
    const DatasetPtr data = m_dataset->dataset();
    if (m_model->spec() && m_model->spec()->isText() != data->isText())
        return data->isText() ? tr("%1 is an image model and the dataset is a text: choose a text preset "
                                   "(small-text-lstm or shakespeare-lstm).")
                                    .arg(qs(m_model->spec()->name))
                              : tr("%1 is a text model and the dataset holds images: choose an image preset or "
                                   "a text file.")
                                    .arg(qs(m_model->spec()->name));
    if (data->isText() && m_hyper->sizeMultiplier() != 1)
        return tr("The image size multiplier is for images: set it to 1 to train on a text.");
    if (!m_model->spec() || !m_model->errorText().isEmpty())
        return tr("The model cannot be used: see the Model panel.");
    return {};
}

// To a text preset with its own settings (small-text-lstm's few epochs of small RMSprop batches: at
// Adam's batch 128 a licence text is 4 steps an epoch and the model writes noise; shakespeare-lstm's
// lower rate), from an image model or the other text preset, and back to an image model: the image
// model's settings return, in this session or the next (HyperparametersPanel::keepImageBasics).
void MainWindow::followModelKind()
{
    const std::optional<tb::ModelSpec> spec = m_model->spec();
    const std::optional<std::string> text = spec && spec->isText() ? std::optional(spec->name) : std::nullopt;
    if (text == m_textModel)
        return;
    const bool fromImages = !m_textModel;
    m_textModel = text;
    if (!text) {
        restoreImageSettings();
        return;
    }
    // Kept on leaving the image models, whatever text model comes (a model file without settings of its
    // own, then a preset, must not have the file's settings kept as the image model's).
    if (fromImages)
        m_hyper->keepImageBasics();
    const tb::PresetTraining* t = tb::presetTraining(spec->name);
    if (!t)
        return;
    m_hyper->setBasics({tb::parseOptimizer(t->optimizer), t->learningRate, t->batchSize, t->epochs});
    statusBar()->showMessage(tr("%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch(s) "
                                "(an image model gets its settings back)",
                                nullptr, t->epochs)
                                 .arg(qs(spec->name), qs(t->optimizer), QLocale().toString(double(t->learningRate)))
                                 .arg(t->batchSize),
                             15000);
}

void MainWindow::restoreImageSettings()
{
    if (!m_hyper->restoreImageBasics())
        return;
    // In place of the text preset's message, which would otherwise stay up for its 15 s.
    const HyperparametersPanel::Basics b = m_hyper->basics();
    statusBar()->showMessage(tr("%1 trains with the image models' settings again: %2 at a learning rate of %3, "
                                "batch %4, %5 epochs")
                                 .arg(m_model->spec() ? qs(m_model->spec()->name) : QString(),
                                      qs(tb::optimizerName(b.optimizer)), QLocale().toString(b.learningRate))
                                 .arg(b.batchSize)
                                 .arg(b.epochs),
                             15000);
}

void MainWindow::updateStartState()
{
    // The Compare page has its own Run and Stop, progress and status: the training's bar would
    // show a finished run's progress beside them. It shows there while a training runs (its Stop).
    m_run->setVisible(m_tabs->currentIndex() != ComparePage || m_controller->isRunning());
    const QString why = startBlocker();
    m_run->setStartEnabled(why.isEmpty(), m_controller->isRunning() ? QString() : why);
    m_act->start->setEnabled(why.isEmpty());
    m_act->resumeRun->setEnabled(resumeBlocker().isEmpty());
    m_act->exportReport->setEnabled(!reportRun().isEmpty());
    m_act->pause->setEnabled(m_controller->isRunning());
    m_act->stop->setEnabled(m_controller->isRunning());
    const bool haveResults = !m_results->model().isEmpty();
    m_act->exportGrid->setEnabled(haveResults);
    m_act->exportConfusion->setEnabled(haveResults);
    m_act->exportCsv->setEnabled(!m_history.empty());
    m_act->exportCharts->setEnabled(!m_history.empty());
    m_act->saveWeights->setEnabled(m_weights != nullptr);
    m_act->exportWeights->setEnabled(m_weights != nullptr);
}

void MainWindow::onDatasetLoaded(const DatasetPtr& data)
{
    if (data->isText()) {
        m_model->setTextInput(data->inputHeight(), data->numClasses);
        updateStartState();
        return;
    }
    m_model->setInput(data->train.height * m_hyper->sizeMultiplier(), data->train.width * m_hyper->sizeMultiplier(),
                      data->numClasses);
    updateStartState();
}

QString MainWindow::compareRequest(CompareRequest& r) const
{
    if (m_controller->isRunning())
        return tr("A training run is in progress; stop it first so the timings are fair.");
    if (const QString why = setupBlocker(); !why.isEmpty())
        return why;
    r.data = m_dataset->dataset();
    r.spec = *m_model->spec();
    r.config.train = m_hyper->config();
    r.config.train.kernelCacheDir = m_kernelCacheDir;
    r.config.scaleBatchWithReplicas = m_accelerator->scaleBatchWithReplicas();
    return {};
}

void MainWindow::startTraining()
{
    const QString why = startBlocker();
    if (!why.isEmpty()) {
        reportError(why);
        return;
    }
    TrainRequest req;
    req.data = m_dataset->dataset();
    req.spec = *m_model->spec();
    req.device = m_accelerator->device();
    req.config = m_hyper->config();
    req.config.batchSize = m_accelerator->globalBatch();
    req.config.device = req.device;
    beginRun(req, [model = qs(req.spec.name), device = qs(req.device.id()), at = QTime::currentTime()] {
        return tr("%1 on %2, started %3").arg(model, device, QLocale().toString(at, QLocale::ShortFormat));
    });
}

QString MainWindow::resumeBlocker() const
{
    if (m_controller->isRunning())
        return tr("A training run is in progress.");
    if (m_compare->isRunning())
        return tr("A comparison is in progress.");
    return {};
}

void MainWindow::resumeRun(const QString& folder)
{
    const QString cannot = tr("The run in %1 cannot be resumed.").arg(QDir::toNativeSeparators(folder));
    if (const QString why = resumeBlocker(); !why.isEmpty()) {
        showError(cannot, why);
        return;
    }
    // The run goes on with its own settings; only the device is the accelerator panel's.
    TrainRequest req;
    req.data = m_dataset->dataset(); // used when it is the run's dataset; else the worker loads the run's
    req.device = m_accelerator->device();
    req.resumeFolder = ss(QDir(folder).absolutePath());
    // Checked before anything on screen changes: a folder without a checkpoint, a damaged checkpoint
    // or a run whose dataset is neither loaded nor where it was is refused, and the last run's
    // charts, log and progress stay. The checkpoint read here is the one the worker continues from.
    try {
        const tb::RunFolder run = tb::RunFolder::open(req.resumeFolder);
        {
            const tb::RunLock probe(run.path);
        } // a run another process trains: refused here, not by the worker
        // As the Runs page greys Resume for it: resuming would evaluate it again and record it anew.
        if (tb::readRun(run.path).finished()) {
            showError(cannot, tr("It is complete: nothing is left to resume. Its weights are %1.")
                                  .arg(QDir::toNativeSeparators(qs(run.weights()))));
            return;
        }
        auto saved = std::make_shared<const tb::Checkpoint>(tb::readCheckpoint(run.checkpoint()));
        TrainWorker::resumeDataset(*saved, req.data, run.checkpoint());
        req.checkpoint = std::move(saved);
    } catch (const std::exception& e) {
        showError(cannot, EngineText::of(e));
        return;
    }
    // Named as a fresh run is (its model, not its folder's stamped name), and said to be resumed.
    beginRun(req,
             [model = qs(req.checkpoint->weights.spec.name), device = qs(req.device.id()), at = QTime::currentTime()] {
                 return tr("%1 on %2, resumed %3").arg(model, device, QLocale().toString(at, QLocale::ShortFormat));
             });
}

void MainWindow::beginRun(TrainRequest req, std::function<QString()> name)
{
    req.runsDir = tb::env::runsDir();
    req.config.kernelCacheDir = m_kernelCacheDir; // a resumed run's too
    req.checkpointEvery = m_hyper->checkpointEvery();
    m_runData = req.data;
    m_runName = std::move(name);
    m_runDevice = req.device;
    m_runConfig = req.config;
    m_history.clear();
    m_weights.reset();
    m_charts->resetForRun();
    m_results->clear();
    m_resultsSource = nullptr;
    m_resultsNote = nullptr;
    m_run->setRunning(true);
    m_run->appendLog(QString());
    m_controller->start(req);
    showPage(TrainingPage);
    updateStartState();
}

void MainWindow::onRunStarted(const RunStarted& info)
{
    m_runInfo = info;
    m_runData = info.data; // a resumed run may have loaded its own dataset
    // ...and then the Dataset panel (and the model panel's input) show that folder, as if chosen.
    if (info.data && (!m_dataset->dataset() || m_dataset->dataset()->directory != info.data->directory))
        m_dataset->load(qs(info.data->directory),
                        info.data->isText() ? DatasetPanel::Kind::Text : DatasetPanel::Kind::Images);
    m_runConfig = info.config;
    m_history = info.history; // a resumed run's finished epochs
    m_charts->setRun(info.config, info.history, info.batches);
    m_charts->setTextRun(info.data && info.data->isText());
    m_run->runStarted(info);
    m_runs->refresh(); // the new run shows as running
}

void MainWindow::onEpochFinished(const tb::EpochRecord& r, const EvalPtr& validation)
{
    m_history.push_back(r);
    m_run->epochFinished(r);
    m_charts->addEpoch(r);
    // Held-out training images are not the test split the results pages show: those wait for the end.
    if (validation && !validation->predicted.empty() && m_runConfig.validationSplit == 0) {
        // Dropping the remainder only cuts the split's tail, so image i is the same in m_runData.
        m_results->setResults(m_runData, validation);
        showResultsSource([name = m_runName, epoch = r.epoch, epochs = m_runInfo.epochs,
                           n = int64_t(validation->predicted.size()), text = m_runData->isText()] {
            return (text ? tr("Run %1 — validation after epoch %2 of %3, on %4 held-out symbols")
                         : tr("Run %1 — validation after epoch %2 of %3, on %4 test images"))
                .arg(name())
                .arg(epoch)
                .arg(epochs)
                .arg(formatCount(n));
        });
    }
    updateStartState();
}

void MainWindow::onRunFinished(const RunOutcome& outcome)
{
    m_weights = outcome.weights;
    m_predict->setWeights(m_weights, m_runName);
    m_write->setWeights(m_weights, m_runName); // a text model's only
    if (outcome.test && !outcome.test->predicted.empty() && m_runData) {
        m_results->setResults(m_runData, outcome.test);
        const bool stopped = outcome.status == RunStatus::Stopped;
        showResultsSource([name = m_runName, n = int64_t(outcome.test->predicted.size()), text = m_runData->isText(),
                           stopped, epoch = outcome.stoppedEpoch, step = outcome.stoppedStep] {
            if (stopped)
                return (text ? tr("Run %1 — the weights kept at the stop (epoch %2, step %3) on %4 held-out symbols")
                             : tr("Run %1 — the weights kept at the stop (epoch %2, step %3) on %4 test images"))
                    .arg(name())
                    .arg(epoch)
                    .arg(step)
                    .arg(formatCount(n));
            return (text ? tr("Run %1 — the final weights on %2 held-out symbols")
                         : tr("Run %1 — the final weights on %2 test images"))
                .arg(name())
                .arg(formatCount(n));
        });
    }
    // The validation points are of BatchNorm's statistics before precise BN: its final figures beside them,
    // at the epoch whose weights they are (early stopping may have restored an earlier one). A model
    // without BatchNorm had nothing recomputed: no mark.
    if (outcome.preciseBn && outcome.preciseBn->layers > 0 && outcome.status == RunStatus::Completed &&
        !m_history.empty())
        m_charts->setPreciseBnTest(outcome.restoredBest ? outcome.bestEpoch : m_history.back().epoch, outcome.testLoss,
                                   outcome.testAccuracy);
    m_run->runFinished(outcome);
    // Said where the gap between training and test accuracy shows (the log above, the Results page).
    m_resultsNote = [precise = outcome.preciseBn, warmth = outcome.batchNormWarmth] {
        return EngineText::batchNorm(precise, warmth);
    };
    m_results->setNote(m_resultsNote());
    m_runs->refresh();
    if (outcome.status == RunStatus::Failed)
        reportError(outcome.message);
    updateStartState();
}

void MainWindow::showResultsSource(std::function<QString()> source)
{
    // Kept as a function of the language: a switch of language redraws it (retranslate).
    m_resultsSource = std::move(source);
    m_results->setSource(m_resultsSource());
}

void MainWindow::reportError(const QString& message)
{
    statusBar()->showMessage(message, 15000);
}

void MainWindow::showError(const QString& lead, const QString& detail)
{
    reportError(detail.isEmpty() ? lead : lead + QLatin1Char(' ') + detail);
    if (m_errorBox)
        m_errorBox->close(); // the newest failure replaces the one still shown
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Trainbench"), lead, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setInformativeText(detail);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Window-modal and not exec(): a failure reported from a finished background task does not
    // start a nested event loop under it.
    box->setWindowModality(Qt::WindowModal);
    m_errorBox = box;
    box->open();
}

QMessageBox* MainWindow::errorBox() const
{
    return m_errorBox;
}

QString MainWindow::reportResult(const QString& error, const QString& done, const QString& failed)
{
    if (error.isEmpty())
        statusBar()->showMessage(done, 8000);
    else
        showError(failed, error);
    return error;
}

QString MainWindow::exportCharts(const QString& dir)
{
    const QList<Chart*> charts = m_charts->charts();
    const QStringList names = m_charts->chartFileNames();
    // Encoded first, then written as one set: a full disk leaves the folder as it was, not half a set.
    QList<FileToSave> files;
    for (int i = 0; i < charts.size(); ++i) {
        const QString base = QDir(dir).filePath(names[i]);
        files.append({base + QStringLiteral(".png"), pngBytes(charts[i]->toImage())});
        files.append({base + QStringLiteral(".svg"), charts[i]->svgDocument()});
    }
    return reportResult(saveFileSet(files), tr("Saved %1 charts as PNG and SVG in %2").arg(charts.size()).arg(dir),
                        tr("The charts could not be exported."));
}

QString MainWindow::exportHistoryCsv(const QString& path)
{
    if (m_history.empty())
        return reportResult(tr("There is no history to export yet: train for an epoch first."), {},
                            tr("The history could not be exported."));
    QString csv = QStringLiteral(
        "epoch,loss,accuracy,val_loss,val_accuracy,seconds,samples_per_sec,samples,device,replicas,global_batch,"
        "optimizer,learning_rate,seed\n");
    for (const tb::EpochRecord& r : m_history)
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14\n")
                   .arg(r.epoch)
                   .arg(r.loss, 0, 'g', 8)
                   .arg(r.accuracy, 0, 'g', 8)
                   .arg(r.valLoss, 0, 'g', 8)
                   .arg(r.valAccuracy, 0, 'g', 8)
                   .arg(r.seconds, 0, 'g', 6)
                   .arg(r.samplesPerSec, 0, 'g', 6)
                   .arg(r.samples)
                   .arg(qs(m_runDevice.id()))
                   .arg(m_runDevice.replicas())
                   .arg(m_runConfig.batchSize)
                   .arg(qs(tb::optimizerName(m_runConfig.optimizer.kind)))
                   .arg(r.learningRate > 0 ? r.learningRate : double(m_runConfig.optimizer.learningRate), 0, 'g', 6)
                   .arg(QString::number(m_runConfig.seed));
    return reportResult(saveBytes(path, csv.toUtf8()), tr("Saved %1").arg(path),
                        tr("The history could not be exported."));
}

QString MainWindow::exportGrid(const QString& path, int maxTiles)
{
    const QString failed = tr("The misclassified grid could not be exported.");
    if (m_results->model().isEmpty())
        return reportResult(tr("There are no results to export yet."), {}, failed);
    const int shown = m_results->grid()->tileCount();
    const QString done = shown > maxTiles
                             ? tr("Saved %1: the first %2 of %3 images (misclassified first); the grid export is "
                                  "capped at %2.")
                                   .arg(path)
                                   .arg(maxTiles)
                                   .arg(formatCount(shown))
                             : tr("Saved %1 (%2 images)").arg(path).arg(shown);
    return reportResult(saveImage(path, m_results->grid()->renderImage(maxTiles, 10)), done, failed);
}

QString MainWindow::exportConfusion(const QString& path)
{
    const QString failed = tr("The confusion matrix could not be exported.");
    if (m_results->model().isEmpty())
        return reportResult(tr("There are no results to export yet."), {}, failed);
    return reportResult(saveImage(path, m_results->confusion()->renderImage()), tr("Saved %1").arg(path), failed);
}

QString MainWindow::saveWeights(const QString& path)
{
    const QString failed = tr("The weights could not be saved.");
    if (!m_weights)
        return reportResult(tr("There are no trained weights yet."), {}, failed);
    try {
        // .onnx and .safetensors export; anything else is Trainbench's own file.
        tb::saveWeightsAs(ss(path), *m_weights, tb::weightsFormatOfPath(ss(path)));
    } catch (const std::exception& e) {
        return reportResult(EngineText::of(e), {}, failed);
    }
    return reportResult({}, tr("Saved %1").arg(path), {});
}

QString MainWindow::reportRun() const
{
    if (!m_runInfo.runFolder.isEmpty() && QFileInfo::exists(m_runInfo.runFolder + QStringLiteral("/run.json")))
        return m_runInfo.runFolder;
    return m_runs->selectedRun();
}

void MainWindow::openRunResults(const QString& runFolder)
{
    const tb::RunSummary run = tb::readRun(ss(runFolder));
    const QString cannot = tr("The results of the run in %1 cannot be shown.").arg(QDir::toNativeSeparators(runFolder));
    if (run.damaged) {
        showError(cannot, tr("The run %1 is damaged: %2").arg(runFolder, EngineText::english(qs(run.damage))));
        emit evaluationFinished(false);
        return;
    }
    // A text run trained on a text file (or a folder of texts), an image run on a folder of IDX files.
    const QFileInfo dataset(qs(run.dataset));
    if (run.isText() ? !dataset.exists() : !dataset.isDir()) {
        const QString path = QDir::toNativeSeparators(qs(run.dataset));
        showError(cannot, run.isText() ? tr("The text %1 the run trained on is gone; its report still has the figures "
                                            "it stored.")
                                             .arg(path)
                                       : tr("The run's dataset folder %1 is gone: its results cannot be shown; its "
                                            "report still has the confusion matrix and misclassified images it "
                                            "stored.")
                                             .arg(path));
        emit evaluationFinished(false);
        return;
    }
    openWeights(runFolder + QStringLiteral("/weights.tbw"), qs(run.dataset));
}

void MainWindow::openWeights(const QString& path, const QString& datasetDir)
{
    DatasetPtr base = m_dataset->dataset();
    // Another dataset is loaded: the worker loads the run's. A run's text is loaded again in any
    // case, cut as its weights say (the Dataset panel cuts it for the model chosen in Setup).
    if (!datasetDir.isEmpty() && base && (base->isText() || QFileInfo(qs(base->directory)) != QFileInfo(datasetDir)))
        base.reset();
    if (!base && datasetDir.isEmpty()) {
        reportError(tr("Choose a dataset folder first, then open the weights to evaluate them on it."));
        emit evaluationFinished(false);
        return;
    }
    struct Evaluation {
        WeightsPtr weights;
        DatasetPtr data;
        EvalPtr eval;
        QString error;
        QString otherClasses; // the weights were trained on a dataset with other classes
        QString enlarged;     // the images are smaller than the model's: enlarged to fit
        // The weights' precision, where it is not this evaluation's and the panel can choose it.
        std::optional<tb::Precision> runPrecision;
    };
    auto* watcher = new QFutureWatcher<Evaluation>(this);
    connect(watcher, &QFutureWatcher<Evaluation>::finished, this, [this, watcher, path] {
        const Evaluation e = watcher->result();
        watcher->deleteLater();
        if (!e.error.isEmpty()) {
            reportError(tr("Could not evaluate %1: %2").arg(path, e.error));
            emit evaluationFinished(false);
            return;
        }
        m_weights = e.weights;
        m_predict->setWeights(m_weights,
                              [file = QFileInfo(path).fileName()] { return tr("weights file %1").arg(file); });
        m_write->setWeightsFromFile(m_weights, path);
        m_runData = e.data;
        m_results->setResults(e.data, e.eval);
        showResultsSource([path, dir = qs(e.data->directory)] {
            return tr("Weights file %1 — evaluated on the test set of %2")
                .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(dir));
        });
        // As `evaluate` warns: weights of another dataset's classes give a meaningless accuracy; and as
        // it notes, weights trained in bf16 evaluate in the Accelerator panel's precision.
        // And as it warns of a safetensors file whose weights differ from its metadata's SHA-256.
        const QString notice = qs(e.weights->notice);
        if (!e.otherClasses.isEmpty() || !e.enlarged.isEmpty() || e.runPrecision || !notice.isEmpty())
            m_resultsNote = [note = e.otherClasses, enlarged = e.enlarged, trained = e.runPrecision, notice] {
                QStringList notes;
                for (const QString& english : {notice, note, enlarged})
                    if (!english.isEmpty())
                        notes << EngineText::english(english);
                if (trained)
                    notes << (*trained == tb::Precision::Bf16
                                  ? tr("These weights were trained in bf16 and evaluated in FP32; choose bfloat16 "
                                       "under Precision on the Setup page to evaluate them as their run did.")
                                  : tr("These weights were trained in FP32 and evaluated in bf16; choose FP32 under "
                                       "Precision on the Setup page to evaluate them as their run did."));
                return notes.join(QLatin1Char('\n'));
            };
        else
            m_resultsNote = nullptr;
        m_results->setNote(m_resultsNote ? m_resultsNote() : QString());
        showPage(ResultsPage);
        statusBar()->showMessage(
            tr("Evaluated %1: test loss %2, accuracy %3")
                .arg(QDir::toNativeSeparators(path), formatNumber(e.eval->loss, 4), formatPercent(e.eval->accuracy, 2)),
            15000);
        updateStartState();
        emit evaluationFinished(true);
    });
    const tb::DeviceSpec device = m_accelerator->device();
    // A safetensors file written by another program is taken for the model chosen in Setup.
    const std::optional<tb::ModelSpec> spec = m_model->spec();
    watcher->setFuture(QtConcurrent::run([path, base, datasetDir, device, spec, cacheDir = m_kernelCacheDir]() {
        Evaluation out;
        try {
            DatasetPtr data = base;
            WeightsPtr weights;
            if (!data && tb::weightsFormatOfPath(ss(path)) == tb::WeightsFormat::Trainbench) {
                // A run's weights say how its dataset is read: a text (a file or a folder of texts) cut
                // as the run cut it, else IDX images (tb::loadDatasetFor, as Resume and the CLI's evaluate).
                weights = std::make_shared<const tb::WeightsFile>(tb::loadAnyWeights(ss(path)));
                data = std::make_shared<const tb::Dataset>(tb::loadDatasetFor(ss(datasetDir), *weights));
            } else {
                if (!data)
                    data = std::make_shared<const tb::Dataset>(tb::loadDataset(ss(datasetDir)));
                const tb::ModelHint hint = tb::modelHint(spec ? &*spec : nullptr, data.get());
                weights = std::make_shared<const tb::WeightsFile>(tb::loadAnyWeights(ss(path), &hint));
                // The Dataset panel cut its text for the model chosen in Setup, with the text's own
                // characters: cut again as the weights' run did (their sequence length and characters).
                if (data->isText() && weights->spec.isText())
                    data = std::make_shared<const tb::Dataset>(tb::loadDatasetFor(data->directory, *weights));
            }
            out.otherClasses = qs(tb::otherClassesNote(*weights, *data));
            out.enlarged = qs(tb::enlargedImagesNote(*weights, *data));
            // The note says which precision evaluates them as their run did: only where the panel can
            // choose it (the CPU, and bf16 where its kernels run).
            if (const tb::Precision trained = weights->train.device.precision;
                trained != device.precision && tb::precisionUnavailableOn(device, trained).empty())
                out.runPrecision = trained;
            tb::WeightsEvaluation e =
                tb::evaluateWeights(*weights, *data, device, cacheDir, 0, tb::resultsKeeps(*data));
            out.eval = std::make_shared<const tb::EvalResult>(std::move(e.result));
            out.data = std::make_shared<const tb::Dataset>(std::move(e.data));
            out.weights = weights;
        } catch (const std::exception& e) {
            out.error = EngineText::of(e);
        }
        return out;
    }));
}

MainWindow::StopChoice MainWindow::askStop(bool closing)
{
    QMessageBox box(QMessageBox::Question, tr("A run is in progress"), QString(), QMessageBox::NoButton, this);
    if (m_controller->isRunning())
        box.setText(closing ? tr("Training is still running. Stop it and close the window, or stop it and keep "
                                 "the weights so far to save or study them?")
                            : tr("Stop the training? The weights so far are kept, evaluated on the test set and "
                                 "can be saved."));
    else
        box.setText(tr("A comparison is still running. Stop it and close the window? The finished rows are lost."));
    QPushButton* keep = nullptr;
    if (m_controller->isRunning()) {
        keep =
            box.addButton(tr("Stop and keep the weights"), closing ? QMessageBox::ActionRole : QMessageBox::AcceptRole);
        keep->setObjectName(QStringLiteral("stopAndKeep"));
    }
    QPushButton* close = nullptr;
    if (closing) {
        close = box.addButton(tr("Stop and close"), QMessageBox::DestructiveRole);
        close->setObjectName(QStringLiteral("stopAndClose"));
    }
    QPushButton* go = box.addButton(closing ? tr("Keep running") : tr("Continue training"), QMessageBox::RejectRole);
    go->setObjectName(QStringLiteral("continueRun"));
    box.setDefaultButton(go);
    box.setEscapeButton(go);
    box.exec();
    if (box.clickedButton() == keep && keep)
        return StopChoice::StopAndKeep;
    if (box.clickedButton() == close && close)
        return StopChoice::StopAndClose;
    return StopChoice::Continue;
}

void MainWindow::confirmStop()
{
    if (!m_controller->isRunning())
        return;
    // The run holds while the question is open (it could end before the answer otherwise) and goes on
    // if the answer is to continue; a run the user paused stays paused. A pause between batches does
    // not change the weights.
    const bool pausedHere = !m_controller->isPaused();
    m_controller->setPaused(true);
    if (askStop(false) == StopChoice::StopAndKeep && m_controller->isRunning())
        m_controller->stop(); // Stop releases the pause
    else if (pausedHere)
        m_controller->setPaused(false);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_controller->isRunning() || m_compare->isRunning()) {
        // As confirmStop: a training run holds while the question is open.
        const bool pausedHere = m_controller->isRunning() && !m_controller->isPaused();
        m_controller->setPaused(true);
        switch (askStop(true)) {
        case StopChoice::Continue:
            if (pausedHere)
                m_controller->setPaused(false);
            event->ignore();
            return;
        case StopChoice::StopAndKeep:
            m_controller->stop(); // the window stays, Stopping… then the weights to save
            showPage(ResultsPage);
            event->ignore();
            return;
        case StopChoice::StopAndClose:
            break;
        }
    }
    QSettings().setValue(kGeometryKey, saveGeometry());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")); splitter && m_splitterChosen)
        QSettings().setValue(kSplitterKey, splitter->saveState());
    // The window goes at once; the worker ends within one batch and skips the test-set evaluation
    // that nothing would show.
    hide();
    m_controller->abandonAndWait();
    m_compare->stop();
    QMainWindow::closeEvent(event);
}

void MainWindow::showEvent(QShowEvent* event)
{
    if (!m_placed) {
        m_placed = true;
        placeOnScreen();
    }
    QMainWindow::showEvent(event);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    fitLog();
}

void MainWindow::fitLog()
{
    // The pages' size hints leave the log its minimum, three lines (two and a half show). A line more
    // for each 20 pixels of the window's height above 648 (the Runs page's table and chart need those
    // at 1152x648), up to six, unless the user divided the window: four whole lines on a 1280x720
    // screen, eight on a large one.
    auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter"));
    if (!splitter || m_splitterChosen)
        return;
    const int lines = std::clamp((height() - 648) / 20, 0, 6); // the window's layout has its new size
    const int log = m_run->minimumSizeHint().height() + lines * m_run->logView()->fontMetrics().lineSpacing();
    splitter->setSizes({std::max(splitter->height() - log, 1), log});
}

void MainWindow::placeOnScreen()
{
    QScreen* s = screen();
    if (!s)
        return;
    const QRect avail = s->availableGeometry();
    const QByteArray saved = QSettings().value(kGeometryKey).toByteArray();
    if (!saved.isEmpty() && restoreGeometry(saved) && avail.contains(frameGeometry().topLeft()) &&
        width() <= avail.width() && height() <= avail.height())
        return;
    // No saved geometry, or one from a bigger or another screen: 90% of this one at most, centred.
    const QSize want(std::min(1400, avail.width() * 9 / 10), std::min(900, avail.height() * 9 / 10));
    resize(want.expandedTo(minimumSizeHint()).boundedTo(avail.size()));
    move(avail.center() - QPoint(width() / 2, height() / 2));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    const QFileInfo fi(urls.first().toLocalFile());
    if (fi.suffix() == QLatin1String("tbw") || fi.suffix() == QLatin1String("safetensors"))
        openWeights(fi.absoluteFilePath());
    else if (fi.suffix() == QLatin1String("json"))
        m_model->openModelFile(fi.absoluteFilePath());
    else if (fi.isFile() && fi.fileName().contains(QLatin1String("ubyte")))
        m_dataset->load(fi.absolutePath(), DatasetPanel::Kind::Images); // an IDX file stands for its folder
    else                                                                // an IDX folder, or a text file or folder
        m_dataset->load(fi.absoluteFilePath(), DatasetPanel::Kind::FromPath);
    showPage(SetupPage);
    event->acceptProposedAction();
}

} // namespace tbui
