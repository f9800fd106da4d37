// The engine's messages in the window's language: an engine error that carries a stable message id
// (tb::MessageId) is shown through the translation of that id with its arguments; one without
// keeps the engine's English. Preset descriptions are looked up by the preset's name.
#pragma once

#include "common/run_header.hpp"
#include "core/errors.hpp"
#include "train/precise_bn.hpp"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QString>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace tb {
struct Dataset;
struct DeviceSpec;
struct EarlyStopping;
struct LrSchedule;
struct Kernels;
class Network;
struct RunInfo;
struct SystemInfo;
struct TrainConfig;
} // namespace tb

namespace tbui {

// A number field's range: the limits of training option `name` (tb::TrainOption's lo and hi).
void setOptionRange(QSpinBox* box, const char* name);
void setOptionRange(QDoubleSpinBox* box, const char* name);

class EngineText {
    Q_DECLARE_TR_FUNCTIONS(EngineText)
public:
    // The message of `id` with its arguments; `english` when the id is None or unknown.
    static QString message(tb::MessageId id, const std::vector<std::string>& args, const QString& english);
    static QString of(const std::exception& e); // a tb::Error through its id, else english(what())
    // An engine message without an id, by its English form (weights, model and checkpoint files, run
    // folders); a message it does not know stays as it is.
    static QString english(const QString& text);
    static QString gpuUnavailable(const tb::SystemInfo& system);
    // tb::deviceUnavailableReason in the window's language; empty when the device can be used.
    static QString deviceUnavailable(const tb::DeviceSpec& spec, const tb::SystemInfo& system);
    static QString presetDescription(const std::string& name);
    // Where an image dataset's class names come from (tb::Dataset::classNamesSource: "classes.txt",
    // "Fashion-MNIST", "MNIST digits", "generic") in the window's language.
    static QString classNamesSource(const tb::Dataset& d);
    static QString classNamesSource(const std::string& source);
    // The window's label of training option `name` (tb::TrainOption::label) in the window's language.
    static QString optionLabel(const char* name);
    // tb::describeKernels in the window's language.
    static QString kernels(const tb::Kernels& k);
    // tb::runHeader (the lines a run starts with: model and dataset; device, batch, optimizer, seed,
    // kernels; the device's set-up) in the window's language, from its facts as the run started.
    static RunHeader runHeaderFacts(const tb::Network& net, const tb::Dataset& d, const tb::TrainConfig& cfg,
                                    const tb::RunInfo& run);
    static QString runHeader(const RunHeader& h);
    // tb::describeLrSchedule and tb::describeEarlyStopping in the window's language (the Run page's log and
    // a run's report; the monitors keep Keras' names, as the CLI's options do).
    static QString scheduleText(const tb::LrSchedule& s);
    static QString earlyStoppingText(const tb::EarlyStopping& es);
    // What precise BN did, or that BatchNorm's statistics are still near their initial values (the
    // run log's and the Results page's line); empty when there is nothing to say.
    static QString batchNorm(const std::optional<tb::PreciseBnResult>& precise,
                             const std::optional<tb::BatchNormWarmth>& warmth);
};

} // namespace tbui
