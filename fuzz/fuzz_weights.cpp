// libFuzzer target for Trainbench's native weights file (engine/io/weights_file.cpp, loadWeights).
// The file ends in a SHA-256 of everything before it, which random bytes never match: the target
// appends the right one to its input (the seeds are weights files without their last 32 bytes), so
// the fuzzer reaches the header and the blocks. A file that loads is then built into its network.
#include "core/errors.hpp"
#include "fuzz_scratch.hpp"
#include "io/weights_file.hpp"

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratchWithSha256("fuzz.tbw", data, size);
    try {
        const tb::WeightsFile w = tb::loadWeights(path);
        const tb::Network net = w.buildNetwork();
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
