// One training run, whatever starts it: `trainbench-cli train`, the window's worker, each row of a
// comparison and the benchmark all make a TrainingSession and drive or observe it. It owns what a run
// is: the validated configuration, the dataset as the run sees it (size multiplier, dropped
// remainder), the model built for it from the same seed on every device, the backend (through the
// Trainer) and what the run leaves: the test-set evaluation, the weights and their hash, the weights
// file. Features that continue a run (checkpoints, history, distributed training) attach here.
#pragma once

#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/checkpoint.hpp"
#include "train/precise_bn.hpp"
#include "train/run_folder.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace tb {

class TrainingSession {
public:
    // `data` is the dataset as loaded; the session keeps its own copy with config's options applied.
    // The network is built for the dataset's image size and classes and initialized from config.seed.
    // Throws ConfigError (validateTrainConfig, the device, memory), ModelError (a model that does not
    // fit the data).
    TrainingSession(const ModelSpec& model, const Dataset& data, const TrainConfig& config);
    // Continues the run whose checkpoint is in `folder`, on `data` (the dataset it was made on; DataError
    // if not), optionally on another device (the CPU gives the same weights on any thread count).
    // Checkpoints go on into the same folder, every `checkpointEvery` batches as enableCheckpoints
    // (by rank 0 only when `communicator` makes it a data-parallel run).
    static std::unique_ptr<TrainingSession> resume(const RunFolder& folder, const Dataset& data,
                                                   const std::optional<DeviceSpec>& device = std::nullopt,
                                                   int checkpointEvery = 0,
                                                   std::shared_ptr<Communicator> communicator = nullptr);
    ~TrainingSession();
    TrainingSession(const TrainingSession&) = delete;
    TrainingSession& operator=(const TrainingSession&) = delete;

    const TrainConfig& config() const { return m_trainer->config(); }
    const Dataset& data() const { return m_data; }
    Network& network() { return m_net; }
    const Network& network() const { return m_net; }
    Trainer& trainer() { return *m_trainer; }
    Backend& backend() { return m_trainer->backend(); }
    // The two lines a run starts with (model, dataset; device, batch, optimizer, seed, kernels).
    std::string header() const;

    // Checkpoints into `folder`: at every epoch end, every `everyBatches` batches (0: at epoch ends
    // only), and when the run is stopped; early stopping's best epoch goes to best.tbw, the record of
    // the run to run.json.
    void enableCheckpoints(RunFolder folder, int everyBatches = 0);
    const std::optional<RunFolder>& runFolder() const { return m_folder; }
    // Writes the checkpoint and run.json now (atomically; IoError leaves the previous ones intact).
    void checkpoint();

    // Trains until config.epochs epochs are done (or early stopping ends the run), from where the run
    // stands. Throws DivergedError with the last good weights kept.
    TrainStatus run(TrainObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);
    // The whole test split, on the run's device.
    EvalResult evaluateTest(bool keepPredictions = false);
    // Precise BN (train/precise_bn.hpp) over `batches` training batches of the run's batch size, with
    // the weights as they stand, on the CPU engine whatever the device (same threads and kernels for
    // a CPU device); the device then evaluates and saves with the new statistics.
    PreciseBnResult recomputeBatchNorm(int batches);
    // How much of BatchNorm's initial statistics the steps so far left (empty without BatchNorm).
    std::optional<BatchNormWarmth> batchNormWarmth() const;
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
    void writeRecord(const char* status);
    static std::string now(); // UTC, ISO 8601

    DatasetFingerprint m_fingerprint; // of the dataset as loaded
    Dataset m_data;
    Network m_net;
    std::unique_ptr<Trainer> m_trainer;
    std::optional<RunFolder> m_folder;
    int m_checkpointEvery = 0;
    std::string m_started, m_ended;                   // run.json's times (UTC, ISO 8601)
    nlohmann::ordered_json m_testBlock;               // run.json's "test" once recordEnd ran (null before)
    std::string m_weightsSha256, m_weightsFileSha256; // likewise
    nlohmann::ordered_json m_hardware;                // run.json's "hardware", detected on the first write
};

} // namespace tb
