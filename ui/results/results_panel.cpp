#include "results/results_panel.hpp"

#include "common/elided_label.hpp"
#include "common/text.hpp"
#include "results/confusion_matrix.hpp"
#include "results/image_grid.hpp"
#include "results/text_results.hpp"

#include <QDialog>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace tbui {

const QColor ResultsPanel::kWrongColor(0xd6, 0x27, 0x28);

namespace {
// A tile's caption: the predicted class and its probability, "Sneaker: 97%", as Predict writes them
// (a digit's "2 100 %" read as one number).
QString caption(const QString& predicted, double probability)
{
    return predicted + QStringLiteral(": ") + formatPercent(probability, 0);
}
} // namespace

ResultsPanel::ResultsPanel(QWidget* parent)
    : QWidget(parent), m_header(new QLabel(this)), m_source(new ElidedLabel(Qt::ElideMiddle, this)),
      m_note(new QLabel(this)), m_showAll(new QPushButton(this)), m_grid(new ImageGrid),
      m_confusion(new ConfusionMatrix), m_text(new TextResults(this))
{
    QFont big = m_header->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_header->setFont(big);
    m_showAll->hide();
    m_note->setObjectName(QStringLiteral("batchNormNote"));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: #8a5300;"));
    m_note->hide();
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(scroll);
    splitter->addWidget(m_confusion);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    scroll->setMinimumWidth(420);
    splitter->setSizes({700, 560});

    auto* top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(m_showAll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(top);
    layout->addWidget(m_source);
    layout->addWidget(m_note);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_text, 1);
    m_images = splitter;
    m_text->hide();

    connect(m_showAll, &QPushButton::clicked, this, [this] { filter(-1, -1); });
    connect(m_confusion, &ConfusionMatrix::cellClicked, this, &ResultsPanel::filter);
    connect(m_grid, &ImageGrid::tileClicked, this, [this](int k) { showImage(m_order[size_t(k)]); });
    retranslate();
}

void ResultsPanel::retranslate()
{
    m_showAll->setText(tr("Show all images"));
    refreshGrid();
}

void ResultsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

bool ResultsPanel::showsText() const
{
    return !m_text->isHidden();
}

void ResultsPanel::setResults(DatasetPtr data, EvalPtr eval)
{
    const bool text = data && data->isText();
    m_images->setVisible(!text);
    m_text->setVisible(text);
    m_header->setVisible(!text);
    if (text) {
        // The image grid and matrix have nothing to draw: the text view shows the predictions.
        m_text->setResults(data, eval);
        m_model = ResultsModel();
        m_confusion->setModel(nullptr);
        filter(-1, -1);
        return;
    }
    m_text->clear();
    m_model = ResultsModel(std::move(data), std::move(eval));
    m_confusion->setModel(&m_model);
    filter(-1, -1);
}

void ResultsPanel::clear()
{
    m_model = ResultsModel();
    m_text->clear();
    m_source->setFullText(QString());
    setNote(QString());
    m_confusion->setModel(nullptr);
    filter(-1, -1);
}

void ResultsPanel::filter(int trueClass, int predictedClass)
{
    m_filterTrue = trueClass;
    m_filterPredicted = predictedClass;
    refreshGrid();
}

QString ResultsPanel::headerText() const
{
    return m_header->text();
}

void ResultsPanel::setSource(const QString& source)
{
    m_source->setFullText(source);
}

void ResultsPanel::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString ResultsPanel::noteText() const
{
    return m_note->text();
}

QString ResultsPanel::sourceText() const
{
    return m_source->fullText();
}

void ResultsPanel::refreshGrid()
{
    m_showAll->setVisible(m_filterTrue >= 0);
    if (m_model.isEmpty()) {
        m_order.clear();
        m_grid->setTiles(0, {});
        m_header->setText(tr("Results appear after the first epoch."));
        return;
    }
    m_order = m_model.order(m_filterTrue, m_filterPredicted);
    const auto& names = m_model.data()->classNames;
    if (m_filterTrue < 0)
        m_header->setText(tr("%1 of %2 wrong").arg(formatCount(m_model.wrongCount()), formatCount(m_model.samples())));
    else
        m_header->setText(tr("%Ln image(s) of class %1 predicted as %2", nullptr, int(m_order.size()))
                              .arg(className(names, m_filterTrue), className(names, m_filterPredicted)));
    const ResultsModel* model = &m_model;
    const std::vector<int>* order = &m_order;
    const QString trueFormat = tr("true: %1");
    QStringList widest;
    for (int c = 0; c < m_model.data()->numClasses; ++c)
        widest << caption(className(names, c), 1.0) << trueFormat.arg(className(names, c));
    m_grid->setCaptionSamples(widest);
    m_grid->setTiles(int(m_order.size()), [model, order, trueFormat](int k) {
        const int i = (*order)[size_t(k)];
        const tb::ImageSplit& test = model->data()->test;
        const auto& names = model->data()->classNames;
        Tile t;
        t.image = ImageGrid::grayImage(test.image(i), test.width, test.height);
        t.caption = caption(className(names, model->predicted(i)), model->probability(i, model->predicted(i)));
        t.detail = trueFormat.arg(className(names, model->label(i)));
        if (model->isWrong(i))
            t.frame = kWrongColor;
        return t;
    });
}

void ResultsPanel::showImage(int image)
{
    const tb::ImageSplit& test = m_model.data()->test;
    const auto& names = m_model.data()->classNames;
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Test image %1").arg(image));
    auto* picture = new QLabel;
    picture->setPixmap(QPixmap::fromImage(ImageGrid::grayImage(test.image(image), test.width, test.height)
                                              .scaled(280, 280, Qt::KeepAspectRatio, Qt::FastTransformation)));
    QString text = tr("<b>True class:</b> %1<br><b>Predicted:</b> %2<br><br><b>Top 3</b><br>")
                       .arg(className(names, m_model.label(image)).toHtmlEscaped(),
                            className(names, m_model.predicted(image)).toHtmlEscaped());
    for (const auto& [cls, prob] : m_model.topClasses(image, 3))
        text +=
            QStringLiteral("%1: %2%<br>").arg(className(names, cls).toHtmlEscaped()).arg(formatNumber(100.0 * prob, 1));
    auto* label = new QLabel(text);
    label->setObjectName(QStringLiteral("topClasses"));
    auto* layout = new QHBoxLayout(dialog);
    layout->addWidget(picture);
    layout->addWidget(label);
    dialog->show();
}

} // namespace tbui
