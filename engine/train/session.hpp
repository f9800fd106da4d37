// One training run, whatever starts it: `trainbench-cli train`, the window's worker, each row of a
// comparison and the benchmark all make a TrainingSession, configure it and observe it; none of them
// reaches the Trainer or the Backend behind it. It owns what a run is: the validated configuration,
// the dataset as the run sees it (size multiplier, dropped remainder), the model built for it from the
// same seed on every device, the loop and the backend (through the Trainer), and the end of the run:
// finish() runs precise BN or measures BatchNorm's warmth, evaluates the test set, hashes and saves the
// weights and records the end in the run folder, once for every front end. Features that continue a
// run (checkpoints, history, distributed training) attach here.
#pragma once

#include "config/records.hpp"
#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/batch_curve.hpp"
#include "train/checkpoint.hpp"
#include "train/precise_bn.hpp"
#include "train/run_folder.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tb {

// What a front end reads of a run when it starts (its JSON "start" line, the window's charts, the
// benchmark's record): where it runs and where it stands.
struct RunInfo {
    DeviceSpec device;                // as the backend runs it (a CPU's threads and kernel level)
    std::string kernels;              // Backend::describe(): "GEMM: AVX2 kernels", an accelerator's name
    std::string setupNote;            // Backend::setupNote (empty when it has none)
    int stepsPerEpoch = 0;            // batches per epoch (config.maxBatches applied)
    int validationImages = 0;         // of the split each epoch validates on (held-out images or the test set)
    RunPosition position;             // a resumed run's; zero for a fresh one
    std::vector<EpochRecord> history; // the epochs finished before (a resumed run's)
    // The per-batch curve so far (train/batch_curve.hpp). Before run(): a resumed run's, up to its
    // checkpoint, for a front end to draw or print before the run's own batches; empty for a fresh run
    // and for a checkpoint that kept none (TrainingSession::curveNote says why when it was damaged).
    std::vector<BatchPoint> batches;
};

// How finish() ends a run.
struct FinishOptions {
    std::string savePath; // not empty: the weights also written there (.tbw or .safetensors)
    // The test evaluation keeps per-image predictions (the window's Results page, a stopped run's
    // too); with a run folder a completed run's always does (evaluation.json).
    bool keepPredictions = false;
    // A stopped run: also precise BN, the test evaluation and run.json's "stopped" block (the window);
    // false: only the weights saved (the CLI: Ctrl-C ends at once; the checkpoint stays for --resume).
    bool finishStopped = false;
    // Set (the window is closing): whatever is left undone (precise BN, a test evaluation that is not
    // the last validation's, the record) is skipped and the result says so.
    const std::atomic<bool>* abandon = nullptr;
};

// What finish() did: one value for every front end.
struct RunResult {
    TrainStatus status = TrainStatus::Completed;
    bool abandoned = false;             // FinishOptions::abandon was set before the test evaluation
    bool evaluated = false;             // `test` holds the test-set evaluation (not for a stopped run the CLI ends)
    EvalResult test;                    // of the final weights (with predictions when asked)
    bool testWasLastValidation = false; // `test` is the last epoch's validation pass, not run again
    std::string weightsSha256;          // of the parameters (empty when abandoned)
    std::optional<PreciseBnResult> preciseBn;       // when precise BN ran
    std::optional<BatchNormWarmth> batchNormWarmth; // when the model has BatchNorm and precise BN did not run
    int bestEpoch = 0;                              // early stopping's best epoch (1-based), 0 if off or none
    bool restoredBest = false;                      // the best epoch's weights were put back at the end
    std::vector<std::string> files;                 // written by finish(): savePath, and the run folder's
    // The epochs of the history (a resumed run's earlier ones included): their count, training
    // images and training seconds (validation and the observer's time excluded).
    int epochs = 0;
    int64_t samples = 0;
    double trainingSeconds = 0.0;
};

// The dataset at `path` as a trained model reads it: a text cut as its run cut it (the model's sequence
// length and vocabulary; character-level, the model's own characters and ids, DataError naming one the
// model lacks), else a folder of IDX images. Resuming a run and evaluating a text model's
// weights load their data so from every front end.
Dataset loadDatasetFor(const std::string& path, const WeightsFile& w);

class TrainingSession {
public:
    // `data` is the dataset as loaded; the session keeps it with config's options applied (pass it
    // with std::move where the caller no longer needs it: the training images are not copied then).
    // The network is built for the dataset's image size and classes and initialized from config.seed.
    // Throws ConfigError (validateTrainConfig, the device, memory), ModelError (a model that does not
    // fit the data).
    TrainingSession(const ModelSpec& model, Dataset data, const TrainConfig& config);
    // Continues the run whose checkpoint is in `folder`, on `data` (the dataset it was made on; DataError
    // if not), optionally on another device (the CPU gives the same weights on any thread count).
    // Checkpoints go on into the same folder, every `checkpointEvery` batches as enableCheckpoints
    // (by rank 0 only when `communicator` makes it a data-parallel run). kernelCacheDir: as
    // TrainConfig's (checkpoints do not keep it). The session holds the folder's lock (RunFolder::
    // takeLock, by rank 0) until it is destroyed: IoError, before anything else, when another process
    // or session trains the run.
    static std::unique_ptr<TrainingSession> resume(const RunFolder& folder, Dataset data,
                                                   const std::optional<DeviceSpec>& device = std::nullopt,
                                                   int checkpointEvery = 0,
                                                   std::shared_ptr<Communicator> communicator = nullptr,
                                                   const std::string& kernelCacheDir = {});
    // The same, from the folder's checkpoint already read (readCheckpoint(folder.checkpoint())): a front
    // end that read it for the run's settings and dataset does not read it again.
    static std::unique_ptr<TrainingSession> resume(const RunFolder& folder, Checkpoint checkpoint, Dataset data,
                                                   const std::optional<DeviceSpec>& device = std::nullopt,
                                                   int checkpointEvery = 0,
                                                   std::shared_ptr<Communicator> communicator = nullptr,
                                                   const std::string& kernelCacheDir = {});
    ~TrainingSession();
    TrainingSession(const TrainingSession&) = delete;
    TrainingSession& operator=(const TrainingSession&) = delete;

    const TrainConfig& config() const { return m_trainer->config(); }
    const Dataset& data() const { return m_data; }
    Network& network() { return m_net; }
    const Network& network() const { return m_net; }
    // The two lines a run starts with (model, dataset; device, batch, optimizer, seed, kernels).
    std::string header() const;
    RunInfo info() const;
    // Where the run stands and what it did so far (read between callbacks or after run()).
    const RunPosition& position() const;
    const std::vector<EpochRecord>& history() const;
    const ImageSplit& validationSplit() const; // held-out training images, else the test set
    double learningRate() const;               // of the next step
    int64_t iterations() const;                // optimizer steps so far (a resumed run's included)
    // Epoch times are read from this clock (Trainer::setClock: the time the observer spends, a paused
    // window waiting, is not training time). Tests inject a clock they advance themselves.
    void setClock(std::function<double()> seconds);

    // The benchmark's step: one optimizer step on the training samples indices[0..count), as run()
    // takes it, and the seconds the last step spent in each layer (empty on accelerators).
    BatchResult trainBatch(const int* indices, int count);
    std::vector<double> forwardSeconds() const;
    std::vector<double> backwardSeconds() const;

    // A fresh run's folder in `runsDir`, named after the model and the device (RunFolder::create: the
    // same name from every front end, so their runs sort together), checkpointed as enableCheckpoints.
    void createRunFolder(const std::string& runsDir, int everyBatches = 0);

    // Checkpoints into `folder`: at every epoch end, every `everyBatches` batches (0: at epoch ends
    // only), and when the run is stopped; early stopping's best epoch goes to best.tbw, the record of
    // the run to run.json. The session holds the folder's lock until it is destroyed.
    void enableCheckpoints(RunFolder folder, int everyBatches = 0);
    const std::optional<RunFolder>& runFolder() const { return m_folder; }
    // A resumed run's device until now, when it goes on on another (the last of run.json's
    // "earlier_devices"); empty otherwise.
    const std::string& ranOn() const { return m_ranOn; }
    // What the resume could not check of its dataset (requireSameDataset's note); empty otherwise.
    const std::string& datasetNote() const { return m_datasetNote; }
    // Why the resumed checkpoint's per-batch curve could not be read, when it could not (the run goes
    // on, and its curve starts at the resumed step); empty otherwise.
    const std::string& curveNote() const { return m_curve->note(); }
    // Writes the checkpoint and run.json now (atomically; IoError leaves the previous ones intact).
    void checkpoint();

    // Attaches a callback to the run (Trainer::addCallback): a resumed run's callback starts from its
    // state in the checkpoint, and its state goes into every checkpoint under its name.
    void addCallback(std::unique_ptr<Callback> callback);

    // Trains until config.epochs epochs are done (or early stopping ends the run), from where the run
    // stands. Throws DivergedError with the last good weights kept.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);
    // As Trainer::run: `cancelValidation` stops an epoch's validation instead of `cancel`.
    TrainStatus run(TrainObserver* observer, const std::atomic<bool>* cancel,
                    const std::atomic<bool>* cancelValidation);
    // Ends the run after run() returned `status` (see FinishOptions and RunResult). Completed: precise
    // BN if asked (else BatchNorm's warmth), the test evaluation (the last validation's when that was
    // the whole test set with these weights), the hash, the weights saved, recordEnd. Stopped: the
    // weights saved, and with finishStopped the same steps recorded by recordStop. `observer` hears
    // testStarted before a test evaluation that is not the last validation's. Throws IoError.
    RunResult finish(TrainStatus status, const FinishOptions& options = {}, TrainObserver* observer = nullptr);

    // The whole test split (or its first `limit` images), on the run's device.
    EvalResult evaluateTest(bool keepPredictions = false, int limit = 0);
    // The training split as the run sees it, on the run's device (how far the test accuracy lags it).
    EvalResult evaluateTraining();
    // The backend's weights and BatchNorm statistics into network() (a device keeps its own copy).
    void syncToHost();
    // Precise BN (train/precise_bn.hpp) over `batches` training batches of the run's batch size, with
    // the weights as they stand, on the CPU engine whatever the device (same threads and kernels for
    // a CPU device); the device then evaluates and saves with the new statistics.
    PreciseBnResult recomputeBatchNorm(int batches);
    // The trained weights as a weights file (with the optimizer state and history), and their SHA-256.
    WeightsFile weightsFile();
    std::string weightsSha256();
    // Writes the weights atomically, in the format the path's extension names (.tbw, .safetensors).
    void save(const std::string& path);
    // Records the end of a completed run in its run folder (nothing without one): the final weights
    // (weights.tbw), the test evaluation `test` (evaluation.json: confusion matrix and misclassified
    // images when it has predictions) and run.json's final block (test metrics, weights SHA-256, end
    // time). IoError when the folder cannot be written.
    void recordEnd(const EvalResult& test);
    // Records a run stopped by the user with the test evaluation `test` of its weights so far (run.json:
    // status "stopped", its test block marked at_stop); the checkpoint stays for Resume.
    void recordStop(const EvalResult& test);

private:
    class Checkpointer;
    void writeRecord(RunStatus status);
    // The watchdog's end note (Communicator::setEndNote) for the checkpoint of `folder` at `at`.
    void noteCheckpoint(const RunFolder& folder, const RunPosition& at, const std::string& orLater);
    static std::string now(); // UTC, ISO 8601

    DatasetFingerprint m_fingerprint; // of the dataset as loaded
    Dataset m_data;
    Network m_net;
    std::unique_ptr<Trainer> m_trainer;
    BatchCurveCallback* m_curve = nullptr; // one of m_trainer's callbacks
    std::optional<RunFolder> m_folder;
    int m_checkpointEvery = 0;
    // Under MPI, on every rank: rank 0's run folder (empty: none) and its checkpoint interval; on the
    // other ranks, the position of a checkpoint rank 0 may still be writing.
    std::string m_leadFolder;
    int m_leadEvery = 0;
    std::optional<RunPosition> m_leadPending;
    std::string m_started, m_ended;                   // run.json's times (UTC, ISO 8601)
    std::optional<TestResult> m_test;                 // run.json's "test" once recordEnd ran
    int m_preciseBnLayers = -1;                       // what precise BN recomputed (TestResult's)
    std::string m_weightsSha256, m_weightsFileSha256; // likewise
    nlohmann::ordered_json m_hardware;                // run.json's "hardware", detected on the first write
    nlohmann::ordered_json m_process;                 // run.json's "process" while running (ProcessIdentity)
    // run.json's "earlier_devices": where a resumed run trained before it went on elsewhere (another
    // thread count, level or precision), each {"device", "epochs", "steps"}: the epochs and steps of
    // the next that had run when it left that device. Empty for a run that never changed.
    nlohmann::ordered_json m_earlierDevices = nlohmann::ordered_json::array();
    std::string m_ranOn;
    std::string m_datasetNote;
};

} // namespace tb
