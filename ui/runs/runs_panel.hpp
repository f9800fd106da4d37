// The Runs page: the runs folder as a history. A sortable table of every run (damaged ones too,
// with the reason), a chart that overlays the curves of the ticked runs (their training loss and
// accuracy per batch too, from each run's checkpoint), and the actions on the
// selected run: open its results, resume, delete, export its report. Reading the folder and writing
// a report run off the GUI thread.
#pragma once

#include "train/run_curve.hpp"
#include "train/run_history.hpp"

#include <QMap>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace tbui {

class Chart;

class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QString runsDir, QWidget* parent = nullptr);

    QString runsDir() const { return m_runsDir; }
    // Reads the runs folder again in the background; listed() when the table is filled.
    void refresh();
    const std::vector<tb::RunSummary>& runs() const { return m_runs; }
    QTableWidget* table() const { return m_table; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* resumeButton() const { return m_resume; }
    Chart* chart() const { return m_chart; }
    // Under the chart: the ticked runs that have no per-batch line in it, and why (training loss and
    // accuracy only; empty otherwise).
    QString batchNote() const;
    // The chart's series of the `line`th ticked run: its epochs, its batches (in the tick order).
    static int epochSeries(int line) { return 2 * line + 1; }
    static int batchSeries(int line) { return 2 * line; }
    // The checkpoints read for the per-batch lines so far (each once, until the run changes).
    int checkpointReads() const { return m_checkpointReads; }
    QString problem() const; // the runs folder's, or empty

    // The selected run's folder, or empty.
    QString selectedRun() const;
    void selectRun(const QString& path);
    // Ticks the run's box: its curves join the chart.
    void setOverlaid(const QString& path, bool on);
    QStringList overlaid() const;
    // Which curve the chart overlays: 0 validation accuracy, 1 validation loss, 2 training loss,
    // 3 training accuracy, 4 epoch time.
    void setMetric(int metric);

    // Writes `run`'s report to `path` in the background; reportExported() says how it went.
    void exportReport(const QString& run, const QString& path);
    // Asks where, then exportReport.
    void askAndExportReport(const QString& run);
    // Asks, then deletes the run folder; empty on success, else the error (also shown).
    QString deleteRun(const QString& run, bool ask = true);

signals:
    void listed();
    void openResultsRequested(const QString& run);
    void resumeRequested(const QString& run);
    void reportExported(const QString& path, const QString& error); // error empty on success
    void message(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fill();
    void sizeColumns();
    void updateChart();
    void updateButtons();
    const tb::RunSummary* runAt(int row) const;
    // The run's per-batch curve once read, else null (and its read started, off the GUI thread).
    const tb::RunBatchCurve* batchCurve(const tb::RunSummary& run);

    QString m_runsDir;
    std::vector<tb::RunSummary> m_runs;
    QString m_problem;
    QStringList m_ticked;
    QLabel* m_status;
    QTableWidget* m_table;
    QComboBox* m_metric;
    Chart* m_chart;
    QLabel* m_batchNote;
    QPushButton* m_refresh;
    QPushButton* m_open;
    QPushButton* m_resume;
    QPushButton* m_delete;
    QPushButton* m_report;
    int m_pending = 0;      // reads under way
    bool m_filling = false; // itemChanged from fill() is not the user's
    int m_chartSeries = 0;  // pairs of series made in m_chart so far (reused): a run's epochs, its batches
    // The per-batch curves read, by run folder, with the state of the run they were read for (a run
    // trained on since is read again).
    struct CurveRead {
        QString runState;
        bool done = false;
        tb::RunBatchCurve curve;
    };
    QMap<QString, CurveRead> m_curves;
    int m_checkpointReads = 0;
};

} // namespace tbui
