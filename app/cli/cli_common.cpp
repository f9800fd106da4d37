// What several of trainbench-cli's commands share: JSON lines, Ctrl-C and SIGTERM, the training
// options and the data and weights the options name.
#include "cli_common.hpp"

#include "commands.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/text_dataset.hpp"
#include "device/device.hpp"
#include "environment.hpp"
#include "io/weights_formats.hpp"
#include "kernels/isa.hpp"
#include "model/model_spec.hpp"
#include "optim/optimizer.hpp"
#include "train/checkpoint.hpp"
#include "train/run_folder.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <optional>
#include <vector>

#include <unistd.h>

namespace tbcli {

void printJson(const nlohmann::ordered_json& j, std::FILE* to)
{
    std::fputs((tb::jsonText(j) + "\n").c_str(), to);
    std::fflush(to);
    if (to == stdout)
        stopIfOutputLost();
}

std::atomic<bool> g_interrupted{false};
std::atomic<const ExitOnSignal*> g_exitOnSignal{nullptr};
std::atomic<int> g_outputError{0};

bool stopIfOutputLost()
{
    if (!std::ferror(stdout))
        return false;
    int none = 0; // the first failure's reason: errno as the flush left it
    g_outputError.compare_exchange_strong(none, errno ? errno : EIO);
    g_interrupted = true;
    return true;
}

std::string outputLostText()
{
    return std::string("cannot write to the standard output: ") + std::strerror(g_outputError.load());
}

int stopCode()
{
    return g_outputError ? FileError : Interrupted;
}

std::string stopText()
{
    return g_outputError ? "Stopped: " + outputLostText() : std::string("Stopped by the user");
}

std::string testBpcText(double loss)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, " - test bpc: %.4f", tb::bitsPerSymbol(loss));
    return buf;
}

// The first signal asks the run to stop where it keeps its work; a second SIGINT or SIGTERM, for
// someone who will not wait (a large dataset still loading, a long test evaluation), ends the process
// as the signal does by default (files are written atomically, so none is left half-written). A
// second SIGHUP does not: a dropped ssh session sends one from the shell and one from the kernel.
extern "C" void onSigint(int signal)
{
    if (const ExitOnSignal* now = g_exitOnSignal.load()) { // only async-signal-safe calls here
        if (now->delaySeconds > 0) {
            struct timespec delay {};
            delay.tv_sec = time_t(now->delaySeconds);
            nanosleep(&delay, nullptr);
        }
        [[maybe_unused]] ssize_t written = write(STDOUT_FILENO, now->out, std::strlen(now->out));
        written = write(STDERR_FILENO, now->err, std::strlen(now->err));
        _exit(Interrupted);
    }
    if (g_interrupted.exchange(true) && signal != SIGHUP) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

namespace {
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP}; // SIGHUP: the terminal closed, a session dropped
}

StopOnSignals::StopOnSignals()
{
    for (int i = 0; i < 3; ++i) {
        struct sigaction stop {};
        stop.sa_handler = onSigint;
        sigemptyset(&stop.sa_mask);
        sigaction(kStopSignals[i], nullptr, &m_previous[i]);
        // nohup's SIGHUP stays ignored. SIGINT is taken even where a shell ignored it for a command
        // it put in the background (`kill -INT` then stops it, as it always has).
        if (kStopSignals[i] != SIGHUP || m_previous[i].sa_handler != SIG_IGN)
            sigaction(kStopSignals[i], &stop, nullptr);
    }
}

StopOnSignals::~StopOnSignals()
{
    for (int i = 0; i < 3; ++i)
        sigaction(kStopSignals[i], &m_previous[i], nullptr);
}

// The training options `o` gives (train/train_options.hpp: the same defaults, limits and messages as
// the window's fields), checked, over `base` where there is one (a resumed run's own config). Without
// a level from the device or --isa, the kernels' level is TRAINBENCH_ISA, else the best this CPU runs.
tb::TrainSettings trainSettingsFrom(const Options& o, const tb::TrainConfig* base)
{
    tb::TrainSettings s;
    if (base)
        s.config = *base;
    tb::applyTrainOptions(s, o.given());
    if (s.config.device.kind == tb::DeviceKind::Cpu && !s.config.device.isa)
        s.config.device.isa = tb::defaultIsa();
    s.config.kernelCacheDir = tb::env::kernelCacheDir();
    return s;
}

tb::ModelSpec modelOption(const Options& o)
{
    if (o.has("model"))
        return tb::loadModelSpec(o.text("model", ""));
    const bool text = o.has("data") && tb::isTextDataPath(o.text("data", ""));
    return tb::loadModelSpec(text ? tb::defaultTextPreset() : tb::defaultPreset());
}

std::string applyPresetTraining(tb::TrainConfig& cfg, const tb::ModelSpec& spec, const Options& o, bool batch)
{
    // By the model's name, as the window does (a model file that calls itself small-text-lstm too).
    const tb::PresetTraining* t = tb::presetTraining(spec.name);
    if (!t)
        return {};
    std::vector<std::string> set;
    if (!o.has("optimizer")) {
        cfg.optimizer.kind = tb::parseOptimizer(t->optimizer);
        set.push_back(t->optimizer);
        if (!o.has("lr")) { // a rate of another optimizer's is not this one's
            cfg.optimizer.learningRate = t->learningRate;
            char rate[32];
            std::snprintf(rate, sizeof rate, "%g", double(t->learningRate));
            set.push_back(std::string("learning rate ") + rate);
        }
    }
    if (batch && !o.has("batch")) {
        cfg.batchSize = t->batchSize;
        set.push_back("batch " + std::to_string(t->batchSize));
    }
    if (!o.has("epochs")) {
        cfg.epochs = t->epochs;
        set.push_back(std::to_string(t->epochs) + " epochs");
    }
    if (set.empty())
        return {};
    std::string line = spec.name + " trains with its own settings where the command line gives none:";
    for (size_t i = 0; i < set.size(); ++i)
        line += (i ? ", " : " ") + set[i];
    return line + " (--optimizer, --lr, --batch and --epochs change them)";
}

void requireDataExists(const Options& o, bool kindKnown)
{
    const std::string path = o.text("data", "");
    std::error_code ec;
    if (kindKnown || !o.has("data") || std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        return; // a link whose target is missing is the reading's to say
    // Missing, or a file on the way (GPL-3/x); not known to be missing (a folder on the way not
    // searchable): the reading says why.
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
        return;
    throw tb::DataError(path + " does not exist: --data takes a folder of IDX files, or for a text model a text "
                               "file or a folder of texts");
}

// --data: a folder of IDX files for an image model, a text file or folder of texts for a text model
// (--sequence-length, --vocabulary).
tb::Dataset loadData(const Options& o, const tb::ModelSpec& spec, const tb::DatasetOptions& images, bool training)
{
    const std::string path = o.text("data", tb::defaultDatasetDir());
    if (!spec.isText()) {
        requireDataExists(o, o.has("model"));
        if (o.has("sequence-length") || o.has("vocabulary"))
            throw UsageError("--sequence-length and --vocabulary are for text models; " + spec.name +
                             " is an image model");
        if (std::error_code ec;
            std::filesystem::is_regular_file(path, ec) && !tb::looksBinary(path) && tb::isTextDataPath(path))
            throw tb::DataError(path + " is a text, and " + spec.name +
                                " is not a text model: a text model starts with an Embedding layer, as " +
                                tb::defaultTextPreset() + " does");
        try {
            return tb::loadDataset(path, images);
        } catch (const tb::DataError& e) {
            // A folder without any IDX file, that the image model was chosen for by default: of texts?
            std::error_code ec;
            const bool noIdx = std::filesystem::is_directory(path, ec) && [&] {
                for (const char* part : {"train-images", "train-labels", "t10k-images", "t10k-labels"})
                    if (!tb::findIdxFile(path, part).empty())
                        return false;
                return true;
            }();
            if (!o.has("model") && noIdx)
                throw tb::DataError(std::string(e.what()) + " (if it holds texts, they train a text model: --model " +
                                    tb::defaultTextPreset() + ")");
            throw;
        }
    }
    if (!o.has("data"))
        throw UsageError(spec.name + " is a text model: give --data a text file or a folder of texts (the default, " +
                         path + ", holds images)");
    tb::TextOptions t;
    t.sequenceLength =
        int(o.integer("sequence-length", spec.sequenceLength > 0 ? spec.sequenceLength : 100, 1, 100000));
    const std::string v = o.text("vocabulary", "bytes");
    if (v != "bytes" && v != "characters")
        throw UsageError("--vocabulary is bytes or characters (got \"" + v + "\")");
    t.vocabulary = v == "bytes" ? tb::TextVocabularyKind::Bytes : tb::TextVocabularyKind::Characters;
    t.forTraining = training;
    return tb::loadTextDataset(path, t);
}

namespace {
// What the file's reader should hear of it (tb::WeightsFile::notice), on stderr.
void warnOf(const tb::WeightsFile& w)
{
    if (!w.notice.empty())
        std::fprintf(stderr, "warning: %s\n", w.notice.c_str());
}
} // namespace

void requireModelWithData(const Options& o, const std::string& gives)
{
    if (o.has("data") && !o.has("model"))
        throw UsageError("--data goes with --model: " + gives +
                         " a safetensors file of another program (a file that names its model needs none)");
}

// The weights named by --weights: a .tbw or safetensors file. A safetensors file written by another
// program says nothing of its model: --model names it, and the dataset gives the input and classes.
tb::WeightsFile loadWeightsOption(const Options& o, const ModelData& data)
{
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    std::optional<tb::ModelSpec> spec;
    if (o.has("model"))
        spec = tb::loadModelSpec(o.text("model", ""));
    tb::ModelHint hint = tb::modelHint(spec ? &*spec : nullptr, nullptr);
    if (spec && data)
        hint.dataset = [&] { return data(*spec); };
    const std::string path = o.text("weights", "");
    tb::WeightsFile w = tb::loadAnyWeights(path, &hint);
    // A .tbw, and a safetensors file Trainbench exported, name their model (the hint is not used for
    // them): a --model that says another would otherwise be ignored without a word.
    if (spec && w.spec.json != spec->json) {
        const std::string model = o.text("model", "");
        throw UsageError(
            path + " holds " + (w.spec.name.empty() ? "a model without a name" : w.spec.name) +
            (w.spec.name == spec->name ? " described otherwise than in --model " + model : ", not --model " + model) +
            ": the file names its model, so leave out --model (it says which model a safetensors "
            "file written by another program holds)");
    }
    if (o.has("vocabulary") && !w.spec.isText())
        throw UsageError("--vocabulary is for text models; " + path + " holds an image model (" + w.spec.name + ")");
    if (o.has("vocabulary") && w.describesModel)
        throw UsageError(path + " names its model and its vocabulary: leave out --vocabulary (it says which symbols "
                                "a text model of another program learned)");
    warnOf(w);
    return w;
}

void requireDeviceUsable(const Options& o, const tb::DeviceSpec& device, const std::string& work)
{
    if (!o.has("device") || device.kind == tb::DeviceKind::Cpu) // a CPU's level and precision: the options say
        return;
    const std::string why = tb::deviceUnavailableReason(device, tb::detectSystem());
    if (why.empty())
        return;
    const std::string typed = o.text("device", "");
    throw tb::ConfigError("--device " + typed + (typed == device.id() ? "" : " (" + device.id() + ")") + " cannot " +
                          work + ": " + why);
}

void requireWeightsName(const Options& o, const char* option)
{
    if (!o.has(option))
        return;
    const std::string path = o.text(option, "");
    if (path == "-") // not a file named "-", and no standard output: weights are a file
        throw UsageError("--" + std::string(option) +
                         " -: the weights go to a file; give its name (NAME.tbw, NAME.safetensors or NAME.onnx)");
    if (!tb::weightsFormatNamedBy(path))
        throw UsageError("--" + std::string(option) + " " + path +
                         ": its name says no format; the weights are written as Trainbench weights (.tbw), "
                         "safetensors (.safetensors) or ONNX (.onnx): end the name with one of these");
}

void requireWritable(const Options& o, const char* option)
{
    if (!o.has(option))
        return;
    const std::string path = o.text(option, "");
    if (path == "-") // not a file named "-": say that this option has no standard output
        throw UsageError("--" + std::string(option) + " -: give a file name, or /dev/stdout for standard output");
    if (const std::string why = tb::unwritableReason(path); !why.empty())
        throw tb::IoError("--" + std::string(option) + " " + path + ": cannot write it: " + why);
}

} // namespace tbcli
