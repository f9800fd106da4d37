#include "panels/run_panel.hpp"

#include "common/text.hpp"
#include "train/progress_text.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace tbui {

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent),
      m_start(new QPushButton(this)),
      m_pause(new QPushButton(this)),
      m_stop(new QPushButton(this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)),
      m_log(new QPlainTextEdit(this))
{
    m_start->setDefault(true);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%v/%m"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setMaximumBlockCount(5000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_log, 1);

    connect(m_start, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(m_pause, &QPushButton::clicked, this, [this] { emit pauseRequested(!m_paused); });
    connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    setRunning(false);
    retranslate();
}

void RunPanel::retranslate()
{
    m_start->setText(tr("Start"));
    m_pause->setText(m_paused ? tr("Resume") : tr("Pause"));
    m_stop->setText(tr("Stop"));
    if (!m_running && m_status->text().isEmpty())
        m_status->setText(tr("Ready."));
}

void RunPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunPanel::setRunning(bool running)
{
    m_running = running;
    m_start->setEnabled(!running);
    m_pause->setEnabled(running);
    m_stop->setEnabled(running);
    if (!running)
        setPaused(false);
}

void RunPanel::setPaused(bool paused)
{
    m_paused = paused;
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (paused)
        m_status->setText(tr("Paused at epoch %1/%2, step %3/%4.")
                              .arg(m_epoch)
                              .arg(m_epochs)
                              .arg(m_progress->value())
                              .arg(m_progress->maximum()));
}

void RunPanel::setStartEnabled(bool enabled, const QString& why)
{
    m_start->setEnabled(enabled && !m_running);
    m_start->setToolTip(why);
    if (m_running)
        return;
    if (!why.isEmpty())
        m_status->setText(why);
    else if (m_showingBlocker)
        m_status->setText(tr("Ready."));
    m_showingBlocker = !why.isEmpty();
}

void RunPanel::runStarted(const RunStarted& info)
{
    m_stepsPerEpoch = info.stepsPerEpoch;
    m_epochs = info.epochs;
    m_epoch = 0;
    m_progress->setRange(0, info.stepsPerEpoch);
    m_progress->setValue(0);
    for (const QString& line : info.header.split(QLatin1Char('\n')))
        appendLog(line);
    m_status->setText(tr("Training: %1 replicas in sync, global batch %2.").arg(info.replicas).arg(info.globalBatch));
}

void RunPanel::batchFinished(const tb::BatchProgress& p)
{
    if (p.epoch != m_epoch) {
        m_epoch = p.epoch;
        appendLog(tr("Epoch %1/%2").arg(p.epoch).arg(p.epochs));
    }
    m_progress->setMaximum(p.steps);
    m_progress->setValue(p.step);
    const double eta = p.step > 0 ? p.epochElapsed / p.step * (p.steps - p.step) : 0.0;
    m_status->setText(tr("Epoch %1/%2 — step %3/%4 — ETA %5 — %6 samples/s — loss %7 — accuracy %8")
                          .arg(p.epoch)
                          .arg(p.epochs)
                          .arg(p.step)
                          .arg(p.steps)
                          .arg(qs(tb::formatDuration(eta)))
                          .arg(p.samplesPerSec, 0, 'f', 0)
                          .arg(p.loss, 0, 'f', 4)
                          .arg(p.accuracy, 0, 'f', 4));
    if (p.step < p.steps)
        setProgressLine(qs(tb::progressLine(p)));
}

void RunPanel::epochFinished(const tb::EpochRecord& r)
{
    setProgressLine(qs(tb::epochLine(r, m_stepsPerEpoch)));
    m_progressLinePending = false;
}

void RunPanel::runFinished(const RunOutcome& o)
{
    m_progressLinePending = false;
    switch (o.status) {
    case RunStatus::Completed:
        appendLog(tr("Test loss: %1 - test accuracy: %2 - weights sha256: %3")
                      .arg(o.testLoss, 0, 'f', 4)
                      .arg(o.testAccuracy, 0, 'f', 4)
                      .arg(o.weightsSha256));
        m_status->setText(tr("Finished: test accuracy %1.").arg(o.testAccuracy, 0, 'f', 4));
        break;
    case RunStatus::Stopped:
        appendLog(tr("Stopped by the user; test accuracy of the weights so far: %1").arg(o.testAccuracy, 0, 'f', 4));
        m_status->setText(tr("Stopped."));
        break;
    case RunStatus::Failed:
        appendLog(tr("Error: %1").arg(o.message));
        m_status->setText(tr("Failed: %1").arg(o.message));
        break;
    }
    setRunning(false);
}

void RunPanel::appendLog(const QString& line)
{
    if (m_progressLinePending) {
        setProgressLine(line);
        m_progressLinePending = false;
        return;
    }
    m_log->appendPlainText(line);
}

void RunPanel::setProgressLine(const QString& line)
{
    // The live progress line is rewritten in place, as the CLI does on a terminal.
    if (m_progressLinePending) {
        QTextCursor c(m_log->document()->lastBlock());
        c.select(QTextCursor::BlockUnderCursor);
        c.movePosition(QTextCursor::StartOfBlock);
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        c.insertText(line);
    } else {
        m_log->appendPlainText(line);
        m_progressLinePending = true;
    }
}

QString RunPanel::logText() const { return m_log->toPlainText(); }

}  // namespace tbui
