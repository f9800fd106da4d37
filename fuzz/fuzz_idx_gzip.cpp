// libFuzzer target for the IDX reader on gzip files (engine/data/idx.cpp with zlib): corrupt
// streams, lying headers and bombs (a few bytes that inflate past what the header declares) end
// in a tb::DataError; the reader never allocates more than the file has really inflated to.
#include "core/errors.hpp"
#include "data/idx.hpp"
#include "fuzz_scratch.hpp"

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratch("fuzz-idx3-ubyte.gz", data, size);
    for (int dims : {3, 1}) {
        try {
            const tb::IdxArray a = tb::readIdx(path, dims);
            ++g_fuzzAccepted;
        } catch (const tb::Error&) {
        }
    }
    return 0;
}
