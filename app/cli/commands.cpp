#include "commands.hpp"

#include "options.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/thread_pool.hpp"
#include "data/dataset.hpp"
#include "data/text_dataset.hpp"
#include "device/device.hpp"
#include "environment.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "predict/text_generator.hpp"
#include "train/compare.hpp"
#include "train/evaluation.hpp"
#include "train/precise_bn.hpp"
#include "train/progress_text.hpp"
#include "train/run_limits.hpp"
#include "train/session.hpp"
#include "train/trainer.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <unistd.h>

namespace tbcli {

void printJson(const nlohmann::ordered_json& j)
{
    std::fputs((tb::jsonText(j) + "\n").c_str(), stdout);
    std::fflush(stdout);
}

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void onSigint(int)
{
    g_interrupted.store(true);
}

// Prints Keras-like progress: redrawn in place on a terminal, every few seconds in a log.
class TextProgress : public tb::TrainObserver {
public:
    // Shows the learning rate beside the metrics when a schedule moves it.
    explicit TextProgress(const tb::TrainingSession& session)
        : m_schedule(session.config().schedule), m_steps(session.info().stepsPerEpoch),
          m_showRate(session.config().schedule.kind != tb::ScheduleKind::Constant), m_tty(isatty(fileno(stdout)))
    {
    }

    void batchFinished(const tb::BatchProgress& p) override
    {
        if (p.step == 1 && p.epoch != m_epoch) {
            m_epoch = p.epoch;
            std::printf("Epoch %d/%d\n", p.epoch, p.epochs);
        }
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
    }

    // A text model: bits per character beside the loss, and a sample of its writing after each epoch.
    void showText(const tb::Network& net, const tb::Dataset& data)
    {
        m_textNet = &net;
        m_vocab = tb::vocabularyOf(data);
    }

    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult&) override
    {
        std::printf("%s%s", m_pending ? "\r" : "", tb::epochLine(r, m_steps).c_str());
        if (m_textNet)
            std::printf(" - bpc: %.4f - val_bpc: %.4f", tb::bitsPerSymbol(r.loss), tb::bitsPerSymbol(r.valLoss));
        if (m_showRate)
            std::printf(" - learning_rate: %.4g", r.learningRate);
        std::printf("\n");
        if (m_textNet)
            std::printf("Sample: %s\n", tb::printableSample(tb::epochSample(*m_textNet, m_vocab, r.epoch)).c_str());
        // Keras' callbacks say what they did in the same words.
        for (const std::string& line : tb::callbackLines(r, m_schedule))
            std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        m_pending = false;
    }

private:
    tb::LrSchedule m_schedule;
    const tb::Network* m_textNet = nullptr;
    tb::TextVocabulary m_vocab;
    int m_steps;
    bool m_showRate;
    bool m_tty;
    bool m_pending = false;
    int m_epoch = 0;
    std::chrono::steady_clock::time_point m_last{};
};

class JsonProgress : public tb::TrainObserver {
public:
    void batchFinished(const tb::BatchProgress& p) override
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
        j["samples_per_sec"] = p.samplesPerSec;
        j["eta_s"] = p.step > 0 ? p.epochElapsed / p.step * (p.steps - p.step) : 0.0;
        printJson(j);
    }
    void epochFinished(const tb::EpochRecord& r, const tb::EvalResult&) override
    {
        nlohmann::ordered_json j;
        j["event"] = "epoch";
        j["epoch"] = r.epoch;
        j["loss"] = r.loss;
        j["accuracy"] = r.accuracy;
        j["val_loss"] = r.valLoss;
        j["val_accuracy"] = r.valAccuracy;
        j["seconds"] = r.seconds;
        j["samples_per_sec"] = r.samplesPerSec;
        j["learning_rate"] = r.learningRate;
        j["best"] = r.best;
        j["early_stopping"] = r.stopped;
        j["learning_rate_lowered"] = r.rateLowered;
        printJson(j);
    }
};

// --isa LEVEL, else TRAINBENCH_ISA, else the best this CPU runs; a level the CPU lacks is an error.
tb::Isa isaOption(const Options& o)
{
    if (!o.has("isa"))
        return tb::defaultIsa();
    const tb::Isa isa = tb::parseIsa(o.text("isa", ""));
    tb::requireIsa(isa);
    return isa;
}

// An integer option whose range validateTrainConfig checks, so the CLI and the window refuse the same
// values with the same message.
int intOption(const Options& o, const std::string& name, int def)
{
    return int(o.integer(name, def, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

// Where an accelerator keeps its compiled kernels: $XDG_CACHE_HOME/trainbench or ~/.cache/trainbench.
std::string kernelCacheFolder()
{
    return tb::env::kernelCacheDir();
}

// The options train and compare share: epochs, batch, seed, optimizer, learning rate, limits. The
// defaults are TrainConfig's, the window's too.
tb::TrainConfig trainConfigFrom(const Options& o)
{
    tb::TrainConfig cfg;
    cfg.epochs = intOption(o, "epochs", cfg.epochs);
    cfg.batchSize = intOption(o, "batch", cfg.batchSize);
    cfg.seed = o.unsignedInt("seed", cfg.seed);
    cfg.maxBatches = intOption(o, "max-batches", cfg.maxBatches);
    cfg.sizeMultiplier = intOption(o, "size-multiplier", cfg.sizeMultiplier);
    cfg.dropRemainder = o.has("drop-remainder");
    cfg.optimizer.kind = tb::parseOptimizer(o.text("optimizer", "adam"));
    cfg.optimizer.learningRate = float(o.real("lr", tb::defaultLearningRate(cfg.optimizer.kind)));
    cfg.optimizer.momentum = float(o.real("momentum", 0.0));
    cfg.optimizer.nesterov = o.has("nesterov");
    cfg.device.isa = isaOption(o);
    cfg.kernelCacheDir = kernelCacheFolder();
    tb::validateTrainConfig(cfg);
    return cfg;
}
} // namespace

namespace {
// --data: a folder of IDX files for an image model, a text file or folder of texts for a text model
// (--sequence-length, --vocabulary).
tb::Dataset loadData(const Options& o, const tb::ModelSpec& spec)
{
    const std::string path = o.text("data", tb::defaultDatasetDir());
    if (!spec.isText()) {
        if (o.has("sequence-length") || o.has("vocabulary"))
            throw UsageError("--sequence-length and --vocabulary are for text models; " + spec.name +
                             " is an image model");
        return tb::loadDataset(path);
    }
    tb::TextOptions t;
    t.sequenceLength =
        int(o.integer("sequence-length", spec.sequenceLength > 0 ? spec.sequenceLength : 100, 1, 100000));
    const std::string v = o.text("vocabulary", "bytes");
    if (v != "bytes" && v != "characters")
        throw UsageError("--vocabulary is bytes or characters (got \"" + v + "\")");
    t.vocabulary = v == "bytes" ? tb::TextVocabularyKind::Bytes : tb::TextVocabularyKind::Characters;
    return tb::loadTextDataset(path, t);
}

tb::Dataset loadResumeData(const std::string& path, const tb::RunFolder& folder)
{
    return tb::loadDatasetFor(path, tb::readCheckpoint(folder.checkpoint()).weights);
}
} // namespace

int presetsCommand(const std::vector<std::string>& args)
{
    Options o(args, {"kind"}, {});
    const std::string kind = o.text("kind", "all");
    if (kind != "all" && kind != "image" && kind != "text")
        throw UsageError("--kind is image, text or all (got \"" + kind + "\")");
    for (const std::string& name : tb::presetNames()) {
        const bool text = tb::loadModelSpec(name).isText();
        if (kind == "all" || (kind == "text") == text)
            std::printf("%-20s %s\n", name.c_str(), tb::presetDescription(name).c_str());
    }
    return Ok;
}

int summaryCommand(const std::vector<std::string>& args)
{
    Options o(args, {"model", "input", "classes"}, {});
    const tb::ModelSpec spec = tb::loadModelSpec(o.text("model", tb::defaultPreset()));
    // A text model: --input is the sequence length (the model's own by default), --classes the
    // vocabulary (256 bytes by default).
    const bool text = spec.isText();
    const int side = int(o.integer("input", text ? std::max(spec.sequenceLength, 1) : 28, 1, text ? 100000 : 4096));
    const int classes = int(o.integer("classes", text ? 256 : 10, 2, 256));
    const tb::Network net(spec, text ? tb::Shape::tokenIds(side) : tb::Shape::image(side, side, 1), classes);
    std::fputs(net.summary().c_str(), stdout);
    return Ok;
}

int trainCommand(const std::vector<std::string>& args)
{
    Options o(args,
              {"data",
               "model",
               "sequence-length",
               "vocabulary",
               "epochs",
               "batch",
               "threads",
               "device",
               "seed",
               "optimizer",
               "lr",
               "momentum",
               "size-multiplier",
               "max-batches",
               "save",
               "shard",
               "isa",
               "runs-dir",
               "checkpoint-every",
               "resume",
               "validation-split",
               "lr-schedule",
               "early-stopping",
               "patience",
               "min-delta",
               "precise-bn"},
              {"drop-remainder", "json", "nesterov", "restore-best-weights", "no-run-folder"});
    const int preciseBn = intOption(o, "precise-bn", 0);
    if (preciseBn < 0)
        throw UsageError("--precise-bn takes a number of training batches, 1 or more (0: off)");
    const bool json = o.has("json");
    // Under mpirun: one data-parallel run; rank 0 prints and writes the run folder and the weights,
    // the other ranks train silently (their errors still go to stderr).
    const std::shared_ptr<tb::Communicator> comm = tb::processCommunicator(tb::env::processLaunch());
    const bool lead = !comm || comm->rank() == 0;
    if (!lead && !std::freopen("/dev/null", "w", stdout))
        throw tb::IoError("cannot silence the standard output of MPI rank " + std::to_string(comm->rank()));
    const std::string savePath = lead ? o.text("save", "") : "";
    const int checkpointEvery = intOption(o, "checkpoint-every", 0);
    if (o.has("device") && o.has("threads"))
        throw UsageError("give either --device or --threads, not both");
    std::optional<tb::DeviceSpec> device;
    if (o.has("device")) {
        device = tb::parseDeviceSpec(o.text("device", ""));
        if (!device->isa && o.has("isa"))
            device->isa = isaOption(o);
    } else if (o.has("threads") || !o.has("resume")) {
        device = tb::DeviceSpec{};
        device->threads = intOption(o, "threads", tb::hardwareThreads());
        device->isa = isaOption(o);
    }

    std::unique_ptr<tb::TrainingSession> owned;
    if (o.has("resume")) {
        // The run goes on with its own settings; only where it runs and how it is watched can change.
        for (const char* fixed : {"model",
                                  "epochs",
                                  "batch",
                                  "seed",
                                  "optimizer",
                                  "lr",
                                  "momentum",
                                  "nesterov",
                                  "size-multiplier",
                                  "max-batches",
                                  "shard",
                                  "drop-remainder",
                                  "validation-split",
                                  "lr-schedule",
                                  "early-stopping",
                                  "patience",
                                  "min-delta",
                                  "restore-best-weights",
                                  "runs-dir",
                                  "no-run-folder"})
            if (o.has(fixed))
                throw UsageError(std::string("--resume continues a run with its own settings; --") + fixed +
                                 " cannot change them");
        const tb::RunFolder folder = tb::RunFolder::open(o.text("resume", ""));
        const std::string dataDir =
            o.has("data") ? o.text("data", "") : tb::readCheckpoint(folder.checkpoint()).data.directory;
        owned = tb::TrainingSession::resume(folder, loadResumeData(dataDir, folder), device, checkpointEvery, comm,
                                            kernelCacheFolder());
    } else {
        tb::TrainConfig cfg = trainConfigFrom(o);
        cfg.device = *device;
        cfg.communicator = comm;
        cfg.shardSize = intOption(o, "shard", cfg.shardSize);
        cfg.validationSplit = o.real("validation-split", 0.0);
        if (o.has("lr-schedule"))
            cfg.schedule = tb::parseLrSchedule(o.text("lr-schedule", ""));
        if (o.has("early-stopping")) {
            cfg.earlyStopping.enabled = true;
            cfg.earlyStopping.monitor = tb::parseMonitor(o.text("early-stopping", ""));
            cfg.earlyStopping.patience = intOption(o, "patience", 0);
            cfg.earlyStopping.minDelta = o.real("min-delta", 0.0);
            cfg.earlyStopping.restoreBestWeights = o.has("restore-best-weights");
        } else if (o.has("patience") || o.has("min-delta") || o.has("restore-best-weights")) {
            throw UsageError(
                "--patience, --min-delta and --restore-best-weights need --early-stopping val_loss|val_accuracy");
        }
        tb::validateTrainConfig(cfg);
        const tb::ModelSpec spec = tb::loadModelSpec(o.text("model", tb::defaultPreset()));
        owned = std::make_unique<tb::TrainingSession>(spec, loadData(o, spec), cfg);
        if (!o.has("no-run-folder")) {
            if (lead) // the other ranks of an MPI run write nothing
                owned->createRunFolder(o.text("runs-dir", tb::env::runsDir()), checkpointEvery);
        } else if (o.has("checkpoint-every"))
            throw UsageError("--checkpoint-every needs a run folder; leave out --no-run-folder");
    }
    tb::TrainingSession& session = *owned;
    const tb::TrainConfig& cfg = session.config();
    const tb::ModelSpec& spec = session.network().spec();
    const tb::Dataset& data = session.data();

    const tb::RunInfo info = session.info();
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
        j["steps_per_epoch"] = info.stepsPerEpoch;
        j["seed"] = std::to_string(cfg.seed);
        if (info.device.isa)
            j["isa"] = tb::isaName(*info.device.isa);
        j["kernels"] = info.kernels;
        if (!info.setupNote.empty())
            j["setup_note"] = info.setupNote;
        if (comm)
            j["mpi_ranks"] = comm->size();
        if (session.runFolder()) {
            j["run_folder"] = session.runFolder()->path;
            j["resumed_epoch"] = info.position.epoch;
            j["resumed_step"] = info.position.step;
        }
        printJson(j);
    } else {
        std::printf("%s\n", session.header().c_str());
        if (data.isText()) // what "learning" means for this text: below the symbols' own entropy
            std::printf("Unigram entropy of the validation text: %.4f nats (%.4f bits) per symbol\n",
                        tb::unigramEntropy(data.test.labels, data.numClasses),
                        tb::bitsPerSymbol(tb::unigramEntropy(data.test.labels, data.numClasses)));
        if (session.runFolder()) {
            const tb::RunPosition& at = info.position;
            std::string where;
            if (at.epoch >= cfg.epochs || at.early.stoppedEpoch)
                where = " (the run is complete)";
            else if (at.epoch || at.step)
                where = " (resumed at epoch " + std::to_string(at.epoch + 1) + ", step " + std::to_string(at.step + 1) +
                        ")";
            std::printf("Run folder %s%s\n", session.runFolder()->path.c_str(), where.c_str());
        }
        std::fflush(stdout);
    }

    TextProgress text(session);
    if (data.isText())
        text.showText(session.network(), data);
    JsonProgress jsonOut;
    std::signal(SIGINT, onSigint);
    tb::TrainStatus status;
    try {
        status = session.run(json ? static_cast<tb::TrainObserver*>(&jsonOut) : &text, &g_interrupted);
    } catch (const tb::DivergedError&) {
        if (!savePath.empty())
            session.save(savePath); // the last good weights, so the run is not lost
        throw;
    }
    std::signal(SIGINT, SIG_DFL);
    tb::FinishOptions finishing;
    finishing.preciseBnBatches = preciseBn;
    finishing.savePath = savePath;
    const tb::RunResult result = session.finish(status, finishing);
    if (status == tb::TrainStatus::Cancelled) {
        std::fprintf(stderr, "\nStopped by the user%s.\n", savePath.empty() ? "" : "; the weights so far were saved");
        if (session.runFolder())
            std::fprintf(stderr, "Continue with: trainbench-cli train --resume %s\n",
                         session.runFolder()->path.c_str());
        return Interrupted;
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
        j["test_loss"] = test.loss;
        j["test_accuracy"] = test.accuracy;
        j["weights_sha256"] = result.weightsSha256;
        if (comm && session.iterations() > 0)
            j["mpi_bytes_per_step"] = comm->bytesCommunicated() / uint64_t(session.iterations());
        if (!savePath.empty())
            j["saved"] = savePath;
        printJson(j);
    } else {
        std::printf("Test loss: %.4f - test accuracy: %.4f - weights sha256: %s\n", test.loss, test.accuracy,
                    result.weightsSha256.c_str());
        if (!savePath.empty())
            std::printf("Saved %s\n", savePath.c_str());
    }
    return Ok;
}

namespace {
// The weights named by --weights: a .tbw or safetensors file. A safetensors file written by another
// program says nothing of its model: --model names it, and the dataset gives the input and classes.
tb::WeightsFile loadWeightsOption(const Options& o, const tb::Dataset* data)
{
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    std::optional<tb::ModelSpec> spec;
    if (o.has("model"))
        spec = tb::loadModelSpec(o.text("model", ""));
    const tb::ModelHint hint = tb::modelHint(spec ? &*spec : nullptr, data);
    return tb::loadAnyWeights(o.text("weights", ""), &hint);
}

// index,label,predicted,p_0,...: what the model says of each evaluated test image.
void writePredictions(const std::string& path, const tb::EvalResult& r, const tb::ImageSplit& split, int classes)
{
    std::string csv = "index,label,predicted";
    for (int c = 0; c < classes; ++c)
        csv += ",p_" + std::to_string(c);
    csv += "\n";
    char buf[32];
    for (int i = 0; i < r.samples; ++i) {
        csv += std::to_string(i) + "," + std::to_string(split.labels[size_t(i)]) + "," +
               std::to_string(r.predicted[size_t(i)]);
        for (int c = 0; c < classes; ++c) {
            std::snprintf(buf, sizeof buf, ",%.9g", double(r.probs[size_t(i) * size_t(classes) + size_t(c)]));
            csv += buf;
        }
        csv += "\n";
    }
    tb::writeFileAtomically(path, csv);
}
} // namespace

int evaluateCommand(const std::vector<std::string>& args)
{
    Options o(args,
              {"data", "weights", "threads", "device", "model", "limit", "predictions", "isa", "precise-bn", "batch",
               "seed", "save"},
              {"json"});
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    if ((o.has("batch") || o.has("seed") || o.has("save")) && !o.has("precise-bn"))
        throw UsageError("--batch, --seed and --save go with --precise-bn N");
    const std::string dataPath = o.text("data", tb::defaultDatasetDir());
    // A text (a file: never an IDX folder) is cut as the text model's weights say.
    std::error_code ec;
    const bool text = std::filesystem::is_regular_file(dataPath, ec);
    const tb::WeightsFile textWeights = text ? loadWeightsOption(o, nullptr) : tb::WeightsFile{};
    const tb::Dataset base = text ? tb::loadDatasetFor(dataPath, textWeights) : tb::loadDataset(dataPath);
    tb::WeightsFile weights = text ? textWeights : loadWeightsOption(o, &base);
    tb::DeviceSpec device;
    if (o.has("device"))
        device = tb::parseDeviceSpec(o.text("device", ""));
    else
        device.threads = int(o.integer("threads", tb::hardwareThreads(), 1, tb::limits::kMaxThreads));
    if (!device.isa && o.has("isa"))
        device.isa = isaOption(o);
    if (o.has("precise-bn")) {
        // After training: the weights file's BatchNorm statistics recomputed over the training set,
        // on the CPU engine, then evaluated (and saved with --save).
        const int batches = intOption(o, "precise-bn", 0);
        if (batches < 1)
            throw UsageError("--precise-bn takes a number of training batches, 1 or more");
        const tb::Dataset d = tb::datasetForWeights(base, weights);
        tb::Network net = weights.buildNetwork();
        const bool cpu = device.kind == tb::DeviceKind::Cpu;
        const tb::PreciseBnResult p =
            tb::recomputeBatchNormStatistics(net, d.train, d.sizeMultiplier, batches, intOption(o, "batch", 128),
                                             o.unsignedInt("seed", 200), cpu ? device.threads : tb::hardwareThreads(),
                                             tb::kernelsFor(cpu && device.isa ? *device.isa : tb::defaultIsa()));
        weights.state = net.state();
        if (!o.has("json"))
            std::printf("%s\n", tb::preciseBnText(p).c_str());
        if (o.has("save")) {
            tb::saveWeightsAs(o.text("save", ""), weights, tb::weightsFormatOfPath(o.text("save", "")));
            if (!o.has("json"))
                std::printf("Saved %s\n", o.text("save", "").c_str());
        }
    }
    const tb::WeightsEvaluation e =
        tb::evaluateWeights(weights, base, device, int(o.integer("limit", 0, 0, 1 << 30)), o.has("predictions"));
    const tb::EvalResult& r = e.result;
    if (o.has("predictions"))
        writePredictions(o.text("predictions", ""), r, e.data.test, e.net.numClasses());
    if (o.has("json")) {
        nlohmann::ordered_json j;
        j["event"] = "evaluate";
        j["test_loss"] = r.loss;
        j["test_accuracy"] = r.accuracy;
        j["misclassified"] = e.misclassified;
        j["images"] = r.samples;
        j["weights_sha256"] = e.net.weightsSha256();
        printJson(j);
    } else {
        std::printf("Test loss: %.4f - test accuracy: %.4f - misclassified: %d of %d images - weights sha256: %s\n",
                    r.loss, r.accuracy, e.misclassified, r.samples, e.net.weightsSha256().c_str());
    }
    return Ok;
}

int exportCommand(const std::vector<std::string>& args)
{
    Options o(args, {"weights", "format", "out", "model", "data"}, {"json"});
    if (!o.has("format") && !o.has("out"))
        throw UsageError("say what to write: --format onnx|safetensors|tbw and/or --out FILE");
    tb::WeightsFormat format = tb::weightsFormatOfPath(o.text("out", ""));
    if (o.has("format")) {
        const auto f = tb::parseWeightsFormat(o.text("format", ""));
        if (!f)
            throw UsageError("--format must be onnx, safetensors or tbw (got \"" + o.text("format", "") + "\")");
        format = *f;
    }
    // A safetensors file of another program takes its input size and classes from a dataset.
    std::optional<tb::Dataset> data;
    if (o.has("model"))
        data = tb::loadDataset(o.text("data", tb::defaultDatasetDir()));
    const tb::WeightsFile w = loadWeightsOption(o, data ? &*data : nullptr);
    const std::string out = o.text("out", tb::withWeightsExtension(o.text("weights", ""), format));
    tb::saveWeightsAs(out, w, format);
    const std::string sha = w.buildNetwork().weightsSha256();
    if (o.has("json")) {
        nlohmann::ordered_json j;
        j["event"] = "export";
        j["format"] = tb::weightsFormatName(format);
        j["path"] = out;
        j["weights_sha256"] = sha;
        printJson(j);
    } else {
        std::printf("Wrote %s (%s) - weights sha256: %s\n", out.c_str(), tb::weightsFormatName(format), sha.c_str());
    }
    return Ok;
}

} // namespace tbcli

namespace tbcli {

namespace {
class CompareProgress : public tb::CompareObserver {
public:
    explicit CompareProgress(bool json) : m_json(json), m_tty(isatty(fileno(stdout))) {}

    void deviceStarted(int row, int rows, const tb::CompareRow& r) override
    {
        if (m_json)
            return;
        std::printf("[%d/%d] %s%s: %s\n", row + 1, rows, r.device.id().c_str(),
                    r.sweepValue ? (" (" + std::to_string(r.globalBatch) + " batch, size x" +
                                    std::to_string(r.sizeMultiplier) + ")")
                                       .c_str()
                                 : "",
                    r.description.c_str());
        std::fflush(stdout);
    }
    void batchFinished(int, const tb::BatchProgress& p) override
    {
        if (m_json || !m_tty)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (p.step < p.steps && now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        std::printf("\r  epoch %d/%d %s", p.epoch, p.epochs, tb::progressLine(p).c_str());
        std::fflush(stdout);
    }
    void deviceFinished(int, const tb::CompareRow& r) override
    {
        if (m_json) {
            nlohmann::ordered_json j;
            j["event"] = "device";
            j["device"] = r.device.id();
            j["description"] = r.description;
            j["replicas"] = r.replicas;
            j["global_batch"] = r.globalBatch;
            j["size_multiplier"] = r.sizeMultiplier;
            j["seconds_per_epoch"] = r.secondsPerEpoch;
            j["samples_per_sec"] = r.samplesPerSec;
            j["speedup"] = r.speedup;
            j["test_loss"] = r.testLoss;
            j["test_accuracy"] = r.testAccuracy;
            j["weights_sha256"] = r.weightsSha256;
            j["max_abs_diff"] = r.maxAbsDiff;
            if (!r.skipped.empty())
                j["skipped"] = r.skipped;
            printJson(j);
        } else if (m_tty) {
            std::printf("\r\033[K");
        }
    }

private:
    bool m_json, m_tty;
    std::chrono::steady_clock::time_point m_last{};
};
} // namespace

int devicesCommand(const std::vector<std::string>& args)
{
    Options o(args, {}, {});
    const tb::SystemInfo s = tb::detectSystem();
    std::printf("cpu      %s, %d cores, %s, %.1f GB RAM\n", s.cpu.model.c_str(), s.cpu.logicalCores, s.cpu.simd.c_str(),
                double(s.cpu.ramBytes) / 1e9);
    std::printf("devices  cpu:1 .. cpu:%d (one replica per thread)\n", s.cpu.logicalCores);
    std::string levels;
    for (tb::Isa isa : s.cpu.isas)
        levels += std::string(levels.empty() ? "" : ", ") + tb::isaName(isa);
    std::printf("kernels  %s; this CPU runs %s (choose with cpu:N@LEVEL, --isa or TRAINBENCH_ISA)\n",
                tb::describeKernels(tb::kernelsFor(tb::defaultIsa())).c_str(), levels.c_str());
    if (s.gpus.empty())
        std::printf("gpu      none usable: %s\n", s.gpuUnavailableReason.c_str());
    for (const tb::GpuInfo& g : s.gpus)
        std::printf("cuda:%d   %s, %.1f GB, compute %d.%d\n", g.index, g.name.c_str(), double(g.memoryBytes) / 1e9,
                    g.computeMajor, g.computeMinor);
    if (s.openclDevices.empty())
        std::printf("opencl   none usable: %s\n", s.openclUnavailableReason.c_str());
    for (const tb::OpenClDeviceInfo& d : s.openclDevices) {
        std::printf(
            "opencl:%d %s (%s, %s), %s, %d compute units at %d MHz, %.1f GB, about %.0f GFLOP/s FP32, driver %s%s%s\n",
            d.index, d.name.c_str(), d.platform.c_str(), d.version.c_str(), d.type.c_str(), d.computeUnits, d.clockMHz,
            double(d.memoryBytes) / 1e9, d.peakGflops, d.driver.c_str(),
            d.unusableReason.empty() ? "" : "; unusable: ", d.unusableReason.c_str());
    }
    std::printf("mpi      %s\n", tb::mpiAvailability().c_str());
    std::printf("tpu      cloud only (Colab, Cloud TPU): not available on a desktop\n");
    return Ok;
}

int compareCommand(const std::vector<std::string>& args)
{
    Options o(args,
              {"data", "model", "devices", "epochs", "batch", "seed", "optimizer", "lr", "momentum", "size-multiplier",
               "max-batches", "csv", "sweep", "isa", "sequence-length", "vocabulary"},
              {"drop-remainder", "json", "nesterov", "scale-batch"});
    tb::CompareConfig cfg;
    cfg.train = trainConfigFrom(o);
    cfg.devices = tb::parseDeviceList(o.text("devices", "cpu:1,cpu:" + std::to_string(tb::hardwareThreads())));
    cfg.scaleBatchWithReplicas = o.has("scale-batch");
    cfg.sweep = tb::parseSweep(o.text("sweep", ""));
    const std::string csvPath = o.text("csv", "");
    const bool json = o.has("json");

    const tb::ModelSpec spec = tb::loadModelSpec(o.text("model", tb::defaultPreset()));
    const tb::Dataset data = loadData(o, spec);
    if (!json) {
        std::printf("Comparing %s on %s: %s, %d epoch(s)%s, seed %llu\n", spec.name.c_str(), data.directory.c_str(),
                    tb::describeDataset(data).c_str(), cfg.train.epochs,
                    cfg.train.maxBatches ? (" of at most " + std::to_string(cfg.train.maxBatches) + " batches").c_str()
                                         : "",
                    static_cast<unsigned long long>(cfg.train.seed));
        std::fflush(stdout);
    }
    CompareProgress progress(json);
    std::signal(SIGINT, onSigint);
    const std::vector<tb::CompareRow> rows = tb::runComparison(spec, data, cfg, &progress, &g_interrupted);
    std::signal(SIGINT, SIG_DFL);
    if (!json)
        std::printf("\n%s", tb::compareTable(rows).c_str());
    if (!csvPath.empty()) {
        tb::writeFileAtomically(csvPath, tb::compareCsv(rows));
        if (!json)
            std::printf("Saved %s\n", csvPath.c_str());
    }
    if (g_interrupted.load()) {
        std::fprintf(stderr, "Stopped by the user; the rows above are the devices that finished.\n");
        return Interrupted;
    }
    return Ok;
}

} // namespace tbcli
