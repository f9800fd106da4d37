// How the window names an accelerator: an OpenCL device says what it is (GPU, or CPU under PoCL,
// never a CPU called a GPU), what was detected and why it cannot be used, in the window's language.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace tb {
struct DeviceSpec;
struct OpenClDeviceInfo;
struct SystemInfo;
} // namespace tb

namespace tbui {

class DeviceText {
    Q_DECLARE_TR_FUNCTIONS(DeviceText)
public:
    // The OpenCL device behind `spec`, or null when `spec` is not one this machine lists.
    static const tb::OpenClDeviceInfo* openCl(const tb::DeviceSpec& spec, const tb::SystemInfo& system);
    // "CPU, PoCL", "GPU, NVIDIA CUDA": the device type and its platform.
    static QString openClKind(const tb::OpenClDeviceInfo& d);
    // "OpenCL: NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA)", "OpenCL: pthread-… (CPU, PoCL)".
    static QString openClName(const tb::OpenClDeviceInfo& d);
    // The same, short enough for a radio button or a check box (they do not wrap): PoCL's
    // "pthread-skylake-avx512-AMD EPYC" becomes this machine's CPU model, "OpenCL: AMD EPYC (CPU, PoCL)";
    // any other name is cut at 28 characters.
    static QString openClShortName(const tb::OpenClDeviceInfo& d, const tb::SystemInfo& system);
    // "opencl:0, 2 compute units at 2096 MHz, 8.0 GB, about 268 GFLOP/s FP32", or why it is unusable.
    static QString openClDetails(const tb::OpenClDeviceInfo& d);
    // One line per OpenCL device (name and details), or "OpenCL: none usable (reason)".
    static QString openClSummary(const tb::SystemInfo& system);
    // True for an OpenCL device that is not a GPU (PoCL on the CPU): the GPU's code, far slower than the CPU engine.
    static bool isOpenClNotGpu(const tb::DeviceSpec& spec, const tb::SystemInfo& system);
};

} // namespace tbui
