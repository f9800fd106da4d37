// The devices a run can train on and what this machine has: CPU model, cores, SIMD level and RAM,
// and GPUs when the build and the machine have them (else the reason they cannot be used).
// A DeviceSpec ("cpu:1", "cpu:2", "cpu:2@avx2", "cpu:2+bf16", "opencl:0", "cuda:0") decides the
// replicas that train in sync and, for the CPU, the instruction-set level of the kernels and the
// precision of the matrix products.
#pragma once

#include "core/errors.hpp"
#include "kernels/isa.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tb {

enum class DeviceKind { Cpu, Cuda, OpenCl };

struct DeviceSpec {
    DeviceKind kind = DeviceKind::Cpu;
    int threads = 1;                       // Cpu: worker threads, one replica each
    int index = 0;                         // Cuda, OpenCl: device ordinal (OpenCL: over every platform, in order)
    std::optional<Isa> isa;                // Cpu: the kernels' level ("@avx2"); unset: defaultIsa()
    Precision precision = Precision::Fp32; // Cpu: the products' arithmetic ("+bf16")

    int replicas() const { return kind == DeviceKind::Cpu ? threads : 1; }
    std::string id() const; // "cpu:2", "cpu:2@avx2", "cpu:2+bf16", "opencl:0", "cuda:0"
    bool operator==(const DeviceSpec&) const = default;
};

// "cpu" (all cores), "cpu:N", either with "@baseline", "@avx2" or "@avx512", then "+bf16" or
// "+fp32", "opencl", "opencl:K", "cuda", "cuda:K".
// Throws ConfigError with the accepted forms.
// `unnamed`: the precision of a spec that names none ("cpu:2" with Bf16 is cpu:2+bf16; an OpenCL
// device gets it too, and deviceUnavailableReason then says it computes in FP32 only).
DeviceSpec parseDeviceSpec(const std::string& text, Precision unnamed = Precision::Fp32);
// A comma-separated list of specs ("cpu:1,cpu:2,cuda:0").
std::vector<DeviceSpec> parseDeviceList(const std::string& text, Precision unnamed = Precision::Fp32);

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

// One OpenCL device (device/opencl/): any vendor's GPU driver, or PoCL on the CPU.
struct OpenClDeviceInfo {
    int index = 0;        // K of "opencl:K": every platform's devices, in order
    std::string name;     // "NVIDIA H100 80GB HBM3", "cpu-skylake-avx512-AMD EPYC ..."
    std::string vendor;   // "NVIDIA Corporation"
    std::string platform; // "NVIDIA CUDA", "Portable Computing Language"
    std::string driver;   // driver version
    std::string version;  // "OpenCL 3.0 CUDA"
    std::string type;     // "GPU", "CPU", "accelerator"
    int computeUnits = 0;
    int clockMHz = 0;
    int64_t memoryBytes = 0;    // global memory (capped by TRAINBENCH_OPENCL_MEMORY_LIMIT when set)
    int64_t maxAllocBytes = 0;  // largest single buffer
    double peakGflops = 0.0;    // FP32 estimate: units x lanes per unit x clock x 2 (multiply-add)
    std::string unusableReason; // empty when the OpenCL backend can run on it
};

struct SystemInfo {
    CpuInfo cpu;
    std::vector<GpuInfo> gpus;
    std::vector<OpenClDeviceInfo> openclDevices;
    std::string
        openclUnavailableReason;      // set when openclDevices is empty: "built without OpenCL", "no OpenCL platform"
    std::string gpuUnavailableReason; // set when gpus is empty: "no CUDA backend: GPUs train through OpenCL", "no
                                      // NVIDIA driver"
    MessageId gpuUnavailableId = MessageId::None; // the reason's id, for front ends that translate
};

// Never throws: whatever cannot be read is reported as unknown or as the GPU reason.
SystemInfo detectSystem();
// The CPU part alone, without probing GPUs (what a run's record names).
CpuInfo detectCpu();

// The accelerator the window offers beside the CPU: CUDA GPU 0, else the first usable OpenCL GPU,
// else the first usable OpenCL device (PoCL runs OpenCL on the CPU); none when there is none.
std::optional<DeviceSpec> preferredAccelerator(const SystemInfo& system);

// The kernels a pass on this machine's CPU runs for `spec`: a CPU device's level (defaultIsa() when
// unset) in its precision; for another device (a host-side pass after a GPU run, such as precise
// BN's), defaultKernels(). Throws ConfigError when this CPU cannot run them
// (deviceUnavailableReason says why beforehand).
const Kernels& cpuKernels(const DeviceSpec& spec);

// Why `spec` cannot run on this machine, or empty when it can.
std::string deviceUnavailableReason(const DeviceSpec& spec, const SystemInfo& system);
// Why `device` cannot compute in precision `p`, or empty when it can: a CPU device at its level
// (defaultIsa() when unset) asks precisionUnavailableReason; other devices compute in FP32 only.
std::string precisionUnavailableOn(const DeviceSpec& device, Precision p);

// Human description of a device, e.g. "CPU, 2 threads (AMD EPYC 9R14, AVX-512)".
std::string describeDevice(const DeviceSpec& spec, const SystemInfo& system);

// A note for a CPU run of more threads than `cores`, or empty: the weights are the same, but the
// threads take turns on the cores.
std::string threadsNote(int threads, int cores);

struct MemoryUsage {
    int64_t processResident = 0; // bytes
    int64_t systemUsed = 0;      // total minus available
    int64_t systemTotal = 0;
};
MemoryUsage readMemoryUsage(); // zeros where /proc is unreadable
int64_t peakResidentBytes();   // of this process so far

} // namespace tb
