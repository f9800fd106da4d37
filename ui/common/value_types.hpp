// Value types that cross from the training thread to the window through queued signals.
#pragma once

#include "data/dataset.hpp"
#include "device/device.hpp"
#include "io/weights_file.hpp"
#include "train/trainer.hpp"

#include <QMetaType>
#include <QString>

#include <functional>
#include <memory>

namespace tbui {

using DatasetPtr = std::shared_ptr<const tb::Dataset>;
using EvalPtr = std::shared_ptr<const tb::EvalResult>;
using WeightsPtr = std::shared_ptr<const tb::WeightsFile>;

// What the window asks the worker to run.
struct TrainRequest {
    DatasetPtr data;            // as loaded, without options
    tb::DatasetOptions options; // drop remainder, size multiplier
    tb::ModelSpec spec;
    tb::TrainConfig config;     // config.device is the device below
    tb::DeviceSpec device;
    std::function<double()> clock; // seconds for the epoch timings; null: steady clock (tests inject one)
};

// What the worker reports once, when training has been set up.
struct RunStarted {
    int stepsPerEpoch = 0;
    int epochs = 0;
    int64_t trainImages = 0;
    int replicas = 1;
    int globalBatch = 0;
    QString header;  // the CLI's first lines
};

enum class RunStatus { Completed, Stopped, Failed };

struct RunOutcome {
    RunStatus status = RunStatus::Completed;
    QString message;            // the error for Failed
    WeightsPtr weights;         // null when setup failed
    double testLoss = 0.0, testAccuracy = 0.0;
    QString weightsSha256;
};

}  // namespace tbui

Q_DECLARE_METATYPE(tb::BatchProgress)
Q_DECLARE_METATYPE(tb::EpochRecord)
Q_DECLARE_METATYPE(tbui::EvalPtr)
Q_DECLARE_METATYPE(tbui::RunStarted)
Q_DECLARE_METATYPE(tbui::RunOutcome)
Q_DECLARE_METATYPE(tbui::DatasetPtr)
