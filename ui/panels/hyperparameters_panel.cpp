#include "panels/hyperparameters_panel.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "panels/run_options_fields.hpp"
#include "train/run_limits.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tbui {

HyperparametersPanel::HyperparametersPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_form(new QFormLayout), m_optimizer(new QComboBox(this)),
      m_lr(new QDoubleSpinBox(this)), m_momentum(new QDoubleSpinBox(this)), m_batch(new QSpinBox(this)),
      m_epochs(new QSpinBox(this)), m_seed(new QSpinBox(this)), m_maxBatches(new QSpinBox(this)),
      m_drop(new QCheckBox(this)), m_multiplier(new QSpinBox(this)), m_options(new RunOptionsFields(this))
{
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    for (tb::OptimizerKind k : {tb::OptimizerKind::Adam, tb::OptimizerKind::SGD, tb::OptimizerKind::RMSprop})
        m_optimizer->addItem(qs(tb::optimizerName(k)), int(k));
    // The engine's limits and defaults (the option table, run_limits.hpp, TrainConfig), the CLI's too.
    using namespace tb::limits;
    const tb::TrainConfig defaults;
    m_lr->setObjectName(QStringLiteral("learningRate"));
    m_lr->setDecimals(6);
    m_lr->setRange(kMinLearningRate, kMaxLearningRate);
    m_lr->setSingleStep(1e-4);
    m_momentum->setDecimals(3);
    setOptionRange(m_momentum, "momentum");
    m_momentum->setSingleStep(0.1);
    setOptionRange(m_batch, "batch");
    setOptionRange(m_epochs, "epochs");
    m_seed->setRange(0, std::numeric_limits<int>::max());
    setOptionRange(m_maxBatches, "max-batches");
    setOptionRange(m_multiplier, "size-multiplier");

    const QSettings s;
    m_optimizer->setCurrentIndex(std::max(0, m_optimizer->findData(s.value("train/optimizer", 0).toInt())));
    m_lr->setValue(s.value("train/lr", double(defaults.optimizer.learningRate)).toDouble());
    m_momentum->setValue(s.value("train/momentum", double(defaults.optimizer.momentum)).toDouble());
    m_batch->setValue(s.value("train/batch", defaults.batchSize).toInt());
    m_epochs->setValue(s.value("train/epochs", defaults.epochs).toInt());
    m_seed->setValue(s.value("train/seed", int(defaults.seed)).toInt());
    m_maxBatches->setValue(s.value("train/maxBatches", defaults.maxBatches).toInt());
    m_drop->setChecked(s.value("train/dropRemainder", defaults.dropRemainder).toBool());
    m_multiplier->setValue(s.value("train/sizeMultiplier", defaults.sizeMultiplier).toInt());

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(m_form);
    // Narrow (Spanish labels at the first-launch size): a label goes above its field instead of
    // widening the page; combo boxes do not ask for their longest item's width.
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_optimizer->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_optimizer->setMinimumContentsLength(8);
    layout->addWidget(m_options);
    layout->addStretch();
    for (QWidget* field : std::initializer_list<QWidget*>{m_optimizer, m_lr, m_momentum, m_batch, m_epochs, m_seed,
                                                          m_maxBatches, m_multiplier}) {
        m_labels.push_back(new QLabel(this));
        m_form->addRow(m_labels.back(), field);
    }
    m_form->addRow(m_drop);

    connect(m_optimizer, &QComboBox::activated, this, &HyperparametersPanel::onOptimizerChanged);
    for (QSpinBox* box : {m_batch, m_epochs, m_seed, m_maxBatches, m_multiplier})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            save();
            emit changed();
        });
    for (QDoubleSpinBox* box : {m_lr, m_momentum})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            save();
            emit changed();
        });
    connect(m_drop, &QCheckBox::toggled, this, [this] {
        save();
        emit changed();
    });
    connect(m_options, &RunOptionsFields::changed, this, &HyperparametersPanel::changed);
    showMomentum();
    retranslate();
}

void HyperparametersPanel::retranslate()
{
    m_title->setText(tr("Hyperparameters"));
    const char* options[] = {"optimizer", "lr",   "momentum",    "batch",
                             "epochs",    "seed", "max-batches", "size-multiplier"};
    for (size_t i = 0; i < std::size(options); ++i)
        m_labels[i]->setText(EngineText::optionLabel(options[i]));
    m_maxBatches->setSpecialValueText(tr("all"));
    m_maxBatches->setToolTip(tr("Train on at most this many batches per epoch, for quick runs"));
    m_multiplier->setToolTip(tr("Scale the images by this factor to see the compute grow (the TPU tutorial's "
                                "SIZE_MULTIPLIER)"));
    m_drop->setText(EngineText::optionLabel("drop-remainder"));
    m_drop->setToolTip(tr("Drop the remainder (both splits a multiple of the batch size, as the TPU needs)"));
}

void HyperparametersPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HyperparametersPanel::onOptimizerChanged()
{
    const auto kind = tb::OptimizerKind(m_optimizer->currentData().toInt());
    m_lr->setValue(tb::defaultLearningRate(kind));
    showMomentum();
    save();
    emit changed();
}

void HyperparametersPanel::showMomentum()
{
    // Only SGD takes a momentum: a greyed-out row for the others pushed Epochs below the page's fold
    // at 1280x720.
    m_form->setRowVisible(m_momentum, tb::OptimizerKind(m_optimizer->currentData().toInt()) == tb::OptimizerKind::SGD);
}

void HyperparametersPanel::save() const
{
    QSettings s;
    s.setValue("train/optimizer", m_optimizer->currentData());
    s.setValue("train/lr", m_lr->value());
    s.setValue("train/momentum", m_momentum->value());
    s.setValue("train/batch", m_batch->value());
    s.setValue("train/epochs", m_epochs->value());
    s.setValue("train/seed", m_seed->value());
    s.setValue("train/maxBatches", m_maxBatches->value());
    s.setValue("train/dropRemainder", m_drop->isChecked());
    s.setValue("train/sizeMultiplier", m_multiplier->value());
}

tb::TrainConfig HyperparametersPanel::config() const
{
    tb::TrainConfig c;
    c.epochs = m_epochs->value();
    c.batchSize = m_batch->value();
    c.seed = uint64_t(m_seed->value());
    c.maxBatches = m_maxBatches->value();
    c.sizeMultiplier = m_multiplier->value();
    c.dropRemainder = m_drop->isChecked();
    c.optimizer.kind = tb::OptimizerKind(m_optimizer->currentData().toInt());
    c.optimizer.learningRate = float(m_lr->value());
    if (c.optimizer.kind == tb::OptimizerKind::SGD)
        c.optimizer.momentum = float(m_momentum->value());
    m_options->apply(c);
    return c;
}

int HyperparametersPanel::checkpointEvery() const
{
    return m_options->checkpointEvery();
}

int HyperparametersPanel::batchSize() const
{
    return m_batch->value();
}
bool HyperparametersPanel::dropRemainder() const
{
    return m_drop->isChecked();
}
int HyperparametersPanel::sizeMultiplier() const
{
    return m_multiplier->value();
}
void HyperparametersPanel::setEpochs(int epochs)
{
    m_epochs->setValue(epochs);
}
void HyperparametersPanel::setBatchSize(int batch)
{
    m_batch->setValue(batch);
}
void HyperparametersPanel::setSeed(int seed)
{
    m_seed->setValue(seed);
}
void HyperparametersPanel::setMaxBatches(int maxBatches)
{
    m_maxBatches->setValue(maxBatches);
}

void HyperparametersPanel::setOptimizer(tb::OptimizerKind kind)
{
    m_optimizer->setCurrentIndex(m_optimizer->findData(int(kind)));
    onOptimizerChanged();
}

namespace {
const char* kImageBasicsGroup = "train/imageBasics"; // keepImageBasics
} // namespace

void HyperparametersPanel::keepImageBasics()
{
    QSettings s;
    s.beginGroup(kImageBasicsGroup);
    const Basics image = basics();
    s.setValue("optimizer", int(image.optimizer));
    s.setValue("lr", image.learningRate);
    s.setValue("batch", image.batchSize);
    s.setValue("epochs", image.epochs);
    s.endGroup();
}

bool HyperparametersPanel::restoreImageBasics()
{
    QSettings s;
    s.beginGroup(kImageBasicsGroup);
    if (!s.contains("optimizer"))
        return false;
    const tb::TrainConfig defaults;
    const Basics image{tb::OptimizerKind(s.value("optimizer").toInt()),
                       s.value("lr", double(defaults.optimizer.learningRate)).toDouble(),
                       s.value("batch", defaults.batchSize).toInt(), s.value("epochs", defaults.epochs).toInt()};
    s.remove(QString()); // the group
    s.endGroup();
    setBasics(image);
    return true;
}

HyperparametersPanel::Basics HyperparametersPanel::basics() const
{
    return {tb::OptimizerKind(m_optimizer->currentData().toInt()), m_lr->value(), m_batch->value(), m_epochs->value()};
}

void HyperparametersPanel::setBasics(const Basics& b)
{
    setOptimizer(b.optimizer); // sets the optimizer's default rate: the given one after it
    m_lr->setValue(b.learningRate);
    m_batch->setValue(b.batchSize);
    m_epochs->setValue(b.epochs);
}

} // namespace tbui
