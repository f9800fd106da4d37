// libFuzzer target for checkpoints (engine/train/checkpoint.cpp, readCheckpoint): a weights file
// whose header also holds the run's settings, position and dataset fingerprint as JSON. As in
// fuzz_weights, the target appends the SHA-256 the file ends with (the seeds are checkpoints without
// their last 32 bytes), so the fuzzer reaches the JSON and the optimizer state behind it.
#include "core/errors.hpp"
#include "fuzz_scratch.hpp"
#include "train/checkpoint.hpp"

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratchWithSha256("checkpoint.tbw", data, size);
    try {
        const tb::Checkpoint c = tb::readCheckpoint(path);
        const tb::Network net = c.weights.buildNetwork();
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
