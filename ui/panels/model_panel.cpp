#include "panels/model_panel.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "model/network.hpp"

#include <algorithm>

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tbui {

namespace {
const char* kPresetKey = "model/preset";
}

ModelPanel::ModelPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_preset(new QComboBox(this)), m_open(new QPushButton(this)),
      m_description(new QLabel(this)), m_error(new QLabel(this)), m_table(new QTableWidget(0, 3, this)),
      m_totals(new QLabel(this))
{
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    fillPresets();
    m_description->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setWordWrap(true); // a long line in Spanish must not widen the page

    // The combo box does not ask for its longest preset's width (the panel must fit 1152 px in Spanish).
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(10);
    auto* row = new QHBoxLayout;
    row->addWidget(m_preset, 1);
    row->addWidget(m_open);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(row);
    layout->addWidget(m_description);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_totals);

    connect(m_preset, &QComboBox::activated, this, [this](int i) {
        const QString name = m_preset->itemData(i).toString();
        if (name.isEmpty())
            return; // the model file entry
        selectPreset(name);
    });
    connect(m_open, &QPushButton::clicked, this, &ModelPanel::chooseFile);
    retranslate();
    selectPreset(QSettings().value(kPresetKey, qs(tb::defaultPreset())).toString());
}

// The presets of the dataset's kind, then the model file entry when one is open.
void ModelPanel::fillPresets()
{
    const QSignalBlocker block(m_preset);
    const int fileIndex = m_preset->findData(QString());
    const QString fileLabel = fileIndex >= 0 ? m_preset->itemText(fileIndex) : QString();
    m_preset->clear();
    for (const std::string& name : tb::presetNames())
        if (tb::loadModelSpec(name).isText() == m_text)
            m_preset->addItem(qs(name), qs(name));
    if (!fileLabel.isEmpty())
        m_preset->addItem(fileLabel, QString());
    if (!m_filePath.isEmpty())
        m_preset->setCurrentIndex(m_preset->findData(QString()));
    else if (m_spec)
        m_preset->setCurrentIndex(std::max(0, m_preset->findData(qs(m_spec->name))));
}

void ModelPanel::setTextInput(int steps, int classes)
{
    const bool wasText = m_text;
    m_text = true;
    m_height = steps;
    m_width = 1;
    m_classes = classes;
    if (!wasText) {
        fillPresets();
        if (m_filePath.isEmpty() && m_spec && !m_spec->isText()) {
            selectPreset(qs(tb::defaultTextPreset()));
            return;
        }
    }
    refresh();
}

void ModelPanel::retranslate()
{
    m_title->setText(tr("Model"));
    m_open->setText(tr("Open model file…"));
    m_table->setHorizontalHeaderLabels({tr("Layer (type)"), tr("Output shape"), tr("Params")});
    refresh();
}

void ModelPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString ModelPanel::modelName() const
{
    return m_spec ? qs(m_spec->name) : QString();
}
QString ModelPanel::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}
QString ModelPanel::totalsText() const
{
    return m_totals->text();
}

void ModelPanel::selectPreset(const QString& name)
{
    int index = m_preset->findData(name);
    if (index < 0)
        index = m_preset->findData(qs(tb::defaultPreset()));
    if (index < 0)
        index = 0;
    m_preset->setCurrentIndex(index);
    m_filePath.clear();
    m_spec = tb::loadModelSpec(ss(m_preset->itemData(index).toString()));
    QSettings().setValue(kPresetKey, m_preset->itemData(index));
    refresh();
    emit modelChanged();
}

void ModelPanel::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a model file"), QString(),
                                                      tr("Model files (*.json);;All files (*)"));
    if (!path.isEmpty())
        openModelFile(path);
}

void ModelPanel::openModelFile(const QString& path)
{
    m_filePath = path;
    const QString label = tr("File: %1").arg(QFileInfo(path).fileName());
    int index = m_preset->findData(QString());
    if (index < 0) {
        m_preset->addItem(label, QString());
        index = m_preset->count() - 1;
    }
    m_preset->setItemText(index, label);
    m_preset->setCurrentIndex(index);
    try {
        m_spec = tb::loadModelSpec(ss(path));
    } catch (const std::exception& e) {
        m_spec.reset();
        m_error->setText(tr("Could not use this model: %1").arg(EngineText::of(e)));
    }
    refresh();
    emit modelChanged();
}

void ModelPanel::setInput(int height, int width, int classes)
{
    m_height = height;
    m_width = width;
    m_classes = classes;
    if (m_text) {
        m_text = false;
        fillPresets();
        if (m_filePath.isEmpty() && m_spec && m_spec->isText()) {
            selectPreset(qs(tb::defaultPreset()));
            return;
        }
    }
    refresh();
}

void ModelPanel::refresh()
{
    m_table->setRowCount(0);
    m_totals->clear();
    if (!m_filePath.isEmpty())
        m_description->setText(tr("Model file %1").arg(m_filePath));
    else if (m_spec)
        m_description->setText(EngineText::presetDescription(m_spec->name));
    if (!m_spec) {
        m_error->show();
        return;
    }
    if (m_spec->isText() != m_text) {
        m_error->setText(m_text ? tr("%1 is an image model and the dataset is a text: choose a text preset "
                                     "(small-text-lstm, shakespeare-lstm) or a text dataset.")
                                      .arg(qs(m_spec->name))
                                : tr("%1 is a text model and the dataset holds images: choose an image preset or a "
                                     "text dataset.")
                                      .arg(qs(m_spec->name)));
        m_error->show();
        return;
    }
    try {
        const tb::Network net(*m_spec, m_text ? tb::Shape::tokenIds(m_height) : tb::Shape::image(m_height, m_width, 1),
                              m_classes, tb::Network::Fill::Zeros); // shapes and counts only
        m_error->hide();
        m_table->setRowCount(net.layerCount());
        for (int i = 0; i < net.layerCount(); ++i) {
            const tb::Layer& l = net.layer(i);
            auto* params = new QTableWidgetItem(formatCount(l.paramCount() + l.stateCount()));
            params->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, 0, new QTableWidgetItem(qs(l.name() + " (" + net.layerSpec(i).kerasClass + ")")));
            m_table->setItem(i, 1, new QTableWidgetItem(qs(l.outShape().keras())));
            m_table->setItem(i, 2, params);
        }
        m_totals->setText(tr("Total params: %1 — trainable: %2 — non-trainable: %3")
                              .arg(formatCount(net.paramCount() + net.stateCount()), formatCount(net.paramCount()),
                                   formatCount(net.stateCount())));
    } catch (const std::exception& e) {
        if (m_text)
            m_error->setText(tr("This model does not fit sequences of %1 symbols over %2 symbols: %3")
                                 .arg(m_height)
                                 .arg(m_classes)
                                 .arg(EngineText::of(e)));
        else
            m_error->setText(tr("This model does not fit %1×%2 images with %3 classes: %4")
                                 .arg(m_width)
                                 .arg(m_height)
                                 .arg(m_classes)
                                 .arg(EngineText::of(e)));
        m_error->show();
    }
}

} // namespace tbui
