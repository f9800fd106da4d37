// libFuzzer target for checkpoints (engine/train/checkpoint.cpp, readCheckpoint): a weights file
// whose header also holds the run's settings, position and dataset fingerprint as JSON. As in
// fuzz_weights, the target appends the SHA-256 the file ends with (the seeds are checkpoints without
// their last 32 bytes), so the fuzzer reaches the JSON and the optimizer state behind it. The
// per-batch curve a checkpoint keeps is read too (as a resume reads it, without the dataset that
// gives the steps per epoch: at most max_batches, else any); fuzz_batch_curve fuzzes it alone.
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "fuzz_scratch.hpp"
#include "train/batch_curve.hpp"
#include "train/checkpoint.hpp"
#include "train/run_limits.hpp"

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratchWithSha256("checkpoint.tbw", data, size);
    try {
        const tb::Checkpoint c = tb::readCheckpoint(path);
        const tb::Network net = c.weights.buildNetwork();
        if (const nlohmann::ordered_json* curve = tb::jsonMember(c.callbacks, "batch_curve")) {
            const int steps = c.config.maxBatches > 0 ? c.config.maxBatches : tb::limits::kMaxBatchesPerEpoch;
            try {
                tb::BatchCurve::fromJson(*curve, c.position, c.config.epochs, steps, path);
            } catch (const tb::IoError&) { // a resume goes on without it, and says why
            }
        }
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
