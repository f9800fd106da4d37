// libFuzzer target for the IDX reader on raw files (engine/data/idx.cpp): any bytes, read as images
// (3 dimensions) and as labels (1), end in an array or a tb::DataError, never in a crash, an
// overread or an allocation the file does not justify.
#include "core/errors.hpp"
#include "data/idx.hpp"
#include "fuzz_scratch.hpp"

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratch("fuzz-idx3-ubyte", data, size);
    for (int dims : {3, 1}) {
        try {
            const tb::IdxArray a = tb::readIdx(path, dims);
            ++g_fuzzAccepted;
        } catch (const tb::Error&) {
        }
    }
    return 0;
}
