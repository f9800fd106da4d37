// What several of trainbench-cli's commands share: Ctrl-C, the training options (the table of
// train/train_options.hpp) and the data and weights the options name. printJson is in commands.hpp.
#pragma once

#include "options.hpp"

#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/model_spec.hpp"
#include "train/train_options.hpp"

#include <atomic>
#include <csignal>
#include <functional>
#include <string>
#include <vector>

namespace tbcli {

// Set by onSigint, the SIGINT handler train and compare install while they run: they stop between
// batches.
extern std::atomic<bool> g_interrupted;
extern "C" void onSigint(int);

// While set, a stop signal ends the process at once (exit code Interrupted) instead of setting
// g_interrupted, after `delaySeconds` (0: none) and after writing `out` to stdout and `err` to
// stderr (each may be empty). For a rank of an MPI run whose data is still loading: it cannot stop
// between batches with the others, and mpirun kills the ranks a second after it passes them Ctrl-C.
struct ExitOnSignal {
    const char* out;
    const char* err;
    unsigned delaySeconds;
};
extern std::atomic<const ExitOnSignal*> g_exitOnSignal;

// A standard output that can no longer be written (the program reading the pipe ended: SIGPIPE is
// ignored, so a write fails with EPIPE; a full disk) stops a run as Ctrl-C does, keeping its work:
// nobody reads its progress. After a flush: true, g_interrupted set and the reason kept, when stdout
// has failed. g_outputError is its errno, 0 while stdout works.
extern std::atomic<int> g_outputError;
bool stopIfOutputLost();
std::string outputLostText(); // "cannot write to the standard output: Broken pipe"

// While it lives, Ctrl-C (SIGINT), SIGTERM (kill, a service manager stopping the command) and SIGHUP set
// g_interrupted: the run stops between batches and keeps its work (--save, the checkpoint) as a
// stopped run; outside it they end the process as usual. SIGHUP ignored when it starts (nohup) stays
// ignored, and each signal's earlier action comes back when it ends.
class StopOnSignals {
public:
    StopOnSignals();
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

private:
    struct sigaction m_previous[3];
};

// The exit code of a run stopped by g_interrupted: FileError when the standard output was lost,
// Interrupted (130) for a signal; and the sentence that says why on stderr ("Stopped by the user").
int stopCode();
std::string stopText();

// A text model's test loss in bits per symbol, for the "Test loss" line: " - test bpc: 2.1234".
std::string testBpcText(double loss);

// The training options `o` gives, checked (train/train_options.hpp), over `base`'s settings where
// there is one (a resumed run's: the options then change where it goes on).
tb::TrainSettings trainSettingsFrom(const Options& o, const tb::TrainConfig* base = nullptr);
// --model, or without it the preset for --data: small-text-lstm for a file (a text), tpu-mnist-cnn
// for a folder (IDX images; a folder of texts needs --model).
tb::ModelSpec modelOption(const Options& o);
// A text preset's own optimizer, learning rate, batch and epochs (tb::presetTraining, as the window
// sets them) in `cfg` where the command line gives none; `batch` false leaves the batch (compare's
// batch sweep sets it). Returns the line that says so, empty when nothing changed.
std::string applyPresetTraining(tb::TrainConfig& cfg, const tb::ModelSpec& spec, const Options& o, bool batch = true);
// --data for `spec`: IDX images (read with `images`: predict reads the test split only), or a text cut
// by --sequence-length and --vocabulary; `training` false: a text for weights already trained (its
// vocabulary, an evaluation), which may be one symbol repeated.
tb::Dataset loadData(const Options& o, const tb::ModelSpec& spec, const tb::DatasetOptions& images = {},
                     bool training = true);
// A --data given that does not exist, where nothing has said whether it should be a folder of IDX files
// or a text (`kindKnown` false: no --model, or weights not read yet): a DataError saying it is missing
// and what --data takes.
void requireDataExists(const Options& o, bool kindKnown);
// The device --device names, where it cannot `work` ("train", "evaluate") here: a ConfigError naming it
// as typed, with what an alias stands for ("gpu:0 (cuda:0)"), before any file is read.
void requireDeviceUsable(const Options& o, const tb::DeviceSpec& device, const std::string& work);
// The weights file option `option` names (--save), when there is one, must say its format by its
// extension (.tbw, .safetensors, .onnx): no format written under a name that says another.
void requireWeightsName(const Options& o, const char* option);
// The dataset that gives a safetensors file of another program its input size and classes, for the
// model --model names (loadData, or one already read); null: none.
using ModelData = std::function<const tb::Dataset*(const tb::ModelSpec&)>;
// --weights, with --model for a safetensors file of another program. `data` is called only for such a
// file: a .tbw, or a safetensors file Trainbench wrote, names its model and input, and no dataset is
// read for it (evaluate then reads a text once, cut as the weights say).
tb::WeightsFile loadWeightsOption(const Options& o, const ModelData& data);
// --data without --model, in a command that reads data only for such a file (export, predict,
// generate): a UsageError, which `gives` completes (what the data gives the file), not data unread.
void requireModelWithData(const Options& o, const std::string& gives);
// The file option `option` names (--save, --csv, --predictions), which the command writes after its
// work: IoError before the work when it cannot be written (tb::unwritableReason), so none is lost.
void requireWritable(const Options& o, const char* option);

} // namespace tbcli
