// Hyperparameters: optimizer, learning rate, batch, epochs, seed, drop remainder, image size
// multiplier and an optional limit of batches per epoch; below them, collapsed, the validation split,
// the learning-rate schedule, early stopping and checkpoints (RunOptionsFields). Remembered between
// runs (QSettings).
#pragma once

#include "train/trainer.hpp"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace tbui {

class RunOptionsFields;

class HyperparametersPanel : public QWidget {
    Q_OBJECT
public:
    explicit HyperparametersPanel(QWidget* parent = nullptr);

    // Everything but the thread count, which follows the accelerator.
    tb::TrainConfig config() const;
    int checkpointEvery() const; // batches between checkpoints, 0: at epoch ends only
    RunOptionsFields* runOptions() const { return m_options; }
    int batchSize() const;
    bool dropRemainder() const;
    int sizeMultiplier() const;

    void setEpochs(int epochs);
    void setBatchSize(int batch);
    void setSeed(int seed);
    void setMaxBatches(int maxBatches);
    void setOptimizer(tb::OptimizerKind kind);

    // The optimizer, its learning rate, the batch and the epochs: what a model kind changes (a text
    // preset's own settings, tb::presetTraining) and gives back.
    struct Basics {
        tb::OptimizerKind optimizer = tb::OptimizerKind::Adam;
        double learningRate = 0;
        int batchSize = 0;
        int epochs = 0;
    };
    Basics basics() const;
    void setBasics(const Basics& b);
    // From an image model to a text model (whose preset brings its own settings, tb::presetTraining):
    // the image model's are kept in the settings, so that they come back with an image model in this
    // session or the next.
    void keepImageBasics();
    // The kept image model's settings back: false if none were kept.
    bool restoreImageBasics();

signals:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void save() const;
    void onOptimizerChanged();
    void showMomentum();

    QLabel* m_title;
    QFormLayout* m_form;
    QComboBox* m_optimizer;
    QDoubleSpinBox* m_lr;
    QDoubleSpinBox* m_momentum;
    QSpinBox* m_batch;
    QSpinBox* m_epochs;
    QSpinBox* m_seed;
    QSpinBox* m_maxBatches;
    QCheckBox* m_drop;
    QSpinBox* m_multiplier;
    RunOptionsFields* m_options;
    std::vector<QLabel*> m_labels; // one per form row, in order
};

} // namespace tbui
