// libFuzzer target for checkpoints (engine/train/checkpoint.cpp, readCheckpoint): a weights file
// whose header also holds the run's settings, position and dataset fingerprint as JSON. As in
// fuzz_weights, the target appends the SHA-256 the file ends with (the seeds are checkpoints without
// their last 32 bytes), so the fuzzer reaches the JSON and the optimizer state behind it.
#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "fuzz_scratch.hpp"
#include "train/checkpoint.hpp"

#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string bytes(reinterpret_cast<const char*>(data), size);
    tb::Sha256 sha;
    sha.update(bytes.data(), bytes.size());
    const auto digest = sha.digest();
    bytes.append(reinterpret_cast<const char*>(digest.data()), digest.size());
    const std::string path =
        fuzz::writeScratch("checkpoint.tbw", reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    try {
        const tb::Checkpoint c = tb::readCheckpoint(path);
        const tb::Network net = c.weights.buildNetwork();
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
