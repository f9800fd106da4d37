// The hyperparameters panel's collapsible "Advanced" part: the validation split, the learning-rate
// schedule and its parameters, early stopping and checkpoints every N batches. The same options,
// meanings and limits as trainbench-cli train's --validation-split, --lr-schedule (parseLrSchedule),
// --early-stopping/--patience/--min-delta/--restore-best-weights and --checkpoint-every. Remembered
// between runs (QSettings).
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
class QToolButton;

namespace tbui {

class RunOptionsFields : public QWidget {
    Q_OBJECT
public:
    explicit RunOptionsFields(QWidget* parent = nullptr);

    // Fills the validation split, the schedule and early stopping of `c`.
    void apply(tb::TrainConfig& c) const;
    int checkpointEvery() const;
    // The same run's options as trainbench-cli train arguments (only those that differ from the defaults).
    QStringList cliArguments() const;

    bool isExpanded() const;
    void setExpanded(bool expanded);
    void setValidationSplit(double fraction);
    void setValidationLimit(int samples);      // validation samples per epoch, 0: all
    void setSchedule(const tb::LrSchedule& s); // the fields the CLI's --lr-schedule sets
    void setEarlyStopping(const tb::EarlyStopping& es);
    void setCheckpointEvery(int batches);
    void setPreciseBnBatches(int batches);
    // The accelerator panel's precision, for the CLI line (--precision bf16): the device is not this
    // panel's, but the line would not train the same run without it.
    void setPrecision(tb::Precision precision);

signals:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void save() const;
    void showScheduleFields();
    void onChanged();

    QToolButton* m_toggle;
    QWidget* m_body;
    QFormLayout* m_form;
    QDoubleSpinBox* m_split;
    QSpinBox* m_validationLimit;
    QComboBox* m_schedule;
    QSpinBox* m_stepEvery;
    QDoubleSpinBox* m_factor;    // step decay and reduce-on-plateau
    QDoubleSpinBox* m_decayRate; // exponential
    QSpinBox* m_decaySteps;
    QSpinBox* m_warmup; // cosine
    QDoubleSpinBox* m_alpha;
    QSpinBox* m_plateauPatience; // reduce-on-plateau
    QDoubleSpinBox* m_minLr;
    QComboBox* m_monitor; // early stopping: off, val_loss, val_accuracy
    QSpinBox* m_patience;
    QDoubleSpinBox* m_minDelta;
    QCheckBox* m_restore;
    QSpinBox* m_checkpointEvery;
    QSpinBox* m_preciseBn;
    QLabel* m_cli;
    tb::Precision m_precision = tb::Precision::Fp32;
    std::vector<QLabel*> m_labels; // one per form row with a label, in order
};

} // namespace tbui
