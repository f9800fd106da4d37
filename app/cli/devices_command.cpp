// `trainbench-cli devices`: what this machine has (CPU, its kernel levels and bf16, GPUs, OpenCL
// devices, MPI), or why not.
#include "command_table.hpp"
#include "commands.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "device/device.hpp"
#include "environment.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "mpi/communicator.hpp"

#include <cstdio>

namespace tbcli {

int devicesCommand(const std::vector<std::string>& args)
{
    commandOptions(*findCommand("devices"), args);
    std::string environmentProblem;
    try {
        tb::env::applyToEngine();
    } catch (const tb::ConfigError& e) {
        environmentProblem = e.what();
    }
    const tb::SystemInfo s = tb::detectSystem();
    // A container's or a job's limit below the machine's memory is what the memory refusals measure.
    const uint64_t group = tb::cgroupMemory().limit;
    const std::string limit = group > 0 && group < tb::machineMemoryBytes()
                                  ? " (this process may use " + tb::humanBytes(group) + ": its control group's limit)"
                                  : "";
    std::printf("cpu      %s, %d cores, %s, %.1f GB RAM%s\n", s.cpu.model.c_str(), s.cpu.logicalCores,
                s.cpu.simd.c_str(), double(s.cpu.ramBytes) / 1e9, limit.c_str());
    std::printf("devices  cpu:1 .. cpu:%d (one replica per thread)\n", s.cpu.logicalCores);
    std::string levels;
    for (tb::Isa isa : s.cpu.isas)
        levels += std::string(levels.empty() ? "" : ", ") + tb::isaName(isa);
    std::printf("kernels  %s; this CPU runs %s (choose with cpu:N@LEVEL, --isa or TRAINBENCH_ISA)\n",
                tb::describeKernels(tb::kernelsFor(tb::defaultIsa())).c_str(), levels.c_str());
    const std::string bf16 = tb::precisionUnavailableReason(tb::Precision::Bf16, tb::Isa::Avx512);
    if (bf16.empty()) {
        // Below the avx512 level (TRAINBENCH_ISA) a device must name it for bf16.
        const std::string atDefault = tb::precisionUnavailableReason(tb::Precision::Bf16, tb::defaultIsa());
        std::printf("bf16     %s: %s\n", atDefault.empty() ? "cpu:N+bf16 or --precision bf16" : "cpu:N@avx512+bf16",
                    tb::kernelsFor(tb::Isa::Avx512, tb::Precision::Bf16).gemmName);
        if (!atDefault.empty())
            std::printf("         not cpu:N+bf16 at TRAINBENCH_ISA's level: %s\n", atDefault.c_str());
        if (const std::string note = tb::precisionSpeedNote(tb::Precision::Bf16); !note.empty())
            std::printf("         %s\n", note.c_str());
        const std::string amx = tb::bf16KernelsUnavailableReason(tb::Bf16Kernels::Amx);
        if (amx.empty())
            std::printf("         AMX-BF16 tiles: yes (choose with TRAINBENCH_BF16_KERNELS=avx512bf16 or amx)\n");
        else
            std::printf("         AMX-BF16 tiles: no, %s\n", amx.c_str());
    } else {
        std::printf("bf16     not on this CPU: %s\n", bf16.c_str());
    }
    if (s.gpus.empty())
        std::printf("gpu      none usable: %s\n", s.gpuUnavailableReason.c_str());
    for (const tb::GpuInfo& g : s.gpus)
        std::printf("cuda:%d   %s, %.1f GB, compute %d.%d\n", g.index, g.name.c_str(), double(g.memoryBytes) / 1e9,
                    g.computeMajor, g.computeMinor);
    if (s.openclDevices.empty())
        std::printf("opencl   none usable: %s\n", s.openclUnavailableReason.c_str());
    for (const tb::OpenClDeviceInfo& d : s.openclDevices) {
        std::printf(
            "opencl:%d %s (%s, %s), %s, %d compute units at %d MHz, %.1f GB, about %.0f GFLOP/s FP32, driver %s%s%s\n",
            d.index, d.name.c_str(), d.platform.c_str(), d.version.c_str(), d.type.c_str(), d.computeUnits, d.clockMHz,
            double(d.memoryBytes) / 1e9, d.peakGflops, d.driver.c_str(),
            d.unusableReason.empty() ? "" : "; unusable: ", d.unusableReason.c_str());
    }
    std::printf("mpi      %s\n", tb::mpiAvailability().c_str());
    std::printf("tpu      cloud only (Colab, Cloud TPU): not available on a desktop\n");
    if (!environmentProblem.empty()) { // every other command refuses to start with it
        std::fprintf(stderr, "trainbench-cli devices: %s\n", environmentProblem.c_str());
        return Usage;
    }
    return Ok;
}

} // namespace tbcli
