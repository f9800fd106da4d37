// The same-seed accelerator comparison: trains one model from the same initial weights on each
// device in turn (optionally for each value of a batch-size or image-size sweep) and reports time
// per epoch, throughput, speed-up against the first device, test loss/accuracy and the final
// weights' SHA-256 and largest difference from the first device's.
#pragma once

#include "config/records.hpp"
#include "data/dataset.hpp"
#include "device/device.hpp"
#include "model/model_spec.hpp"
#include "train/trainer.hpp"

#include <atomic>
#include <exception>
#include <string>
#include <vector>

namespace tb {

enum class SweepKind { None, Batch, Size };

struct Sweep {
    SweepKind kind = SweepKind::None;
    std::vector<int> values; // batch sizes or image size multipliers
};

// "batch=32,64,128" or "size=1,2,3". Throws ConfigError.
Sweep parseSweep(const std::string& text);

struct CompareConfig {
    TrainConfig train; // epochs, batch, seed, optimizer, maxBatches; threads come from each device
    std::vector<DeviceSpec> devices;
    bool scaleBatchWithReplicas = false; // global batch = batch x replicas
    Sweep sweep;
};

struct CompareRow {
    DeviceSpec device;
    std::string description;
    int sweepValue = 0; // the batch or size multiplier of this row (0 without a sweep)
    int replicas = 1;
    int globalBatch = 0;
    int sizeMultiplier = 1;
    int epochs = 0;
    int64_t samples = 0;        // trained
    double secondsPerEpoch = 0; // training time, validation excluded
    double samplesPerSec = 0;
    double speedup = 0; // against the first device of the same sweep value
    TestResult test;    // of the final weights
    std::string weightsSha256;
    double maxAbsDiff = 0; // of the final weights from the first device's at the same global batch
    // The first that ran at its global batch after rows of another (--scale-batch): no weights to differ
    // from, so no max |dw| ("-" in the table, empty in the CSV, none in --json).
    bool noDiffReference = false;
    std::string skipped; // why this device did not run (empty when it ran)
    // The error that skipped it where setting the run up on the device failed (a text model on OpenCL),
    // for the command's exit code; null where the device is unavailable here.
    std::exception_ptr skippedError;
    std::string note; // what its set-up says of its speed (Backend::setupNote: threads beyond the cores)
};

class CompareObserver {
public:
    virtual ~CompareObserver() = default;
    virtual void deviceStarted(int /*row*/, int /*rows*/, const CompareRow&) {}
    virtual void batchFinished(int /*row*/, const BatchProgress&) {}
    virtual void deviceFinished(int /*row*/, const CompareRow&) {}
};

// ConfigError for what every row would refuse, before the first starts: a size multiplier, or a sweep
// of sizes, for a text.
void requireComparable(const Dataset& data, const CompareConfig& config);

// Runs every (sweep value, device) pair in order. Rows that finished stay in `rows` when
// cancelled. Throws DataError/ModelError/ConfigError/DivergedError for a run that cannot go on.
std::vector<CompareRow> runComparison(const ModelSpec& spec, const Dataset& data, const CompareConfig& config,
                                      CompareObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);

// What a comparison trained, which its rows do not say: the CSV's last columns.
struct CompareSetup {
    std::string model;
    std::string dataset; // its folder or text file
    uint64_t seed = 0;
    int maxBatches = 0;      // 0: every batch
    int validationLimit = 0; // 0: every validation sample each epoch
    std::string optimizer;
    float learningRate = 0;
    int sequenceLength = 0; // a text model's; 0 for images
    std::string vocabulary; // a text's: "bytes" or "characters"; empty for images
};
CompareSetup compareSetupOf(const ModelSpec& spec, const Dataset& data, const CompareConfig& config);

// The rows as CSV with a header line, each row ending with the setup's columns.
std::string compareCsv(const std::vector<CompareRow>& rows, const CompareSetup& setup);
// The rows as an aligned text table, and a line saying what speed-up and max |dw| are against.
std::string compareTable(const std::vector<CompareRow>& rows);

} // namespace tb
