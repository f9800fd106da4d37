// Finds the OpenCL devices of this machine for `devices`, the window and makeBackend. Builds with or
// without OpenCL: without it the list is empty and the reason says how to get it.
#pragma once

#include "device/device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

// Every platform's devices in order (the K of "opencl:K"). Never throws: no ICD loader, no platform
// or a failing driver leave the list empty and say why in `reason`.
std::vector<OpenClDeviceInfo> listOpenClDevices(std::string& reason);

// What a front end sets for every OpenCL device of the process, at start-up (app/environment reads
// them from TRAINBENCH_OPENCL_MEMORY_LIMIT, _PROFILE and _BUILD_OPTIONS). The engine reads no
// environment variable itself.
struct OpenClSettings {
    int64_t memoryLimit = 0;       // > 0: the device memory the backend may use (simulates a small device)
    bool profile = false;          // time every kernel; the totals print when the device closes
    std::string extraBuildOptions; // appended to the kernels' build options (tests provoke a failure)
};
void setOpenClSettings(OpenClSettings settings);
const OpenClSettings& openClSettings();

// A size such as "64M", "2G" or "1048576" in bytes; throws ConfigError for text that is not one.
int64_t parseByteSize(const std::string& text);

} // namespace tb
