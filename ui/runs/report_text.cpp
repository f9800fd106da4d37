#include "runs/report_text.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "config/records.hpp"
#include "core/atomic_file.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

namespace tbui {

namespace {
QString translated(const char* english)
{
    return QCoreApplication::translate("RunReport", english);
}

// A number of the record ("12.5", "60000") in the window's locale; as it is when it is not one.
QString number(const QString& text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok)
        return text;
    return text.contains(QLatin1Char('.')) ? QLocale().toString(v, 'g', 15) : QLocale().toString(qlonglong(v));
}

// A figure as the engine prints it ("0.3344", "86.77%", "12.5 s") with the window's decimal sign and
// percent ("86,77 %" in Spanish), as the window writes its own (tb::ReportLanguage::number).
QString figure(QString printed)
{
    const bool percent = printed.endsWith(QLatin1Char('%'));
    if (percent)
        printed.chop(1);
    printed.replace(QLatin1Char('.'), QLocale().decimalPoint());
    return percent ? percentOf(printed) : printed;
}
} // namespace

QString ReportText::value(const tb::RunSummary& run, const QString& label, const QString& english)
{
    if (label == QLatin1String("Status")) {
        static const char* const kStatuses[][2] = {
            {"running", QT_TRANSLATE_NOOP("RunReport", "running")},
            {"completed", QT_TRANSLATE_NOOP("RunReport", "completed")},
            {"stopped", QT_TRANSLATE_NOOP("RunReport", "stopped")},
            {"diverged", QT_TRANSLATE_NOOP("RunReport", "diverged")},
            {"failed", QT_TRANSLATE_NOOP("RunReport", "failed")},
            {"interrupted", QT_TRANSLATE_NOOP("RunReport", "interrupted")},
            {"interrupted, no checkpoint (cannot resume)",
             QT_TRANSLATE_NOOP("RunReport", "interrupted, no checkpoint (cannot resume)")},
        };
        for (const auto& [name, text] : kStatuses)
            if (english == QLatin1String(name))
                return translated(text);
        return english;
    }
    // The settings a version 3 record keeps typed, worded as the Run page words them.
    if (label == QLatin1String("Schedule") && run.config && english == qs(tb::describeLrSchedule(run.config->schedule)))
        return EngineText::scheduleText(run.config->schedule);
    if (label == QLatin1String("Early stopping") && run.config &&
        english == qs(tb::describeEarlyStopping(run.config->earlyStopping)))
        return EngineText::earlyStoppingText(run.config->earlyStopping);
    // Each phrase's source is the engine's English, so that an English window's report is the CLI's.
    if (english == QLatin1String("true"))
        return translated(QT_TRANSLATE_NOOP("RunReport", "true"));
    if (english == QLatin1String("false"))
        return translated(QT_TRANSLATE_NOOP("RunReport", "false"));
    if (english == QLatin1String("test set"))
        return translated(QT_TRANSLATE_NOOP("RunReport", "test set"));
    if (english == QLatin1String("the text's last part, held out"))
        return translated(QT_TRANSLATE_NOOP("RunReport", "the text's last part, held out"));
    if (english == QLatin1String("bf16 (bfloat16 products, FP32 accumulation)"))
        return translated(QT_TRANSLATE_NOOP("RunReport", "bf16 (bfloat16 products, FP32 accumulation)"));
    struct Pattern {
        QRegularExpression english;
        const char* text;
    };
    static const Pattern kPatterns[] = {
        {QRegularExpression(QStringLiteral("^last ([0-9.]+)% of train$")),
         QT_TRANSLATE_NOOP("RunReport", "last %1% of train")},
        {QRegularExpression(QStringLiteral("^the first (\\d+) samples each epoch$")),
         QT_TRANSLATE_NOOP("RunReport", "the first %1 samples each epoch")},
        {QRegularExpression(QStringLiteral("^BatchNorm statistics recomputed over (\\d+) training batches after "
                                           "training$")),
         QT_TRANSLATE_NOOP("RunReport", "BatchNorm statistics recomputed over %1 training batches after training")},
        {QRegularExpression(QStringLiteral("^(\\d+) train, (\\d+) test, (\\d+)x(\\d+), (\\d+) classes$")),
         QT_TRANSLATE_NOOP("RunReport", "%1 train, %2 test, %3x%4, %5 classes")},
        {QRegularExpression(QStringLiteral("^(\\d+) train, (\\d+) held out \\(the text's last part\\), of (\\d+) "
                                           "symbols, a vocabulary of (\\d+)$")),
         QT_TRANSLATE_NOOP("RunReport",
                           "%1 train, %2 held out (the text's last part), of %3 symbols, a vocabulary of %4")},
    };
    for (const Pattern& p : kPatterns) {
        const QRegularExpressionMatch m = p.english.match(english);
        if (!m.hasMatch())
            continue;
        QString out = translated(p.text);
        // A count as the record writes it; the share's decimal point in the window's locale.
        for (int k = 1; k <= m.lastCapturedIndex(); ++k)
            out = out.arg(&p == &kPatterns[0] ? number(m.captured(k)) : m.captured(k));
        return out;
    }
    if (label == QLatin1String("Earlier devices")) { // "cpu:1 (to epoch 2, step 12); cpu:2 (to the end of epoch 3)"
        static const QRegularExpression step(QStringLiteral("\\(to epoch (\\d+), step (\\d+)\\)"));
        static const QRegularExpression end(QStringLiteral("\\(to the end of epoch (\\d+)\\)"));
        QString out = english;
        // Each match replaced once, the search going on after its replacement: an English (or
        // untranslated) replacement matches again, and searching from the start never ended.
        const auto replaceAll = [&out](const QRegularExpression& pattern, const char* phrase) {
            QRegularExpressionMatch m;
            for (qsizetype from = 0; (m = pattern.match(out, from)).hasMatch();) {
                QString text = translated(phrase);
                for (int k = 1; k <= m.lastCapturedIndex(); ++k)
                    text = text.arg(m.captured(k));
                out.replace(m.capturedStart(), m.capturedLength(), text);
                from = m.capturedStart() + text.size();
            }
        };
        replaceAll(step, QT_TRANSLATE_NOOP("RunReport", "(to epoch %1, step %2)"));
        replaceAll(end, QT_TRANSLATE_NOOP("RunReport", "(to the end of epoch %1)"));
        return out;
    }
    return EngineText::english(english);
}

tb::ReportLanguage ReportText::language(const tb::RunSummary& run)
{
    tb::ReportLanguage language;
    language.lang = ss(QLocale().bcp47Name());
    language.phrase = [](const char* english) { return ss(translated(english)); };
    language.value = [run](const std::string& label, const std::string& english) {
        return ss(value(run, qs(label), qs(english)));
    };
    language.number = [](const std::string& printed) { return ss(figure(qs(printed))); };
    return language;
}

void ReportText::translate(tb::ReportInput& in)
{
    in.testMissing = ss(EngineText::english(qs(in.testMissing)));
    in.weightsFileProblem =
        in.weightsFileProblem == "the run folder holds no weights.tbw (the run did not complete)"
            ? ss(translated(QT_TRANSLATE_NOOP("RunReport", "the run folder holds no weights.tbw (the run "
                                                           "did not complete)")))
            : ss(EngineText::english(qs(in.weightsFileProblem)));
    if (in.test) { // a known dataset's class names, as the Results page shows them
        const std::vector<std::string> english = in.test->classNames;
        for (int c = 0; c < int(english.size()); ++c)
            in.test->classNames[size_t(c)] = ss(className(english, c));
    }
}

void ReportText::write(const std::string& runPath, const std::string& outPath)
{
    tb::ReportInput in = tb::readReportInput(runPath);
    translate(in);
    tb::writeFileAtomically(outPath, tb::runReportHtml(in, language(in.run)));
}

} // namespace tbui
