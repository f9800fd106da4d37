// libFuzzer target for the safetensors reader (engine/io/safetensors.cpp): any bytes must end in
// weights or a tb::Error, never in a crash, an out-of-bounds read or an allocation the file's size
// does not justify (ASan reports those, with -DTRAINBENCH_SANITIZE=ON). See fuzz/CMakeLists.txt.
#include "core/errors.hpp"
#include "io/safetensors.hpp"

#include <cstddef>
#include <cstdint>

// Inputs read as weights, for the standalone driver's report (the seeds must be among them).
extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // The model a file without Trainbench's metadata is read as (the corpus' foreign seed).
    static const tb::ModelSpec spec = tb::parseModelSpec(R"({"name": "fuzz", "layers": [
        {"type": "BatchNormalization"},
        {"type": "Conv2D", "filters": 2, "kernel_size": 3, "padding": "same", "use_bias": false},
        {"type": "MaxPooling2D"}, {"type": "Flatten"},
        {"type": "Dense", "units": 3, "activation": "softmax"}]})",
                                                         "fuzz model");
    tb::ModelHint hint;
    hint.spec = &spec;
    hint.input = tb::Shape::image(8, 8, 1);
    hint.classNames = {"a", "b", "c"};
    try {
        tb::parseSafetensors(std::string(reinterpret_cast<const char*>(data), size), "fuzz input", &hint);
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
