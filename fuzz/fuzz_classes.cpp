// libFuzzer target for a dataset's classes.txt (engine/data/dataset.cpp, loadDataset): a tiny valid
// dataset of three classes is written once; each input becomes its classes.txt, which must give
// the class names or a tb::Error.
#include "core/errors.hpp"
#include "data/dataset.hpp"
#include "fuzz_scratch.hpp"

#include <string>
#include <vector>

extern "C" {
long g_fuzzAccepted = 0;
}

namespace {
void writeIdx(const std::string& name, std::vector<uint8_t> header, size_t dataBytes, uint8_t modulo)
{
    std::vector<uint8_t> bytes = std::move(header);
    for (size_t i = 0; i < dataBytes; ++i)
        bytes.push_back(uint8_t(i % modulo));
    fuzz::writeScratch(name, bytes.data(), bytes.size());
}

const std::string& datasetDir()
{
    static const std::string dir = [] {
        // Four 2x2 images per split, labels 0, 1, 2, 0.
        const std::vector<uint8_t> images = {0, 0, 8, 3, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 2};
        const std::vector<uint8_t> labels = {0, 0, 8, 1, 0, 0, 0, 4};
        for (const char* split : {"train", "t10k"}) {
            writeIdx(std::string(split) + "-images-idx3-ubyte", images, 16, 251);
            writeIdx(std::string(split) + "-labels-idx1-ubyte", labels, 4, 3);
        }
        return fuzz::scratchDir();
    }();
    return dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string& dir = datasetDir();
    fuzz::writeScratch("classes.txt", data, size);
    try {
        const tb::Dataset d = tb::loadDataset(dir);
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
