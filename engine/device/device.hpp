// The devices a run can train on and what this machine has: CPU model, cores, SIMD level and RAM,
// and GPUs when the build and the machine have them (else the reason they cannot be used).
// A DeviceSpec ("cpu:1", "cpu:2", "cpu:2@avx2", "cuda:0") decides the replicas that train in sync
// and, for the CPU, the instruction-set level of the kernels.
#pragma once

#include "core/errors.hpp"
#include "kernels/isa.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tb {

enum class DeviceKind { Cpu, Cuda };

struct DeviceSpec {
    DeviceKind kind = DeviceKind::Cpu;
    int threads = 1;        // Cpu: worker threads, one replica each
    int index = 0;          // Cuda: device ordinal
    std::optional<Isa> isa; // Cpu: the kernels' level ("@avx2"); unset: defaultIsa()

    int replicas() const { return kind == DeviceKind::Cpu ? threads : 1; }
    std::string id() const; // "cpu:2", "cpu:2@avx2", "cuda:0"
    bool operator==(const DeviceSpec&) const = default;
};

// "cpu" (all cores), "cpu:N", either with "@baseline", "@avx2" or "@avx512", "cuda", "cuda:K".
// Throws ConfigError with the accepted forms.
DeviceSpec parseDeviceSpec(const std::string& text);
// A comma-separated list of specs ("cpu:1,cpu:2,cuda:0").
std::vector<DeviceSpec> parseDeviceList(const std::string& text);

struct CpuInfo {
    std::string model;       // "AMD EPYC 9R14"
    int logicalCores = 1;    // threads the OS schedules
    std::string simd;        // "AVX-512", "AVX2+FMA", "SSE4.2", ...
    Isa isa = Isa::Baseline; // the best kernel level it runs
    std::vector<Isa> isas;   // every level it runs
    int64_t ramBytes = 0;    // total physical memory
};

struct GpuInfo {
    int index = 0;
    std::string name;
    int64_t memoryBytes = 0;
    int computeMajor = 0, computeMinor = 0;
};

struct SystemInfo {
    CpuInfo cpu;
    std::vector<GpuInfo> gpus;
    std::string gpuUnavailableReason;  // set when gpus is empty: "built without CUDA", "no NVIDIA driver"
    MessageId gpuUnavailableId = MessageId::None;  // the reason's id, for front ends that translate
};

// Never throws: whatever cannot be read is reported as unknown or as the GPU reason.
SystemInfo detectSystem();

// Why `spec` cannot run on this machine, or empty when it can.
std::string deviceUnavailableReason(const DeviceSpec& spec, const SystemInfo& system);

// Human description of a device, e.g. "CPU, 2 threads (AMD EPYC 9R14, AVX-512)".
std::string describeDevice(const DeviceSpec& spec, const SystemInfo& system);

struct MemoryUsage {
    int64_t processResident = 0; // bytes
    int64_t systemUsed = 0;      // total minus available
    int64_t systemTotal = 0;
};
MemoryUsage readMemoryUsage(); // zeros where /proc is unreadable
int64_t peakResidentBytes();   // of this process so far

} // namespace tb
