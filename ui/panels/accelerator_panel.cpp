#include "panels/accelerator_panel.hpp"

#include "common/device_text.hpp"
#include "common/engine_text.hpp"
#include "common/text.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QScopedValueRollback>
#include <QSettings>
#include <QVBoxLayout>

namespace tbui {

namespace {
enum Choice { OneCore = 0, AllCores = 1, Gpu = 2, Tpu = 3 };
const char* kDeviceKey = "accelerator/device";
const char* kScaleKey = "accelerator/scaleBatch";
const char* kPrecisionKey = "accelerator/precision"; // "fp32" or "bf16", as --precision takes it
} // namespace

AcceleratorPanel::AcceleratorPanel(const tb::SystemInfo& system, QWidget* parent)
    : QWidget(parent), m_system(system), m_title(new QLabel(this)), m_detected(new QLabel(this)),
      m_oneCore(new QRadioButton(this)), m_allCores(new QRadioButton(this)), m_gpu(new QRadioButton(this)),
      m_gpuNote(new QLabel(this)), m_tpu(new QRadioButton(this)), m_group(new QButtonGroup(this)),
      m_precisionLabel(new QLabel(this)), m_fp32(new QRadioButton(this)), m_bf16(new QRadioButton(this)),
      m_precisionNote(new QLabel(this)), m_scale(new QCheckBox(this)), m_replicas(new QLabel(this))
{
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_detected->setWordWrap(true);
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_replicas->setWordWrap(true);
    m_replicas->setObjectName(QStringLiteral("replicas"));
    m_precisionNote->setWordWrap(true);
    m_gpuNote->setWordWrap(true);
    // A group of its own: the precision is a choice beside the device's, not one of them.
    auto* precision = new QButtonGroup(this);
    precision->addButton(m_fp32);
    precision->addButton(m_bf16);
    m_group->addButton(m_oneCore, OneCore);
    m_group->addButton(m_allCores, AllCores);
    m_group->addButton(m_gpu, Gpu);
    m_group->addButton(m_tpu, Tpu);
    m_gpu->setEnabled(tb::preferredAccelerator(m_system).has_value());
    m_tpu->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_detected);
    layout->addWidget(m_oneCore);
    layout->addWidget(m_allCores);
    layout->addWidget(m_gpu);
    layout->addWidget(m_gpuNote);
    layout->addWidget(m_tpu);
    auto* precisionRow = new QHBoxLayout;
    precisionRow->addWidget(m_precisionLabel);
    precisionRow->addWidget(m_fp32);
    precisionRow->addWidget(m_bf16);
    precisionRow->addStretch();
    layout->addLayout(precisionRow);
    layout->addWidget(m_precisionNote);
    layout->addWidget(m_scale);
    layout->addWidget(m_replicas);
    layout->addStretch();

    const QSettings settings;
    const int saved = settings.value(kDeviceKey, AllCores).toInt();
    QAbstractButton* initial = m_group->button(saved);
    (initial && initial->isEnabled() ? initial : m_allCores)->setChecked(true);
    m_scale->setChecked(settings.value(kScaleKey, false).toBool());
    m_fp32->setChecked(true);
    m_bf16->setChecked(settings.value(kPrecisionKey).toString() ==
                           QLatin1String(tb::precisionName(tb::Precision::Bf16)) &&
                       bf16Unavailable().isEmpty());
    // The user's choice, kept (not the CPU a text model put in the GPU's place, unless clicked).
    const auto choose = [this](int id) {
        m_gpuBeforeText = false;
        QSettings().setValue(kDeviceKey, id);
    };
    connect(m_group, &QButtonGroup::idToggled, this, [this, choose](int id, bool on) {
        if (!on)
            return;
        if (!m_switchingForModel)
            choose(id);
        updatePrecision();
        updateBatch();
        emit deviceChanged();
    });
    // A click on the CPU a text model put in the GPU's place (no toggle: it is checked) makes it the user's.
    connect(m_group, &QButtonGroup::idClicked, this, [this, choose](int id) {
        if (!m_switchingForModel && m_gpuBeforeText)
            choose(id);
    });
    connect(m_bf16, &QRadioButton::toggled, this, [this](bool on) {
        QSettings().setValue(kPrecisionKey,
                             QLatin1String(tb::precisionName(on ? tb::Precision::Bf16 : tb::Precision::Fp32)));
        updatePrecision();
        emit deviceChanged();
    });
    connect(m_scale, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(kScaleKey, on);
        updateBatch();
        emit deviceChanged();
    });
    retranslate();
}

void AcceleratorPanel::retranslate()
{
    const tb::CpuInfo& cpu = m_system.cpu;
    m_title->setText(tr("Accelerator"));
    // The CUDA line, then one line per OpenCL device (or why there is none).
    QString gpus;
    const auto accelerator = tb::preferredAccelerator(m_system);
    if (m_system.gpus.empty()) {
        bool openClGpu = false;
        for (const tb::OpenClDeviceInfo& o : m_system.openclDevices)
            openClGpu = openClGpu || o.type == "GPU";
        // With an OpenCL GPU listed below, "GPU: none usable" would contradict it: it is CUDA that is missing.
        gpus = (openClGpu ? tr("CUDA: none usable (%1)") : tr("GPU: none usable (%1)"))
                   .arg(EngineText::gpuUnavailable(m_system));
    } else {
        QStringList names;
        for (const tb::GpuInfo& g : m_system.gpus)
            names << tr("%1 (%2, compute %3.%4)")
                         .arg(qs(g.name), formatBytes(g.memoryBytes))
                         .arg(g.computeMajor)
                         .arg(g.computeMinor);
        gpus = tr("GPU: %1").arg(names.join(QStringLiteral("; ")));
    }
    gpus += QLatin1Char('\n') + DeviceText::openClSummary(m_system);
    m_detected->setText(tr("CPU: %1\n%2 cores, %3, %4 RAM\n%5")
                            .arg(qs(cpu.model))
                            .arg(cpu.logicalCores)
                            .arg(qs(cpu.simd), formatBytes(cpu.ramBytes), gpus));
    m_oneCore->setText(tr("One CPU core"));
    m_allCores->setText(tr("All CPU cores (%1)").arg(cpu.logicalCores));
    if (const tb::OpenClDeviceInfo* o = accelerator ? DeviceText::openCl(*accelerator, m_system) : nullptr) {
        m_gpu->setText(DeviceText::openClShortName(*o, m_system));
        m_gpu->setToolTip(DeviceText::openClName(*o) + QLatin1Char('\n') + DeviceText::openClDetails(*o));
    } else {
        m_gpu->setText(m_system.gpus.empty()
                           ? tr("NVIDIA GPU — unavailable: %1").arg(EngineText::gpuUnavailable(m_system))
                           : tr("NVIDIA GPU"));
        m_gpu->setToolTip(QString());
    }
    // A radio button does not wrap: the reason is a label of its own, below it.
    m_gpuNote->setText(tr("The OpenCL device does not run text models yet: they train on the CPU."));
    m_gpuNote->setVisible(m_textModel && accelerator && accelerator->kind == tb::DeviceKind::OpenCl);
    m_tpu->setText(tr("TPU — cloud only"));
    m_tpu->setToolTip(tr("TPUs exist only in Google's cloud (Colab, Cloud TPU VMs); a desktop cannot train on one. "
                         "Compare this machine's CPU and GPU instead."));
    // A check box does not wrap: the short text keeps the panel narrow, the tooltip explains.
    m_scale->setText(tr("Scale the batch with the replicas"));
    m_scale->setToolTip(
        tr("Scale the batch with the replicas (batch × replicas, like the TPU tutorial's 64 × num_replicas_in_sync)"));
    m_precisionLabel->setText(tr("Precision:"));
    m_fp32->setText(tr("FP32"));
    m_fp32->setToolTip(tr("Every matrix product in 32-bit floating point (the default)."));
    m_bf16->setText(tr("bfloat16 (bf16)"));
    updatePrecision();
    updateBatch();
}

void AcceleratorPanel::setTextModel(bool text)
{
    if (text == m_textModel)
        return;
    m_textModel = text;
    // Only the OpenCL device refuses sequences.
    const auto accelerator = tb::preferredAccelerator(m_system);
    m_gpu->setEnabled(accelerator && !(text && accelerator->kind == tb::DeviceKind::OpenCl));
    retranslate();
    const QScopedValueRollback<bool> switching(m_switchingForModel, true);
    if (text && m_gpu->isChecked()) {
        m_gpuBeforeText = true;
        m_allCores->setChecked(true);
    } else if (!text && m_gpuBeforeText) {
        m_gpuBeforeText = false;
        m_gpu->setChecked(m_gpu->isEnabled());
    }
}

QString AcceleratorPanel::bf16Unavailable() const
{
    tb::DeviceSpec spec = device();
    spec.precision = tb::Precision::Bf16;
    // Not EngineText::deviceUnavailable: a GPU that cannot be used would give its own reason, not the precision's.
    return EngineText::english(qs(tb::deviceUnavailableReason(spec, m_system)));
}

void AcceleratorPanel::updatePrecision()
{
    const QString why = bf16Unavailable();
    if (!why.isEmpty() && m_bf16->isChecked())
        m_fp32->setChecked(true); // a device that cannot run bf16 trains in FP32
    m_bf16->setEnabled(why.isEmpty());
    // Where bf16 runs but is no faster than its name promises (an Intel CPU), the tooltip says so, and
    // so does the note while bf16 is chosen.
    const QString speed =
        why.isEmpty() ? EngineText::english(qs(tb::precisionSpeedNote(tb::Precision::Bf16))) : QString();
    QString tip = why.isEmpty() ? tr("The matrix products (convolutions, Dense, LSTM) take their inputs rounded to "
                                     "bfloat16 and sum in FP32; weights, optimizer and loss stay FP32. Only CPUs "
                                     "with AVX512_BF16 run it; the weights differ a little from FP32's.")
                                : tr("bf16 unavailable: %1").arg(why);
    if (!speed.isEmpty())
        tip += QLatin1Char('\n') + speed;
    m_bf16->setToolTip(tip);
    const QString note = !why.isEmpty() ? tr("bf16 unavailable: %1").arg(why) : m_bf16->isChecked() ? speed : QString();
    m_precisionNote->setText(note);
    m_precisionNote->setVisible(!note.isEmpty());
}

void AcceleratorPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

tb::DeviceSpec AcceleratorPanel::device() const
{
    tb::DeviceSpec d;
    switch (m_group->checkedId()) {
    case OneCore:
        d.threads = 1;
        break;
    case Gpu:
        if (const auto accelerator = tb::preferredAccelerator(m_system))
            return *accelerator;
        d.kind = tb::DeviceKind::Cuda;
        d.index = 0;
        break;
    default:
        d.threads = std::max(1, m_system.cpu.logicalCores);
    }
    if (m_bf16->isChecked() && m_bf16->isEnabled())
        d.precision = tb::Precision::Bf16;
    return d;
}

void AcceleratorPanel::selectDevice(const tb::DeviceSpec& spec)
{
    if (spec.kind != tb::DeviceKind::Cpu)
        m_gpu->setChecked(m_gpu->isEnabled());
    else
        (spec.threads == 1 ? m_oneCore : m_allCores)->setChecked(true);
    (spec.precision == tb::Precision::Bf16 && m_bf16->isEnabled() ? m_bf16 : m_fp32)->setChecked(true);
}

bool AcceleratorPanel::scaleBatchWithReplicas() const
{
    return m_scale->isChecked();
}

int AcceleratorPanel::globalBatch() const
{
    return m_scale->isChecked() ? m_perReplicaBatch * device().replicas() : m_perReplicaBatch;
}

void AcceleratorPanel::setPerReplicaBatch(int batch)
{
    m_perReplicaBatch = batch;
    updateBatch();
}

QString AcceleratorPanel::detectedText() const
{
    return m_detected->text();
}

void AcceleratorPanel::updateBatch()
{
    const int replicas = device().replicas();
    if (replicas == 1) // one core, or an OpenCL device: nothing to split or scale
        m_replicas->setText(tr("Replicas in sync: 1 — batch %1").arg(globalBatch()));
    else if (m_scale->isChecked())
        m_replicas->setText(tr("Replicas in sync: %1 — global batch %2 × %1 = %3")
                                .arg(replicas)
                                .arg(m_perReplicaBatch)
                                .arg(globalBatch()));
    else
        m_replicas->setText(
            tr("Replicas in sync: %1 — global batch %2, split across the replicas").arg(replicas).arg(globalBatch()));
}

} // namespace tbui
