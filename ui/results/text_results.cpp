#include "results/text_results.hpp"

#include "common/text.hpp"
#include "data/text_dataset.hpp"
#include "results/results_panel.hpp"

#include <algorithm>
#include <numeric>

#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>

namespace tbui {

TextResultsModel TextResultsModel::of(const tb::Dataset& data, const tb::EvalResult& eval, int frequentCount)
{
    TextResultsModel m;
    const int classes = data.numClasses;
    const size_t n = std::min(eval.predicted.size(), data.test.labels.size());
    m.expected.assign(data.test.labels.begin(), data.test.labels.begin() + std::ptrdiff_t(n));
    m.predicted.assign(eval.predicted.begin(), eval.predicted.begin() + std::ptrdiff_t(n));
    std::vector<int64_t> counts(size_t(classes), 0);
    for (size_t i = 0; i < n; ++i) {
        ++counts[size_t(m.expected[i])];
        if (m.expected[i] != m.predicted[i]) {
            Mistake k;
            k.position = int(i);
            k.expected = m.expected[i];
            k.predicted = m.predicted[i];
            if (i < eval.confidence.size())
                k.confidence = eval.confidence[i];
            m.mistakes.push_back(k);
        }
    }
    m.wrong = int(m.mistakes.size());
    std::stable_sort(m.mistakes.begin(), m.mistakes.end(),
                     [](const Mistake& a, const Mistake& b) { return a.confidence > b.confidence; });
    std::vector<int> ids(static_cast<size_t>(classes));
    std::iota(ids.begin(), ids.end(), 0);
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return counts[size_t(a)] > counts[size_t(b)]; });
    for (int id : ids)
        if (int(m.frequent.size()) < frequentCount && counts[size_t(id)] > 0)
            m.frequent.push_back(id);
    const int f = int(m.frequent.size());
    std::vector<int> row(size_t(classes), -1);
    for (int r = 0; r < f; ++r)
        row[size_t(m.frequent[size_t(r)])] = r;
    m.confusion.assign(size_t(f) * size_t(f + 1), 0);
    for (size_t i = 0; i < n; ++i) {
        const int r = row[size_t(m.expected[i])];
        if (r < 0)
            continue;
        const int c = row[size_t(m.predicted[i])];
        ++m.confusion[size_t(r) * size_t(f + 1) + size_t(c < 0 ? f : c)];
    }
    return m;
}

TextResults::TextResults(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_textTitle(new QLabel(this)), m_mistakesTitle(new QLabel(this)),
      m_confusionTitle(new QLabel(this)), m_text(new QTextEdit(this)), m_mistakes(new QTableWidget(0, 4, this)),
      m_confusion(new QTableWidget(this))
{
    for (QLabel* title : {m_textTitle, m_mistakesTitle, m_confusionTitle})
        title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_summary->setWordWrap(true);
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    for (QTableWidget* t : {m_mistakes, m_confusion}) {
        t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setSelectionMode(QAbstractItemView::NoSelection);
    }
    m_mistakes->verticalHeader()->hide();
    m_mistakes->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_mistakes->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_mistakes->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_confusion->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_confusion->horizontalHeader()->setMinimumSectionSize(24);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_summary, 0, 0, 1, 2);
    grid->addWidget(m_textTitle, 1, 0);
    grid->addWidget(m_text, 2, 0, 3, 1);
    grid->addWidget(m_mistakesTitle, 1, 1);
    grid->addWidget(m_mistakes, 2, 1);
    grid->addWidget(m_confusionTitle, 3, 1);
    grid->addWidget(m_confusion, 4, 1);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    grid->setRowStretch(2, 1);
    grid->setRowStretch(4, 1);
    retranslate();
}

void TextResults::retranslate()
{
    m_textTitle->setText(tr("The held-out text; the characters the model predicted wrong in red"));
    m_mistakesTitle->setText(tr("The most confident mistakes"));
    m_confusionTitle->setText(tr("Confusion of the most frequent characters (rows: true, columns: predicted)"));
    m_mistakes->setHorizontalHeaderLabels({tr("Context"), tr("True"), tr("Predicted"), tr("Confidence")});
    fill();
}

void TextResults::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString TextResults::summaryText() const
{
    return m_summary->text();
}

void TextResults::setResults(const DatasetPtr& data, const EvalPtr& eval)
{
    m_data = data;
    m_eval = eval;
    m_model = data && eval ? TextResultsModel::of(*data, *eval) : TextResultsModel();
    m_symbols = data ? tb::vocabularyOf(*data).symbols : std::vector<std::string>();
    fill();
}

void TextResults::clear()
{
    setResults(nullptr, nullptr);
}

QString TextResults::symbolText(int id) const
{
    if (id < 0 || size_t(id) >= m_symbols.size())
        return QStringLiteral("?");
    return qs(tb::symbolLabel(m_symbols[size_t(id)]));
}

// The held-out text from symbol `begin` to `end`, its bytes joined into characters (a byte-level
// model's UTF-8), spaces and line ends as signs. A character cut at `begin` shows as "�".
QString TextResults::contextText(int begin, int end) const
{
    std::string bytes;
    for (int p = begin; p < end; ++p)
        bytes += m_symbols[size_t(m_model.expected[size_t(p)])];
    QString t = QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
    t.replace(QLatin1Char('\n'), QStringLiteral("↵")).replace(QLatin1Char(' '), QStringLiteral("␣"));
    t.replace(QLatin1Char('\t'), QStringLiteral("⇥"));
    return t;
}

void TextResults::fill()
{
    const TextResultsModel& m = m_model;
    m_text->clear();
    m_mistakes->setRowCount(0);
    m_confusion->clear();
    m_confusion->setRowCount(0);
    m_confusion->setColumnCount(0);
    if (m.expected.empty()) {
        m_summary->setText(tr("Results appear after the first epoch."));
        return;
    }
    const bool bytes = m_data && m_data->textVocabulary == "bytes";
    m_summary->setText((bytes ? tr("%1 of %2 held-out bytes predicted wrong (next-byte accuracy %3%).")
                              : tr("%1 of %2 held-out characters predicted wrong (next-character accuracy %3%)."))
                           .arg(formatCount(m.wrong), formatCount(int64_t(m.expected.size())))
                           .arg(formatNumber(100.0 * (1.0 - double(m.wrong) / double(m.expected.size())), 1)));

    // The held-out text: each symbol as the text has it, the wrong ones on red. Bytes of one UTF-8
    // character are joined before they are shown.
    QTextCursor c(m_text->document());
    QTextCharFormat right;
    QTextCharFormat wrong;
    wrong.setBackground(QColor(0xfa, 0xd4, 0xd4));
    wrong.setForeground(ResultsPanel::kWrongColor);
    wrong.setFontWeight(QFont::Bold);
    const size_t shown = std::min(m.expected.size(), size_t(kShownSymbols));
    std::string run;
    bool runWrong = false;
    auto flush = [&] {
        if (!run.empty())
            c.insertText(QString::fromUtf8(run.data(), qsizetype(run.size())), runWrong ? wrong : right);
        run.clear();
    };
    for (size_t i = 0; i < shown; ++i) {
        const bool isWrong = m.expected[i] != m.predicted[i];
        const auto lead = run.empty() ? 0 : static_cast<unsigned char>(m_symbols[size_t(m.expected[i])].front());
        const bool continuation = !run.empty() && (lead & 0xc0) == 0x80;
        if (!continuation && isWrong != runWrong)
            flush();
        if (!continuation)
            runWrong = isWrong;
        else
            runWrong = runWrong || isWrong;
        run += m_symbols[size_t(m.expected[i])];
    }
    flush();
    m_text->moveCursor(QTextCursor::Start);

    // The mistakes: 12 symbols of context before, the true and the predicted symbol.
    const int rows = std::min(int(m.mistakes.size()), kListedMistakes);
    m_mistakes->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const TextResultsModel::Mistake& k = m.mistakes[size_t(r)];
        auto* ctx = new QTableWidgetItem(contextText(std::max(0, k.position - 12), k.position));
        ctx->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* truth = new QTableWidgetItem(symbolText(k.expected));
        auto* guess = new QTableWidgetItem(symbolText(k.predicted));
        guess->setForeground(ResultsPanel::kWrongColor);
        auto* conf = new QTableWidgetItem(formatPercent(k.confidence, 1));
        conf->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_mistakes->setItem(r, 0, ctx);
        m_mistakes->setItem(r, 1, truth);
        m_mistakes->setItem(r, 2, guess);
        m_mistakes->setItem(r, 3, conf);
    }

    // The confusion of the frequent symbols, each cell shaded by its share of the row.
    const int f = int(m.frequent.size());
    m_confusion->setRowCount(f);
    m_confusion->setColumnCount(f + 1);
    QStringList labels;
    for (int id : m.frequent)
        labels << symbolText(id);
    m_confusion->setVerticalHeaderLabels(labels);
    m_confusion->setHorizontalHeaderLabels(labels << tr("other"));
    for (int r = 0; r < f; ++r) {
        int total = 0;
        for (int col = 0; col <= f; ++col)
            total += m.confusion[size_t(r) * size_t(f + 1) + size_t(col)];
        for (int col = 0; col <= f; ++col) {
            const int v = m.confusion[size_t(r) * size_t(f + 1) + size_t(col)];
            auto* item = new QTableWidgetItem(v ? QString::number(v) : QString());
            item->setTextAlignment(Qt::AlignCenter);
            const double share = total ? double(v) / total : 0.0;
            const QColor base = r == col ? QColor(0x2c, 0x7b, 0xb6) : ResultsPanel::kWrongColor;
            QColor shade = base;
            shade.setAlphaF(float(0.08 + 0.85 * share));
            if (v)
                item->setBackground(shade);
            if (share > 0.55)
                item->setForeground(Qt::white);
            m_confusion->setItem(r, col, item);
        }
    }
}

} // namespace tbui
