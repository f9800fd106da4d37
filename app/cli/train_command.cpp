// `trainbench-cli train`: one run (or its resumption from a checkpoint) with Keras-like progress
// on a terminal or JSON lines, then the test result, the weights' hash and the files written.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/text_dataset.hpp"
#include "environment.hpp"
#include "io/weights_formats.hpp"
#include "kernels/isa.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "predict/text_generator.hpp"
#include "train/checkpoint.hpp"
#include "train/precise_bn.hpp"
#include "train/progress_text.hpp"
#include "train/run_folder.hpp"
#include "train/run_history.hpp"
#include "train/session.hpp"
#include "train/test_record.hpp"
#include "train/train_options.hpp"
#include "train/trainer.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <unistd.h>

namespace tbcli {

namespace {
// What a text model's epoch adds to its line: bits per symbol, and a sample of its writing.
struct TextEpoch {
    const tb::Network* net = nullptr; // null: an image model
    tb::TextVocabulary vocab;

    void watch(const tb::Network& n, const tb::Dataset& data)
    {
        net = &n;
        vocab = tb::vocabularyOf(data);
    }
    std::string sample(int epoch) const { return tb::epochSample(*net, vocab, epoch); }
};

// Prints Keras-like progress: redrawn in place on a terminal, every few seconds in a log. Under mpirun
// a rank's standard output is mpirun's pseudo-terminal whatever mpirun's own is (a cluster job's log
// file, where redrawn lines would run together): a log's lines.
class TextProgress : public tb::TrainObserver {
public:
    // Shows the learning rate beside the metrics when a schedule moves it.
    explicit TextProgress(const tb::TrainingSession& session)
        : m_schedule(session.config().schedule), m_steps(session.info().stepsPerEpoch),
          m_epochs(session.config().epochs), m_showRate(session.config().schedule.kind != tb::ScheduleKind::Constant),
          m_tty(isatty(fileno(stdout)) && !session.config().communicator)
    {
    }

    void batchFinished(const tb::BatchProgress& p) override
    {
        announce(p.epoch); // also a resumed run's first, mid-epoch
        const auto now = std::chrono::steady_clock::now();
        const double dt = std::chrono::duration<double>(now - m_last).count();
        if (p.step < p.steps && dt < (m_tty ? 0.1 : 5.0))
            return;
        m_last = now;
        if (p.step == p.steps)
            return; // the epoch line replaces it
        if (m_tty) {
            std::printf("\r%s", tb::progressLine(p).c_str());
            m_pending = true;
        } else {
            std::printf("%s\n", tb::progressLine(p).c_str());
        }
        std::fflush(stdout);
        stopIfOutputLost();
    }

    // A text model: bits per character beside the loss, and a sample of its writing after each epoch.
    void showText(const tb::Network& net, const tb::Dataset& data) { m_text.watch(net, data); }

    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult&) override
    {
        announce(r.epoch); // resumed in its validation: no step said which epoch
        std::printf("%s%s", m_pending ? "\r" : "", tb::epochLine(r, m_steps).c_str());
        if (m_text.net)
            std::printf(" - bpc: %.4f - val_bpc: %.4f", tb::bitsPerSymbol(r.loss), tb::bitsPerSymbol(r.valLoss));
        if (m_showRate)
            std::printf(" - learning_rate: %.4g", r.learningRate);
        std::printf("\n");
        if (m_text.net) {
            // A model that learned a text's indentation may write only that: said, not a blank line (a
            // line break shows, as "↵").
            const std::string sample = m_text.sample(r.epoch);
            if (sample.find_first_not_of(" \t\r") == std::string::npos)
                std::printf("Sample: (only spaces, %zu bytes)\n", sample.size());
            else
                std::printf("Sample: %s\n", tb::printableSample(sample).c_str());
        }
        // Keras' callbacks say what they did in the same words.
        for (const std::string& line : tb::callbackLines(r, m_schedule))
            std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        stopIfOutputLost();
        m_pending = false;
    }

private:
    // "Epoch N/M" once, before the epoch's first line.
    void announce(int epoch)
    {
        if (epoch == m_epoch)
            return;
        m_epoch = epoch;
        std::printf("Epoch %d/%d\n", epoch, m_epochs);
    }

    tb::LrSchedule m_schedule;
    TextEpoch m_text;
    int m_steps, m_epochs;
    bool m_showRate;
    bool m_tty;
    bool m_pending = false;
    int m_epoch = 0;
    std::chrono::steady_clock::time_point m_last{};
};

class JsonProgress : public tb::TrainObserver {
public:
    void batchFinished(const tb::BatchProgress& p) override { printJson(batchJson(p)); }
    // A resumed run's batches up to its checkpoint (RunInfo::batches) and its epochs (RunInfo::history),
    // before its own: the lines the run printed then, in their order, each with "replayed": true;
    // "batches": N where a long run's curve keeps one point for N of them (train/batch_curve.hpp). A
    // text's epoch has no sample: it was written by weights that are gone.
    void replay(const std::vector<tb::BatchPoint>& points, const std::vector<tb::EpochRecord>& history)
    {
        size_t epochs = 0; // of history, printed
        const auto epochsBefore = [&](int epoch) {
            for (; epochs < history.size() && history[epochs].epoch < epoch; ++epochs) {
                nlohmann::ordered_json j = epochJson(history[epochs]);
                j["replayed"] = true;
                printJson(j);
            }
        };
        for (const tb::BatchPoint& b : points) {
            epochsBefore(b.progress.epoch);
            nlohmann::ordered_json j = batchJson(b.progress);
            j["replayed"] = true;
            if (b.batches > 1)
                j["batches"] = b.batches;
            printJson(j);
        }
        epochsBefore(std::numeric_limits<int>::max());
    }
    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult&) override
    {
        nlohmann::ordered_json j = epochJson(r);
        if (m_text.net)                           // as the text lines say it; the sample whole, line breaks and all
            j["sample"] = m_text.sample(r.epoch); // bytes that are not UTF-8 as U+FFFD (printJson)
        printJson(j);
    }
    void showText(const tb::Network& net, const tb::Dataset& data) { m_text.watch(net, data); }

private:
    nlohmann::ordered_json epochJson(const tb::EpochRecord& r) const
    {
        nlohmann::ordered_json j = {{"event", "epoch"}};
        j.update(nlohmann::ordered_json(r)); // the epoch record as the files keep it (config/records.hpp)
        if (m_text.net) {
            j["bpc"] = tb::bitsPerSymbol(r.loss);
            j["val_bpc"] = tb::bitsPerSymbol(r.valLoss);
        }
        return j;
    }
    static nlohmann::ordered_json batchJson(const tb::BatchProgress& p)
    {
        nlohmann::ordered_json j;
        j["event"] = "batch";
        j["epoch"] = p.epoch;
        j["epochs"] = p.epochs;
        j["step"] = p.step;
        j["steps"] = p.steps;
        j["loss"] = p.loss;
        j["accuracy"] = p.accuracy;
        j["batch_loss"] = p.batchLoss;
        j["batch_accuracy"] = p.batchAccuracy;
        j["samples_per_sec"] = p.samplesPerSec;
        j["eta_s"] = p.step > 0 ? p.epochElapsed / p.step * (p.steps - p.step) : 0.0;
        return j;
    }

    TextEpoch m_text;
};

// `s` as one word of a POSIX shell: as it is when it holds only characters no shell reads specially,
// otherwise in single quotes, a quote in it written '\''.
std::string shellWord(const std::string& s)
{
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+,:=@%", c);
    });
    if (plain)
        return s;
    std::string quoted = "'";
    for (char c : s)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// The command that resumes the run. A dataset folder whose name is not UTF-8 is recorded with U+FFFD
// in its place (JSON holds UTF-8), so the resume needs it given again. --save is not a setting the run
// keeps: the command gives it again, or the file asked for would keep the weights of the stop.
std::string resumeCommand(const tb::RunFolder& run, const tb::Dataset& data, const Options& o)
{
    // Paths whole, so that it works from any folder (a relative --runs-dir made the run's path relative).
    const auto whole = [](const std::string& path) { // as given, where the working folder is gone
        std::error_code ec;
        const std::filesystem::path p = std::filesystem::absolute(path, ec);
        return shellWord(ec ? path : p.lexically_normal().string());
    };
    std::string command = "trainbench-cli train --resume " + whole(run.path);
    if (tb::firstInvalidUtf8(data.directory) != std::string::npos)
        command += " --data " + shellWord(data.directory);
    if (o.has("save"))
        command += " --save " + whole(o.text("save", ""));
    return command;
}

} // namespace

int trainCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("train"), args);
    if (o.has("resume")) {
        // The run goes on with its own settings; only where it runs and how it is watched can change.
        // --runs-dir says where a run named by its folder's name (or latest) is, as for `runs show`.
        std::vector<std::string> fixed = {"model", "sequence-length", "vocabulary", "no-run-folder"};
        for (const tb::TrainOption& t : tb::trainOptions())
            if (t.fixedOnResume)
                fixed.push_back(t.name);
        for (const std::string& name : fixed)
            if (o.has(name))
                throw UsageError("--resume continues a run with its own settings; --" + name + " cannot change them");
    }
    tb::TrainSettings settings = trainSettingsFrom(o); // checked before any file is read
    requireWeightsName(o, "save");
    requireWritable(o, "save"); // before the training it would lose
    if (o.has("save") && o.has("no-run-folder") && tb::env::processLaunch().rank == 0 && // once under mpirun
        tb::weightsFormatOfPath(o.text("save", "")) == tb::WeightsFormat::Onnx)
        std::fprintf(stderr,
                     "note: %s is for other tools: Trainbench does not read ONNX back, and without a run "
                     "folder the run keeps no weights it can evaluate, export or resume (a .tbw does)\n",
                     o.text("save", "").c_str());
    // A resumed run keeps its device: --threads, --device, --isa and --precision change only what they name.
    std::optional<tb::RunFolder> resumed;
    std::optional<tb::Checkpoint> checkpoint;
    if (o.has("resume")) {
        // A path as given (RunFolder::open says what is wrong with it: a file given for its folder); a
        // name (or latest) looked up as `runs show` does.
        const std::string run = o.text("resume", "");
        resumed = tb::RunFolder::open(
            run.find('/') != std::string::npos ? run : tb::findRun(o.text("runs-dir", tb::env::runsDir()), run));
        // Refused at once when another process trains the run; held from before its checkpoint is read
        // to the end (the session shares it). Under mpirun, rank 0 writes the folder and holds it.
        if (tb::env::processLaunch().rank == 0)
            resumed->takeLock();
        // A run that ended has nothing to go on with: resuming it would evaluate it again and record
        // it anew (on the device of the resume, its weights file written again). One whose process
        // died after its last step, before it recorded its end, goes on: it finishes.
        if (const tb::RunSummary ran = tb::readRun(resumed->path); ran.finished())
            throw UsageError(ran.resumeRefusal());
        checkpoint = tb::readCheckpoint(resumed->checkpoint());
        settings = trainSettingsFrom(o, &checkpoint->config);
    }
    requireDeviceUsable(o, settings.config.device, "train");
    const bool json = o.has("json");
    // Under mpirun: one data-parallel run; rank 0 prints and writes the run folder and the weights,
    // the other ranks train silently (their errors still go to stderr).
    const std::shared_ptr<tb::Communicator> comm = tb::processCommunicator(tb::env::processLaunch());
    const bool lead = !comm || comm->rank() == 0;
    if (!lead && !std::freopen("/dev/null", "w", stdout))
        throw tb::IoError("cannot silence the standard output of MPI rank " + std::to_string(comm->rank()));
    const std::string savePath = lead ? o.text("save", "") : "";
    const int checkpointEvery = settings.checkpointEvery;

    // From before the data is read to the run's end, a signal stops the run instead of ending the
    // process: one between a new run's folder and its first step left a run.json saying "running" and
    // no checkpoint (its first step now sees the flag, and the stopped run resumes); one in an epoch's
    // validation stops it there; one after the last epoch's validation waits for the test evaluation
    // and the files (weights, run.json) to be written whole instead of killing the process among them.
    const StopOnSignals stopOn;
    // Under mpirun, a signal while the data loads ends the ranks at once (nothing is written yet):
    // rank 0 says so, as one process does; another rank says so after a pause, which only a signal
    // sent to it alone leaves it (mpirun kills every rank a second after it passes them Ctrl-C). The
    // ranks cannot tell Ctrl-C from mpirun ending the job because another rank failed: both reach them
    // as SIGTERM.
    const std::string stoppedLoading = "Stopped by a signal before the run started (Ctrl-C, or mpirun ending the job "
                                       "after another rank's error); nothing was written.\n";
    const std::string rankStoppedLoading =
        comm ? "MPI rank " + std::to_string(comm->rank()) + ": " + stoppedLoading : std::string();
    const std::string stoppedJson =
        json && lead
            ? tb::jsonText(nlohmann::ordered_json{{"event", "stopped"}, {"exit_code", int(Interrupted)}}) + "\n"
            : std::string();
    const ExitOnSignal exitWhileLoading{stoppedJson.c_str(), lead ? stoppedLoading.c_str() : rankStoppedLoading.c_str(),
                                        lead ? 0u : 2u};
    struct ExitWhileLoading {
        explicit ExitWhileLoading(const ExitOnSignal* e) { g_exitOnSignal = e; }
        ~ExitWhileLoading() { g_exitOnSignal = nullptr; }
        void done() { g_exitOnSignal = nullptr; }
    } loading(comm ? &exitWhileLoading : nullptr);
    std::unique_ptr<tb::TrainingSession> owned;
    if (resumed) {
        const std::string dataDir = o.has("data") ? o.text("data", "") : checkpoint->data.directory;
        std::error_code ec;
        if (!o.has("data") && dataDir.find("\xef\xbf\xbd") != std::string::npos &&
            !std::filesystem::exists(dataDir, ec))
            throw UsageError("the run's dataset folder is recorded as " + dataDir +
                             ": its name is not UTF-8, which the checkpoint cannot keep; give it with --data");
        tb::Dataset data = tb::loadDatasetFor(dataDir, checkpoint->weights);
        owned = tb::TrainingSession::resume(*resumed, std::move(*checkpoint), std::move(data), settings.config.device,
                                            checkpointEvery, comm, tb::env::kernelCacheDir());
        checkpoint.reset();
        if (const std::string& note = owned->datasetNote(); !note.empty() && lead)
            std::fprintf(stderr, "Note: %s\n", note.c_str());
        if (const std::string& note = owned->curveNote(); !note.empty() && lead)
            std::fprintf(stderr, "Note: %s\n", note.c_str());
    } else {
        tb::TrainConfig cfg = settings.config;
        cfg.communicator = comm;
        const tb::ModelSpec spec = modelOption(o);
        const std::string own = applyPresetTraining(cfg, spec, o);
        tb::Dataset data = loadData(o, spec);
        // Before the model meets the classes: a corrupt label also makes its last layer "need 201 units".
        if (const std::string note = tb::emptyClassesNote(data); !note.empty() && lead)
            std::fprintf(stderr, "Note: %s\n", note.c_str());
        owned = std::make_unique<tb::TrainingSession>(spec, std::move(data), cfg);
        if (!own.empty() && lead && !json) // once the data is read: a run that cannot start says only why
            std::printf("%s\n", own.c_str());
        if (o.has("no-run-folder") && o.has("checkpoint-every"))
            throw UsageError("--checkpoint-every needs a run folder; leave out --no-run-folder");
    }
    loading.done();        // from here the ranks stop together at the first step
    if (!savePath.empty()) // before the run folder and the training, not after
        tb::requireSavableAs(owned->network(), owned->data().classNames, tb::weightsFormatOfPath(savePath));
    // A signal while the data loaded (seconds for a large gzip file or text): no run yet, nothing
    // written; said, where the process ended without a word. Under MPI the signal ended the ranks
    // (ExitWhileLoading above).
    if (!comm && g_interrupted.load()) {
        if (json)
            printJson({{"event", "stopped"}, {"exit_code", int(Interrupted)}});
        std::fprintf(stderr, "Stopped by the user before the run started; nothing was written.\n");
        return Interrupted;
    }
    if (!resumed && !o.has("no-run-folder") && lead) // the other ranks of an MPI run write nothing
        owned->createRunFolder(o.text("runs-dir", tb::env::runsDir()), checkpointEvery);
    tb::TrainingSession& session = *owned;
    const tb::TrainConfig& cfg = session.config();
    const tb::ModelSpec& spec = session.network().spec();
    const tb::Dataset& data = session.data();

    const tb::RunInfo info = session.info();
    const std::string& ranOn = session.ranOn(); // as the window says it, and run.json records it
    // What "learning" means for a text: below the unigram entropy of the symbols each epoch validates
    // on (--validation-limit: its first sequences), which val_bpc is of.
    const double entropy = [&] {
        if (!data.isText())
            return 0.0;
        const tb::ImageSplit& v = session.validationSplit();
        const int validated = cfg.validationLimit > 0 ? std::min(cfg.validationLimit, v.count) : v.count;
        return tb::unigramEntropy({v.labels.begin(), v.labels.begin() + int64_t(validated) * v.steps}, data.numClasses);
    }();
    if (json) {
        nlohmann::ordered_json j;
        j["event"] = "start";
        j["model"] = spec.name;
        j["params"] = session.network().paramCount() + session.network().stateCount();
        j["dataset"] = data.directory;
        j["train_images"] = data.train.count;
        j["test_images"] = data.test.count;
        j["device"] = info.device.id();
        j["threads"] = info.device.threads;
        j["batch"] = cfg.batchSize;
        j["epochs"] = cfg.epochs;
        j["optimizer"] = tb::optimizerName(cfg.optimizer.kind);
        j["learning_rate"] = tb::jsonFloat(cfg.optimizer.learningRate);
        j["steps_per_epoch"] = info.stepsPerEpoch;
        j["seed"] = std::to_string(cfg.seed);
        if (info.device.isa)
            j["isa"] = tb::isaName(*info.device.isa);
        j["precision"] = tb::precisionName(info.device.precision);
        j["kernels"] = info.kernels;
        if (!info.setupNote.empty())
            j["setup_note"] = info.setupNote;
        if (cfg.validationLimit > 0) // the val_ figures are of the first N validation samples
            j["validation_limit"] = cfg.validationLimit;
        if (comm)
            j["mpi_ranks"] = comm->size();
        if (session.runFolder()) {
            j["run_folder"] = session.runFolder()->path;
            j["resumed_epoch"] = info.position.epoch;
            j["resumed_step"] = info.position.step;
        }
        if (!ranOn.empty())
            j["ran_on"] = ranOn;
        if (data.isText()) { // the images above are sequences; what "learning" means for this text
            j["sequence_length"] = data.inputHeight();
            j["vocabulary"] = tb::vocabularyOf(data).kind == tb::TextVocabularyKind::Bytes ? "bytes" : "characters";
            j["symbols"] = data.numClasses;
            j["text_bytes"] = data.textBytes;
            j["unigram_entropy_bits"] = tb::bitsPerSymbol(entropy);
        }
        printJson(j);
    } else {
        std::printf("%s\n", session.header().c_str());
        if (data.isText())
            std::printf("Unigram entropy of the validation text: %.4f nats (%.4f bits) per symbol\n", entropy,
                        tb::bitsPerSymbol(entropy));
        if (session.runFolder()) {
            const tb::RunPosition& at = info.position;
            std::string where;
            if (at.finished(cfg.epochs))
                where = " (the run is complete)";
            else if (at.inValidation(info.stepsPerEpoch))
                where = " (resumed at epoch " + std::to_string(at.epoch + 1) + "'s validation)";
            else if (at.epoch || at.step)
                where = " (resumed at epoch " + std::to_string(at.epoch + 1) + ", step " + std::to_string(at.step + 1) +
                        ")";
            std::printf("Run folder %s%s\n", session.runFolder()->path.c_str(), where.c_str());
        }
        if (!ranOn.empty())
            std::printf("It ran on %s until now; it continues on %s.\n", ranOn.c_str(), info.device.id().c_str());
        std::fflush(stdout);
    }

    TextProgress text(session);
    JsonProgress jsonOut;
    if (data.isText()) {
        text.showText(session.network(), data);
        jsonOut.showText(session.network(), data);
    }
    if (json)
        jsonOut.replay(info.batches, info.history);
    tb::TrainStatus status;
    try {
        status = session.run(json ? static_cast<tb::TrainObserver*>(&jsonOut) : &text, &g_interrupted);
    } catch (const tb::DivergedError& e) {
        if (!savePath.empty() && e.weightsKept()) {
            session.save(savePath); // the last good weights, so the run is not lost
            std::fprintf(stderr, "Saved the last good weights to %s\n", savePath.c_str());
        }
        throw;
    } catch (const tb::IoError&) {
        // A checkpoint or run.json that cannot be written (a full disk) ends the run, but the weights
        // trained so far are still here: --save keeps them where it can, as Ctrl-C does. These lines
        // come before the error's, which main prints: each says what it is about.
        std::fflush(stdout);
        if (!savePath.empty()) {
            try {
                session.save(savePath);
                std::fprintf(stderr, "Saved the weights so far to %s\n", savePath.c_str());
            } catch (const tb::Error& e) {
                std::fprintf(stderr, "The weights so far could not be saved to %s: %s\n", savePath.c_str(), e.what());
            }
        }
        if (session.runFolder() && access(session.runFolder()->checkpoint().c_str(), F_OK) == 0)
            std::fprintf(stderr, "The run's last checkpoint continues it: %s\n",
                         resumeCommand(*session.runFolder(), data, o).c_str());
        throw;
    }
    tb::FinishOptions finishing;
    finishing.savePath = savePath;
    const tb::RunResult result = [&] {
        try {
            return session.finish(status, finishing);
        } catch (const tb::IoError&) {
            // The run's end (weights.tbw, evaluation.json, run.json) could not be written (a full disk):
            // its checkpoint holds the trained weights, and resuming it records the end. Said before
            // the error, which main prints.
            std::fflush(stdout);
            if (session.runFolder() && access(session.runFolder()->checkpoint().c_str(), F_OK) == 0)
                std::fprintf(stderr, "The run's end could not be recorded; once there is space, this records it: %s\n",
                             resumeCommand(*session.runFolder(), data, o).c_str());
            throw;
        }
    }();
    if (status == tb::TrainStatus::Cancelled) {
        if (json) { // the last line, as an error's is: where the run stopped and what was kept
            const tb::RunPosition& at = session.position();
            nlohmann::ordered_json j;
            j["event"] = "stopped";
            j["exit_code"] = stopCode();
            j["epoch"] = at.epoch + 1;
            j["step"] = at.step; // the batches of that epoch finished
            if (!savePath.empty())
                j["saved"] = savePath;
            if (session.runFolder())
                j["run_folder"] = session.runFolder()->path;
            printJson(j);
        }
        std::fflush(stdout); // the progress lines first, also when both go to one file
        const std::string saved = savePath.empty() ? "" : "; the weights so far were saved to " + savePath;
        if (lead || g_outputError) // under mpirun every rank gets the signal; one says so
            std::fprintf(stderr, "\n%s%s.\n", stopText().c_str(), saved.c_str());
        if (session.runFolder())
            std::fprintf(stderr, "Continue with: %s\n", resumeCommand(*session.runFolder(), data, o).c_str());
        return stopCode();
    }
    if (!json && result.restoredBest)
        std::printf("Restoring model weights from the end of the best epoch: %d.\n", result.bestEpoch);
    if (const std::optional<tb::PreciseBnResult>& p = result.preciseBn) {
        if (json) {
            nlohmann::ordered_json j;
            j["event"] = "precise_bn";
            j["batches"] = p->batches;
            j["images"] = p->samples;
            j["layers"] = p->layers;
            printJson(j);
        } else {
            std::printf("%s\n", tb::preciseBnText(*p).c_str());
        }
    } else if (const std::optional<tb::BatchNormWarmth>& warmth = result.batchNormWarmth;
               warmth && warmth->stillInitial()) {
        if (json) {
            nlohmann::ordered_json j;
            j["event"] = "batchnorm_still_initial";
            j["steps"] = warmth->steps;
            j["momentum"] = warmth->momentum;
            j["initial_share"] = warmth->initialShare;
            printJson(j);
        } else {
            std::printf("%s\n", tb::batchNormWarmthText(*warmth).c_str());
        }
    }
    const tb::EvalResult& test = result.test;
    if (json) {
        nlohmann::ordered_json j;
        j["event"] = "done";
        j["test"] = tb::testResultOf(test);
        if (data.isText())
            j["test_bpc"] = tb::bitsPerSymbol(test.loss);
        j["weights_sha256"] = result.weightsSha256;
        if (comm && session.iterations() > 0)
            j["mpi_bytes_per_step"] = comm->bytesCommunicated() / uint64_t(session.iterations());
        if (!savePath.empty())
            j["saved"] = savePath;
        printJson(j);
    } else {
        std::printf("Test loss: %.4f - test accuracy: %.4f%s - weights sha256: %s\n", test.loss, test.accuracy,
                    data.isText() ? testBpcText(test.loss).c_str() : "", result.weightsSha256.c_str());
        if (!savePath.empty())
            std::printf("Saved %s\n", savePath.c_str());
    }
    return Ok;
}

} // namespace tbcli
