#include "train/train_options.hpp"

#include "core/errors.hpp"
#include "core/thread_pool.hpp"
#include "kernels/isa.hpp"
#include "train/run_limits.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

// The window's labels are marked for its translations.
#include "core/translation_marker.hpp"

namespace tb {

TrainSettings::TrainSettings()
{
    config.device.threads = hardwareThreads();
}

long long parseWholeOption(const std::string& name, const std::string& text, long long lo, long long hi)
{
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    // strtoll skips leading space, which a trailing space is refused for: neither is.
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || *end || (errno && errno != ERANGE))
        throw ConfigError("--" + name + " needs a whole number, not \"" + text + "\"");
    if (errno == ERANGE || v < lo || v > hi) // a whole number too long for 64 bits is out of range too
        throw ConfigError("--" + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                          " (got " + text + ")");
    return v;
}

uint64_t parseUnsignedOption(const std::string& name, const std::string& text)
{
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    // Digits only: strtoull would skip spaces and wrap " -3" around to 2^64 - 3.
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || *end || (errno && errno != ERANGE))
        throw ConfigError("--" + name + " needs a non-negative whole number, not \"" + text + "\"");
    if (errno == ERANGE)
        throw ConfigError("--" + name + " must be between 0 and " + std::to_string(UINT64_MAX) + " (got " + text + ")");
    return v;
}

double parseRealOption(const std::string& name, const std::string& text)
{
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    // Decimal only: strtod also reads leading space and hexadecimal ("0x1p-3").
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || *end ||
        text.find_first_of("xX") != std::string::npos)
        throw ConfigError("--" + name + " needs a number, not \"" + text + "\"");
    if (!std::isfinite(v))
        throw ConfigError("--" + name + " needs a finite number, not \"" + text + "\"");
    if (errno == ERANGE && v == 0) // 1e-5000 is not 0, which may mean something else (greedy, none)
        throw ConfigError("--" + name + " " + text + " is too small: it rounds to 0");
    return v;
}

std::string formatReal(double v, bool single)
{
    char buf[40];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        const double back = std::strtod(buf, nullptr);
        if (single ? float(back) == float(v) : back == v)
            break;
    }
    return buf;
}

std::string wrapWords(const std::string& text, size_t first, size_t indent, size_t width)
{
    std::string out;
    size_t at = first;
    bool lineStarted = false; // a word of `text` on this line already
    for (size_t i = 0; i < text.size();) {
        const size_t end = std::min(text.find(' ', i), text.size());
        const std::string word = text.substr(i, end - i);
        i = end + 1;
        if (word.empty())
            continue;
        if (lineStarted && at + 1 + word.size() > width) {
            out += '\n';
            out.append(indent, ' ');
            at = indent;
            lineStarted = false;
        }
        if (lineStarted) {
            out += ' ';
            ++at;
        }
        out += word;
        at += word.size();
        lineStarted = true;
    }
    return out + "\n";
}

std::string optionHelpLine(const std::string& name, const std::string& value, const std::string& help, int column,
                           int width)
{
    std::string line = "  --";
    line += name;
    if (!value.empty()) {
        line += ' ';
        line += value;
    }
    if (line.size() + 2 > size_t(column)) {
        line += '\n';
        line.append(size_t(column), ' ');
    } else {
        line.append(size_t(column) - line.size(), ' ');
    }
    return line + wrapWords(help, size_t(column), size_t(column), size_t(width));
}

namespace {
using limits::kMaxBatch;
using limits::kMaxBatchesPerEpoch;
using limits::kMaxEpochs;
using limits::kMaxMomentum;
using limits::kMaxShard;
using limits::kMaxSizeMultiplier;
using limits::kMaxThreads;
using limits::kMaxValidationLimit;

std::string range(long long lo, long long hi)
{
    return std::to_string(lo) + " to " + std::to_string(hi);
}

int whole(const char* name, const std::string& text, long long lo, long long hi)
{
    return int(parseWholeOption(name, text, lo, hi));
}

// The option's own number, within its limits.
int whole(const TrainOption& o, const std::string& text)
{
    return whole(o.name.c_str(), text, (long long)o.lo, (long long)o.hi);
}

// A real number in [lo, hi], refused with the option's name and its limits.
double real(const char* name, const std::string& text, double lo, double hi)
{
    const double v = parseRealOption(name, text);
    if (!(v >= lo && v <= hi))
        throw ConfigError("--" + std::string(name) + " must be between " + formatReal(lo) + " and " + formatReal(hi) +
                          " (got " + text + ")");
    return v;
}

double real(const TrainOption& o, const std::string& text)
{
    return real(o.name.c_str(), text, o.lo, o.hi);
}

// Another parser's ConfigError (a schedule, a device, a monitor) prefixed with the option's name.
template <typename F> auto named(const char* name, F&& parse)
{
    try {
        return parse();
    } catch (const ConfigError& e) {
        throw ConfigError("--" + std::string(name) + ": " + e.what());
    }
}

template <typename T> std::optional<std::string> unlessDefault(T value, T def)
{
    if (value == def)
        return std::nullopt;
    if constexpr (std::is_floating_point_v<T>)
        return formatReal(double(value), std::is_same_v<T, float>);
    else
        return std::to_string(value);
}

std::optional<std::string> onOff(bool on)
{
    return on ? std::optional<std::string>("") : std::nullopt;
}

const TrainSettings& defaults()
{
    static const TrainSettings d;
    return d;
}

// The schedule as parseLrSchedule reads it, every parameter written.
std::string scheduleText(const LrSchedule& s)
{
    switch (s.kind) {
    case ScheduleKind::Constant:
        return "constant";
    case ScheduleKind::StepDecay:
        return "step:" + std::to_string(s.everyEpochs) + ":" + formatReal(s.factor);
    case ScheduleKind::Exponential:
        return "exp:" + formatReal(s.decayRate) + ":" + std::to_string(s.decaySteps);
    case ScheduleKind::Cosine:
        return "cosine:" + std::to_string(s.warmupSteps) + ":" + formatReal(s.alpha);
    case ScheduleKind::Plateau:
        return "plateau:" + formatReal(s.factor) + ":" + std::to_string(s.patience) + ":" + formatReal(s.minLr);
    }
    return "constant";
}

std::vector<TrainOption> makeTable()
{
    const TrainConfig d;
    std::vector<TrainOption> t;
    auto add = [&](TrainOption o) { t.push_back(std::move(o)); };
    add({"epochs", "N", "epochs to train, " + range(1, kMaxEpochs) + " (" + std::to_string(d.epochs) + ")", true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.epochs = whole(o, v); },
         [](const TrainSettings& s) { return unlessDefault(s.config.epochs, defaults().config.epochs); },
         QT_TRANSLATE_NOOP("TrainOption", "Epochs"), 1, kMaxEpochs});
    add({"batch", "B",
         "samples per batch (images, or a text's sequences), " + range(1, kMaxBatch) + " (" +
             std::to_string(d.batchSize) + ")",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.batchSize = whole(o, v); },
         [](const TrainSettings& s) { return unlessDefault(s.config.batchSize, defaults().config.batchSize); },
         QT_TRANSLATE_NOOP("TrainOption", "Batch size"), 1, kMaxBatch});
    add({"seed", "S",
         "the seed of the initial weights, the shuffles and dropout, 0 to 2^64-1 (" + std::to_string(d.seed) + ")",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             s.config.seed = parseUnsignedOption("seed", v);
         },
         [](const TrainSettings& s) { return unlessDefault(s.config.seed, defaults().config.seed); },
         QT_TRANSLATE_NOOP("TrainOption", "Seed")});
    add({"optimizer", "adam|sgd|rmsprop",
         std::string("the optimizer, with Keras' defaults (") + optimizerName(d.optimizer.kind) + ")", true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             s.config.optimizer.kind = named("optimizer", [&] { return parseOptimizer(v); });
             s.config.optimizer.learningRate = defaultLearningRate(s.config.optimizer.kind);
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.optimizer.kind == defaults().config.optimizer.kind)
                 return std::nullopt;
             return optimizerName(s.config.optimizer.kind);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Optimizer")});
    add({"lr", "X",
         "the learning rate, above 0 (the optimizer's default: " +
             formatReal(defaultLearningRate(OptimizerKind::Adam), true) + " for adam and rmsprop, " +
             formatReal(defaultLearningRate(OptimizerKind::SGD), true) + " for sgd)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             const double lr = parseRealOption("lr", v);
             // In float, as the optimizers take it: 1e40 would be infinite, 1e-50 zero.
             if (!(float(lr) > 0) || !std::isfinite(float(lr)))
                 throw ConfigError("--lr must be a positive number within a float's range, 1.4e-45 to 3.4e38 (got " +
                                   v + ")");
             s.config.optimizer.learningRate = float(lr);
         },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.optimizer.learningRate, defaultLearningRate(s.config.optimizer.kind));
         },
         QT_TRANSLATE_NOOP("TrainOption", "Learning rate")});
    add({"momentum", "M", "SGD's momentum, 0 to " + formatReal(kMaxMomentum) + " (0)", true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) {
             s.config.optimizer.momentum = float(real(o, v));
         },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.optimizer.momentum, defaults().config.optimizer.momentum);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Momentum (SGD)"), 0, kMaxMomentum});
    add({"nesterov", "", "SGD with Nesterov momentum", true, "",
         [](TrainSettings& s, const std::string&, const TrainOption&) { s.config.optimizer.nesterov = true; },
         [](const TrainSettings& s) { return onOff(s.config.optimizer.nesterov); }});
    add({"size-multiplier", "K",
         "images scaled up K times (nearest neighbour) to make the work grow, " + range(1, kMaxSizeMultiplier) + " (1)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.sizeMultiplier = whole(o, v); },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.sizeMultiplier, defaults().config.sizeMultiplier);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Image size ×"), 1, kMaxSizeMultiplier});
    add({"max-batches", "N",
         "at most N batches per epoch, for quick runs, " + range(0, kMaxBatchesPerEpoch) + " (0: all)", true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.maxBatches = whole(o, v); },
         [](const TrainSettings& s) { return unlessDefault(s.config.maxBatches, defaults().config.maxBatches); },
         QT_TRANSLATE_NOOP("TrainOption", "Batches per epoch"), 0, kMaxBatchesPerEpoch});
    add({"drop-remainder", "", "both splits cut to a multiple of the batch, as the TPU tutorials do", true, "",
         [](TrainSettings& s, const std::string&, const TrainOption&) { s.config.dropRemainder = true; },
         [](const TrainSettings& s) { return onOff(s.config.dropRemainder); },
         QT_TRANSLATE_NOOP("TrainOption", "Drop the remainder")});
    add({"shard", "N",
         "CPU: samples per shard, part of the numerics (the weights depend on it), " + range(1, kMaxShard) + " (" +
             std::to_string(d.shardSize) + ")",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.shardSize = whole(o, v); },
         [](const TrainSettings& s) { return unlessDefault(s.config.shardSize, defaults().config.shardSize); }, "", 1,
         kMaxShard});
    add({"validation-split", "F",
         "hold out the last fraction F of the training images (or sequences) to validate each epoch, as Keras "
         "does; 0 or 0.001 to "
         "0.999 (0: the test set validates)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             const double f = parseRealOption("validation-split", v);
             if (f != 0 && !(f >= 0.001 && f <= 0.999))
                 throw ConfigError("--validation-split must be 0 or between 0.001 and 0.999 (got " + v + ")");
             s.config.validationSplit = f;
         },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.validationSplit, defaults().config.validationSplit);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Validation split"), 0, 0.999});
    add({"validation-limit", "N",
         "validate each epoch on the first N validation images (or sequences) only, for quick runs on large data; "
         "the test at the end is not limited; " +
             range(0, kMaxValidationLimit) + " (0: all)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.validationLimit = whole(o, v); },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.validationLimit, defaults().config.validationLimit);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Validation samples"), 0, kMaxValidationLimit});
    add({"lr-schedule", "SCHEDULE",
         "constant, step:EVERY:FACTOR, exp:RATE:STEPS, cosine[:WARMUP[:ALPHA]] or "
         "plateau[:FACTOR[:PATIENCE[:MIN_LR]]] (constant)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             s.config.schedule = named("lr-schedule", [&] { return parseLrSchedule(v); });
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.schedule.kind == ScheduleKind::Constant)
                 return std::nullopt;
             return scheduleText(s.config.schedule);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Learning-rate schedule")});
    add({"early-stopping", "val_loss|val_accuracy",
         "stop when the monitored value has not improved for --patience epochs (off)", true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             s.config.earlyStopping.enabled = true;
             s.config.earlyStopping.monitor = named("early-stopping", [&] { return parseMonitor(v); });
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (!s.config.earlyStopping.enabled)
                 return std::nullopt;
             return monitorName(s.config.earlyStopping.monitor);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Early stopping")});
    // Written whenever early stopping is on, 0 too: the line reads as Keras' arguments do.
    add({"patience", "N",
         "early stopping: epochs without improvement before it stops, " + range(0, kMaxEpochs) + " (0)", true,
         "early-stopping",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) {
             s.config.earlyStopping.patience = whole(o, v);
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (!s.config.earlyStopping.enabled)
                 return std::nullopt;
             return std::to_string(s.config.earlyStopping.patience);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Patience (epochs)"), 0, kMaxEpochs});
    add({"min-delta", "X", "early stopping: a smaller change is no improvement, 0 to 1e9 (0)", true, "early-stopping",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) {
             s.config.earlyStopping.minDelta = real(o, v);
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (!s.config.earlyStopping.enabled)
                 return std::nullopt;
             return unlessDefault(s.config.earlyStopping.minDelta, defaults().config.earlyStopping.minDelta);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Minimum change"), 0, 1e9});
    add({"restore-best-weights", "", "early stopping: end with the best epoch's weights", true, "early-stopping",
         [](TrainSettings& s, const std::string&, const TrainOption&) {
             s.config.earlyStopping.restoreBestWeights = true;
         },
         [](const TrainSettings& s) {
             return onOff(s.config.earlyStopping.enabled && s.config.earlyStopping.restoreBestWeights);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Restore the best epoch's weights")});
    add({"threads", "T", "CPU threads, one replica each, " + range(1, kMaxThreads) + " (every core)", false, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) {
             if (s.config.device.kind != DeviceKind::Cpu) // a resumed OpenCL run goes on on the CPU
                 s.config.device = DeviceSpec{};
             s.config.device.threads = whole(o, v);
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.device.kind != DeviceKind::Cpu)
                 return std::nullopt;
             return unlessDefault(s.config.device.threads, defaults().config.device.threads);
         },
         "", 1, kMaxThreads});
    // Before --device, which keeps them unless it names its own; both are for the CPU
    // (applyTrainOptions refuses them with another device).
    add({"isa", "baseline|avx2|avx512",
         "the kernels of a lower instruction-set level than the CPU's best (TRAINBENCH_ISA too)", false, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             const Isa isa = named("isa", [&] { return parseIsa(v); });
             requireIsa(isa);
             s.config.device.isa = isa;
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.device.kind != DeviceKind::Cpu || !s.config.device.isa)
                 return std::nullopt;
             return isaName(*s.config.device.isa);
         }});
    add({"precision", "fp32|bf16",
         "the matrix products' arithmetic: bf16 rounds their inputs to bfloat16 and sums in FP32 (CPUs with "
         "AVX512_BF16 only; weights, optimizer and loss stay FP32) (fp32)",
         false, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             s.config.device.precision = named("precision", [&] { return parsePrecision(v); });
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.device.precision == Precision::Fp32)
                 return std::nullopt;
             return precisionName(s.config.device.precision);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Precision")});
    // After --isa and --precision: a CPU device takes them unless it names its own ("cpu:2@avx2",
    // "cpu:2+fp32"); another device computes in FP32 at no level of ours. On `train --resume` the
    // run's own device is the one they change.
    add({"device", "D", "where it runs, a device as `devices` lists it: cpu:2, cpu:1@avx2, cpu:2+bf16, opencl:0 (cpu)",
         false, "",
         [](TrainSettings& s, const std::string& v, const TrainOption&) {
             const DeviceSpec before = s.config.device;
             DeviceSpec d = named("device", [&] { return parseDeviceSpec(v, before.precision); });
             if (d.kind != DeviceKind::Cpu)
                 d.precision = Precision::Fp32;
             else if (!d.isa)
                 d.isa = before.isa;
             s.config.device = d;
         },
         [](const TrainSettings& s) -> std::optional<std::string> {
             if (s.config.device.kind == DeviceKind::Cpu)
                 return std::nullopt; // --threads, --isa and --precision write it
             return s.config.device.id();
         }});
    add({"checkpoint-every", "N",
         "a checkpoint in the run folder also every N batches, " + range(0, kMaxBatchesPerEpoch) +
             " (0: at epoch ends)",
         false, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.checkpointEvery = whole(o, v); },
         [](const TrainSettings& s) { return unlessDefault(s.checkpointEvery, defaults().checkpointEvery); },
         QT_TRANSLATE_NOOP("TrainOption", "Checkpoint every"), 0, kMaxBatchesPerEpoch});
    add({"precise-bn", "N",
         "after training, BatchNorm's moving statistics recomputed over N training batches (a short run's test "
         "accuracy then matches its training accuracy), " +
             range(0, kMaxBatchesPerEpoch) + " (0: off)",
         true, "",
         [](TrainSettings& s, const std::string& v, const TrainOption& o) { s.config.preciseBnBatches = whole(o, v); },
         [](const TrainSettings& s) {
             return unlessDefault(s.config.preciseBnBatches, defaults().config.preciseBnBatches);
         },
         QT_TRANSLATE_NOOP("TrainOption", "Precise BN"), 0, kMaxBatchesPerEpoch});
    return t;
}
} // namespace

const std::vector<TrainOption>& trainOptions()
{
    static const std::vector<TrainOption> table = makeTable();
    return table;
}

const TrainOption* findTrainOption(std::string_view name)
{
    for (const TrainOption& o : trainOptions())
        if (o.name == name)
            return &o;
    return nullptr;
}

void applyTrainOptions(TrainSettings& s, const std::map<std::string, std::string>& given)
{
    if (given.count("device") && given.count("threads"))
        throw ConfigError("give either --device or --threads, not both");
    for (const TrainOption& o : trainOptions()) {
        const auto it = given.find(o.name);
        if (it == given.end())
            continue;
        if (!o.needs.empty() && !given.count(o.needs)) {
            const TrainOption* needed = findTrainOption(o.needs);
            throw ConfigError("--" + o.name + " needs --" + o.needs + " " + (needed ? needed->value : std::string()));
        }
        o.parse(s, it->second, o);
    }
    // A device that names its level or precision keeps it; --isa or --precision saying otherwise is
    // refused rather than dropped.
    if (const auto device = given.find("device"); device != given.end()) {
        const DeviceSpec named = parseDeviceSpec(device->second);
        if (const auto isa = given.find("isa"); isa != given.end() && named.isa && *named.isa != parseIsa(isa->second))
            throw ConfigError("--isa " + isa->second + " and --device " + device->second + " name two levels");
        const bool namesPrecision = device->second.find('+') != std::string::npos;
        if (const auto p = given.find("precision");
            p != given.end() && namesPrecision && named.precision != parsePrecision(p->second))
            throw ConfigError("--precision " + p->second + " and --device " + device->second + " name two precisions");
    }
    // The CPU's own settings, refused with another device rather than dropped.
    if (const DeviceSpec& d = s.config.device; d.kind != DeviceKind::Cpu) {
        if (const auto p = given.find("precision"); p != given.end() && parsePrecision(p->second) != Precision::Fp32)
            throw ConfigError("--precision " + p->second + " is for the CPU, not " + d.id());
        if (const auto isa = given.find("isa"); isa != given.end())
            throw ConfigError("--isa " + isa->second + " is for the CPU, not " + d.id());
    }
    validateTrainConfig(s.config);
}

std::vector<std::string> formatTrainOptions(const TrainSettings& s, const std::vector<std::string>& only)
{
    std::vector<std::string> args;
    for (const TrainOption& o : trainOptions()) {
        if (!only.empty() && std::find(only.begin(), only.end(), o.name) == only.end())
            continue;
        const std::optional<std::string> v = o.format(s);
        if (!v)
            continue;
        args.push_back("--" + o.name);
        if (!o.value.empty())
            args.push_back(*v);
    }
    return args;
}

} // namespace tb
