// Accelerator: what this machine has (CPU model, cores, SIMD, RAM; CUDA GPUs and OpenCL devices, or why
// there are none; the TPU as a cloud-only device), the choice of device and, for the CPU, of the products'
// precision (FP32 or bf16, which only CPUs with AVX512_BF16 run: else shown unavailable with the reason), the
// replicas that train in sync and the global batch = per-replica batch x replicas when the batch scales with them.
#pragma once

#include "device/device.hpp"

#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QRadioButton;

namespace tbui {

class AcceleratorPanel : public QWidget {
    Q_OBJECT
public:
    explicit AcceleratorPanel(const tb::SystemInfo& system, QWidget* parent = nullptr);

    tb::DeviceSpec device() const;
    bool scaleBatchWithReplicas() const;
    int globalBatch() const; // for the current per-replica batch
    void setPerReplicaBatch(int batch);
    void selectDevice(const tb::DeviceSpec& spec);
    QString detectedText() const;
    // Why the chosen device cannot compute in bf16 (this CPU, or not a CPU), in the window's language;
    // empty when it can.
    QString bf16Unavailable() const;
    // A text model trains on the CPU only (the OpenCL device runs image models): the GPU's choice is
    // unavailable, with the reason, while one is chosen; the GPU returns with the next image model.
    void setTextModel(bool text);

signals:
    void deviceChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateBatch();
    void updatePrecision();

    tb::SystemInfo m_system;
    QLabel* m_title;
    QLabel* m_detected;
    QRadioButton* m_oneCore;
    QRadioButton* m_allCores;
    QRadioButton* m_gpu;
    QLabel* m_gpuNote; // why a text model cannot train on the OpenCL device, while one is chosen
    QRadioButton* m_tpu;
    QButtonGroup* m_group;
    QLabel* m_precisionLabel;
    QRadioButton* m_fp32;
    QRadioButton* m_bf16;
    QLabel* m_precisionNote; // why bf16 is unavailable, or what it does to speed while chosen (Intel)
    QCheckBox* m_scale;
    QLabel* m_replicas;
    int m_perReplicaBatch = 128;
    bool m_textModel = false;
    bool m_gpuBeforeText = false;     // the GPU was chosen when a text model took it away
    bool m_switchingForModel = false; // setTextModel's own change of device, not the user's
};

} // namespace tbui
