// The Compare page: tick the devices (cpu:N in FP32 beside cpu:N+bf16 too), run the same model from
// the same initial weights on each in turn (optionally sweeping the batch or the image size), and read
// the table and the chart of time per epoch and speed-up. Stop keeps the rows that finished; both export (CSV, PNG).
#pragma once

#include "compare/compare_worker.hpp"

#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace tbui {

class Chart;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    // `request` gives the dataset, model and training settings from the Setup page, or an error.
    using RequestSource = std::function<QString(CompareRequest&)>;
    ComparePanel(const tb::SystemInfo& system, RequestSource source, QWidget* parent = nullptr);
    ~ComparePanel() override;

    std::vector<tb::DeviceSpec> selectedDevices() const;
    void setDeviceChecked(const QString& id, bool checked);
    void setSweep(tb::SweepKind kind, const QString& values);
    // A text model has no image size: the size sweep is greyed, with the reason as its tooltip, and
    // none is chosen in its place.
    void setTextModel(bool text);
    QString start(); // empty when started, else why not
    void stop();
    bool isRunning() const { return m_thread.isRunning(); }

    const std::vector<tb::CompareRow>& rows() const { return m_rows; }
    QTableWidget* table() const { return m_table; }
    Chart* chart() const { return m_chart; }
    QString statusText() const;

    QString exportCsv(const QString& path);
    QString exportPng(const QString& path);

signals:
    void comparisonStarted();
    void comparisonFinished(bool stopped, QString error);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showSizeSweepTip(); // why the size sweep is greyed, for a text model
    // Shows the status line, kept as a function of the language: a switch of language says it again.
    void setStatus(std::function<QString()> text);
    void onDeviceStarted(int row, int rows, const tb::CompareRow& pending);
    void onBatch(int row, const tb::BatchProgress& p);
    void onDeviceFinished(int row, const tb::CompareRow& r);
    void onFinished(bool stopped, const QString& error);
    void fillRow(int row, const tb::CompareRow& r);
    void exportWithDialog(const QString& title, const QString& name, const QString& filter,
                          QString (ComparePanel::*save)(const QString&));

    tb::SystemInfo m_system;
    RequestSource m_source;
    QLabel* m_title;
    QLabel* m_help;
    std::vector<std::pair<QCheckBox*, tb::DeviceSpec>> m_devices;
    QLabel* m_sweepLabel;
    QComboBox* m_sweepKind;
    QLineEdit* m_sweepValues;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_exportCsv;
    QPushButton* m_exportPng;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    Chart* m_chart;
    QLabel* m_bf16Note; // why the bf16 devices are unavailable, when they are
    bool m_textModel = false;
    WorkerThread m_thread;
    std::vector<tb::CompareRow> m_rows;
    tb::CompareSetup m_setup;                // of the rows: what they trained, for the CSV
    std::optional<tb::CompareRow> m_pending; // the device under way, its row half filled
    std::function<QString()> m_statusText;
    int m_totalRows = 0;
};

} // namespace tbui
