// Value types that cross from the training thread to the window through queued signals.
#pragma once

#include "common/run_header.hpp"
#include "config/records.hpp"
#include "data/dataset.hpp"
#include "device/device.hpp"
#include "io/weights_file.hpp"
#include "train/batch_curve.hpp"
#include "train/checkpoint.hpp"
#include "train/precise_bn.hpp"
#include "train/trainer.hpp"

#include <QMetaType>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tbui {

using DatasetPtr = std::shared_ptr<const tb::Dataset>;
using EvalPtr = std::shared_ptr<const tb::EvalResult>;
using WeightsPtr = std::shared_ptr<const tb::WeightsFile>;

// What the window asks the worker to run.
struct TrainRequest {
    DatasetPtr data; // as loaded, without options
    tb::ModelSpec spec;
    tb::TrainConfig config; // config.device is the device below; a resumed run uses its kernelCacheDir only
    tb::DeviceSpec device;
    std::function<double()> clock; // seconds for the epoch timings; null: steady clock (tests inject one)
    // Every run has a run folder (checkpoints, run.json) made in runsDir, as the CLI's --runs-dir.
    std::string runsDir;
    int checkpointEvery = 0; // also every N batches (0: at epoch ends and on Stop only)
    // Not empty: continue the run in this folder (its own settings; spec and config are ignored), on
    // `data` when it is the checkpoint's dataset, else on the dataset folder the checkpoint names.
    std::string resumeFolder;
    // The checkpoint of resumeFolder as the window read it to check the folder before starting (the
    // worker reads it when null).
    std::shared_ptr<const tb::Checkpoint> checkpoint;
};

// What the worker reports once, when training has been set up.
struct RunStarted {
    int stepsPerEpoch = 0;
    int epochs = 0;
    int64_t trainImages = 0;
    int replicas = 1;
    int globalBatch = 0;
    RunHeader header;         // the CLI's first lines, as values (EngineText::runHeader words them)
    tb::TrainConfig config;   // as the run uses it (a resumed run's own settings)
    DatasetPtr data;          // the dataset as loaded that the run trains on
    int validationImages = 0; // held out of train (config.validationSplit > 0), else the test images
    QString runFolder;        // empty when the run has none
    // A resumed run: where it continues and the epochs it had finished, to pre-fill the charts.
    bool resumed = false;
    int resumedEpoch = 0, resumedStep = 0; // epochs finished, batches finished in the next one
    QString ranOn;                         // the device it ran on before, when it goes on elsewhere
    QString datasetNote; // what could not be checked of its dataset (a checkpoint before pixels_hash), English
    QString curveNote;   // why the checkpoint's per-batch curve could not be read (the run goes on), English
    std::vector<tb::EpochRecord> history;
    std::vector<tb::BatchPoint> batches; // the per-batch curve up to the checkpoint, to pre-fill the charts
};

// The engine's run status (config/records.hpp): an outcome is Completed, Stopped or Failed (an error,
// a divergence included, with its message).
using RunStatus = tb::RunStatus;

struct RunOutcome {
    RunStatus status = RunStatus::Completed;
    QString message;    // the error for Failed
    WeightsPtr weights; // null when setup failed
    double testLoss = 0.0, testAccuracy = 0.0;
    QString weightsSha256;
    EvalPtr test;              // the final or stopped weights on the test set with predictions, when not already shown
    int bestEpoch = 0;         // early stopping: the best epoch (1-based), 0 if off or none
    bool restoredBest = false; // the best epoch's weights were put back
    QString runFolder;
    // Stopped: the epoch under way (1-based) and the batches it finished, as run.json's position says
    // (the last progress the window heard can lag behind: progress is throttled).
    int stoppedEpoch = 0, stoppedStep = 0;
    std::optional<tb::PreciseBnResult> preciseBn;       // when precise BN ran
    std::optional<tb::BatchNormWarmth> batchNormWarmth; // when the model has BatchNorm (without precise BN)
};

} // namespace tbui

Q_DECLARE_METATYPE(tb::BatchProgress)
Q_DECLARE_METATYPE(tb::EpochRecord)
Q_DECLARE_METATYPE(tbui::EvalPtr)
Q_DECLARE_METATYPE(tbui::RunStarted)
Q_DECLARE_METATYPE(tbui::RunOutcome)
Q_DECLARE_METATYPE(tbui::DatasetPtr)
