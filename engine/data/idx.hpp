// IDX files (the MNIST format), raw or gzip-compressed. Every header field is checked against the
// bytes really present before anything is allocated; failures are DataErrors naming the file.
// No library reads IDX (it is four header fields and raw bytes); decompression is zlib's. The reader
// is fuzzed (fuzz/fuzz_idx*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

struct IdxArray {
    std::vector<int> dims;      // e.g. {60000, 28, 28}
    std::vector<uint8_t> bytes; // row-major, unsigned bytes
};

// Reads an IDX file of unsigned bytes with exactly `expectedDims` dimensions (1 for labels,
// 3 for images). A ".gz" path is decompressed with zlib.
IdxArray readIdx(const std::string& path, int expectedDims);

// The most bytes a single file may declare: what this machine's memory could hold.
uint64_t idxSizeLimit();
// Tests lower the limit to exercise the "cannot fit in memory" refusal without huge files.
void setIdxSizeLimitForTesting(uint64_t bytes);

} // namespace tb
