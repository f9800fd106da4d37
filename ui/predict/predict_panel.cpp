// PredictPanel (predict_panel.hpp).
#include "predict/predict_panel.hpp"

#include "charts/probability_bars.hpp"
#include "common/elided_label.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "io/weights_formats.hpp"
#include "predict/drawing_pad.hpp"
#include "predict/picture_reader.hpp"
#include "predict/predictor.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImageReader>
#include <QKeySequence>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <chrono>

namespace tbui {

// What a prediction task hands back to the page (values only).
struct PredictOutcome {
    tb::PreprocessResult pre;
    std::vector<float> probs; // empty without a model or for a blank picture
    double forwardMs = 0.0;
    QString error;
};

struct ModelLoad {
    WeightsPtr weights;
    std::shared_ptr<tb::Predictor> predictor;
    QString error;
};

namespace {

constexpr int kInputViewSide = 196; // 28x28 at 7x

PredictOutcome predict(const QImage& picture, const std::shared_ptr<tb::Predictor>& predictor,
                       tb::PreprocessOptions options, int height, int width)
{
    PredictOutcome out;
    try {
        out.pre = tb::preprocessImage(tb::toGray(toRgba(picture)), height, width, options);
        if (predictor && !out.pre.blank) {
            const auto start = std::chrono::steady_clock::now();
            out.probs = predictor->probabilities(out.pre.input);
            out.forwardMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        }
    } catch (const std::exception& e) {
        out.error = EngineText::of(e);
    }
    return out;
}

ModelLoad buildModel(WeightsPtr weights)
{
    ModelLoad out;
    try {
        out.predictor = std::make_shared<tb::Predictor>(*weights);
        out.weights = std::move(weights);
    } catch (const std::exception& e) {
        out.error = EngineText::of(e);
    }
    return out;
}

QImage toQImage(const tb::GrayImage& g)
{
    QImage img(g.width, g.height, QImage::Format_Grayscale8);
    for (int y = 0; y < g.height; ++y)
        std::memcpy(img.scanLine(y), g.pixels.data() + size_t(y) * size_t(g.width), size_t(g.width));
    return img;
}

} // namespace

PredictPanel::PredictPanel(QWidget* parent)
    : QWidget(parent), m_pad(new DrawingPad), m_inputView(new QLabel), m_inputCaption(new QLabel),
      m_bars(new ProbabilityBars), m_model(new QLabel), m_notice(new WeightsNotice), m_status(new ElidedLabel),
      m_openWeights(new QPushButton), m_openPicture(new QPushButton), m_paste(new QPushButton), m_undo(new QPushButton),
      m_clear(new QPushButton), m_brushLabel(new QLabel), m_brush(new QSlider(Qt::Horizontal)), m_invert(new QCheckBox),
      m_centre(new QCheckBox), m_topLabel(new QLabel), m_top(new QSpinBox)
{
    setAcceptDrops(true);
    m_model->setWordWrap(true);
    m_inputView->setFixedSize(kInputViewSide, kInputViewSide);
    m_inputView->setAlignment(Qt::AlignCenter);
    m_inputView->setStyleSheet(QStringLiteral("background: black; border: 1px solid gray;"));
    m_inputCaption->setWordWrap(true);
    m_inputCaption->setMaximumWidth(kInputViewSide + 40);
    m_brush->setRange(6, 60);
    m_brush->setValue(m_pad->brushSize());
    m_brush->setMaximumWidth(160);
    m_invert->setChecked(true);
    m_centre->setChecked(true);
    m_top->setRange(1, 10);
    m_top->setValue(10);

    auto* top = new QHBoxLayout;
    top->addWidget(m_model, 1);
    top->addWidget(m_openWeights);

    auto* padBox = new QVBoxLayout;
    padBox->addWidget(m_pad, 1);
    auto* tools = new QHBoxLayout;
    tools->addWidget(m_brushLabel);
    tools->addWidget(m_brush);
    tools->addWidget(m_undo);
    tools->addWidget(m_clear);
    tools->addStretch();
    padBox->addLayout(tools);
    auto* files = new QHBoxLayout;
    files->addWidget(m_openPicture);
    files->addWidget(m_paste);
    files->addStretch();
    padBox->addLayout(files);

    auto* inputBox = new QVBoxLayout;
    inputBox->addWidget(m_inputView, 0, Qt::AlignHCenter);
    inputBox->addWidget(m_inputCaption);
    inputBox->addSpacing(8);
    inputBox->addWidget(m_invert);
    inputBox->addWidget(m_centre);
    auto* topK = new QHBoxLayout;
    topK->addWidget(m_topLabel);
    topK->addWidget(m_top);
    topK->addStretch();
    inputBox->addLayout(topK);
    inputBox->addStretch();

    auto* row = new QHBoxLayout;
    row->addLayout(padBox, 4);
    row->addLayout(inputBox, 0);
    row->addWidget(m_bars, 4);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_notice);
    layout->addLayout(row, 1);
    layout->addWidget(m_status);

    connect(m_pad, &DrawingPad::changed, this, [this] {
        m_note.clear();
        m_pictureError.clear();
        m_undo->setEnabled(m_pad->canUndo());
        requestPrediction();
    });
    connect(m_brush, &QSlider::valueChanged, m_pad, &DrawingPad::setBrushSize);
    connect(m_undo, &QPushButton::clicked, m_pad, &DrawingPad::undo);
    connect(m_clear, &QPushButton::clicked, m_pad, &DrawingPad::clear);
    connect(m_invert, &QCheckBox::toggled, this, &PredictPanel::requestPrediction);
    connect(m_centre, &QCheckBox::toggled, this, &PredictPanel::requestPrediction);
    connect(m_top, &QSpinBox::valueChanged, this, &PredictPanel::requestPrediction);
    connect(m_openPicture, &QPushButton::clicked, this, [this] {
        QStringList patterns;
        for (const QByteArray& f : QImageReader::supportedImageFormats())
            patterns << QStringLiteral("*.") + QString::fromLatin1(f);
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a picture"), QString(),
                                         tr("Pictures (%1);;All files (*)").arg(patterns.join(QLatin1Char(' '))));
        if (!path.isEmpty())
            openPicture(path);
    });
    connect(m_paste, &QPushButton::clicked, this, &PredictPanel::pastePicture);
    auto* paste = new QShortcut(QKeySequence::Paste, this);
    paste->setContext(Qt::WidgetWithChildrenShortcut);
    connect(paste, &QShortcut::activated, this, &PredictPanel::pastePicture);
    auto* undo = new QShortcut(QKeySequence::Undo, this);
    undo->setContext(Qt::WidgetWithChildrenShortcut);
    connect(undo, &QShortcut::activated, m_pad, &DrawingPad::undo);
    connect(m_openWeights, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open trained weights"), QString(),
                                                          tr("Weights (*.tbw *.safetensors);;All files (*)"));
        if (!path.isEmpty())
            openWeightsFile(path);
    });
    m_undo->setEnabled(false);
    retranslate();
    requestPrediction();
}

PredictPanel::~PredictPanel() = default;

void PredictPanel::retranslate()
{
    m_openWeights->setText(tr("Open weights…"));
    m_openPicture->setText(tr("Open picture…"));
    m_paste->setText(tr("Paste"));
    m_undo->setText(tr("Undo"));
    m_clear->setText(tr("Clear"));
    m_brushLabel->setText(tr("Brush"));
    m_invert->setText(tr("Invert dark ink on light paper"));
    m_invert->setToolTip(tr("The datasets store white ink on black: a picture lighter at its border than "
                            "in its middle is inverted."));
    m_centre->setText(tr("Centre like MNIST"));
    m_centre->setToolTip(tr("Crop to the ink, fit it into 20×20 keeping its shape and put its centre of mass "
                            "in the middle of 28×28, as MNIST did. Off: the whole picture resized; one of other "
                            "proportions is trimmed of its margins and fitted, not stretched, as Fashion-MNIST's "
                            "pictures were."));
    m_topLabel->setText(tr("Classes shown"));
    m_pad->setToolTip(tr("Draw with the mouse, a pen or a finger; drop or paste a picture here."));
    m_bars->setTitle(tr("Most probable classes"));
    showModelText();
    if (!m_input.isNull() || !m_statusText.isEmpty())
        requestPrediction(); // captions and status in the new language
}

void PredictPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString PredictPanel::inputCaption() const
{
    return m_inputCaption->text();
}

QString PredictPanel::modelText() const
{
    return m_model->text();
}

QString PredictPanel::statusText() const
{
    return m_statusText;
}

QString PredictPanel::noticeText() const
{
    return m_notice->shown();
}

void PredictPanel::showModelText()
{
    m_notice->showFor(m_weights.get()); // a language switch calls this
    if (!m_predictor) {
        m_model->setText(tr("No model yet: train one (Setup, then Start) or open a weights file. Meanwhile the "
                            "page shows what a model would receive."));
        return;
    }
    m_model->setText(tr("Model: %1 — %2×%3 pictures, %4 classes")
                         .arg(m_source ? m_source() : QString())
                         .arg(m_predictor->inputHeight())
                         .arg(m_predictor->inputWidth())
                         .arg(m_predictor->classNames().size()));
}

void PredictPanel::setStatus(const QString& textIn, bool errorIn)
{
    // A picture that could not be opened is said until the drawing changes, whatever finishes meanwhile.
    const bool error = errorIn || !m_pictureError.isEmpty();
    const QString text = m_pictureError.isEmpty() || textIn == m_pictureError ? textIn : m_pictureError;
    m_statusText = text;
    m_statusError = error;
    m_status->setFullText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void PredictPanel::setWeights(WeightsPtr weights, std::function<QString()> source)
{
    if (!weights)
        return;
    if (weights->spec.isText()) {
        // A text run's weights, or a text model's file evaluated: the Write page's, and no error of this
        // page's. It keeps the image model it had, and says where the text model went.
        setStatus(m_predictor ? tr("A text model writes on the Write page; this page keeps predicting with %1.")
                                    .arg(m_source ? m_source() : QString())
                              : tr("A text model writes on the Write page; this page predicts with an image model: "
                                   "train one, or open its weights file."),
                  false);
        return;
    }
    useModel(buildModel(std::move(weights)), std::move(source));
}

void PredictPanel::useModel(const ModelLoad& load, std::function<QString()> source)
{
    if (!load.error.isEmpty()) {
        setStatus(tr("Could not use the model: %1").arg(load.error), true);
        return;
    }
    m_weights = load.weights;
    m_predictor = load.predictor;
    m_source = std::move(source);
    const int classes = int(m_predictor->classNames().size());
    m_top->setRange(1, classes);
    m_top->setValue(std::min(classes, 10));
    {
        const QSignalBlocker block(m_centre); // one prediction below, not two
        m_centre->setChecked(m_predictor->defaultOptions().centre);
    }
    showModelText();
    requestPrediction();
}

void PredictPanel::openWeightsFile(const QString& path)
{
    auto* watcher = new QFutureWatcher<ModelLoad>(this);
    connect(watcher, &QFutureWatcher<ModelLoad>::finished, this, [this, watcher, path] {
        const ModelLoad load = watcher->result();
        watcher->deleteLater();
        if (!load.error.isEmpty()) {
            setStatus(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), load.error), true);
            emit weightsOpened(false);
            return;
        }
        useModel(load, [file = QFileInfo(path).fileName()] { return tr("weights file %1").arg(file); });
        emit weightsOpened(true);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        try {
            return buildModel(std::make_shared<const tb::WeightsFile>(tb::loadAnyWeights(ss(path))));
        } catch (const std::exception& e) {
            ModelLoad out;
            out.error = EngineText::of(e);
            return out;
        }
    }));
}

void PredictPanel::openPicture(const QString& path)
{
    auto* watcher = new QFutureWatcher<PictureLoad>(this);
    connect(watcher, &QFutureWatcher<PictureLoad>::finished, this, [this, watcher, path] {
        const PictureLoad load = watcher->result();
        watcher->deleteLater();
        usePicture(load, QFileInfo(path).fileName());
    });
    watcher->setFuture(QtConcurrent::run([path] { return readPictureFile(path); }));
}

void PredictPanel::pastePicture()
{
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    if (mime && mime->hasImage()) {
        usePicture(checkPicture(qvariant_cast<QImage>(mime->imageData()), tr("The pasted picture")),
                   tr("the pasted picture"));
    } else if (mime && mime->hasUrls() && mime->urls().first().isLocalFile()) {
        openPicture(mime->urls().first().toLocalFile());
    } else {
        m_pictureError = tr("The clipboard holds no picture.");
        setStatus(m_pictureError, true);
        emit pictureOpened(false);
    }
}

void PredictPanel::usePicture(const PictureLoad& load, const QString& what)
{
    if (!load.error.isEmpty()) {
        m_pictureError = load.error; // stays until the picture changes
        clearPrediction();
        setStatus(load.error, true);
        emit pictureOpened(false);
        return;
    }
    m_pad->setPicture(load.image); // predicts through changed()
    m_note = load.note;
    m_pad->setToolTip(what);
    emit pictureOpened(true);
}

void PredictPanel::clearPrediction()
{
    // Nothing of the previous picture stays beside the error: it would read as the bad file's
    // prediction. The previous drawing is one Undo away.
    {
        const QSignalBlocker block(m_pad);
        m_pad->clear();
    }
    m_undo->setEnabled(m_pad->canUndo());
    m_pad->setToolTip(QString());
    m_note.clear();
    m_probs.clear();
    m_bars->clear();
    m_input = QImage();
    m_inputView->clear();
    m_inputCaption->clear();
    // The blank sheet's preview and caption, as before any picture (the error stays said); a prediction
    // in flight is the old picture's, and this one follows it.
    requestPrediction();
}

bool PredictPanel::drawsDigits() const
{
    // No model yet, or one whose classes are 0 to 9 (MNIST and its like): digits are what to draw.
    if (!m_predictor)
        return true;
    const std::vector<std::string>& names = m_predictor->classNames();
    if (names.size() != 10)
        return false;
    for (size_t k = 0; k < names.size(); ++k)
        if (names[k] != std::to_string(k))
            return false;
    return true;
}

void PredictPanel::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage())
        event->acceptProposedAction();
}

void PredictPanel::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasImage())
        usePicture(checkPicture(qvariant_cast<QImage>(mime->imageData()), tr("The dropped picture")),
                   tr("the dropped picture"));
    else if (mime->hasUrls() && mime->urls().first().isLocalFile())
        openPicture(mime->urls().first().toLocalFile());
    event->acceptProposedAction();
}

void PredictPanel::requestPrediction()
{
    if (m_busy) {
        m_dirty = true;
        return;
    }
    startPrediction();
}

void PredictPanel::startPrediction()
{
    m_busy = true;
    m_dirty = false;
    tb::PreprocessOptions options;
    options.autoInvert = m_invert->isChecked();
    options.centre = m_centre->isChecked();
    const int h = m_predictor ? m_predictor->inputHeight() : 28;
    const int w = m_predictor ? m_predictor->inputWidth() : 28;
    auto* watcher = new QFutureWatcher<PredictOutcome>(this);
    connect(watcher, &QFutureWatcher<PredictOutcome>::finished, this, [this, watcher] {
        const PredictOutcome outcome = watcher->result();
        watcher->deleteLater();
        m_busy = false;
        if (m_dirty) { // the drawing moved on: predict the newest picture, show this one meanwhile
            showOutcome(outcome);
            startPrediction();
            return;
        }
        showOutcome(outcome);
        emit predictionShown();
    });
    watcher->setFuture(QtConcurrent::run(predict, m_pad->picture(), m_predictor, options, h, w));
}

void PredictPanel::showOutcome(const PredictOutcome& outcome)
{
    if (!outcome.error.isEmpty()) {
        setStatus(outcome.error, true);
        return;
    }
    m_input = toQImage(outcome.pre.input);
    m_inputView->setPixmap(QPixmap::fromImage(
        m_input.scaled(kInputViewSide - 2, kInputViewSide - 2, Qt::KeepAspectRatio, Qt::FastTransformation)));
    QStringList steps;
    if (outcome.pre.blank && !m_pictureError.isEmpty()) { // the blank sheet left by a picture that failed
        steps << tr("nothing, no picture is open");
    } else if (outcome.pre.blank) { // nothing to invert, centre or predict
        steps << tr("nothing, the picture is blank");
    } else {
        if (outcome.pre.inverted)
            steps << tr("inverted");
        if (outcome.pre.centred)
            steps << tr("cropped, fitted into 20×20 and centred");
        else if (m_centre->isChecked())
            steps << tr("not centred: no ink lighter than the paper");
        if (outcome.pre.fitted)
            steps << tr("trimmed and fitted, not stretched");
        else if (!outcome.pre.centred)
            steps << tr("resized");
    }
    m_inputCaption->setText(tr("What the model receives (%1×%2): %3")
                                .arg(outcome.pre.input.width)
                                .arg(outcome.pre.input.height)
                                .arg(steps.join(QStringLiteral(", "))));
    m_probs = outcome.probs;
    if (outcome.pre.blank) {
        m_bars->clear();
        const QString hint = drawsDigits() ? tr("Draw a digit, or open, drop or paste a picture.")
                                           : tr("Draw one of the model's classes, or open, drop or paste a picture.");
        setStatus(m_note.isEmpty() ? hint : m_note, false);
        return;
    }
    if (!m_predictor || m_probs.empty()) {
        m_bars->clear();
        setStatus(m_note.isEmpty() ? tr("No model to predict with yet.") : m_note, false);
        return;
    }
    QStringList names;
    std::vector<double> probs;
    for (const tb::RankedClass& c : tb::topClasses(m_probs, m_top->value())) {
        names << className(m_predictor->classNames(), c.index);
        probs.push_back(c.probability);
    }
    m_bars->setBars(names, probs);
    m_lastMs = outcome.forwardMs;
    QString text = tr("%1 (%2) — predicted in %3 ms on one core")
                       .arg(names.first(), formatPercent(probs.front(), 1), formatNumber(outcome.forwardMs, 1));
    if (!m_note.isEmpty())
        text = m_note + QLatin1Char(' ') + text;
    setStatus(text, false);
}

} // namespace tbui
