// Run: Start, Pause/Resume and Stop; the epoch's progress and the whole run's, each with its ETA
// (compute time only: a pause does not count), samples/s; a status line that always says the
// run's state (running, paused, stopping and what it is finishing); and a log pane with the same
// Keras-like lines the CLI prints.
#pragma once

#include "common/value_types.hpp"

#include <QWidget>

#include <deque>
#include <functional>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace tbui {

class ElidedLabel;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);

    enum class State { Idle, Running, Paused, Stopping };

    void setRunning(bool running);
    void setPaused(bool paused);
    // Stop was asked for: the batch in flight finishes, then the weights are evaluated on the test set.
    void setStopping();
    void evaluatingTestSet(int images); // the stopped run's last step
    void setStartEnabled(bool enabled, const QString& why = {});

    void runStarted(const RunStarted& info);
    void batchFinished(const tb::BatchProgress& p);
    void epochFinished(const tb::EpochRecord& r);
    void runFinished(const RunOutcome& outcome);
    void appendLog(const QString& line); // a line that stays as it is (a text the model wrote)
    // A line in the window's language: a language switch writes it again.
    void appendLog(std::function<QString()> line);

    State state() const { return m_state; }
    QString logText() const;
    QString statusText() const;
    QPushButton* startButton() const { return m_start; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* stopButton() const { return m_stop; }
    QProgressBar* progressBar() const { return m_progress; }
    QProgressBar* runProgressBar() const { return m_runProgress; }
    QPlainTextEdit* logView() const { return m_log; }
    // Seconds of compute left in the run (the finished epochs' pace over the steps left); -1 unknown.
    double runEtaSeconds() const { return m_runEta; }

signals:
    void startRequested();
    void pauseRequested(bool paused);
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    static QString progressLineText(const tb::BatchProgress& p);
    static QString epochLineText(const tb::EpochRecord& r, int steps);

    void retranslate();
    void addLine(std::function<QString()> line); // to the view and to m_logLines, the two kept alike
    void setProgressLine(std::function<QString()> line);
    void rewriteLog(); // every line of the log again, in the window's language
    void showNewestLine();
    void showState();
    void announceEpoch(int epoch); // "Epoch N/M" in the log once, before the epoch's first line
    // The status line as a function of the run's values, so a language switch rewrites it.
    void setStatus(std::function<QString()> text);

    QPushButton* m_start;
    QPushButton* m_pause;
    QPushButton* m_stop;
    QProgressBar* m_progress;    // the epoch's steps
    QProgressBar* m_runProgress; // the run's steps
    QLabel* m_stateLabel;        // Ready / Training / Paused / Stopping…, bold
    ElidedLabel* m_status;
    QPlainTextEdit* m_log;
    std::deque<std::function<QString()>> m_logLines; // the log's lines, as functions of the run's values
    State m_state = State::Idle;
    bool m_showingBlocker = true;       // the status line says why Start is disabled
    bool m_progressLinePending = false; // the log's last line is a live progress line
    int m_stepsPerEpoch = 0, m_epoch = 0, m_epochs = 0, m_testImages = -1;
    double m_finishedEpochSeconds = 0.0; // compute time of the epochs done
    double m_runEta = -1.0;
    std::function<QString()> m_statusText;
    std::function<QString()> m_progressText; // the last progress status, shown again on resume
    tb::BatchProgress m_last;
    bool m_text = false;      // a text model: bits per character beside the loss, as the CLI
    tb::TrainConfig m_config; // of the run under way: what its log says about schedules and early stopping
};

} // namespace tbui
