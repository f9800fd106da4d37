// Test fixtures: IDX files written on the fly, and a small learnable image dataset.
#pragma once

#include "data/dataset.hpp"
#include "kernels/kernels.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fixtures {

// How long a test waits for a signal (a run's end, a load, a batch) before it calls the program
// hung. A guard against hangs, never a speed check: under ThreadSanitizer, on two cores that another
// build is using, a stopped toy run took 38 s from Start to its end, where Release takes a second.
constexpr int kHangGuardMs = 240000;

// Writes an IDX file of unsigned bytes (magic 0,0,8,dims) with the given dims and payload.
// gz: compress with zlib. magicOverride: replace the 4 magic bytes.
void writeIdx(const std::string& path, const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data,
              bool gz = false, const std::vector<uint8_t>& magicOverride = {});
void writeRaw(const std::string& path, const std::string& bytes);

// The process's peak resident memory (VmHWM) in bytes; `reset` first starts the peak again from the
// memory in use now (5 written to /proc/self/clear_refs), so that a test sees what one call
// allocated, whatever the tests before it did. -1 where the system cannot say or reset it.
int64_t peakResidentBytes(bool reset = false);

// A learnable dataset in `dir`: class k draws a bright bar at a class-specific place, plus noise.
void writeToyDataset(const std::string& dir, int trainCount, int testCount, int side = 12, int classes = 3,
                     bool gz = false, uint64_t seed = 1);

// The same bars on a bright background (pixels 150 to 254): far from BatchNorm's initial moving
// statistics (mean 0, variance 1), so a short run's test accuracy shows how much of them its moving
// averages still hold (precise BN, issue 30).
void writeBrightToyDataset(const std::string& dir, int trainCount, int testCount, uint64_t seed = 1);

// n values uniform in [-1, 1) from the engine's counter RNG (the kernels' tests' operands).
std::vector<float> randomMatrix(size_t n, uint64_t seed);
// A tiny model using every layer kind, for determinism and CLI tests.
std::string toyModelJson();
// Four convolutions on 12x12 images, three through Winograd (the toy model's are too narrow for
// it): F(4x4, 5x5) from 8 channels, F(4x4, 3x3) on 16, and a 6x6 stride-2 one folded to F(7x7, 3x3)
// (F(4x4, 3x3) in bf16) on 64 (8- and 16-channel groups both ways), then a Dense layer.
std::string winogradModelJson();

// One training step of the model `json` on `d`'s first 40 training samples (weights of seed 7,
// dropout key 99) with `kernels` on `threads` threads: the batch-mean gradient (not applied) and
// the loss sum. The bf16 and AMX tests compare kernels by it.
struct Step {
    std::vector<float> gradient;
    double loss = 0;
};
Step trainingStep(const tb::Dataset& d, const tb::Kernels& kernels, int threads, const std::string& json);

// Why the instruction-set level TRAINBENCH_ISA asks for cannot run here (the per-level CTest
// entries on a CPU without it), or empty when it can; the suites skip themselves then.
std::string isaUnavailable();

// A full disk: a 1 MiB tmpfs mounted on `dir` (created if missing) for the object's life, detached
// when it goes. Mounting needs root; `skipReason()` says why there is none (empty when mounted), for
// the test's QSKIP.
class SmallDisk {
public:
    explicit SmallDisk(const std::string& dir);
    ~SmallDisk();
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;
    const std::string& skipReason() const { return m_skipReason; }

private:
    std::string m_dir, m_skipReason;
};

} // namespace fixtures
