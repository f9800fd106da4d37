#include "device/opencl/opencl_devices.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#if TRAINBENCH_HAVE_OPENCL
#include "device/opencl/opencl_runtime.hpp"
#endif

namespace tb {

namespace {
OpenClSettings g_settings; // written at start-up, before a device opens
} // namespace

void setOpenClSettings(OpenClSettings settings)
{
    g_settings = std::move(settings);
}

const OpenClSettings& openClSettings()
{
    return g_settings;
}

int64_t parseByteSize(const std::string& text)
{
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    const std::string unit = text.substr(digits);
    int shift = -1;
    if (unit.empty())
        shift = 0;
    else if (unit == "K" || unit == "k")
        shift = 10;
    else if (unit == "M" || unit == "m")
        shift = 20;
    else if (unit == "G" || unit == "g")
        shift = 30;
    if (digits == 0 || digits > 12 || shift < 0)
        throw ConfigError("expected a size such as 64M, 2G or 1048576, not \"" + text + "\"");
    return std::atoll(text.substr(0, digits).c_str()) << shift;
}

#if TRAINBENCH_HAVE_OPENCL

namespace {
// Multiply-add lanes per compute unit, by vendor and type: an estimate for the peak column only.
int lanesPerUnit(const std::string& vendor, cl_device_type type, cl_uint vectorWidth)
{
    if (type & CL_DEVICE_TYPE_CPU)
        return 2 * int(std::max<cl_uint>(vectorWidth, 1)); // two vector FMA ports per core
    if (vendor.find("NVIDIA") != std::string::npos)
        return 128; // per SM since Maxwell (Volta/A100: 64)
    if (vendor.find("Advanced Micro Devices") != std::string::npos || vendor.find("AMD") != std::string::npos)
        return 64;
    if (vendor.find("Intel") != std::string::npos)
        return 8; // per execution unit
    return 16;
}
} // namespace

std::vector<OpenClDeviceInfo> listOpenClDevices(std::string& reason)
{
    std::vector<OpenClDeviceInfo> out;
    cl_uint platformCount = 0;
    const cl_int err = clGetPlatformIDs(0, nullptr, &platformCount);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: no ICD registered */ || (err == CL_SUCCESS && platformCount == 0)) {
        reason = "no OpenCL platform (no driver is registered in /etc/OpenCL/vendors; on Debian install "
                 "pocl-opencl-icd for the CPU, or the GPU vendor's OpenCL driver)";
        return out;
    }
    if (err != CL_SUCCESS) {
        reason = "the OpenCL loader failed: " + ocl::errorName(err);
        return out;
    }
    std::vector<cl_platform_id> platforms(platformCount);
    clGetPlatformIDs(platformCount, platforms.data(), nullptr);
    const int64_t limit = openClSettings().memoryLimit;
    for (cl_platform_id p : platforms) {
        cl_uint count = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0)
            continue;
        std::vector<cl_device_id> devices(count);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
        for (cl_device_id d : devices) {
            OpenClDeviceInfo info;
            info.index = int(out.size());
            info.name = ocl::deviceString(d, CL_DEVICE_NAME);
            info.vendor = ocl::deviceString(d, CL_DEVICE_VENDOR);
            info.driver = ocl::deviceString(d, CL_DRIVER_VERSION);
            info.version = ocl::deviceString(d, CL_DEVICE_VERSION);
            info.platform = ocl::platformString(p, CL_PLATFORM_NAME);
            const cl_device_type type = ocl::deviceValue<cl_device_type>(d, CL_DEVICE_TYPE);
            info.type = type & CL_DEVICE_TYPE_GPU ? "GPU" : type & CL_DEVICE_TYPE_CPU ? "CPU" : "accelerator";
            info.computeUnits = int(ocl::deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
            info.clockMHz = int(ocl::deviceValue<cl_uint>(d, CL_DEVICE_MAX_CLOCK_FREQUENCY));
            info.memoryBytes = int64_t(ocl::deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE));
            if (limit > 0)
                info.memoryBytes = std::min(info.memoryBytes, limit);
            info.maxAllocBytes = int64_t(ocl::deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
            const cl_uint width = ocl::deviceValue<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
            info.peakGflops = double(info.computeUnits) * lanesPerUnit(info.vendor, type, width) * 2.0 *
                              double(info.clockMHz) / 1000.0;
            info.unusableReason = ocl::unusableReason(d);
            out.push_back(std::move(info));
        }
    }
    if (out.empty())
        reason = "the OpenCL platforms list no device";
    return out;
}

#else

std::vector<OpenClDeviceInfo> listOpenClDevices(std::string& reason)
{
    reason = "built without OpenCL (" TRAINBENCH_OPENCL_MISSING ")";
    return {};
}

#endif

} // namespace tb
