// The Runs page: the runs folder as a history. A sortable table of every run (damaged ones too,
// with the reason), a chart that overlays the curves of the ticked runs, and the actions on the
// selected run: open its results, resume, delete, export its report. Reading the folder and writing
// a report run off the GUI thread.
#pragma once

#include "train/run_history.hpp"

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

    QString m_runsDir;
    std::vector<tb::RunSummary> m_runs;
    QString m_problem;
    QStringList m_ticked;
    QLabel* m_status;
    QTableWidget* m_table;
    QComboBox* m_metric;
    Chart* m_chart;
    QPushButton* m_refresh;
    QPushButton* m_open;
    QPushButton* m_resume;
    QPushButton* m_delete;
    QPushButton* m_report;
    int m_pending = 0;      // reads under way
    bool m_filling = false; // itemChanged from fill() is not the user's
    int m_chartSeries = 0;  // series made in m_chart so far (reused)
};

} // namespace tbui
