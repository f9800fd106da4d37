// Run: Start, Pause/Resume and Stop; a progress bar with step/total, ETA and samples/s; and a log
// pane with the same Keras-like lines the CLI prints.
#pragma once

#include "common/value_types.hpp"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace tbui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);

    void setRunning(bool running);
    void setPaused(bool paused);
    void setStartEnabled(bool enabled, const QString& why = {});

    void runStarted(const RunStarted& info);
    void batchFinished(const tb::BatchProgress& p);
    void epochFinished(const tb::EpochRecord& r);
    void runFinished(const RunOutcome& outcome);
    void appendLog(const QString& line);

    QString logText() const;
    QPushButton* startButton() const { return m_start; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* stopButton() const { return m_stop; }
    QProgressBar* progressBar() const { return m_progress; }

signals:
    void startRequested();
    void pauseRequested(bool paused);
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void setProgressLine(const QString& line);

    QPushButton* m_start;
    QPushButton* m_pause;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPlainTextEdit* m_log;
    bool m_running = false, m_paused = false;
    bool m_showingBlocker = true;  // the status line says why Start is disabled
    bool m_progressLinePending = false;  // the log's last line is a live progress line
    int m_stepsPerEpoch = 0, m_epoch = 0, m_epochs = 0;
};

}  // namespace tbui
