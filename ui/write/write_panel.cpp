#include "write/write_panel.hpp"

#include "common/elided_label.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/errors.hpp"
#include "data/text_dataset.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"
#include "predict/text_generator.hpp"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tbui {

namespace {
// The legend's bands: the probability the model gave the character, from unlikely to sure.
struct Band {
    double below;
    const char* color;
};
constexpr Band kBands[] = {{0.1, "#f4a582"}, {0.3, "#fddbc7"}, {0.6, "#fff7bc"}, {0.9, "#d9f0d3"}, {1.01, "#a6dba0"}};

// How many bytes the UTF-8 character starting with `lead` has (1 for a stray byte).
int utf8Length(unsigned char lead)
{
    if (lead >= 0xf0 && lead < 0xf8)
        return 4;
    if (lead >= 0xe0)
        return lead < 0xf0 ? 3 : 1;
    if (lead >= 0xc0)
        return 2;
    return 1;
}
} // namespace

QColor WritePanel::tint(double p)
{
    for (const Band& b : kBands)
        if (p < b.below)
            return QColor(QString::fromLatin1(b.color));
    return QColor(QString::fromLatin1(kBands[4].color));
}

WritePanel::WritePanel(QWidget* parent)
    : QWidget(parent), m_prompt(new QLineEdit(this)), m_length(new QSpinBox(this)),
      m_temperature(new QDoubleSpinBox(this)), m_seed(new QSpinBox(this)), m_write(new QPushButton(this)),
      m_stop(new QPushButton(this)), m_open(new QPushButton(this)), m_promptLabel(new QLabel(this)),
      m_lengthLabel(new QLabel(this)), m_temperatureLabel(new QLabel(this)), m_seedLabel(new QLabel(this)),
      m_legendTitle(new QLabel(this)), m_source(new ElidedLabel(Qt::ElideMiddle, this)), m_status(new QLabel(this)),
      m_error(new QLabel(this)), m_notice(new WeightsNotice(this)), m_output(new QTextEdit(this))
{
    m_length->setRange(1, 20000);
    m_length->setValue(400);
    m_length->setSingleStep(50);
    m_temperature->setRange(0.0, 3.0);
    m_temperature->setDecimals(2);
    m_temperature->setSingleStep(0.05);
    m_temperature->setValue(0.8);
    m_seed->setRange(0, 999999999);
    m_seed->setValue(7);
    for (QAbstractSpinBox* box :
         {static_cast<QAbstractSpinBox*>(m_length), static_cast<QAbstractSpinBox*>(m_temperature),
          static_cast<QAbstractSpinBox*>(m_seed)})
        box->setFocusPolicy(Qt::StrongFocus); // the wheel scrolls the page, not the value, until clicked
    m_promptLabel->setBuddy(m_prompt);
    m_lengthLabel->setBuddy(m_length);
    m_temperatureLabel->setBuddy(m_temperature);
    m_seedLabel->setBuddy(m_seed);
    m_write->setDefault(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_status->setWordWrap(true);
    m_output->setReadOnly(true);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(mono.pointSizeF() * 1.15);
    m_output->setFont(mono);
    m_output->setLineWrapMode(QTextEdit::WidgetWidth);
    m_output->setMinimumHeight(200);

    // Two columns of settings under the prompt, and the legend's title above its swatches: the page
    // narrows with the window (Spanish included) instead of widening it.
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_write);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    auto* controls = new QGridLayout;
    controls->addWidget(m_promptLabel, 0, 0);
    controls->addWidget(m_prompt, 0, 1, 1, 4);
    controls->addWidget(m_lengthLabel, 1, 0);
    controls->addWidget(m_length, 1, 1);
    controls->addWidget(m_temperatureLabel, 1, 2);
    controls->addWidget(m_temperature, 1, 3);
    controls->addWidget(m_seedLabel, 2, 0);
    controls->addWidget(m_seed, 2, 1);
    controls->addLayout(buttons, 2, 2, 1, 2);
    controls->setColumnStretch(4, 1); // the free width goes right of the settings, not into the boxes

    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(m_open);

    m_legendTitle->setWordWrap(true);
    auto* legend = new QHBoxLayout;
    for (int i = 0; i < 5; ++i) {
        auto* swatch = new QLabel(this);
        swatch->setStyleSheet(QStringLiteral("background: %1; color: black; padding: 1px 6px; border: 1px solid #999")
                                  .arg(QString::fromLatin1(kBands[i].color)));
        m_legend << swatch;
        legend->addWidget(swatch);
    }
    legend->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(sourceRow);
    layout->addWidget(m_notice);
    layout->addLayout(controls);
    layout->addWidget(m_error);
    layout->addWidget(m_legendTitle);
    layout->addLayout(legend);
    layout->addWidget(m_output, 1);
    layout->addWidget(m_status);

    connect(m_write, &QPushButton::clicked, this, &WritePanel::write);
    connect(m_prompt, &QLineEdit::returnPressed, this, &WritePanel::write);
    connect(m_stop, &QPushButton::clicked, this, &WritePanel::stop);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open the weights of a text model"), QString(),
                                                          tr("Weights (*.tbw *.safetensors);;All files (*)"));
        if (!path.isEmpty())
            openWeightsFile(path);
    });
    retranslate();
}

WritePanel::~WritePanel()
{
    if (m_stopFlag)
        m_stopFlag->store(true); // the generation in flight ends at its next symbol; its results are dropped
}

void WritePanel::retranslate()
{
    m_promptLabel->setText(tr("&Prompt:"));
    m_prompt->setPlaceholderText(tr("The text the model continues (empty: it starts a new line)"));
    m_lengthLabel->setText(tr("Len&gth:")); // Alt+L is the Language menu
    m_length->setSuffix(writesBytes() ? tr(" bytes") : tr(" characters"));
    m_length->setToolTip(tr("How many symbols the model writes after the prompt: characters, or bytes for a "
                            "byte-level model (a non-ASCII character is several bytes)"));
    m_temperatureLabel->setText(tr("&Temperature:"));
    m_temperature->setToolTip(tr("Divides the model's scores before sampling: 0 always takes the most likely "
                                 "character, 1 samples the model's own probabilities, higher is wilder"));
    m_seedLabel->setText(tr("&Seed:"));
    m_seed->setToolTip(tr("The same seed, prompt and settings write the same text"));
    m_write->setText(tr("Write"));
    m_stop->setText(tr("Stop"));
    m_open->setText(tr("Open weights…"));
    m_legendTitle->setText(tr("Tint: the probability the model gave each character"));
    const char* names[] = {QT_TR_NOOP("below 10%"), QT_TR_NOOP("10–30%"), QT_TR_NOOP("30–60%"), QT_TR_NOOP("60–90%"),
                           QT_TR_NOOP("90% or more")};
    for (int i = 0; i < m_legend.size(); ++i)
        m_legend[i]->setText(tr(names[i]));
    const QString source = !m_sourceFile.isEmpty() ? tr("weights file %1").arg(m_sourceFile)
                           : m_sourceText          ? m_sourceText()
                                                   : QString();
    m_source->setFullText(m_weights ? tr("Model: %1").arg(source)
                                    : tr("No text model yet: train one (a text dataset and a text preset in Setup) or "
                                         "open the weights of one."));
    m_notice->showFor(m_weights.get());
    if (m_statusText)
        m_status->setText(m_statusText());
    showState();
}

bool WritePanel::writesBytes() const
{
    try {
        return m_weights &&
               tb::TextVocabulary::fromClassNames(m_weights->classNames).kind == tb::TextVocabularyKind::Bytes;
    } catch (const tb::Error&) {
        return false; // not a text model's: Write says why when it is pressed
    }
}

void WritePanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void WritePanel::showState()
{
    m_write->setEnabled(m_weights && !m_writing);
    m_stop->setEnabled(m_writing);
    m_open->setEnabled(!m_writing);
}

void WritePanel::setStatus(std::function<QString()> text)
{
    m_statusText = std::move(text);
    m_status->setText(m_statusText ? m_statusText() : QString());
}

QString WritePanel::statusText() const
{
    return m_status->text();
}

QString WritePanel::sourceText() const
{
    return m_source->fullText();
}

QString WritePanel::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QString WritePanel::noticeText() const
{
    return m_notice->shown();
}

void WritePanel::setWeights(WeightsPtr weights, std::function<QString()> source)
{
    if (weights && !weights->spec.isText()) {
        // The last run trained an image model: that is the Predict page's; this page keeps what it had.
        return;
    }
    stop();
    m_weights = std::move(weights);
    m_sourceText = std::move(source);
    m_sourceFile.clear();
    m_error->hide();
    retranslate();
}

void WritePanel::setWeightsFromFile(WeightsPtr weights, const QString& path)
{
    const bool text = weights && weights->spec.isText();
    setWeights(std::move(weights), nullptr);
    if (text) {
        m_sourceFile = QFileInfo(path).fileName();
        retranslate();
    }
}

void WritePanel::openWeightsFile(const QString& path)
{
    struct Loaded {
        WeightsPtr weights;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, path] {
        const Loaded l = watcher->result();
        watcher->deleteLater();
        if (!l.error.isEmpty()) {
            m_error->setText(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), l.error));
            m_error->show();
            return;
        }
        if (!l.weights->spec.isText()) {
            m_error->setText(tr("%1 holds an image model (%2): it classifies pictures on the Predict page and cannot "
                                "write. Open the weights of a text model.")
                                 .arg(QFileInfo(path).fileName(), qs(l.weights->spec.name)));
            m_error->show();
            return;
        }
        setWeightsFromFile(l.weights, path);
    });
    watcher->setFuture(QtConcurrent::run([p = ss(path)] {
        Loaded l;
        try {
            l.weights = std::make_shared<const tb::WeightsFile>(tb::loadAnyWeights(p));
        } catch (const std::exception& e) {
            l.error = EngineText::of(e);
        }
        return l;
    }));
}

void WritePanel::write()
{
    if (!m_weights || m_writing)
        return;
    const int generation = ++m_generation;
    m_stopFlag = std::make_shared<std::atomic<bool>>(false);
    m_writing = true;
    m_generated.clear();
    m_partial.clear();
    m_partialProbability = 1.f;
    m_symbols = 0;
    m_probabilitySum = 0.0;
    m_error->hide();
    m_output->clear();
    // The prompt in bold and untinted: the model did not write it.
    QTextCursor c(m_output->document());
    QTextCharFormat bold;
    bold.setFontWeight(QFont::Bold);
    c.insertText(m_prompt->text(), bold);
    setStatus([] { return tr("Writing…"); });
    showState();

    tb::GenerateOptions g;
    g.prompt = ss(m_prompt->text());
    g.length = m_length->value();
    g.temperature = m_temperature->value();
    g.seed = uint64_t(m_seed->value());
    g.streams = 1;
    QPointer<WritePanel> self(this);
    const WeightsPtr weights = m_weights;
    const std::shared_ptr<std::atomic<bool>> stopFlag = m_stopFlag;
    // The worker owns its network; only value types come back, through queued calls.
    (void)QtConcurrent::run([self, weights, stopFlag, g, generation] {
        QString error;
        bool stopped = false;
        try {
            const tb::Network net = weights->buildNetwork();
            tb::TextGenerator gen(net, tb::TextVocabulary::fromClassNames(weights->classNames));
            gen.generate(
                g,
                [&](const tb::GeneratedSymbol& s) {
                    QMetaObject::invokeMethod(
                        self,
                        [self, generation, text = s.text, p = s.probability] {
                            if (self)
                                self->appendSymbol(generation, text, p);
                        },
                        Qt::QueuedConnection);
                },
                [&] { return stopped = stopFlag->load(); }); // a long prompt's reading stops too
        } catch (const std::exception& e) {
            error = EngineText::of(e);
        }
        QMetaObject::invokeMethod(
            self,
            [self, generation, error, stopped] {
                if (self)
                    self->finish(generation, error, stopped);
            },
            Qt::QueuedConnection);
    });
}

void WritePanel::stop()
{
    if (m_stopFlag)
        m_stopFlag->store(true);
    if (m_writing)
        setStatus([] { return tr("Stopping…"); });
}

void WritePanel::appendSymbol(int generation, const std::string& bytes, float probability)
{
    if (generation != m_generation)
        return;
    m_generated += bytes;
    ++m_symbols;
    m_probabilitySum += probability;
    // A byte-level model writes a non-ASCII character in several steps: show it once whole, tinted by
    // the probability of all its bytes together.
    m_partial += bytes;
    m_partialProbability *= probability;
    const auto lead = static_cast<unsigned char>(m_partial.front());
    const int need = utf8Length(lead);
    if (int(m_partial.size()) < need) {
        bool continuation = true;
        for (size_t i = 1; i < m_partial.size(); ++i)
            continuation = continuation && (static_cast<unsigned char>(m_partial[i]) & 0xc0) == 0x80;
        if (continuation)
            return;
    }
    QString text = QString::fromUtf8(m_partial.data(), qsizetype(m_partial.size()));
    QTextCharFormat f;
    f.setBackground(tint(m_partialProbability));
    f.setForeground(QColor(Qt::black));
    f.setToolTip(formatPercent(double(m_partialProbability), 1));
    m_partial.clear();
    m_partialProbability = 1.f;
    QTextCursor c(m_output->document());
    c.movePosition(QTextCursor::End);
    c.insertText(text, f);
    if (QScrollBar* bar = m_output->verticalScrollBar())
        bar->setValue(bar->maximum());
}

void WritePanel::finish(int generation, const QString& error, bool stopped)
{
    if (generation != m_generation)
        return;
    m_writing = false;
    if (!error.isEmpty()) {
        m_error->setText(tr("Could not write: %1").arg(error));
        m_error->show();
        setStatus(nullptr);
    } else {
        const double mean = m_symbols > 0 ? m_probabilitySum / m_symbols : 0.0;
        setStatus([n = m_symbols, length = m_length->value(), mean, stopped, bytes = writesBytes()] {
            const QString p = formatNumber(mean * 100.0, 1);
            if (stopped)
                return (bytes ? tr("Stopped after %1 of %2 bytes; mean probability %3%.")
                              : tr("Stopped after %1 of %2 characters; mean probability %3%."))
                    .arg(n)
                    .arg(length)
                    .arg(p);
            return (bytes ? tr("Wrote %1 bytes; mean probability %2%.")
                          : tr("Wrote %1 characters; mean probability %2%."))
                .arg(n)
                .arg(p);
        });
    }
    showState();
    emit writingFinished();
}

} // namespace tbui
