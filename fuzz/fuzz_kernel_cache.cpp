// libFuzzer target for a compiled-kernel cache entry (engine/device/kernel_cache.cpp,
// decodeKernelCacheEntry): the bytes of a file under ~/.cache/trainbench/opencl/, which must give
// the binary it holds or say what is wrong with it, never crash, before anything reaches a driver.
#include "device/kernel_cache.hpp"

#include <cstdint>
#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string key(64, 'a'); // the seed corpus's entries are written for this key
    std::string why;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    if (const auto binary = tb::decodeKernelCacheEntry(bytes, key, why)) {
        // What was accepted encodes back to the same bytes.
        if (tb::encodeKernelCacheEntry(key, *binary) != bytes)
            __builtin_trap();
        ++g_fuzzAccepted;
    } else if (why.empty()) {
        __builtin_trap(); // a refusal always says why
    }
    return 0;
}
