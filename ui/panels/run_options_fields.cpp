#include "panels/run_options_fields.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "train/run_limits.hpp"
#include "train/train_options.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace tbui {

namespace {
constexpr int kMaxWhole = 1000000000; // parseLrSchedule's largest whole number
} // namespace

RunOptionsFields::RunOptionsFields(QWidget* parent)
    : QWidget(parent), m_toggle(new QToolButton(this)), m_body(new QWidget(this)), m_form(new QFormLayout),
      m_split(new QDoubleSpinBox(m_body)), m_validationLimit(new QSpinBox(m_body)), m_schedule(new QComboBox(m_body)),
      m_stepEvery(new QSpinBox(m_body)), m_factor(new QDoubleSpinBox(m_body)), m_decayRate(new QDoubleSpinBox(m_body)),
      m_decaySteps(new QSpinBox(m_body)), m_warmup(new QSpinBox(m_body)), m_alpha(new QDoubleSpinBox(m_body)),
      m_plateauPatience(new QSpinBox(m_body)), m_minLr(new QDoubleSpinBox(m_body)), m_monitor(new QComboBox(m_body)),
      m_patience(new QSpinBox(m_body)), m_minDelta(new QDoubleSpinBox(m_body)), m_restore(new QCheckBox(m_body)),
      m_checkpointEvery(new QSpinBox(m_body)), m_preciseBn(new QSpinBox(m_body)), m_cli(new QLabel(m_body))
{
    m_toggle->setObjectName(QStringLiteral("advancedToggle"));
    m_toggle->setCheckable(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setAutoRaise(true);
    m_toggle->setStyleSheet(QStringLiteral("font-weight: bold"));

    // parseLrSchedule's and validateTrainConfig's limits (train/lr_schedule.cpp, train/trainer.cpp).
    using namespace tb::limits;
    m_split->setDecimals(3);
    setOptionRange(m_split, "validation-split"); // 0, or 0.001..0.999
    m_split->setSingleStep(0.05);
    m_validationLimit->setObjectName(QStringLiteral("validationLimit"));
    setOptionRange(m_validationLimit, "validation-limit");
    m_validationLimit->setSingleStep(1000);
    for (tb::ScheduleKind k : {tb::ScheduleKind::Constant, tb::ScheduleKind::StepDecay, tb::ScheduleKind::Exponential,
                               tb::ScheduleKind::Cosine, tb::ScheduleKind::Plateau})
        m_schedule->addItem(QString(), int(k));
    m_stepEvery->setRange(1, kMaxWhole);
    m_factor->setDecimals(3);
    m_factor->setRange(0.001, 0.999); // (0, 1)
    m_factor->setSingleStep(0.05);
    m_decayRate->setDecimals(4);
    m_decayRate->setRange(0.0001, 1.0); // (0, 1]
    m_decayRate->setSingleStep(0.01);
    m_decaySteps->setRange(1, kMaxWhole);
    m_warmup->setRange(0, kMaxWhole);
    m_alpha->setDecimals(3);
    m_alpha->setRange(0.0, 1.0);
    m_alpha->setSingleStep(0.05);
    m_plateauPatience->setRange(0, kMaxWhole);
    m_minLr->setDecimals(6);
    m_minLr->setRange(0.0, kMaxLearningRate);
    m_minLr->setSingleStep(1e-4);
    m_monitor->addItem(QString(), -1);
    for (tb::Monitor m : {tb::Monitor::ValLoss, tb::Monitor::ValAccuracy})
        m_monitor->addItem(qs(tb::monitorName(m)), int(m));
    setOptionRange(m_patience, "patience");
    m_minDelta->setDecimals(4);
    setOptionRange(m_minDelta, "min-delta");
    m_minDelta->setSingleStep(0.001);
    setOptionRange(m_checkpointEvery, "checkpoint-every");
    m_cli->setWordWrap(true);
    m_cli->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cli->setStyleSheet(QStringLiteral("color: palette(mid)"));

    const QSettings s;
    const tb::TrainConfig d;
    const tb::LrSchedule plateau = tb::parseLrSchedule("plateau");
    m_split->setValue(s.value("train/validationSplit", d.validationSplit).toDouble());
    m_validationLimit->setValue(s.value("train/validationLimit", d.validationLimit).toInt());
    m_schedule->setCurrentIndex(
        std::max(0, m_schedule->findData(s.value("train/schedule", int(d.schedule.kind)).toInt())));
    m_stepEvery->setValue(s.value("train/stepEvery", d.schedule.everyEpochs).toInt());
    m_factor->setValue(s.value("train/factor", d.schedule.factor).toDouble());
    m_decayRate->setValue(s.value("train/decayRate", d.schedule.decayRate).toDouble());
    m_decaySteps->setValue(s.value("train/decaySteps", d.schedule.decaySteps).toInt());
    m_warmup->setValue(s.value("train/warmupSteps", d.schedule.warmupSteps).toInt());
    m_alpha->setValue(s.value("train/alpha", d.schedule.alpha).toDouble());
    m_plateauPatience->setValue(s.value("train/plateauPatience", plateau.patience).toInt());
    m_minLr->setValue(s.value("train/minLr", plateau.minLr).toDouble());
    m_monitor->setCurrentIndex(std::max(0, m_monitor->findData(s.value("train/earlyStopping", -1).toInt())));
    m_patience->setValue(s.value("train/patience", d.earlyStopping.patience).toInt());
    m_minDelta->setValue(s.value("train/minDelta", d.earlyStopping.minDelta).toDouble());
    m_restore->setChecked(s.value("train/restoreBestWeights", d.earlyStopping.restoreBestWeights).toBool());
    m_checkpointEvery->setValue(s.value("train/checkpointEvery", 0).toInt());
    m_preciseBn->setObjectName(QStringLiteral("preciseBn"));
    setOptionRange(m_preciseBn, "precise-bn");
    m_preciseBn->setValue(s.value("train/preciseBn", 0).toInt());

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_toggle);
    layout->addWidget(m_body);
    auto* bodyLayout = new QVBoxLayout(m_body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addLayout(m_form);
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows); // as the panel's form: narrow, labels above fields
    for (QComboBox* box : {m_schedule, m_monitor}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    for (QWidget* field : std::initializer_list<QWidget*>{
             m_split, m_validationLimit, m_schedule, m_stepEvery, m_factor, m_decayRate, m_decaySteps, m_warmup,
             m_alpha, m_plateauPatience, m_minLr, m_monitor, m_patience, m_minDelta}) {
        m_labels.push_back(new QLabel(m_body));
        m_form->addRow(m_labels.back(), field);
    }
    m_form->addRow(m_restore);
    m_labels.push_back(new QLabel(m_body));
    m_form->addRow(m_labels.back(), m_checkpointEvery);
    m_labels.push_back(new QLabel(m_body));
    m_form->addRow(m_labels.back(), m_preciseBn);
    m_form->addRow(m_cli);

    connect(m_toggle, &QToolButton::toggled, this, [this](bool open) {
        m_body->setVisible(open);
        m_toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        QSettings().setValue("ui/advancedOptions", open);
    });
    connect(m_schedule, &QComboBox::currentIndexChanged, this, &RunOptionsFields::onChanged);
    connect(m_monitor, &QComboBox::currentIndexChanged, this, &RunOptionsFields::onChanged);
    for (QSpinBox* box : {m_validationLimit, m_stepEvery, m_decaySteps, m_warmup, m_plateauPatience, m_patience,
                          m_checkpointEvery, m_preciseBn})
        connect(box, &QSpinBox::valueChanged, this, &RunOptionsFields::onChanged);
    for (QDoubleSpinBox* box : {m_split, m_factor, m_decayRate, m_alpha, m_minLr, m_minDelta})
        connect(box, &QDoubleSpinBox::valueChanged, this, &RunOptionsFields::onChanged);
    connect(m_restore, &QCheckBox::toggled, this, &RunOptionsFields::onChanged);

    const bool open = s.value("ui/advancedOptions", false).toBool();
    m_toggle->setChecked(open);
    m_body->setVisible(open);
    m_toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    retranslate();
}

void RunOptionsFields::retranslate()
{
    m_toggle->setText(tr("Advanced: validation, schedule, early stopping"));
    // The options' own labels (the option table's), and the schedule's parameters.
    const QStringList labels = {EngineText::optionLabel("validation-split"),
                                EngineText::optionLabel("validation-limit"),
                                EngineText::optionLabel("lr-schedule"),
                                tr("Drop every (epochs)"),
                                tr("Factor"),
                                tr("Decay rate"),
                                tr("Decay steps"),
                                tr("Warm-up steps"),
                                tr("Final rate (× initial)"),
                                tr("Patience (epochs)"),
                                tr("Minimum rate"),
                                EngineText::optionLabel("early-stopping"),
                                EngineText::optionLabel("patience"),
                                EngineText::optionLabel("min-delta"),
                                EngineText::optionLabel("checkpoint-every"),
                                EngineText::optionLabel("precise-bn")};
    for (int i = 0; i < labels.size(); ++i)
        m_labels[size_t(i)]->setText(labels[i]);
    m_split->setSpecialValueText(tr("0 (test set)"));
    m_split->setToolTip(tr("Hold out this last fraction of the training images to validate each epoch (Keras' "
                           "validation_split), so the test set stays untouched until the end; 0: the test set "
                           "validates each epoch, as the tutorials do"));
    m_validationLimit->setSpecialValueText(tr("no limit"));
    m_validationLimit->setToolTip(tr("Validate each epoch on this many samples only, for quick runs on large data "
                                     "(a long text validates for seconds each epoch); the test at the end is not "
                                     "limited"));
    const QStringList kinds = {tr("Constant"), tr("Step decay"), tr("Exponential decay"), tr("Cosine with warm-up"),
                               tr("Reduce on plateau")};
    for (int i = 0; i < kinds.size(); ++i)
        m_schedule->setItemText(i, kinds[i]);
    m_schedule->setToolTip(tr("How the learning rate changes during the run; it is plotted beside the loss"));
    m_factor->setToolTip(tr("The rate is multiplied by this factor at each drop"));
    m_decayRate->setToolTip(tr("Initial rate × decay rate ^ (step / decay steps)"));
    m_warmup->setToolTip(
        tr("Steps of linear warm-up from 0, then cosine decay to the final rate at the run's last step"));
    m_plateauPatience->setToolTip(tr("Epochs without improvement of val_loss before the rate is lowered"));
    m_monitor->setItemText(0, tr("off"));
    m_monitor->setToolTip(tr("Stop when the monitored validation value has not improved for the patience"));
    m_minDelta->setToolTip(tr("A change smaller than this is not an improvement"));
    m_restore->setText(EngineText::optionLabel("restore-best-weights"));
    m_checkpointEvery->setSpecialValueText(tr("epoch ends"));
    m_checkpointEvery->setSuffix(tr(" batches"));
    m_checkpointEvery->setToolTip(tr("Every run writes a checkpoint into its run folder at each epoch end and on "
                                     "Stop; also every this many batches"));
    m_preciseBn->setSpecialValueText(tr("off"));
    m_preciseBn->setSuffix(tr(" batches"));
    m_preciseBn->setToolTip(tr("After training, recompute BatchNorm's moving mean and variance over this many "
                               "training batches. A short run's moving averages still hold much of their initial "
                               "values, and its test accuracy falls far below its training accuracy; this fixes "
                               "it (100 batches is plenty)."));
    showScheduleFields();
}

void RunOptionsFields::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

// The rows the chosen schedule and early stopping use, and the CLI line.
void RunOptionsFields::showScheduleFields()
{
    const auto kind = tb::ScheduleKind(m_schedule->currentData().toInt());
    using K = tb::ScheduleKind;
    m_form->setRowVisible(m_stepEvery, kind == K::StepDecay);
    m_form->setRowVisible(m_factor, kind == K::StepDecay || kind == K::Plateau);
    m_form->setRowVisible(m_decayRate, kind == K::Exponential);
    m_form->setRowVisible(m_decaySteps, kind == K::Exponential);
    m_form->setRowVisible(m_warmup, kind == K::Cosine);
    m_form->setRowVisible(m_alpha, kind == K::Cosine);
    m_form->setRowVisible(m_plateauPatience, kind == K::Plateau);
    m_form->setRowVisible(m_minLr, kind == K::Plateau);
    const bool stopping = m_monitor->currentData().toInt() >= 0;
    m_form->setRowVisible(m_patience, stopping);
    m_form->setRowVisible(m_minDelta, stopping);
    m_form->setRowVisible(m_restore, stopping);
    const QStringList args = cliArguments();
    m_cli->setText(args.isEmpty() ? QString() : tr("As the CLI: %1").arg(args.join(QLatin1Char(' '))));
    m_form->setRowVisible(m_cli, !args.isEmpty());
}

void RunOptionsFields::onChanged()
{
    showScheduleFields();
    save();
    emit changed();
}

void RunOptionsFields::save() const
{
    QSettings s;
    s.setValue("train/validationSplit", m_split->value());
    s.setValue("train/validationLimit", m_validationLimit->value());
    s.setValue("train/schedule", m_schedule->currentData());
    s.setValue("train/stepEvery", m_stepEvery->value());
    s.setValue("train/factor", m_factor->value());
    s.setValue("train/decayRate", m_decayRate->value());
    s.setValue("train/decaySteps", m_decaySteps->value());
    s.setValue("train/warmupSteps", m_warmup->value());
    s.setValue("train/alpha", m_alpha->value());
    s.setValue("train/plateauPatience", m_plateauPatience->value());
    s.setValue("train/minLr", m_minLr->value());
    s.setValue("train/earlyStopping", m_monitor->currentData());
    s.setValue("train/patience", m_patience->value());
    s.setValue("train/minDelta", m_minDelta->value());
    s.setValue("train/restoreBestWeights", m_restore->isChecked());
    s.setValue("train/checkpointEvery", m_checkpointEvery->value());
    s.setValue("train/preciseBn", m_preciseBn->value());
}

void RunOptionsFields::apply(tb::TrainConfig& c) const
{
    c.validationSplit = m_split->value();
    c.validationLimit = m_validationLimit->value();
    // Built as the CLI builds it, so the defaults of the parameters not shown are parseLrSchedule's.
    c.schedule = tb::LrSchedule{};
    switch (tb::ScheduleKind(m_schedule->currentData().toInt())) {
    case tb::ScheduleKind::Constant:
        break;
    case tb::ScheduleKind::StepDecay:
        c.schedule.kind = tb::ScheduleKind::StepDecay;
        c.schedule.everyEpochs = m_stepEvery->value();
        c.schedule.factor = m_factor->value();
        break;
    case tb::ScheduleKind::Exponential:
        c.schedule.kind = tb::ScheduleKind::Exponential;
        c.schedule.decayRate = m_decayRate->value();
        c.schedule.decaySteps = m_decaySteps->value();
        break;
    case tb::ScheduleKind::Cosine:
        c.schedule.kind = tb::ScheduleKind::Cosine;
        c.schedule.warmupSteps = m_warmup->value();
        c.schedule.alpha = m_alpha->value();
        break;
    case tb::ScheduleKind::Plateau:
        c.schedule = tb::parseLrSchedule("plateau");
        c.schedule.factor = m_factor->value();
        c.schedule.patience = m_plateauPatience->value();
        c.schedule.minLr = m_minLr->value();
        break;
    }
    c.preciseBnBatches = m_preciseBn->value();
    c.earlyStopping = tb::EarlyStopping{};
    if (const int monitor = m_monitor->currentData().toInt(); monitor >= 0) {
        c.earlyStopping.enabled = true;
        c.earlyStopping.monitor = tb::Monitor(monitor);
        c.earlyStopping.patience = m_patience->value();
        c.earlyStopping.minDelta = m_minDelta->value();
        c.earlyStopping.restoreBestWeights = m_restore->isChecked();
    }
}

int RunOptionsFields::checkpointEvery() const
{
    return m_checkpointEvery->value();
}

QStringList RunOptionsFields::cliArguments() const
{
    // Written by the training options' table (train/train_options.hpp), which the CLI parses with.
    tb::TrainSettings settings;
    apply(settings.config);
    settings.checkpointEvery = checkpointEvery();
    settings.config.device.precision = m_precision;
    QStringList a;
    for (const std::string& arg : tb::formatTrainOptions(settings))
        a << qs(arg);
    return a;
}

void RunOptionsFields::setPrecision(tb::Precision precision)
{
    m_precision = precision;
    showScheduleFields(); // the CLI line
}

bool RunOptionsFields::isExpanded() const
{
    return m_toggle->isChecked();
}
void RunOptionsFields::setExpanded(bool expanded)
{
    m_toggle->setChecked(expanded);
}
void RunOptionsFields::setValidationSplit(double fraction)
{
    m_split->setValue(fraction);
}
void RunOptionsFields::setValidationLimit(int samples)
{
    m_validationLimit->setValue(samples);
}
void RunOptionsFields::setCheckpointEvery(int batches)
{
    m_checkpointEvery->setValue(batches);
}
void RunOptionsFields::setPreciseBnBatches(int batches)
{
    m_preciseBn->setValue(batches);
}

void RunOptionsFields::setSchedule(const tb::LrSchedule& s)
{
    m_schedule->setCurrentIndex(m_schedule->findData(int(s.kind)));
    m_stepEvery->setValue(s.everyEpochs);
    m_factor->setValue(s.factor);
    m_decayRate->setValue(s.decayRate);
    m_decaySteps->setValue(s.decaySteps);
    m_warmup->setValue(s.warmupSteps);
    m_alpha->setValue(s.alpha);
    m_plateauPatience->setValue(s.patience);
    m_minLr->setValue(s.minLr);
}

void RunOptionsFields::setEarlyStopping(const tb::EarlyStopping& es)
{
    m_monitor->setCurrentIndex(es.enabled ? m_monitor->findData(int(es.monitor)) : 0);
    m_patience->setValue(es.patience);
    m_minDelta->setValue(es.minDelta);
    m_restore->setChecked(es.restoreBestWeights);
}

} // namespace tbui
