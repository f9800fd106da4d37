// The live training charts: loss and accuracy (train and validation per epoch, with the
// per-batch training values as a lighter smoothed line), time per epoch with samples/s, and RAM
// (this process and the whole system over time, like Colab's gauge). With a schedule, the learning
// rate per batch on the loss chart's right axis; with early stopping, the best epoch and the epoch it
// stopped marked on the validation curves; reduce-on-plateau's lowerings marked on the rate. The
// validation curves say which images they are: the held-out end of train or the test set.
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
    // What the run validates on and which decisions it makes (shows or hides their series); a resumed
    // run's finished epochs and its per-batch curve up to its checkpoint are drawn at once.
    void setRun(const tb::TrainConfig& config, const std::vector<tb::EpochRecord>& history = {},
                const std::vector<tb::BatchPoint>& batches = {});
    // A text model: the charts say per character (loss in nats, with bits per character; next-character accuracy).
    void setTextRun(bool text);
    void addBatch(const tb::BatchProgress& p);
    void addEpoch(const tb::EpochRecord& r);

    // Series of lossChart(): the validation curve, the learning rate (right axis) and the decisions' markers.
    int validationSeries() const { return m_lossVal; }
    int batchSeries() const { return m_lossBatch; } // also in accuracyChart(), as accuracyBatchSeries()
    int accuracyBatchSeries() const { return m_accBatch; }
    int rateSeries() const { return m_lossRate; }
    int loweredSeries() const { return m_lossLowered; }
    int bestSeries() const { return m_lossBest; } // also in accuracyChart(), as accuracyBestSeries()
    int stopSeries() const { return m_lossStop; }
    int accuracyBestSeries() const { return m_accBest; }
    int accuracyStopSeries() const { return m_accStop; }
    int preciseBnSeries() const { return m_lossPrecise; } // also in accuracyChart(), as accuracyPreciseBnSeries()
    int accuracyPreciseBnSeries() const { return m_accPrecise; }
    // The final weights' test figures after precise BN recomputed BatchNorm's statistics, at the last
    // epoch: that epoch's validation point is of the statistics before.
    void setPreciseBnTest(int epoch, double loss, double accuracy);
    QString validationName() const; // the validation curves' legend
    void sampleMemory();

    Chart* lossChart() const { return m_loss; }
    Chart* accuracyChart() const { return m_accuracy; }
    Chart* speedChart() const { return m_speed; }
    Chart* memoryChart() const { return m_memory; }
    QList<Chart*> charts() const { return {m_loss, m_accuracy, m_speed, m_memory}; }
    QStringList chartFileNames() const; // "loss", "accuracy", ... in charts() order

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    Chart* m_loss;
    Chart* m_accuracy;
    Chart* m_speed;
    Chart* m_memory;
    int m_lossBatch, m_lossTrain, m_lossVal, m_lossRate, m_lossLowered, m_lossBest, m_lossStop, m_lossPrecise;
    int m_accBatch, m_accTrain, m_accVal, m_accBest, m_accStop, m_accPrecise;
    tb::TrainConfig m_config;
    bool m_textRun = false;
    int m_memProcess, m_memSystem;
    tb::BatchSmoother m_smoother;
    QElapsedTimer m_clock;
    QTimer* m_memoryTimer;
};

} // namespace tbui
