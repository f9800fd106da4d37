// The live training charts: loss and accuracy (train and validation per epoch, with the
// per-batch training values as a lighter smoothed line), time per epoch with samples/s, and RAM
// (this process and the whole system over time, like Colab's gauge).
#pragma once

#include "common/value_types.hpp"

#include <QElapsedTimer>
#include <QWidget>

class QTimer;

namespace tbui {

class Chart;

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void resetForRun();
    void addBatch(const tb::BatchProgress& p);
    void addEpoch(const tb::EpochRecord& r);
    void sampleMemory();

    Chart* lossChart() const { return m_loss; }
    Chart* accuracyChart() const { return m_accuracy; }
    Chart* speedChart() const { return m_speed; }
    Chart* memoryChart() const { return m_memory; }
    QList<Chart*> charts() const { return {m_loss, m_accuracy, m_speed, m_memory}; }
    QStringList chartFileNames() const;  // "loss", "accuracy", ... in charts() order

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    Chart* m_loss;
    Chart* m_accuracy;
    Chart* m_speed;
    Chart* m_memory;
    int m_lossBatch, m_lossTrain, m_lossVal;
    int m_accBatch, m_accTrain, m_accVal;
    int m_memProcess, m_memSystem;
    double m_smoothLoss = 0, m_smoothAcc = 0;
    bool m_haveSmooth = false;
    QElapsedTimer m_clock;
    QTimer* m_memoryTimer;
};

}  // namespace tbui
