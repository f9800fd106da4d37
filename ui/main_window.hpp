// The Trainbench window. It only assembles the panels (setup, run, charts, results, compare),
// wires them to the run controller and owns the menus and exports.
#pragma once

#include "common/value_types.hpp"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QActionGroup;
class QMenu;
class QMessageBox;
class QTabWidget;

namespace tbui {

class AcceleratorPanel;
class ChartsPanel;
struct CompareRequest;
class ComparePanel;
class DatasetPanel;
class HyperparametersPanel;
class ModelPanel;
class PredictPanel;
class ResultsPanel;
class RunController;
class RunPanel;
class RunsPanel;
class WritePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Where runs on an accelerator keep their compiled kernels (TrainConfig::kernelCacheDir; the
    // program's start-up reads the environment); empty: none.
    void setKernelCacheDir(std::string dir) { m_kernelCacheDir = std::move(dir); }
    ~MainWindow() override;

    DatasetPanel* datasetPanel() const { return m_dataset; }
    ModelPanel* modelPanel() const { return m_model; }
    AcceleratorPanel* acceleratorPanel() const { return m_accelerator; }
    HyperparametersPanel* hyperparametersPanel() const { return m_hyper; }
    RunPanel* runPanel() const { return m_run; }
    ChartsPanel* chartsPanel() const { return m_charts; }
    ResultsPanel* resultsPanel() const { return m_results; }
    ComparePanel* comparePanel() const { return m_compare; }
    PredictPanel* predictPanel() const { return m_predict; }
    RunsPanel* runsPanel() const { return m_runs; }
    WritePanel* writePanel() const { return m_write; }
    RunController* runController() const { return m_controller; }
    QTabWidget* tabs() const { return m_tabs; }

    // Write (a text model writes) sits beside Predict (an image model classifies): both use a trained model.
    enum Page { SetupPage, TrainingPage, ResultsPage, ComparePage, PredictPage, WritePage, RunsPage };
    void showPage(Page page);

    // What to do about a run in progress when the window closes or Esc is pressed.
    enum class StopChoice { Continue, StopAndKeep, StopAndClose };
    // Asks (a modal box; its buttons are named continueRun, stopAndKeep and stopAndClose).
    StopChoice askStop(bool closing);
    // Esc and Run > Stop: asks first when a run is in progress.
    void confirmStop();

    // Why Start is not possible now, or empty.
    QString startBlocker() const;
    void startTraining();
    // File > Resume run…: continues the run in `folder` (a run folder with a checkpoint) on the
    // accelerator panel's device, on the loaded dataset or, when that is another, on the run's own.
    void resumeRun(const QString& folder);

    // Exports; each returns an empty string on success, else the error (also shown in the window).
    QString exportCharts(const QString& dir); // <chart>.png and <chart>.svg for every chart
    QString exportHistoryCsv(const QString& path);
    QString exportGrid(const QString& path, int maxTiles = 200);
    QString exportConfusion(const QString& path);
    QString saveWeights(const QString& path);
    // Loads a weights file and evaluates it on the current dataset in the background; the results
    // panels fill when done (evaluationFinished), or the error shows.
    // datasetDir: evaluate on that dataset folder (loaded in the background) rather than the loaded one.
    void openWeights(const QString& path, const QString& datasetDir = {});
    // The Runs page's Open results: the run's final weights on its own dataset.
    void openRunResults(const QString& runFolder);
    // File > Export report: the report of the last run, else of the run selected on the Runs page.
    QString reportRun() const;

    // The box that shows the last failed save or refused action (a warning the user must close), or null.
    QMessageBox* errorBox() const;

    const std::vector<tb::EpochRecord>& history() const { return m_history; }
    bool hasWeights() const { return m_weights != nullptr; }

signals:
    void evaluationFinished(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showResultsSource(std::function<QString()> source);
    void buildMenus();
    void placeOnScreen(); // the saved geometry, else a size that fits the screen, inside it
    void fitLog();        // the log's lines by the window's height, until the user divides it
    void retranslate();
    void updateStartState();
    void followModelKind();
    void restoreImageSettings();
    void onDatasetLoaded(const DatasetPtr& data);
    QString resumeBlocker() const;
    void beginRun(TrainRequest request, std::function<QString()> name);
    void onRunStarted(const RunStarted& info);
    void onEpochFinished(const tb::EpochRecord& r, const EvalPtr& validation);
    void onRunFinished(const RunOutcome& outcome);
    void reportError(const QString& message);
    // A warning box (window-modal, so it cannot go unseen): what failed, then why (the engine's
    // message); the status line says it too.
    void showError(const QString& lead, const QString& detail);
    QString setupBlocker() const; // what training and comparison both need: dataset and model
    void askAndSave(const QString& title, const QString& name, const QString& filter,
                    const std::function<QString(const QString&)>& save);
    QString compareRequest(CompareRequest& request) const;
    // An export's end: `done` in the status line, else `failed` and the error in a warning box.
    QString reportResult(const QString& error, const QString& done, const QString& failed);

    tb::SystemInfo m_system; // detected once
    DatasetPanel* m_dataset;
    ModelPanel* m_model;
    AcceleratorPanel* m_accelerator;
    HyperparametersPanel* m_hyper;
    RunPanel* m_run;
    ChartsPanel* m_charts;
    ResultsPanel* m_results;
    ComparePanel* m_compare;
    PredictPanel* m_predict;
    RunsPanel* m_runs;
    WritePanel* m_write;
    RunController* m_controller;
    QTabWidget* m_tabs;

    DatasetPtr m_runData; // the dataset the last run or evaluation used
    WeightsPtr m_weights;
    std::vector<tb::EpochRecord> m_history;
    RunStarted m_runInfo;
    tb::DeviceSpec m_runDevice;
    tb::TrainConfig m_runConfig;
    std::string m_kernelCacheDir;

    QMenu* m_fileMenu = nullptr;
    QMenu* m_runMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
    QActionGroup* m_languages = nullptr;
    bool m_placed = false;
    // The user's division of pages and log: from the settings, or the splitter dragged. Without it, the
    // log's lines follow the window's height (fitLog).
    bool m_splitterChosen = false;
    QPointer<QMessageBox> m_errorBox;
    // The Results page's source line and note, in the current language.
    std::function<QString()> m_resultsSource, m_resultsNote;
    // followModelKind: the text model's name (none for an image model).
    std::optional<std::string> m_textModel;
    // "tpu-mnist-cnn on cpu:2, started 05:12", for the results, Predict and Write pages, in the
    // current language.
    std::function<QString()> m_runName;
    struct Actions;
    Actions* m_act;
};

} // namespace tbui
