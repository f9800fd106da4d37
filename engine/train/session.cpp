#include "train/session.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "data/text_dataset.hpp"
#include "device/device.hpp"
#include "io/weights_formats.hpp"
#include "kernels/isa.hpp"
#include "train/progress_text.hpp"
#include "train/rank_check.hpp"
#include "train/run_lock.hpp"
#include "train/test_record.hpp"

#include <ctime>
#include <filesystem>

namespace tb {

namespace {
const TrainConfig& validated(const TrainConfig& config)
{
    validateTrainConfig(config);
    return config;
}

DatasetOptions datasetOptions(const TrainConfig& c)
{
    DatasetOptions o;
    o.sizeMultiplier = c.sizeMultiplier;
    o.dropRemainderBatch = c.dropRemainder ? c.batchSize : 0;
    o.validationSplit = c.validationSplit;
    return o;
}
} // namespace

Dataset loadDatasetFor(const std::string& path, const WeightsFile& w)
{
    if (!w.spec.isText())
        return loadDataset(path);
    TextOptions t;
    t.sequenceLength = w.input.h;
    t.forTraining = false; // the model's text as it is, one symbol repeated too
    TextVocabulary model = TextVocabulary::fromClassNames(w.classNames);
    t.vocabulary = model.kind;
    if (model.kind == TextVocabularyKind::Characters) // the ids the model learned, not this text's
        t.modelCharacters = std::move(model);
    return loadTextDataset(path, t);
}

// Writes the checkpoints (and run.json with them) at epoch ends and every N batches, when the session
// has a run folder.
class TrainingSession::Checkpointer : public Callback {
public:
    explicit Checkpointer(TrainingSession& s) : m_session(s) {}
    std::string name() const override { return "checkpoints"; }
    void positionAdvanced(bool epochEnd) override
    {
        TrainingSession& s = m_session;
        const RunPosition& at = s.m_trainer->position();
        const int every = s.m_folder ? s.m_checkpointEvery : s.m_leadEvery;
        const bool due = epochEnd || (every > 0 && at.step % every == 0);
        if (s.m_folder) {
            if (due)
                s.checkpoint();
            return;
        }
        if (s.m_leadFolder.empty()) // no rank keeps checkpoints
            return;
        // Another rank of an MPI run: rank 0 wrote the checkpoint due before the step just taken, which
        // needed rank 0, so it is on disk now; one due at this position may not be yet.
        if (s.m_leadPending) {
            s.noteCheckpoint(RunFolder{s.m_leadFolder}, *s.m_leadPending, " or later");
            s.m_leadPending.reset();
        }
        if (due)
            s.m_leadPending = at;
    }

private:
    TrainingSession& m_session;
};

TrainingSession::TrainingSession(const ModelSpec& model, Dataset data, const TrainConfig& config)
    : m_fingerprint(fingerprintOf(data)), m_data(withOptions(std::move(data), datasetOptions(validated(config)))),
      m_net(model, inputShapeOf(m_data), m_data.numClasses, Network::Fill::Zeros)
{
    m_net.initialize(config.seed); // the same initial weights on every device
    m_trainer = std::make_unique<Trainer>(m_net, m_data, config,
                                          [this] { return m_folder ? m_folder->best() : std::string(); });
    auto curve = std::make_unique<BatchCurveCallback>();
    m_curve = curve.get();
    m_trainer->addCallback(std::move(curve));
    m_trainer->addCallback(std::make_unique<Checkpointer>(*this));
}

TrainingSession::~TrainingSession() = default;

std::string TrainingSession::header() const
{
    return runHeader(m_net, m_data, config(), m_trainer->backend());
}

RunInfo TrainingSession::info() const
{
    const Backend& backend = m_trainer->backend();
    RunInfo i;
    i.device = backend.device();
    i.kernels = backend.describe();
    i.setupNote = backend.setupNote();
    i.stepsPerEpoch = m_trainer->stepsPerEpoch();
    i.validationImages = m_trainer->validationSplit().count;
    i.position = m_trainer->position();
    i.history = m_trainer->history();
    i.batches = m_curve->curve().points();
    return i;
}

const RunPosition& TrainingSession::position() const
{
    return m_trainer->position();
}

const std::vector<EpochRecord>& TrainingSession::history() const
{
    return m_trainer->history();
}

const ImageSplit& TrainingSession::validationSplit() const
{
    return m_trainer->validationSplit();
}

double TrainingSession::learningRate() const
{
    return m_trainer->learningRate();
}

int64_t TrainingSession::iterations() const
{
    return m_trainer->backend().iterations();
}

void TrainingSession::setClock(std::function<double()> seconds)
{
    m_trainer->setClock(std::move(seconds));
}

BatchResult TrainingSession::trainBatch(const int* indices, int count)
{
    return m_trainer->trainBatch(indices, count);
}

std::vector<double> TrainingSession::forwardSeconds() const
{
    return m_trainer->backend().forwardSeconds();
}

std::vector<double> TrainingSession::backwardSeconds() const
{
    return m_trainer->backend().backwardSeconds();
}

void TrainingSession::createRunFolder(const std::string& runsDir, int everyBatches)
{
    // The device as it runs (a CPU's kernel level resolved), as run.json names it: the window's
    // config leaves the level to the CPU, the command line's names it.
    RunFolder folder = RunFolder::create(runsDir, m_net.spec().name + "-" + m_trainer->backend().device().id());
    const std::string path = folder.path;
    try {
        enableCheckpoints(std::move(folder), everyBatches);
    } catch (const Error&) {
        // The new folder could not take its run.json (a full disk): left, it would hold its lock alone,
        // and `runs list` would show it damaged. It goes; the error says why.
        m_folder.reset();
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
        throw;
    }
}

void TrainingSession::enableCheckpoints(RunFolder folder, int everyBatches)
{
    if (everyBatches < 0)
        throw ConfigError("checkpoints every " + std::to_string(everyBatches) + " batches: give 0 or more");
    folder.takeLock(); // before anything is written: no other process trains this run meanwhile
    m_folder = std::move(folder);
    m_checkpointEvery = everyBatches;
    m_started = now();
    writeRecord(RunStatus::Running);
}

void TrainingSession::checkpoint()
{
    if (!m_folder)
        return;
    WeightsFile w = weightsFile();
    w.resume = resumeJson(config(), m_trainer->position(), m_fingerprint, m_trainer->callbackStates());
    saveWeights(m_folder->checkpoint(), w);
    noteCheckpoint(*m_folder, m_trainer->position(), "");
    // Running until recordEnd: a run whose last checkpoint is written has yet to be evaluated and its
    // weights saved, and one that dies before is interrupted, and resumes to finish.
    writeRecord(RunStatus::Running);
}

void TrainingSession::noteCheckpoint(const RunFolder& folder, const RunPosition& at, const std::string& orLater)
{
    const std::shared_ptr<Communicator>& comm = config().communicator;
    if (!comm)
        return;
    const std::string place = at.step == 0
                                  ? "the end of epoch " + std::to_string(at.epoch)
                                  : "epoch " + std::to_string(at.epoch + 1) + ", step " + std::to_string(at.step);
    comm->setEndNote((m_folder ? "The run's last checkpoint, " : "Rank 0's last checkpoint, ") + folder.checkpoint() +
                     " (at " + place + orLater + "), is intact: trainbench-cli train --resume " + folder.path +
                     " continues from it.");
}

void TrainingSession::writeRecord(RunStatus status)
{
    // Version 3 keeps the settings as the checkpoint does ("config", config/records.hpp) where version 2
    // had a flat summary of some (seed, epochs, batch_size, optimizer, learning_rate, ..., schedule and
    // early_stopping as text); version 2 added the times, hardware, dataset fingerprint, per-epoch
    // throughput, test block, weights hash and file list. run_history.hpp reads all three.
    if (m_process.is_null()) { // once: a record may be written every batch
        const ProcessIdentity self = thisProcess();
        m_process = {{"pid", self.pid}, {"host", self.host}, {"boot_id", self.bootId}};
    }
    nlohmann::ordered_json r;
    r["format"] = "trainbench-run";
    r["version"] = 3;
    r["status"] = runStatusName(status);
    r["started"] = m_started;
    if (status != RunStatus::Running)
        r["ended"] = m_ended.empty() ? now() : m_ended;
    else // who trains it: a reader tells a run whose process is gone (killed, crashed) from one under way
        r["process"] = m_process;
    r["model"] = m_net.spec().name;
    r["parameters"] = m_net.paramCount() + m_net.stateCount();
    const Backend& backend = m_trainer->backend();
    r["device"] = backend.device().id();
    if (!m_earlierDevices.empty())
        r["earlier_devices"] = m_earlierDevices;
    r["kernels"] = backend.describe();
    if (m_hardware.is_null()) { // once: a record may be written every batch
        const CpuInfo cpu = detectCpu();
        const DeviceSpec& device = backend.device();
        m_hardware = {
            {"cpu", cpu.model}, {"logical_cores", cpu.logicalCores}, {"simd", cpu.simd}, {"ram_bytes", cpu.ramBytes}};
        if (device.kind == DeviceKind::Cpu)
            m_hardware["isa"] = isaName(device.isa ? *device.isa : defaultIsa());
    }
    r["hardware"] = m_hardware;
    r["dataset"] = m_data.directory;
    r["dataset_fingerprint"] = {
        {"train_images", m_fingerprint.trainCount}, {"test_images", m_fingerprint.testCount},
        {"height", m_fingerprint.height},           {"width", m_fingerprint.width},
        {"classes", m_fingerprint.classes},         {"labels_sha256", m_fingerprint.labelsSha256},
        {"pixels_hash", m_fingerprint.pixelsHash}};
    if (m_data.isText()) // its "images" are sequences of `height` symbols
        r["dataset_fingerprint"]["kind"] = "text";
    r["config"] = config();
    r["history"] = m_trainer->history();
    if (const RunPosition& at = m_trainer->position(); at.step > 0) {
        // An epoch under way (a run stopped or killed mid-epoch): the Runs page shows how far it got.
        r["position"] = {
            {"epoch", at.epoch + 1}, {"step", at.step}, {"steps", m_trainer->stepsPerEpoch()}, {"seconds", at.seconds}};
    }
    if (m_test) {
        r["test"] = *m_test;
        r["weights_sha256"] = m_weightsSha256; // of the parameters, as `train` prints it
        if (!m_weightsFileSha256.empty())
            r["weights_file_sha256"] = m_weightsFileSha256; // of weights.tbw
    }
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const std::string& f : {m_folder->checkpoint(), m_folder->best(), m_folder->weights(), m_folder->evaluation()})
        if (std::error_code ec; std::filesystem::exists(f, ec))
            files.push_back(std::filesystem::path(f).filename().string());
    r["files"] = files;
    writeFileAtomically(m_folder->record(), jsonText(r) + "\n");
}

std::string TrainingSession::now()
{
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

void TrainingSession::recordEnd(const EvalResult& test)
{
    if (!m_folder)
        return;
    save(m_folder->weights());
    m_weightsSha256 = weightsSha256();
    m_weightsFileSha256 = sha256Hex(readWholeFile(m_folder->weights()));
    m_test = testResultOf(test);
    m_test->preciseBnLayers = m_preciseBnLayers;
    if (!test.predicted.empty()) {
        const TestRecord record = makeTestRecord(test, m_data);
        writeFileAtomically(m_folder->evaluation(), jsonText(testRecordJson(record)) + "\n");
        m_test->misclassified = record.misclassifiedCount;
    }
    m_ended = now();
    writeRecord(RunStatus::Completed);
}

void TrainingSession::recordStop(const EvalResult& test)
{
    if (!m_folder)
        return;
    m_weightsSha256 = weightsSha256();
    m_test = testResultOf(test);
    m_test->atStop = true;
    m_test->preciseBnLayers = m_preciseBnLayers;
    m_ended = now();
    writeRecord(RunStatus::Stopped);
}

std::unique_ptr<TrainingSession> TrainingSession::resume(const RunFolder& folder, Dataset data,
                                                         const std::optional<DeviceSpec>& device, int checkpointEvery,
                                                         std::shared_ptr<Communicator> communicator,
                                                         const std::string& kernelCacheDir)
{
    // Locked before the checkpoint is read: a process that trains the run meanwhile is refused first.
    RunFolder locked = folder;
    if (!communicator || communicator->rank() == 0)
        locked.takeLock();
    return resume(locked, readCheckpoint(locked.checkpoint()), std::move(data), device, checkpointEvery,
                  std::move(communicator), kernelCacheDir);
}

std::unique_ptr<TrainingSession> TrainingSession::resume(const RunFolder& folder, Checkpoint c, Dataset data,
                                                         const std::optional<DeviceSpec>& device, int checkpointEvery,
                                                         std::shared_ptr<Communicator> communicator,
                                                         const std::string& kernelCacheDir)
{
    // Only rank 0 of a data-parallel run writes into the folder, and so locks it.
    const bool writes = !communicator || communicator->rank() == 0;
    RunFolder locked = folder;
    if (writes)
        locked.takeLock(); // IoError naming the process that trains the run now
    const std::string datasetNote = requireSameDataset(c.data, data, folder.checkpoint());
    TrainConfig config = c.config;
    if (device)
        config.device = *device;
    config.communicator = communicator;
    config.kernelCacheDir = kernelCacheDir;
    auto session = std::make_unique<TrainingSession>(c.weights.spec, std::move(data), config);
    Network& net = session->m_net;
    if (net.inputShape().h != c.weights.input.h || net.inputShape().w != c.weights.input.w ||
        net.paramCount() != int64_t(c.weights.params.size()) || net.stateCount() != int64_t(c.weights.state.size()))
        throw ModelError(folder.checkpoint() + " holds weights of another shape than its model on this dataset");
    net.params() = c.weights.params; // copied into the network's buffers, which the layers point into
    net.state() = c.weights.state;
    session->m_trainer->backend().syncFromHost();
    session->m_trainer->backend().setOptimizerState(
        {c.weights.optimizer, c.weights.optimizerIterations, c.weights.optimizerSlots});
    session->m_trainer->restore(c.position, c.weights.history);
    session->m_trainer->restoreCallbacks(c.callbacks, folder.checkpoint());
    if (writes)
        session->m_folder = std::move(locked);
    session->m_checkpointEvery = checkpointEvery;
    session->m_datasetNote = datasetNote;
    session->m_started = now();
    try { // the run keeps its first start time, and the devices it left, when its record can tell them
        const nlohmann::ordered_json old = parseJson(readWholeFile(folder.record()));
        if (const auto* started = jsonMember(old, "started"); started && started->is_string())
            session->m_started = started->get<std::string>();
        if (const auto* earlier = jsonMember(old, "earlier_devices"); earlier && earlier->is_array())
            session->m_earlierDevices = *earlier;
        const auto* before = jsonMember(old, "device");
        const RunPosition& at = session->m_trainer->position();
        if (before && before->is_string() && *before != session->m_trainer->backend().device().id() &&
            (at.epoch > 0 || at.step > 0)) {
            session->m_earlierDevices.push_back({{"device", *before}, {"epochs", at.epoch}, {"steps", at.step}});
            session->m_ranOn = before->get<std::string>();
        }
    } catch (const Error&) {
    }
    return session;
}

void TrainingSession::addCallback(std::unique_ptr<Callback> callback)
{
    m_trainer->addCallback(std::move(callback));
}

TrainStatus TrainingSession::run(TrainObserver* observer, const std::atomic<bool>* cancel)
{
    return run(observer, cancel, cancel);
}

TrainStatus TrainingSession::run(TrainObserver* observer, const std::atomic<bool>* cancel,
                                 const std::atomic<bool>* cancelValidation)
{
    if (const std::shared_ptr<Communicator>& comm = config().communicator) {
        requireSamePlaceOnEveryRank(*comm, m_trainer->position(), m_net, m_trainer->backend().iterations());
        // Rank 0 writes the checkpoints: every rank learns where and how often, so that the watchdog's
        // message, on whichever rank gives up waiting, names the last one (or says there is none).
        m_leadFolder = allgatherText(*comm, m_folder ? m_folder->path : std::string())[0];
        const uint64_t every = uint64_t(m_checkpointEvery);
        std::vector<uint64_t> everies(size_t(comm->size()));
        comm->allgather(&every, 1, everies.data());
        m_leadEvery = int(everies[0]);
        const RunPosition& at = m_trainer->position();
        if (m_leadFolder.empty())
            comm->setEndNote("The run has no run folder (--no-run-folder): it wrote no checkpoint, and "
                             "cannot be resumed.");
        else if (at.epoch == 0 && at.step == 0)
            comm->setEndNote("The run wrote no checkpoint yet (in " + m_leadFolder + "): it cannot be resumed.");
        else // resumed: the checkpoint it resumed is there
            noteCheckpoint(RunFolder{m_leadFolder}, at, m_folder ? "" : " or later");
    }
    TrainStatus status;
    try {
        status = m_trainer->run(observer, cancel, cancelValidation);
    } catch (const DivergedError&) {
        if (m_folder) { // the history says so (the Runs page, `runs list`); the divergence is what matters
            try {
                writeRecord(RunStatus::Diverged);
            } catch (const Error&) {
            }
        }
        throw;
    }
    if (m_folder) {
        checkpoint(); // a stopped run continues from here; a finished one records its end in finish()
        if (status == TrainStatus::Cancelled)
            writeRecord(RunStatus::Stopped);
    }
    return status;
}

RunResult TrainingSession::finish(TrainStatus status, const FinishOptions& o, TrainObserver* observer)
{
    RunResult r;
    r.status = status;
    const bool completed = status == TrainStatus::Completed;
    for (const EpochRecord& e : m_trainer->history()) {
        if (e.best)
            r.bestEpoch = e.epoch;
        r.trainingSeconds += e.seconds;
        r.samples += e.samples;
    }
    r.epochs = int(m_trainer->history().size());
    // Only when the best epoch is not the last: its weights are the final ones otherwise, and nothing
    // changed (Keras 3 prints its "Restoring model weights" line all the same; tf.keras up to 2.10
    // restored, and said so, only when it stopped early).
    const int lastEpoch = m_trainer->history().empty() ? 0 : m_trainer->history().back().epoch;
    r.restoredBest =
        completed && config().earlyStopping.restoreBestWeights && r.bestEpoch > 0 && r.bestEpoch != lastEpoch;
    auto abandoned = [&] { return o.abandon && o.abandon->load(); };
    auto saveCopy = [&] {
        if (!o.savePath.empty()) {
            save(o.savePath);
            r.files.push_back(o.savePath);
        }
    };
    if (!completed && !o.finishStopped) {
        saveCopy();
        return r;
    }
    if (const int batches = config().preciseBnBatches; batches > 0) { // the run's own setting
        if (abandoned()) { // its end is not recorded without it: the run is interrupted, and resumes to finish
            r.abandoned = true;
            return r;
        }
        r.preciseBn = recomputeBatchNorm(batches);
        m_preciseBnLayers = r.preciseBn->layers;
    } else // the weights' statistics as they stand: the best epoch's where early stopping restored them
        r.batchNormWarmth =
            tb::batchNormWarmth(m_net, r.restoredBest ? int64_t(r.bestEpoch) * m_trainer->stepsPerEpoch()
                                                      : m_trainer->backend().iterations());
    // With a run folder, the predictions too: its evaluation.json keeps the confusion matrix and the
    // misclassified images for the Runs page and the report. A stopped run keeps them only when asked
    // (the window's Results page shows the stopped weights; the folder keeps no evaluation.json).
    const bool keepPredictions = o.keepPredictions || (completed && m_folder);
    r.testWasLastValidation = completed && m_trainer->testResultStands(keepPredictions);
    if (!r.testWasLastValidation) {
        if (abandoned()) {
            r.abandoned = true;
            return r;
        }
        if (observer)
            observer->testStarted(m_data.test.count);
    }
    r.test = evaluateTest(keepPredictions);
    r.evaluated = true;
    r.weightsSha256 = weightsSha256();
    saveCopy();
    if (m_folder) {
        if (completed) {
            recordEnd(r.test);
            r.files.push_back(m_folder->weights());
            if (!r.test.predicted.empty())
                r.files.push_back(m_folder->evaluation());
        } else {
            recordStop(r.test); // the Runs page shows the stopped weights' accuracy
        }
        r.files.push_back(m_folder->record());
    }
    return r;
}

PreciseBnResult TrainingSession::recomputeBatchNorm(int batches)
{
    const DeviceSpec& device = m_trainer->backend().device();
    const bool cpu = device.kind == DeviceKind::Cpu;
    m_trainer->syncToHost();
    const PreciseBnResult r =
        recomputeBatchNormStatistics(m_net, m_data.train, m_data.sizeMultiplier, batches, config().batchSize,
                                     config().seed, cpu ? device.threads : 1, cpuKernels(device), config().shardSize);
    m_trainer->backend().syncFromHost();
    m_trainer->forgetTestResult();
    return r;
}

EvalResult TrainingSession::evaluateTest(bool keepPredictions, int limit)
{
    return m_trainer->evaluate(limit, keepPredictions);
}

EvalResult TrainingSession::evaluateTraining()
{
    return m_trainer->backend().evaluate(m_data.train, m_data.sizeMultiplier);
}

void TrainingSession::syncToHost()
{
    m_trainer->syncToHost();
}

WeightsFile TrainingSession::weightsFile()
{
    return m_trainer->weightsFile();
}

std::string TrainingSession::weightsSha256()
{
    m_trainer->syncToHost();
    return m_net.weightsSha256();
}

void TrainingSession::save(const std::string& path)
{
    saveWeightsAs(path, weightsFile(), weightsFormatOfPath(path));
}

} // namespace tb
