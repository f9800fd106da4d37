// The facts of a run's header, a value type that crosses from the training thread (RunStarted in
// common/value_types.hpp) and that EngineText::runHeader words: its own header, so that the value types
// need none of the window's text code.
#pragma once

#include <cstdint>
#include <string>

namespace tb {
struct Kernels;
} // namespace tb

namespace tbui {

// What a run's header says (tb::runHeader), as plain values taken at the run's start: the Run page keeps
// them to write the header again when the window's language changes (the network and the dataset stay
// with the run's thread).
struct RunHeader {
    std::string model, directory;
    int64_t params = 0;
    // The dataset as the run splits it.
    bool text = false, bytes = false; // a text; with a byte-level vocabulary
    int64_t train = 0, validation = 0, test = 0, textBytes = 0;
    int steps = 0, height = 0, width = 0, classes = 0;
    std::string classNamesSource;
    // The device and the settings.
    bool cpu = true, bf16 = false;
    int threads = 1;
    std::string deviceId;
    int batch = 0;
    std::string optimizer;
    double learningRate = 0.0;
    uint64_t seed = 0;
    std::string kernels;                     // tb::RunInfo::kernels
    const tb::Kernels* cpuKernels = nullptr; // where `kernels` describes just these (no MPI)
    std::string setupNote;                   // tb::RunInfo::setupNote
};

} // namespace tbui
