#include "panels/run_panel.hpp"

#include "common/elided_label.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "data/text_dataset.hpp"
#include "train/progress_text.hpp"

#include <algorithm>

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

#include <cmath>

namespace tbui {

namespace {
constexpr int kLogLines = 5000; // the log keeps the last ones
} // namespace

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent), m_start(new QPushButton(this)), m_pause(new QPushButton(this)), m_stop(new QPushButton(this)),
      m_progress(new QProgressBar(this)), m_runProgress(new QProgressBar(this)), m_stateLabel(new QLabel(this)),
      m_status(new ElidedLabel(Qt::ElideRight, this)), m_log(new QPlainTextEdit(this))
{
    m_start->setDefault(true);
    for (QProgressBar* bar : {m_progress, m_runProgress}) {
        bar->setRange(0, 1);
        bar->setValue(0);
        bar->setMinimumWidth(120);
    }
    m_stateLabel->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setMaximumBlockCount(kLogLines);
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a long warning whole, without scrolling sideways
    m_log->setMinimumHeight(m_log->fontMetrics().lineSpacing() * 3);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_runProgress, 1);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_stateLabel);
    statusRow->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addLayout(statusRow);
    layout->addWidget(m_log, 1);

    connect(m_start, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(m_pause, &QPushButton::clicked, this, [this] { emit pauseRequested(m_state != State::Paused); });
    connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    setRunning(false);
    retranslate();
}

void RunPanel::retranslate()
{
    m_start->setText(tr("Start"));
    m_stop->setText(tr("Stop"));
    if (m_statusText)
        m_status->setFullText(m_statusText());
    else
        setStatus([] { return tr("Ready."); });
    showState();
}

void RunPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rewriteLog();
    }
    QWidget::changeEvent(event);
}

void RunPanel::showState()
{
    m_pause->setText(m_state == State::Paused ? tr("Resume") : tr("Pause"));
    m_start->setEnabled(m_state == State::Idle && m_start->isEnabled());
    m_pause->setEnabled(m_state == State::Running || m_state == State::Paused);
    m_stop->setEnabled(m_state == State::Running || m_state == State::Paused);
    QString state;
    QString color = QStringLiteral("palette(window-text)");
    switch (m_state) {
    case State::Idle:
        break;
    case State::Running:
        state = tr("Training");
        break;
    case State::Paused:
        state = tr("Paused");
        color = QStringLiteral("#b9770e");
        break;
    case State::Stopping:
        state = tr("Stopping…");
        color = QStringLiteral("#c0392b");
        break;
    }
    m_stateLabel->setText(state);
    m_stateLabel->setVisible(!state.isEmpty());
    m_stateLabel->setStyleSheet(QStringLiteral("font-weight: bold; color: %1").arg(color));
    m_progress->setFormat(m_state == State::Paused ? tr("Paused — epoch: %v/%m steps")
                          : m_stepsPerEpoch > 0    ? tr("Epoch: %v/%m steps")
                                                   : tr("Epoch: no run yet"));
    m_runProgress->setFormat(tr("Run: %p%"));
    m_progress->setToolTip(tr("Steps of the current epoch"));
    m_runProgress->setToolTip(tr("Steps of the whole run"));
}

void RunPanel::setStatus(std::function<QString()> text)
{
    m_statusText = std::move(text);
    m_status->setFullText(m_statusText());
}

void RunPanel::setRunning(bool running)
{
    m_state = running ? State::Running : State::Idle;
    if (running) {
        m_start->setEnabled(false);
        // Until the run's first lines: an OpenCL device compiles its kernels meanwhile (40 s on PoCL).
        setStatus([] { return tr("Starting: reading the dataset and preparing the device…"); });
    }
    showState();
}

void RunPanel::setPaused(bool paused)
{
    if (m_state != State::Running && m_state != State::Paused)
        return;
    m_state = paused ? State::Paused : State::Running;
    showState();
    if (paused)
        setStatus([epoch = m_epoch, epochs = m_epochs, step = m_progress->value(), steps = m_progress->maximum()] {
            return tr("Paused at epoch %1/%2, step %3/%4; the clock is stopped too. Resume to go on.")
                .arg(epoch)
                .arg(epochs)
                .arg(step)
                .arg(steps);
        });
    else if (m_progressText)
        setStatus(m_progressText);
}

void RunPanel::setStopping()
{
    if (m_state != State::Running && m_state != State::Paused)
        return;
    m_state = State::Stopping;
    showState();
    setStatus(
        [] { return tr("Finishing the batch in flight, then the weights so far are evaluated on the test set."); });
}

void RunPanel::evaluatingTestSet(int images)
{
    m_testImages = images;
    // After the last epoch the test set's pass takes a while: the status says so, not "100%".
    if (m_state != State::Running && m_state != State::Stopping)
        return;
    const bool final = m_state == State::Running;
    setStatus([images, final, text = m_text] {
        const QString what = text ? (final ? tr("Evaluating the final weights on the %1 held-out sequences…")
                                           : tr("Evaluating the weights so far on the %1 held-out sequences…"))
                                  : (final ? tr("Evaluating the final weights on the %1 test images…")
                                           : tr("Evaluating the weights so far on the %1 test images…"));
        return what.arg(formatCount(images));
    });
}

void RunPanel::setStartEnabled(bool enabled, const QString& why)
{
    m_start->setEnabled(enabled && m_state == State::Idle);
    m_start->setToolTip(why);
    if (m_state != State::Idle)
        return;
    if (!why.isEmpty())
        setStatus([why] { return why; }); // the window sends it again in the new language
    else if (m_showingBlocker)
        setStatus([] { return tr("Ready."); });
    m_showingBlocker = !why.isEmpty();
}

void RunPanel::runStarted(const RunStarted& info)
{
    m_stepsPerEpoch = info.stepsPerEpoch;
    m_epochs = info.epochs;
    m_epoch = 0;
    m_finishedEpochSeconds = 0.0;
    m_runEta = -1.0;
    m_progressText = nullptr;
    m_progress->setRange(0, info.stepsPerEpoch);
    m_progress->setValue(0);
    showState(); // the epoch bar's text, now that it has steps
    m_runProgress->setRange(0, std::max(1, info.stepsPerEpoch * info.epochs));
    m_runProgress->setValue(0);
    m_config = info.config;
    m_text = info.data && info.data->isText();
    // The header is the engine's description, worded again when the language changes (it stayed in the
    // language of the run's start). One entry of the log, however many lines a language gives it: a
    // count taken at the start lost a line, or left one blank, in a language with more or fewer.
    appendLog([header = info.header] { return EngineText::runHeader(header); });
    if (!info.runFolder.isEmpty()) {
        const tb::TrainConfig& c = info.config;
        const QString folder = info.runFolder;
        const int epoch = info.resumedEpoch + 1, step = info.resumedStep + 1;
        if (!info.resumed)
            appendLog([folder] { return tr("Run folder %1").arg(folder); });
        else if (info.resumedEpoch >= c.epochs || (!info.history.empty() && info.history.back().stopped))
            appendLog([folder] { return tr("Run folder %1 (the run is complete)").arg(folder); });
        else if (tb::RunPosition{info.resumedEpoch, info.resumedStep}.inValidation(info.stepsPerEpoch))
            appendLog([folder, epoch] {
                return tr("Run folder %1 (resumed at epoch %2's validation)").arg(folder).arg(epoch);
            });
        else
            appendLog([folder, epoch, step] {
                return tr("Run folder %1 (resumed at epoch %2, step %3)").arg(folder).arg(epoch).arg(step);
            });
    }
    if (!info.datasetNote.isEmpty()) // as the CLI says it: what of the dataset could not be checked
        appendLog([note = info.datasetNote] { return tr("Note: %1").arg(EngineText::english(note)); });
    if (!info.curveNote.isEmpty()) // the checkpoint's per-batch curve is damaged: the charts' starts here
        appendLog([note = info.curveNote] { return tr("Note: %1").arg(EngineText::english(note)); });
    if (!info.ranOn.isEmpty()) // the accelerator panel moved it: another thread count or precision
        appendLog([ranOn = info.ranOn, device = qs(info.config.device.id())] {
            return tr("It ran on %1 until now; it continues on %2.").arg(ranOn, device);
        });
    const int64_t validation = info.validationImages;
    if (info.config.validationSplit > 0)
        appendLog([split = info.config.validationSplit, validation] {
            return tr("Validation: the last %1% of the training images (%2), held out; the test set is used at "
                      "the end only")
                .arg(split * 100, 0, 'g', 3)
                .arg(formatCount(validation));
        });
    else if (m_text) // the text's last part, which the Dataset calls its test split
        appendLog([validation] {
            return tr("Validation: the text's last part (%1 sequences), after each epoch").arg(formatCount(validation));
        });
    else
        appendLog([validation] {
            return tr("Validation: the test set (%1 images), after each epoch").arg(formatCount(validation));
        });
    // --validation-limit: of the held-out training images (the line above says the test set comes at
    // the end), or of the test set, which the end takes whole.
    if (const int limit = info.config.validationLimit; limit > 0 && limit < validation)
        appendLog([limit, heldOut = info.config.validationSplit > 0] {
            return (heldOut ? tr("Each epoch validates on the first %1 of them only")
                            : tr("Each epoch validates on the first %1 of them only; the test at the end takes "
                                 "them all"))
                .arg(formatCount(limit));
        });
    if (info.config.schedule.kind != tb::ScheduleKind::Constant)
        appendLog(
            [s = info.config.schedule] { return tr("Learning-rate schedule: %1").arg(EngineText::scheduleText(s)); });
    if (info.config.earlyStopping.enabled)
        appendLog([es = info.config.earlyStopping] {
            return tr("Early stopping: %1").arg(EngineText::earlyStoppingText(es));
        });
    if (m_state == State::Running)
        setStatus([replicas = info.replicas, batch = info.globalBatch] {
            return tr("Training: %n replica(s) in sync, global batch %1.", nullptr, replicas).arg(batch);
        });
}

void RunPanel::batchFinished(const tb::BatchProgress& p)
{
    announceEpoch(p.epoch);
    m_last = p;
    m_progress->setMaximum(p.steps);
    m_progress->setValue(p.step);
    // Compute time only (the engine leaves pauses out), so the ETAs do not grow while paused.
    const int64_t runSteps = int64_t(p.epochs) * p.steps;
    const int64_t runDone = int64_t(p.epoch - 1) * p.steps + p.step;
    m_runProgress->setMaximum(int(std::max<int64_t>(1, runSteps)));
    m_runProgress->setValue(int(runDone));
    const double eta = p.step > 0 ? p.epochElapsed / p.step * (p.steps - p.step) : 0.0;
    const double computed = m_finishedEpochSeconds + p.epochElapsed;
    // This epoch at its own pace, the epochs after it at the run's pace so far: never below the epoch's ETA.
    const double perStep = runDone > 0 ? computed / double(runDone) : 0.0;
    m_runEta = eta + perStep * double(int64_t(p.epochs - p.epoch) * p.steps);
    const int percent = runSteps > 0 ? int(100 * runDone / runSteps) : 0;
    if (p.step == p.steps) // the epoch's validation follows, a while on a slow device: not "ETA 0s"
        m_progressText = [p] { return tr("Epoch %1/%2 trained — validating…").arg(p.epoch).arg(p.epochs); };
    else
        m_progressText = [p, eta, percent, runEta = std::max(0.0, m_runEta)] {
            return tr("Epoch %1/%2 — step %3/%4 — ETA %5 — run %6% — run ETA %7 — %8 samples/s — loss %9 — "
                      "accuracy %10")
                .arg(p.epoch)
                .arg(p.epochs)
                .arg(p.step)
                .arg(p.steps)
                .arg(qs(tb::formatDuration(eta)))
                .arg(percent)
                .arg(qs(tb::formatDuration(runEta)))
                .arg(formatCount(std::llround(p.samplesPerSec)))
                .arg(formatNumber(p.loss, 4), formatNumber(p.accuracy, 4)); // prose: the locale's decimal sign
        };
    if (m_state == State::Running)
        setStatus(m_progressText);
    else if (m_state == State::Paused)
        setPaused(true); // the step the pause holds at
    if (p.step < p.steps)
        setProgressLine([p] { return progressLineText(p); });
}

namespace {
// "12/469 [=====>......]" of the engine's line: the counter and the bar, the same in every language.
QString counterAndBar(const std::string& engineLine)
{
    const QString line = qs(engineLine);
    const qsizetype end = line.indexOf(QLatin1Char(']'));
    return end < 0 ? line : line.left(end + 1);
}
} // namespace

// tb::progressLine and tb::epochLine (the CLI's Keras-style lines) in the window's language.
QString RunPanel::progressLineText(const tb::BatchProgress& p)
{
    const double perStep = p.step > 0 ? p.epochElapsed / p.step : 0.0;
    return tr("%1 - ETA: %2 - loss: %3 - accuracy: %4")
        .arg(counterAndBar(tb::progressLine(p)), qs(tb::formatDuration(perStep * (p.steps - p.step))))
        .arg(formatNumber(p.loss, 4))
        .arg(formatNumber(p.accuracy, 4));
}

QString RunPanel::epochLineText(const tb::EpochRecord& r, int steps)
{
    const double msPerStep = steps > 0 ? 1000.0 * r.seconds / steps : 0.0;
    return tr("%1 - %2 %3ms/step - loss: %4 - accuracy: %5 - val_loss: %6 - val_accuracy: %7")
        .arg(counterAndBar(tb::epochLine(r, steps)), qs(tb::formatDuration(r.seconds)))
        .arg(formatNumber(msPerStep, 0))
        .arg(formatNumber(r.loss, 4))
        .arg(formatNumber(r.accuracy, 4))
        .arg(formatNumber(r.valLoss, 4))
        .arg(formatNumber(r.valAccuracy, 4));
}

void RunPanel::announceEpoch(int epoch)
{
    if (epoch == m_epoch)
        return;
    m_epoch = epoch;
    appendLog([epoch, epochs = m_epochs] { return tr("Epoch %1/%2").arg(epoch).arg(epochs); });
}

void RunPanel::epochFinished(const tb::EpochRecord& r)
{
    announceEpoch(r.epoch); // resumed in its validation: no step said which epoch
    m_finishedEpochSeconds += r.seconds;
    // The epoch's line; as the CLI, with the learning rate where a schedule moves it.
    setProgressLine(
        [r, steps = m_stepsPerEpoch, text = m_text, rate = m_config.schedule.kind != tb::ScheduleKind::Constant] {
            QString line = epochLineText(r, steps);
            if (text)
                line += tr(" - bpc: %1 - val_bpc: %2")
                            .arg(formatNumber(tb::bitsPerSymbol(r.loss), 4))
                            .arg(formatNumber(tb::bitsPerSymbol(r.valLoss), 4));
            if (rate)
                line += tr(" - learning_rate: %1").arg(QLocale().toString(r.learningRate, 'g', 4));
            return line;
        });
    m_progressLinePending = false;
    // The callbacks' decisions, in Keras' words (tb::callbackLines, the CLI's, in the window's language).
    if (r.rateLowered)
        appendLog([epoch = r.epoch, lowered = tb::loweredRate(r, m_config.schedule)] {
            return tr("Epoch %1: ReduceLROnPlateau reducing learning rate to %2.")
                .arg(epoch)
                .arg(QLocale().toString(lowered, 'g', 4));
        });
    if (r.best && m_config.earlyStopping.enabled) {
        const bool loss = m_config.earlyStopping.monitor == tb::Monitor::ValLoss;
        appendLog([epoch = r.epoch, monitor = qs(tb::monitorName(m_config.earlyStopping.monitor)),
                   value = loss ? r.valLoss : r.valAccuracy] {
            return tr("Epoch %1: %2 improved to %3, the best epoch so far.")
                .arg(epoch)
                .arg(monitor)
                .arg(formatNumber(value, 4));
        });
    }
    if (r.stopped)
        appendLog([epoch = r.epoch] { return tr("Epoch %1: early stopping").arg(epoch); });
}

void RunPanel::runFinished(const RunOutcome& o)
{
    m_progressLinePending = false;
    m_runEta = -1.0;
    if (!EngineText::batchNorm(o.preciseBn, o.batchNormWarmth).isEmpty())
        appendLog(
            [precise = o.preciseBn, warmth = o.batchNormWarmth] { return EngineText::batchNorm(precise, warmth); });
    switch (o.status) {
    case RunStatus::Completed:
        if (o.restoredBest)
            appendLog([epoch = o.bestEpoch] {
                return tr("Restoring model weights from the end of the best epoch: %1.").arg(epoch);
            });
        // The test accuracy as a percentage, as the status line and the Results, Compare and Runs pages
        // give it; the Keras-like epoch lines above keep the CLI's fractions.
        appendLog([loss = o.testLoss, accuracy = o.testAccuracy, sha = o.weightsSha256] {
            return tr("Test loss: %1 - test accuracy: %2 - weights sha256: %3")
                .arg(formatNumber(loss, 4), formatPercent(accuracy, 2), sha);
        });
        m_runProgress->setValue(m_runProgress->maximum());
        setStatus([a = o.testAccuracy] { return tr("Finished: test accuracy %1.").arg(formatPercent(a, 2)); });
        break;
    case RunStatus::Stopped:
        appendLog([accuracy = o.testAccuracy] {
            return tr("Stopped by the user; test accuracy of the weights so far: %1").arg(formatPercent(accuracy, 2));
        });
        if (!o.runFolder.isEmpty())
            appendLog([folder = o.runFolder] {
                return tr("The checkpoint is in %1; File > Resume run… continues the run.").arg(folder);
            });
        // Where the run stopped as its checkpoint and run.json say: the last progress heard can be a
        // step behind (throttled), which the bars would otherwise keep showing.
        if (o.stoppedEpoch > 0) {
            m_last.epoch = o.stoppedEpoch;
            m_last.step = o.stoppedStep;
            m_progress->setValue(o.stoppedStep);
            m_runProgress->setValue(int(std::min<int64_t>(
                m_runProgress->maximum(), int64_t(o.stoppedEpoch - 1) * m_stepsPerEpoch + o.stoppedStep)));
        }
        setStatus([epoch = m_last.epoch, step = m_last.step, a = o.testAccuracy] {
            return tr("Stopped at epoch %1, step %2; the weights so far are kept (test accuracy %3).")
                .arg(epoch)
                .arg(step)
                .arg(formatPercent(a, 2));
        });
        break;
    case RunStatus::Failed:
    case RunStatus::Diverged:
        appendLog([m = o.message] { return tr("Error: %1").arg(m); }); // the message in the language of then
        setStatus([m = o.message] { return tr("Failed: %1").arg(m); });
        break;
    case RunStatus::Running: // not outcomes
    case RunStatus::Interrupted:
        break;
    }
    m_last = {};
    setRunning(false);
}

void RunPanel::appendLog(const QString& line)
{
    appendLog([line] { return line; });
}

void RunPanel::appendLog(std::function<QString()> line)
{
    if (m_progressLinePending) {
        setProgressLine(std::move(line));
        m_progressLinePending = false;
        return;
    }
    addLine(std::move(line));
    showNewestLine();
}

void RunPanel::addLine(std::function<QString()> line)
{
    m_log->appendPlainText(line());
    m_logLines.push_back(std::move(line));
    if (m_logLines.size() > size_t(kLogLines)) // as the view drops its oldest block
        m_logLines.pop_front();
}

void RunPanel::rewriteLog()
{
    if (m_logLines.empty())
        return;
    QStringList lines;
    for (const std::function<QString()>& line : m_logLines)
        lines << line();
    m_log->setPlainText(lines.join(QLatin1Char('\n')));
    m_log->moveCursor(QTextCursor::End);
    showNewestLine();
}

// The last line in view from its start: following the cursor to the end of a long line (a warning,
// a hash) scrolled the pane sideways, and every line then read from the middle of a word.
void RunPanel::showNewestLine()
{
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    m_log->horizontalScrollBar()->setValue(0);
}

void RunPanel::setProgressLine(std::function<QString()> line)
{
    // The live progress line is rewritten in place, as the CLI does on a terminal.
    if (m_progressLinePending && !m_logLines.empty()) {
        QTextCursor c(m_log->document()->lastBlock());
        c.select(QTextCursor::BlockUnderCursor);
        c.movePosition(QTextCursor::StartOfBlock);
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        c.insertText(line());
        m_logLines.back() = std::move(line);
    } else {
        addLine(std::move(line));
        m_progressLinePending = true;
    }
    m_log->moveCursor(QTextCursor::End);
    showNewestLine();
}

QString RunPanel::logText() const
{
    return m_log->toPlainText();
}
QString RunPanel::statusText() const
{
    return m_status->fullText();
}

} // namespace tbui
